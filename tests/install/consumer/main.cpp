// Simulates a small GEMM through the installed library: a preset by name, a workload held in memory.
// Prints the metric a user would read first and fails if it is not a positive time.
#include <cstdio>

#include "api/simulation.h"
#include "common/error.h"
#include "common/version.h"
#include "stats/metrics.h"

int main() {
  gms::ConfigInputs in("h100");
  in.workload_text =
      "kind: gemm\n"
      "m: 1024\nn: 1024\nk: 1024\ndtype: fp16\n";
  try {
    const gms::LoadedConfigs cfg = gms::load_configs(in);
    const gms::RunOutput run = gms::simulate(cfg);
    const auto metrics = gms::compute_metrics(run.result, cfg.gpu.value, *run.kernel);
    const gms::Metric* t = gms::find_metric(metrics, "gpu__time_duration.sum");
    if (!t || !(t->value > 0)) return 1;
    std::printf("gpumemsim %s (%s): 1024^3 fp16 GEMM on h100: gpu__time_duration.sum = %.3f %s\n",
                gms::version_string(), gms::version_commit(), t->value, t->unit.c_str());
  } catch (const gms::ConfigError& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
  return 0;
}
