#pragma once
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config_tree.h"
#include "config/param.h"
#include "config/workload_config.h"

namespace gms {

// Kinds of workload and the schema of each (the `kind` key selects one).
std::vector<std::string> workload_kinds();
const Schema<WorkloadConfig>& workload_schema(const std::string& kind);

// The keys `issue.instructions` and `issue.stall_cycles` of a kind whose main loop takes the compiled
// code's issue profile (gemm, tiled_gemm); `unmodelled` says what the instructions beyond the data
// path's do. The check reports through `fail(key, why)`.
void add_issue_profile_params(std::vector<Param<WorkloadConfig>>& params,
                              IssueProfileConfig& (*profile)(WorkloadConfig&), const std::string& unmodelled);
void validate_issue_profile(const IssueProfileConfig& issue,
                            const std::function<void(const std::string&, const std::string&)>& fail);

// `kind: tiled_gemm` (sim/config/tiled_gemm_schema.cpp).
Schema<WorkloadConfig> make_tiled_gemm_schema();
void validate_tiled_gemm(const Bound<WorkloadConfig>& b, const std::string& file);

// `kind: trace` (sim/config/trace_schema.cpp); the check resolves paths against the workload file.
Schema<WorkloadConfig> make_trace_schema();
void validate_trace(Bound<WorkloadConfig>& b, const std::string& file);
// The workload key `kernels`: all (an empty set) or the ids listed; nullopt if malformed.
std::optional<std::set<int>> trace_kernel_ids(const std::string& text);

// Binds a workload document: reads `kind`, binds that schema, runs the cross-field checks.
Bound<WorkloadConfig> bind_workload(const ConfigNode& doc, const std::string& file);

}  // namespace gms
