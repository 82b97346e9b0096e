#pragma once
#include <string>
#include <vector>

#include "config/config_tree.h"
#include "config/param.h"
#include "config/workload_config.h"

namespace gms {

// Kinds of workload and the schema of each (the `kind` key selects one).
std::vector<std::string> workload_kinds();
const Schema<WorkloadConfig>& workload_schema(const std::string& kind);

// Binds a workload document: reads `kind`, binds that schema, runs the cross-field checks.
Bound<WorkloadConfig> bind_workload(const ConfigNode& doc, const std::string& file);

}  // namespace gms
