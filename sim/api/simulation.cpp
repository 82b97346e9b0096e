#include "api/simulation.h"

#include <cmath>

#include "common/error.h"
#include "config/config_tree.h"
#include "config/gpu_schema.h"
#include "config/install_paths.h"
#include "config/workload_schema.h"
#include "model/power_clock.h"
#include "workload/gemm_kernel.h"
#include "workload/gemv_kernel.h"
#include "workload/tiled_gemm_kernel.h"

namespace gms {
namespace {

struct Override {
  std::string target;  // "gpu" | "workload"
  std::string path;
  std::string value;
  std::string text;
};

Override parse_override(const std::string& text) {
  auto eq = text.find('=');
  auto dot = text.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq)
    throw ConfigError("--set " + text + ": expected gpu.KEY=VALUE or workload.KEY=VALUE");
  Override o{text.substr(0, dot), text.substr(dot + 1, eq - dot - 1), text.substr(eq + 1), text};
  if (o.target != "gpu" && o.target != "workload")
    throw ConfigError("--set " + text + ": the key must start with 'gpu.' or 'workload.'");
  if (o.path.empty()) throw ConfigError("--set " + text + ": empty key");
  return o;
}

}  // namespace

bool runs_at_tensor_clock(const WorkloadConfig& w, const GpuConfig& g) {
  if (w.kind == "trace") return trace_runs_at_tensor_clock(w.trace);
  return w.kind == "gemm" && gemm_uses_tensor_cores(w.gemm, g);
}

LoadedConfigs load_configs(const ConfigInputs& in) {
  std::vector<Override> overrides;
  for (const auto& s : in.overrides) overrides.push_back(parse_override(s));
  LoadedConfigs out;
  const bool gpu_in_memory = !in.gpu_text.empty();
  const std::string gpu_name = gpu_in_memory ? in.gpu_text_name : resolve_gpu_preset(in.gpu_file);
  ConfigNode gpu_doc = gpu_in_memory ? read_yaml_text(in.gpu_text, gpu_name) : read_yaml_file(gpu_name);
  const bool wl_in_memory = !in.workload_text.empty();
  const std::string wl_name = wl_in_memory ? in.workload_text_name : in.workload_file;
  ConfigNode wl_doc;
  if (!wl_name.empty()) {
    wl_doc = wl_in_memory ? read_yaml_text(in.workload_text, wl_name) : read_yaml_file(wl_name);
    if (in.workload_from_record) {
      const ConfigNode* w = wl_doc.find("workload");
      if (!w || w->kind != ConfigNode::Kind::kMap)
        throw ConfigError(wl_name + ": not a validate record with a \"workload\" object");
      ConfigNode inner = *w;
      wl_doc = inner;
    }
  }
  for (const auto& o : overrides) {
    SourceMark mark{"--set " + o.text, 0, 0};
    if (o.target == "gpu") {
      gpu_doc.set_path(o.path, o.value, mark);
    } else {
      if (wl_name.empty()) throw ConfigError("--set " + o.text + ": no --workload was given");
      wl_doc.set_path(o.path, o.value, mark);
    }
  }
  out.gpu = bind(gpu_schema(), gpu_doc);
  validate_gpu(out.gpu, gpu_name);
  if (!wl_name.empty()) {
    // A workload held in memory has no folder (source_dir ""): its relative paths resolve from here.
    out.workload = bind_workload(wl_doc, wl_name);
    out.has_workload = true;
    GpuConfig& g = out.gpu.value;
    if (g.sm_clock_tensor > 0 && runs_at_tensor_clock(out.workload.value, g)) {
      g.sm_clock = g.sm_clock_tensor;
      out.gpu.origins["clock.sm"] = SourceMark{"clock.sm_tensor (tensor-core workload)", 0, 0};
    }
  }
  return out;
}

std::unique_ptr<Kernel> make_kernel(const WorkloadConfig& w, const GpuConfig& gpu) {
  if (w.kind == "gemm") return std::make_unique<GemmKernel>(w.gemm, gpu, w.source_dir);
  if (w.kind == "gemv") return std::make_unique<GemvKernel>(w.gemv, gpu);
  if (w.kind == "tiled_gemm") return std::make_unique<TiledGemmKernel>(w.tiled, gpu, w.source_dir);
  if (w.kind == "trace") throw ConfigError("a trace is a sequence of kernels: run it with simulate()");
  throw ConfigError("workload kind '" + w.kind + "' has no kernel");
}

