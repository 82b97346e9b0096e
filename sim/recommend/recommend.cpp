#include "recommend/recommend.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.h"
#include "common/parallel.h"
#include "stats/metrics.h"
#include "sweep/sweep.h"
#include "workload/gemm_kernel.h"
#include "workload/gemm_spill.h"
#include "workload/loop_estimate.h"
#include "workload/mma_data_path.h"

namespace gms {
namespace {

// A GEMM candidate's order: GROUP_SIZE_M on the base workload's grouped order, or this (1 = row-major).
constexpr const char* kRowMajorOrder = "workload.cta_order.kind=row_major";

std::string fmt(double v, int digits = 0) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

double metric(const std::map<std::string, double>& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? 0.0 : it->second;
}

// The resource that bounds a candidate: the busiest of the throughput limits when one is near its
// peak, else what its warps wait on (and what holds its occupancy down).
void name_limiter(Candidate& c, const std::map<std::string, double>& m, const GpuConfig& gpu) {
  const double t_s = metric(m, "gpu__time_duration.sum") * 1e-9;
  const double l2_peak = gpu.l2.slices * gpu.l2.slice_bytes_per_cycle * gpu.sm_clock;  // bytes/s
  // Sectors that move data: the home-slice checks of far lines that hit a near copy move none.
  const double l2_sectors = metric(m, "lts__t_sectors.sum") - metric(m, "gpumemsim__l2_home_check_sectors.sum");
  const double l2_pct = t_s > 0 && l2_peak > 0 ? 100.0 * l2_sectors * gpu.l2.sector / t_s / l2_peak : 0;
  const double dram_pct = metric(m, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  const double tensor_pct = metric(m, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
  const double math_pct = std::max(tensor_pct, metric(m, "gpumemsim__flop_rate.pct_of_peak"));
  const double waves = metric(m, "launch__waves_per_multiprocessor");
  const double conflicts = metric(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") +
                           metric(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
  const double wavefronts = metric(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
  struct Use {
    const char* name;
    double pct;
  };
  std::vector<Use> uses = {{"tensor pipe", math_pct}, {"L2 bandwidth", l2_pct}, {"DRAM bandwidth", dram_pct}};
  std::sort(uses.begin(), uses.end(), [](const Use& a, const Use& b) { return a.pct > b.pct; });
  c.why = "math " + fmt(math_pct) + " %, L2 " + fmt(l2_pct) + " %, DRAM " + fmt(dram_pct) + " % of peak; " +
          fmt(waves, 2) + " waves; " + std::to_string(c.ctas_per_sm) + " CTA/SM";
  if (c.spill_bytes > 0) {  // the loop waits on its own local traffic: the spill, whatever the pipes do
    c.limiter = "register spills";
    c.why += "; ~" + std::to_string(c.spill_bytes) + " B per thread stored and reloaded every K tile (estimated from ~" +
             std::to_string(c.registers) + " registers)";
    return;
  }
  if (wavefronts > 0 && conflicts > 0.1 * wavefronts) {
    c.limiter = "shared-memory bank conflicts";
    c.why += "; " + fmt(100 * conflicts / wavefronts) + " % of shared wavefronts are conflicts";
    return;
  }
  if (uses.front().pct >= 60) {
    c.limiter = uses.front().name;
    return;
  }
  if (waves < 1.0) {
    c.limiter = "too few CTAs (" + fmt(waves, 2) + " waves)";
    return;
  }
  const double frac = waves - std::floor(waves);
  if (waves < 4 && frac > 0 && frac < 0.5) {
    c.limiter = "tail wave (" + fmt(waves, 2) + " waves)";
    return;
  }
  const double long_sb = metric(m, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct");
  const double barrier = metric(m, "smsp__warp_issue_stalled_barrier_per_warp_active.pct");
  const double throttle = metric(m, "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct");
  if (long_sb >= std::max(barrier, throttle)) {
    const double regs_limit = metric(m, "launch__occupancy_limit_registers");
    const double smem_limit = metric(m, "launch__occupancy_limit_shared_mem");
    c.limiter = c.ctas_per_sm <= 1 && regs_limit <= smem_limit ? "occupancy: registers"
                : c.ctas_per_sm <= 1                           ? "occupancy: shared memory"
                                                               : "memory latency";
    c.why += "; warps wait on loads " + fmt(long_sb) + " % of the time";
  } else if (barrier >= throttle) {
    c.limiter = "barriers";
  } else {
    c.limiter = "tensor pipe";
  }
}

std::string base_workload(const RecommendRequest& r, const std::string& mma) {
  std::ostringstream w;
  if (r.kind == "gemm") {
    w << "kind: gemm\nname: gemm " << r.m << "x" << r.n << "x" << r.k << " " << r.dtype << "\nm: " << r.m
      << "\nn: " << r.n << "\nk: " << r.k << "\ndtype: " << r.dtype << "\nbypass_l1: true\nmma: " << mma
      << "\ncta_order: {kind: grouped, group_m: 8}\n";
  } else {
    w << "kind: gemv\nname: gemv " << r.m << "x" << r.n << "x" << r.k << " " << r.dtype << "\nm: " << r.m
      << "\nn: " << r.n << "\nk: " << r.k << "\ndtype: " << r.dtype << "\n";
  }
  return w.str();
}

}  // namespace

RecommendSpace default_gemm_space() {
  RecommendSpace s;
  s.tiles = {{64, 64, 64},   {64, 128, 32},  {64, 128, 64},  {128, 64, 32},  {128, 64, 64},  {128, 128, 32},
             {128, 128, 64}, {64, 256, 32},  {64, 256, 64},  {256, 64, 64},  {128, 256, 32}, {128, 256, 64},
             {256, 128, 32}, {256, 128, 64}};
  s.warps = {4, 8};
  s.stages = {3, 4, 5};
  s.group_m = {8};
  return s;
}

RecommendSpace default_gemv_space() {
  RecommendSpace s;
  s.block_n = {32, 64, 128, 256, 512};
  s.block_k = {16, 32, 64};
  s.warps = {1, 2, 4, 8};
  s.gemv_orders = {"llcc", "lclc"};
  return s;
}

OtherOrder other_cta_order(const Candidate& c) {
  OtherOrder o{c.set, ""};
  const bool row_major = std::find(c.set.begin(), c.set.end(), kRowMajorOrder) != c.set.end();
  if (row_major) {
    o.set.insert(o.set.end(), {"workload.cta_order.kind=grouped", "workload.cta_order.group_m=8"});
    o.name = "grouped8";
  } else {
    o.set.push_back(kRowMajorOrder);
    o.name = "row_major";
  }
  return o;
}

ConfigInputs candidate_inputs(const RecommendRequest& req, const RecommendResult& r, const std::vector<std::string>& set) {
  ConfigInputs in(req.gpu, "", req.overrides);
  in.workload_text = r.workload_text;
  in.workload_text_name = "<recommend workload>";
  in.overrides.insert(in.overrides.end(), set.begin(), set.end());
  return in;
}

RecommendResult recommend(const RecommendRequest& req) {
  if (req.kind != "gemm" && req.kind != "gemv") throw ConfigError("recommend: kind must be gemm or gemv");
  if (req.m <= 0 || req.n <= 0 || req.k <= 0)
    throw ConfigError("recommend: the shape needs positive M, N and K");
  RecommendResult out;
  ConfigInputs base(req.gpu, "", req.overrides);
  const LoadedConfigs gpu_only = load_configs(base);
  const GpuConfig& gpu = gpu_only.gpu.value;
  out.gpu_name = gpu.name;
  // auto: each candidate takes the class Triton's compiler gives its tile and warps on this GPU (wgmma
  // or mma.sync, compiler_mma_class); the base workload names the GPU's wgmma where it has one.
  const bool per_candidate = req.mma == "auto";
  const std::string mma = !per_candidate ? req.mma : gpu.sm.wgmma_fraction > 0 ? "wgmma" : "mma_sync";
  out.workload_text = base_workload(req, mma);

  std::vector<Candidate> cands;
  if (req.kind == "gemm") {
    for (const auto& t : req.space.tiles)
      for (int w : req.space.warps)
        for (int s : req.space.stages)
          for (int g : req.space.group_m) {
            Candidate c;
            c.label = std::to_string(t[0]) + "x" + std::to_string(t[1]) + "x" + std::to_string(t[2]) + " w" +
                      std::to_string(w) + " s" + std::to_string(s) + " g" + std::to_string(g);
            c.set = {"workload.tile.m=" + std::to_string(t[0]), "workload.tile.n=" + std::to_string(t[1]),
                     "workload.tile.k=" + std::to_string(t[2]), "workload.warps=" + std::to_string(w),
                     "workload.stages=" + std::to_string(s),
                     g <= 1 ? std::string(kRowMajorOrder) : "workload.cta_order.group_m=" + std::to_string(g)};
            GemmConfig gc;
            gc.tile = {t[0], t[1], t[2]};
            gc.warps = w;
            gc.dtype = req.dtype;
            gc.mma = per_candidate ? compiler_mma_class(gc, gpu) : mma;
            c.mma = gc.mma;
            if (gc.mma != mma) c.set.push_back("workload.mma=" + gc.mma);
            c.registers = GemmKernel::registers_needed(gc);
            // Beyond the GPU's registers the compiler spills: priced, not left out (workload/gemm_spill.h).
            const bool splits = gemm_warp_grid(gc).tile_m > 0;
            if (splits) c.spill_bytes = estimated_gemm_spill_bytes(gc, gpu, gc.mma);
            // The loop's own instructions, estimated from loops that do not spill (a spilled loop's are its frame's
            // stores and reloads, which the spill model issues).
            const auto loop = req.estimate_loop && splits && c.spill_bytes == 0 ? estimated_triton_loop_issue(gc)
                                                                                 : std::nullopt;
            if (loop) {
              c.loop_instructions = loop->instructions;
              c.set.push_back("workload.issue.instructions=" + std::to_string(loop->instructions));
              c.set.push_back("workload.issue.stall_cycles=" + std::to_string(loop->stall_cycles) + "cycles");
            }
            cands.push_back(c);
          }
  } else {
    for (int bn : req.space.block_n)
      for (int bk : req.space.block_k)
        for (int w : req.space.warps)
          for (const auto& o : req.space.gemv_orders) {
            Candidate c;
            c.label = "BN" + std::to_string(bn) + " BK" + std::to_string(bk) + " w" + std::to_string(w) + " " + o;
            c.set = {"workload.block.n=" + std::to_string(bn), "workload.block.k=" + std::to_string(bk),
                     "workload.warps=" + std::to_string(w), "workload.order=" + o};
            cands.push_back(c);
          }
  }
  if (cands.empty()) throw ConfigError("recommend: the search space is empty");

  // Simulate what is left, on all the threads asked for; each candidate is independent, so the
  // ranking does not depend on the thread count.
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < cands.size(); ++i)
    if (cands[i].excluded.empty()) todo.push_back(i);
  // A candidate's outcome travels as JSON text (exact: doubles are written to round-trip), so the
  // same code gathers it from a thread or from another MPI rank.
  const std::vector<std::string> outcomes = req.map(todo.size(), std::max(1u, req.jobs), [&](std::size_t j) {
    Candidate c = cands[todo[j]];
    const ConfigInputs in = candidate_inputs(req, out, c.set);
    try {
      const LoadedConfigs cfg = load_configs(in);
      RunOptions opt;
      opt.sample_waves = req.sample_waves;
      const RunOutput run = simulate(cfg, opt);
      std::map<std::string, double> m;
      for (const auto& x : compute_metrics(run.result, cfg.gpu.value, *run.kernel)) m[x.name] = x.value;
      c.time_ns = metric(m, "gpu__time_duration.sum");
      c.dram_bytes = metric(m, "dram__bytes_read.sum") + metric(m, "dram__bytes_write.sum");
      c.l2_hit_pct = metric(m, "lts__t_sector_hit_rate.pct");
      c.tflops = c.time_ns > 0 ? metric(m, "gpumemsim__flop.sum") / c.time_ns / 1e3 : 0;
      c.ctas_per_sm = run.result.occupancy.ctas_per_sm;
      if (req.kind == "gemv") c.registers = run.result.occupancy.registers_per_thread;
      name_limiter(c, m, cfg.gpu.value);
    } catch (const ConfigError& e) {
      std::string why = e.what();
      c.excluded = "does not fit: " + why.substr(why.rfind(": ") == std::string::npos ? 0 : why.rfind(": ") + 2);
    }
    return nlohmann::json{{"excluded", c.excluded}, {"time_ns", c.time_ns}, {"dram_bytes", c.dram_bytes},
                          {"l2_hit_pct", c.l2_hit_pct}, {"tflops", c.tflops}, {"ctas_per_sm", c.ctas_per_sm},
                          {"registers", c.registers}, {"limiter", c.limiter}, {"why", c.why}}
        .dump();
  });
  SIM_ASSERT(outcomes.size() == todo.size(), "recommend: " << outcomes.size() << " outcomes for " << todo.size()
                                                             << " candidates");
  for (std::size_t j = 0; j < todo.size(); ++j) {
    const auto o = nlohmann::json::parse(outcomes[j]);
    Candidate& c = cands[todo[j]];
    o.at("excluded").get_to(c.excluded);
    o.at("time_ns").get_to(c.time_ns);
    o.at("dram_bytes").get_to(c.dram_bytes);
    o.at("l2_hit_pct").get_to(c.l2_hit_pct);
    o.at("tflops").get_to(c.tflops);
    o.at("ctas_per_sm").get_to(c.ctas_per_sm);
    o.at("registers").get_to(c.registers);
    o.at("limiter").get_to(c.limiter);
    o.at("why").get_to(c.why);
  }
  for (auto& c : cands) (c.excluded.empty() ? out.ranked : out.excluded).push_back(std::move(c));
  if (out.ranked.empty())
    throw ConfigError("recommend: no configuration of the space runs on " + gpu.name + " (the first: " +
                      out.excluded.front().label + ": " + out.excluded.front().excluded + ")");
  // Fastest first; ties by label so the order is total (deterministic for any thread count).
  std::sort(out.ranked.begin(), out.ranked.end(), [](const Candidate& a, const Candidate& b) {
    return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.label < b.label;
  });
  return out;
}

}  // namespace gms
