#pragma once
// A finished run as the report tools see it: the files `gpumemsim run --out DIR` wrote.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gms {

struct CtaRow {
  std::int64_t launch = 0, tile_m = 0, tile_n = 0;
  int sm = 0;
  std::uint64_t start = 0, end = 0, l2_hits = 0, l2_misses = 0;
};

struct TimelineRow {
  std::uint64_t bucket_start = 0;
  int sm = 0;
  std::uint64_t l2_hits = 0, l2_misses = 0, dram_bytes = 0;
};

struct RunData {
  std::string dir;
  nlohmann::json stats;
  std::vector<CtaRow> ctas;
  std::vector<TimelineRow> timeline;  // empty when the run wrote none
  std::string gpu, workload;
  std::int64_t tiles_m = 0, tiles_n = 0;
  int sms = 0;
  double sm_clock = 0;
  std::uint64_t bucket_cycles = 0;
  std::uint64_t cycles = 0;

  double metric(const std::string& name) const;
};

// Reads DIR/stats.json, DIR/ctas.csv and (if present) DIR/timeline.csv. Throws ConfigError naming the
// file and line for anything missing or malformed.
RunData load_run(const std::string& dir);

}  // namespace gms