namespace {

RunOutput simulate_at_clock(const LoadedConfigs& cfg, const RunOptions& opt) {
  if (cfg.workload.value.kind == "trace") {
    if (opt.sample_waves > 0)
      throw ConfigError("--sample-waves: a trace's kernels are replayed in full (sampling extrapolates one kernel's waves)");
    return simulate_trace(cfg, opt);
  }
  check_sample_waves(opt.sample_waves);
  RunOutput out;
  out.kernel = make_kernel(cfg.workload.value, cfg.gpu.value);
  Engine engine(cfg.gpu.value, *out.kernel);
  engine.set_sample_waves(opt.sample_waves);
  if (opt.threads > 1) engine.set_pipeline(Pipeline::kWorker);
  if (opt.timeline_bucket_cycles > 0) {
    out.timeline = std::make_unique<Timeline>(cfg.gpu.value.sm.count, opt.timeline_bucket_cycles);
    engine.set_timeline(out.timeline.get());
  }
  if (opt.progress) engine.set_progress(opt.progress);
  if (opt.trace_warps_sm >= 0) {
    if (opt.trace_warps_sm >= cfg.gpu.value.sm.count)
      throw ConfigError("--warp-timeline " + std::to_string(opt.trace_warps_sm) + ": the GPU has " +
                        std::to_string(cfg.gpu.value.sm.count) + " SMs");
    engine.trace_warps_of_sm(opt.trace_warps_sm);
  }
  out.result = engine.run();
  if (out.result.sampled_ctas > 0)
    out.notes.push_back("approximate: " + std::to_string(out.result.sampled_ctas) + " of " +
                        std::to_string(out.result.shape.ctas) + " CTAs simulated (" + std::to_string(opt.sample_waves) +
                        " waves), the rest extrapolated from CTAs " + std::to_string(out.result.sampled_from) + ".." +
                        std::to_string(out.result.sampled_ctas) + " (stats.json: sampling)");
  // Data that fits in L2 misses mostly while it is first touched: the sampled waves then carry more
  // than their share of DRAM traffic (a 6 MB GEMM on a 16 MB L2 came out 4x DRAM, 1.5x time).
  const double l2_bytes = static_cast<double>(cfg.gpu.value.l2.size);
  if (out.result.sampled_ctas > 0 && out.kernel->compulsory_bytes() < 2 * l2_bytes)
    out.notes.push_back("approximate: the kernel's " + std::to_string(static_cast<long long>(out.kernel->compulsory_bytes() / 1e6)) +
                        " MB of data are within twice the L2 (" + std::to_string(static_cast<long long>(l2_bytes / 1e6)) +
                        " MB): its misses come early, and the sampled waves overstate DRAM traffic and time; run exact");
  if (runs_at_tensor_clock(cfg.workload.value, cfg.gpu.value))
    out.result.sm_clock = clock_under_load(cfg.gpu.value, out.result);
  return out;
}

}  // namespace

void check_sample_waves(int waves) {
  if (waves == 1 || waves < 0)
    throw ConfigError("--sample-waves " + std::to_string(waves) +
                      ": at least 2 (the second half of the waves gives the steady-state rate), or 0 for exact");
}

RunOutput simulate(const LoadedConfigs& cfg, const RunOptions& opt) {
  SIM_ASSERT(cfg.has_workload, "simulate() needs a workload");
  RunOutput out = simulate_at_clock(cfg, opt);
  // The power model sets the clock after the run, from the run's own load. DRAM bandwidth (and L2
  // bandwidth, with clock.l2) is fixed per second, not per SM cycle: a run that ends up timed at a
  // clock more than kClockTolerance away from the one it was simulated at is simulated once more at
  // that clock, so its cycles and its clock agree (a wgmma GEMM at 1.5 GHz gets 20 % more DRAM and
  // L2 bytes per cycle than at 1.85 GHz).
  constexpr double kClockTolerance = 0.02;
  const double simulated_at = cfg.gpu.value.sm_clock, timed_at = out.result.sm_clock;
  if (timed_at > 0 && std::abs(timed_at - simulated_at) > kClockTolerance * simulated_at) {
    LoadedConfigs again = cfg;
    GpuConfig& g = again.gpu.value;
    if (g.sm_clock_tensor <= 0) g.sm_clock_tensor = g.sm_clock;  // the power model's base stays
    g.sm_clock = timed_at;
    out = simulate_at_clock(again, opt);
    out.result.simulated_clock = timed_at;
    return out;
  }
  out.result.simulated_clock = simulated_at;
  return out;
}

}  // namespace gms
