#pragma once
// The library's front door: YAML files (+ --set overrides) -> bound configs -> kernel -> engine ->
// result. The CLI, the benchmark and the tests all go through here.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/gpu_config.h"
#include "config/param.h"
#include "config/workload_config.h"
#include "model/engine.h"
#include "workload/program.h"

namespace gms {

struct ConfigInputs {
  ConfigInputs() = default;
  ConfigInputs(std::string gpu, std::string workload = {}, std::vector<std::string> set = {}, bool from_record = false)
      : gpu_file(std::move(gpu)), workload_file(std::move(workload)), overrides(std::move(set)),
        workload_from_record(from_record) {}

  std::string gpu_file;                 // a path or a preset name ("h100": configs/gpus/h100.yaml)
  std::string workload_file;            // may be empty for GPU-only commands
  std::vector<std::string> overrides;   // "gpu.l2.size=40MiB", "workload.cta_order.group_m=8"
  // When set, workload_file is a validate record (JSON) and the workload is its "workload" object.
  bool workload_from_record = false;
  // YAML held in memory instead of a file (the Python module): a non-empty text replaces the file,
  // and errors name `*_text_name` with line:col in that text. Relative paths in the workload
  // resolve against the current directory.
  std::string gpu_text, gpu_text_name = "<gpu>";
  std::string workload_text, workload_text_name = "<workload>";
};

struct LoadedConfigs {
  Bound<GpuConfig> gpu;
  Bound<WorkloadConfig> workload;
  bool has_workload = false;
};

// Throws ConfigError for any user mistake, naming file:line:col (or the --set text) and the key.
LoadedConfigs load_configs(const ConfigInputs& in);

std::unique_ptr<Kernel> make_kernel(const WorkloadConfig& w, const GpuConfig& gpu);

struct RunOptions {
  std::uint64_t timeline_bucket_cycles = 0;  // 0 = no timeline
  int trace_warps_sm = -1;                    // keep the warp-state segments of this SM
  // Approximate mode, never the default: simulate this many waves of CTAs and extrapolate the rest
  // (Engine::set_sample_waves; stats.json's "sampling" says so). 0 = simulate every CTA.
  int sample_waves = 0;
  // Threads for this one simulation; results are the same for any count. 2+: the L2, the fabric and DRAM
  // time the requests on a thread of their own, pipelined behind the SMs (Pipeline::kWorker, engine.h), and a
  // trace replay reads and decodes its thread blocks ahead on another (workload/cta_read_ahead.h).
  int threads = 1;
  ProgressFn progress;
};

// One kernel of a sequence (kind: trace), on the sequence's time line.
struct KernelRun {
  int id = 0;
  std::string name;
  std::string file;
  int binary_version = 0;
  std::int64_t ctas = 0;
  std::uint64_t start_cycle = 0, cycles = 0;  // cycles: the kernel's duration (launch overhead included)
  std::uint64_t warp_instructions = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  double flops = 0;
};

struct RunOutput {
  SimResult result;  // a sequence of kernels: summed over them
  std::unique_ptr<Kernel> kernel;  // a sequence: its last kernel
  std::unique_ptr<Timeline> timeline;
  std::vector<KernelRun> kernels;  // kind trace: each kernel replayed, in order
  std::vector<std::string> notes;  // things the user should know (a trace captured on another GPU)
};

RunOutput simulate(const LoadedConfigs& cfg, const RunOptions& opt = {});
// ConfigError unless `waves` is 0 (exact) or at least 2 (RunOptions::sample_waves); for commands
// that hand the option to many simulations, to say so once and up front.
void check_sample_waves(int waves);
// kind: trace (sim/api/trace_run.cpp): the trace's kernels in order on one memory system.
RunOutput simulate_trace(const LoadedConfigs& cfg, const RunOptions& opt);
// Whether a workload runs at clock.sm_tensor and under the power model's clock (tensor-core GEMMs,
// and traces exported from one).
bool runs_at_tensor_clock(const WorkloadConfig& w, const GpuConfig& g);
bool trace_runs_at_tensor_clock(const TraceWorkloadConfig& w);

}  // namespace gms
