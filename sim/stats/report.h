#pragma once
// Outputs of a run: the terminal summary, stats.json and the per-CTA CSV.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "api/simulation.h"
#include "stats/metrics.h"

namespace gms {

std::string summary_text(const LoadedConfigs& cfg, const RunOutput& run, const std::vector<Metric>& metrics);
nlohmann::ordered_json stats_json(const LoadedConfigs& cfg, const RunOutput& run, const std::vector<Metric>& metrics);
// ctas.csv: one row per CTA; the three phase marks (CtaRecord) are empty where the CTA had none.
inline constexpr const char* kCtaCsvHeader =
    "launch_index,tile_m,tile_n,sm,start_cycle,end_cycle,l2_hit_sectors,l2_miss_sectors,first_barrier_cycle,"
    "first_store_cycle,first_special_read_cycle";
void write_cta_csv(std::ostream& os, const SimResult& r);
// The same per-CTA table as columns (name -> array), for the Python module and scripts.
nlohmann::ordered_json cta_table_json(const SimResult& r);

// Resolved configuration as JSON (values in base units, as declared in the schema).
nlohmann::ordered_json gpu_json(const GpuConfig& g);
nlohmann::ordered_json workload_json(const WorkloadConfig& w);

}  // namespace gms
