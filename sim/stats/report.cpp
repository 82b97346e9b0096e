#include "stats/report.h"

#include <cstdio>
#include <sstream>

#include "common/version.h"
#include "config/gpu_schema.h"
#include "config/workload_schema.h"

namespace gms {
namespace {

template <class Cfg>
nlohmann::ordered_json to_json(const Schema<Cfg>& schema, const Cfg& cfg) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& p : schema.params) {
    nlohmann::ordered_json* node = &out;
    std::stringstream ss(p.path);
    std::vector<std::string> parts;
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    for (size_t i = 0; i + 1 < parts.size(); ++i) node = &(*node)[parts[i]];
    if (p.kind == ParamKind::kQuantity)
      (*node)[parts.back()] = p.get_number(cfg);
    else if (p.kind == ParamKind::kBool)
      (*node)[parts.back()] = p.get_text(cfg) == "true";
    else
      (*node)[parts.back()] = p.get_text(cfg);
  }
  return out;
}

std::string human_bytes(double b) {
  char buf[32];
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    ++u;
  }
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", b, units[u]);
  return buf;
}

}  // namespace

nlohmann::ordered_json gpu_json(const GpuConfig& g) { return to_json(gpu_schema(), g); }
nlohmann::ordered_json workload_json(const WorkloadConfig& w) { return to_json(workload_schema(w.kind), w); }

