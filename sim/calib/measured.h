#pragma once
// Measured cases: what silicon did for one workload. They come from validate records (JSON files
// written by gms-validate, with Nsight Compute counters merged in) or from a raw `ncu --csv --page
// raw` export together with a workload YAML that describes the profiled kernel.
#include <map>
#include <string>
#include <vector>

namespace gms {

struct MeasuredCase {
  std::string name;
  std::string kind;    // gemm | gemv | tiled_gemm
  std::string group;   // cases that differ only in CTA order (GEMM: one tiling) or warps/order share a group
  std::string tiling_group;  // GEMM: cases of one shape and CTA order (the tilings); "" otherwise
  std::string record_set;    // the directory the record came from (gemm, triton_gemm, gemv, padding, ...)
  std::string source;  // the file the measurement came from
  std::string workload_file;
  bool workload_from_record = false;  // workload_file is a record whose "workload" object is the workload
  std::map<std::string, double> measured;  // Nsight metric name -> value in the simulator's units
  // The same time measured again over rounds (the record's "repeat", validate/scripts/device_repeat.sh),
  // the same way as `measured`'s time (ncu profile or event median); empty when not repeated.
  std::vector<double> time_rounds;
};

// The metrics compare and calibrate set side by side, in report order.
const std::vector<std::string>& compared_metrics();
// Percent metrics are compared in percentage points, the rest as relative error.
bool is_pct_metric(const std::string& metric);

// Records from JSON files or directories of them (searched recursively, sorted by path); files
// without a "workload" (microbenchmarks) are skipped. Time: Nsight's gpu__time_duration.sum when
// the record carries counters (measured together with the cycles, so at a known clock), else the
// event-timed median of the validate runner.
std::vector<MeasuredCase> load_records(const std::vector<std::string>& paths);

// One case per kernel row of a raw Nsight Compute CSV (`ncu --csv --page raw`, optionally with
// --print-units base or auto), all replayed with `workload_yaml`. `kernel_filter`: keep only rows
// whose kernel name contains it (empty: all).
std::vector<MeasuredCase> load_ncu_csv(const std::string& csv_file, const std::string& workload_yaml,
                                       const std::string& kernel_filter = "");

// The cases of a command line: records, or (with `ncu_csv`) the rows of an ncu export replayed with
// `workload_yaml`. Throws ConfigError for a mix of both, a missing workload or no cases at all.
std::vector<MeasuredCase> load_cases(const std::vector<std::string>& records, const std::string& ncu_csv,
                                     const std::string& workload_yaml, const std::string& kernel_filter);

}  // namespace gms
