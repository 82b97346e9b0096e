#pragma once
// JSON records and correctness checks of the runner. Host-only (tested in CI).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gmsv {

std::string json_escape(const std::string& s);

struct Timing {
  double median_ns = 0, min_ns = 0, max_ns = 0;
  int reps = 0;
};
Timing summarize(std::vector<double> samples_ns);

// One line of a .jsonl file: {"case", "kind", "workload": <simulator schema>, "measured": {...},
// "check": {...}, "environment": {...}}. `measured` uses Nsight Compute names where one exists.
std::string make_record(const std::string& case_name, const std::string& kind, const std::string& workload_json,
                        const std::map<std::string, double>& measured, const std::string& check_json,
                        const std::string& environment_json);

// Relative L2 error of `got` against `want`; NaN/inf anywhere => +inf.
double relative_error(const std::vector<double>& got, const std::vector<double>& want);

// fp16 <-> float on the host (IEEE binary16, round to nearest even).
float half_bits_to_float(std::uint16_t h);
std::uint16_t float_to_half_bits(float f);

}  // namespace gmsv