std::string summary_text(const LoadedConfigs& cfg, const RunOutput& run, const std::vector<Metric>& metrics) {
  auto get = [&](const char* name) {
    const Metric* m = find_metric(metrics, name);
    return m ? m->value : 0.0;
  };
  const GpuConfig& gpu = cfg.gpu.value;
  const WorkloadConfig& w = cfg.workload.value;
  const SimResult& r = run.result;
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "gpumemsim: %s on %s\n", w.name.empty() ? w.kind.c_str() : w.name.c_str(),
                gpu.name.c_str());
  os << line;
  if (w.kind == "gemm") {
    const auto& g = w.gemm;
    std::snprintf(line, sizeof line, "  gemm            %lldx%lldx%lld %s, tile %dx%dx%d, %d warps, %d stages, order %s",
                  static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k),
                  g.dtype.c_str(), g.tile.m, g.tile.n, g.tile.k, g.warps, g.stages, g.cta_order.kind.c_str());
    os << line;
    if (g.cta_order.kind == "grouped") os << " (group_m " << g.cta_order.group_m << ")";
    if (g.cta_order.kind == "grouped_n") os << " (group_n " << g.cta_order.group_n << ")";
    os << "\n";
  }
  if (w.kind == "gemv") {
    const auto& g = w.gemv;
    std::snprintf(line, sizeof line,
                  "  gemv            %lldx%lld @ %lldx%lld %s, block %dx%d, %d K steps, %d warps, order %s, %s, %d "
                  "registers/thread\n",
                  static_cast<long long>(g.m), static_cast<long long>(g.k), static_cast<long long>(g.k),
                  static_cast<long long>(g.n), g.dtype.c_str(), g.block_n, g.block_k, g.k_steps, g.warps,
                  g.order.c_str(), g.reduction.c_str(), r.shape.registers_per_thread);
    os << line;
  }
  if (w.kind == "tiled_gemm") {
    const auto& g = w.tiled;
    std::snprintf(line, sizeof line,
                  "  tiled_gemm      %lldx%lldx%lld fp32 simt, tile %dx%dx%d, threads %dx%d, copy %d-bit%s, pad %d, "
                  "swizzle %s, reads %d-bit, %d stage%s, %d registers/thread\n",
                  static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k), g.tile.m,
                  g.tile.n, g.tile.k, g.threads_m, g.threads_n, 32 * g.copy_vector, g.copy_async ? " cp.async" : "",
                  g.smem_pad, g.smem_swizzle.c_str(), 32 * g.read_vector, g.stages, g.stages > 1 ? "s" : "",
                  r.shape.registers_per_thread);
    os << line;
  }
  if (w.kind == "trace") {
    for (const KernelRun& k : run.kernels) {
      std::snprintf(line, sizeof line, "  kernel %-8d %s (sm_%d): %lld CTAs, %llu warp instructions, %llu cycles\n", k.id,
                    k.name.substr(0, 48).c_str(), k.binary_version, static_cast<long long>(k.ctas),
                    static_cast<unsigned long long>(k.warp_instructions), static_cast<unsigned long long>(k.cycles));
      os << line;
    }
  }
  std::snprintf(line, sizeof line,
                "  grid            %lld CTAs (%lld x %lld tiles), %lld simulated; %d CTAs/SM (limited by %s), %.2f "
                "waves; L1 %lld KiB\n",
                static_cast<long long>(r.shape.grid_ctas), static_cast<long long>(r.shape.tiles_m),
                static_cast<long long>(r.shape.tiles_n), static_cast<long long>(r.shape.ctas),
                r.occupancy.ctas_per_sm, r.occupancy.limiter.c_str(), get("launch__waves_per_multiprocessor"),
                static_cast<long long>(r.occupancy.l1_bytes / 1024));
  os << line;
  double ns = get("gpu__time_duration.sum");
  std::snprintf(line, sizeof line, "  time            %.3f us  (%.0f cycles at %.0f MHz)\n", ns / 1e3,
                get("sm__cycles_elapsed.max"), get("sm__cycles_elapsed.avg.per_second") / 1e6);
  os << line;
  std::snprintf(line, sizeof line, "  math            %.1f TFLOP/s = %.1f %% of peak\n",
                get("gpumemsim__flop.sum") / (ns * 1e-9) / 1e12, get("gpumemsim__flop_rate.pct_of_peak"));
  os << line;
  std::snprintf(line, sizeof line, "  DRAM            read %s, write %s; %.2f TB/s = %.1f %% of peak %.2f TB/s\n",
                human_bytes(get("dram__bytes_read.sum")).c_str(), human_bytes(get("dram__bytes_write.sum")).c_str(),
                get("dram__bytes.sum.per_second") / 1e12,
                get("dram__throughput.avg.pct_of_peak_sustained_elapsed"), gpu.dram.bandwidth / 1e12);
  os << line;
  std::snprintf(line, sizeof line, "  L2              hit rate %.2f %% (reads %.2f %%: %.0f of %.0f sectors)\n",
                get("lts__t_sector_hit_rate.pct"), get("lts__t_sector_op_read_hit_rate.pct"),
                get("lts__t_sectors_op_read_lookup_hit.sum"), get("lts__t_sectors_op_read.sum"));
  os << line;
  std::snprintf(line, sizeof line,
                "  warp states     issuing %.1f %%, waiting on loads %.1f %%, math pipe %.1f %%, barrier %.1f %%, "
                "not selected %.1f %%, draining %.1f %%",
                get("smsp__warp_issue_stalled_selected_per_warp_active.pct"),
                get("smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"),
                get("smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct"),
                get("smsp__warp_issue_stalled_barrier_per_warp_active.pct"),
                get("smsp__warp_issue_stalled_not_selected_per_warp_active.pct"),
                get("smsp__warp_issue_stalled_drain_per_warp_active.pct"));
  os << line;
  const double storing = get("smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct");
  if (storing >= 0.05) {  // stores waiting to leave the SM (icnt.stores_wait_for_way_out)
    std::snprintf(line, sizeof line, ", stores leaving %.1f %%", storing);
    os << line;
  }
  os << " (of warp time)\n";
  const double lds = get("smsp__sass_inst_executed_op_shared_ld.sum"), sts = get("smsp__sass_inst_executed_op_shared_st.sum");
  const double ldsm = get("smsp__sass_inst_executed_op_ldsm.sum");  // counted with the loads' wavefronts
  if (lds + ldsm + sts + get("smsp__sass_inst_executed_op_ldgsts.sum") > 0) {
    std::snprintf(line, sizeof line,
                  "  shared memory   LDS %.0f + LDSM %.0f inst, %.0f wavefronts (%.0f conflicts); STS %.0f inst, %.0f wavefronts (%.0f "
                  "conflicts); LDGSTS %.0f; waiting on it %.1f %%\n",
                  lds, ldsm, get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                  get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), sts,
                  get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
                  get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), get("smsp__sass_inst_executed_op_ldgsts.sum"),
                  get("smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"));
    os << line;
  }
  if (get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") > 0)
    std::snprintf(line, sizeof line, "  L1              hit rate %.2f %%\n", get("l1tex__t_sector_hit_rate.pct"));
  else
    std::snprintf(line, sizeof line, "  L1              not used by loads (bypass)\n");
  os << line;
  std::snprintf(line, sizeof line, "  loads served by L1 %s | L2 %s | DRAM %s   (compulsory traffic %s)\n",
                human_bytes(get("gpumemsim__bytes_served_l1.sum")).c_str(),
                human_bytes(get("gpumemsim__bytes_served_l2.sum")).c_str(),
                human_bytes(get("gpumemsim__bytes_served_dram.sum")).c_str(),
                human_bytes(get("gpumemsim__compulsory_bytes.sum")).c_str());
  os << line;
  return os.str();
}

nlohmann::ordered_json stats_json(const LoadedConfigs& cfg, const RunOutput& run, const std::vector<Metric>& metrics) {
  nlohmann::ordered_json j;
  j["tool"] = {{"name", "gpumemsim"}, {"version", version_string()}, {"commit", version_commit()}};
  j["gpu"] = cfg.gpu.value.name;
  j["workload"] = cfg.workload.value.name.empty() ? cfg.workload.value.kind : cfg.workload.value.name;
  nlohmann::ordered_json m = nlohmann::ordered_json::object();
  nlohmann::ordered_json info = nlohmann::ordered_json::object();
  for (const auto& x : metrics) {
    m[x.name] = x.value;
    info[x.name] = {{"unit", x.unit}, {"description", x.description}};
  }
  j["metrics"] = m;
  j["metric_info"] = info;
  j["occupancy"] = {{"ctas_per_sm", run.result.occupancy.ctas_per_sm},
                    {"limiter", run.result.occupancy.limiter},
                    {"registers_per_thread", run.result.occupancy.registers_per_thread},
                    {"l1_bytes", run.result.occupancy.l1_bytes}};
  if (run.timeline) j["timeline"] = {{"bucket_cycles", run.timeline->bucket_cycles()}};
  if (run.result.sample_waves > 0)
    j["sampling"] = {{"waves", run.result.sample_waves},
                     {"ctas", run.result.shape.ctas},
                     {"simulated_ctas", run.result.sampled_ctas > 0 ? run.result.sampled_ctas : run.result.shape.ctas},
                     {"extrapolated_from_cta", run.result.sampled_from},
                     {"approximate", run.result.sampled_ctas > 0}};
  if (!run.kernels.empty()) {
    nlohmann::ordered_json ks = nlohmann::ordered_json::array();
    for (const KernelRun& k : run.kernels)
      ks.push_back({{"id", k.id},
                    {"name", k.name},
                    {"file", k.file},
                    {"binary_version", k.binary_version},
                    {"ctas", k.ctas},
                    {"start_cycle", k.start_cycle},
                    {"sm__cycles_elapsed.max", k.cycles},
                    {"smsp__inst_executed.sum", k.warp_instructions},
                    {"dram__bytes_read.sum", k.dram_read_bytes},
                    {"dram__bytes_write.sum", k.dram_write_bytes},
                    {"gpumemsim__flop.sum", k.flops}});
    j["kernels"] = ks;
    j["notes"] = run.notes;
  }
  j["config"] = {{"gpu", gpu_json(cfg.gpu.value)}, {"workload", workload_json(cfg.workload.value)}};
  return j;
}

nlohmann::ordered_json cta_table_json(const SimResult& r) {
  std::vector<std::int64_t> launch, tm, tn, sm;
  std::vector<std::uint64_t> start, end, hits, misses;
  for (const auto& c : r.ctas) {
    launch.push_back(c.launch_index);
    tm.push_back(c.tile.m);
    tn.push_back(c.tile.n);
    sm.push_back(c.sm);
    start.push_back(ticks_to_whole_cycles(c.start));
    end.push_back(ticks_to_whole_cycles(c.end));
    hits.push_back(c.mem.l2_hit_sectors);
    misses.push_back(c.mem.l2_miss_sectors);
  }
  nlohmann::ordered_json j;
  j["launch_index"] = launch;
  j["tile_m"] = tm;
  j["tile_n"] = tn;
  j["sm"] = sm;
  j["start_cycle"] = start;
  j["end_cycle"] = end;
  j["l2_hit_sectors"] = hits;
  j["l2_miss_sectors"] = misses;
  return j;
}

void write_cta_csv(std::ostream& os, const SimResult& r) {
  os << kCtaCsvHeader << '\n';
  auto mark = [&](Tick t) { return t == kNever ? std::string() : std::to_string(ticks_to_whole_cycles(t)); };
  for (const auto& c : r.ctas)
    os << c.launch_index << ',' << c.tile.m << ',' << c.tile.n << ',' << c.sm << ',' << ticks_to_whole_cycles(c.start)
       << ',' << ticks_to_whole_cycles(c.end) << ',' << c.mem.l2_hit_sectors << ',' << c.mem.l2_miss_sectors << ','
       << mark(c.first_barrier) << ',' << mark(c.first_store) << ',' << mark(c.first_special_read) << '\n';
}

}  // namespace gms
