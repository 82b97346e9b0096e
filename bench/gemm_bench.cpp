// Simulator speed. Full-size runs report wall time, simulated L2 sector lookups and warp
// instructions per second and peak memory (the 8192^3 GEMM, seed 001's GEMV, a seed-002 tiled GEMM
// rung, a trace replay); component benchmarks isolate the hot paths. Run: build/gpumemsim_bench
//   --benchmark_filter=Gemm8192   (the docs/performance.md number)
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>
#include <vector>

#include "api/simulation.h"
#include "model/bandwidth_server.h"
#include "model/tag_array.h"
#include "stats/metrics.h"

namespace {

std::string src(const std::string& rel) { return std::string(GPUMEMSIM_SOURCE_DIR) + "/" + rel; }

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// `threads` as run --threads: 2+ times the memory side on a worker thread (the same results).
void run_workload(benchmark::State& state, const std::string& gpu, const std::string& workload,
                  const std::vector<std::string>& sets, int threads = 1) {
  auto cfg = gms::load_configs({src("configs/gpus/" + gpu), src("configs/workloads/" + workload), sets});
  gms::RunOptions opt;
  opt.threads = threads;
  double sectors = 0, sim_us = 0, instructions = 0;
  for (auto _ : state) {
    auto run = gms::simulate(cfg, opt);
    auto m = gms::compute_metrics(run.result, cfg.gpu.value, *run.kernel);
    sectors = gms::find_metric(m, "lts__t_sectors.sum")->value;
    sim_us = gms::find_metric(m, "gpu__time_duration.sum")->value / 1e3;
    instructions = static_cast<double>(run.result.warp_instructions);
  }
  state.counters["l2_sectors"] = sectors;
  state.counters["l2_sectors_per_s"] = benchmark::Counter(sectors, benchmark::Counter::kIsRate);
  state.counters["warp_inst_per_s"] = benchmark::Counter(instructions, benchmark::Counter::kIsRate);
  state.counters["simulated_us"] = sim_us;
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void BM_Gemm8192_H100(benchmark::State& s) { run_workload(s, "h100.yaml", "gemm-8192-grouped8.yaml", {}); }
void BM_Gemm8192_H100_Wave(benchmark::State& s) {
  run_workload(s, "h100.yaml", "gemm-8192-grouped8.yaml", {"workload.cta_limit=264"});
}
// The same on two threads (run's default on a 2-core machine).
void BM_Gemm8192_H100_Threads2(benchmark::State& s) { run_workload(s, "h100.yaml", "gemm-8192-grouped8.yaml", {}, 2); }
void BM_Gemm8192_H100_Wave_Threads2(benchmark::State& s) {
  run_workload(s, "h100.yaml", "gemm-8192-grouped8.yaml", {"workload.cta_limit=264"}, 2);
}
// Seed 001: gemlite's split-K GEMV, 1x4096x7168 fp16 (reductions at L2).
void BM_Gemv_Seed001_H100(benchmark::State& s) { run_workload(s, "h100.yaml", "seed001-gemv-llcc.yaml", {}); }
// Seed 002: the naive SIMT tiled GEMM, fp32 4096^3 (shared-memory pipe, per-thread reads).
void BM_TiledGemm_Seed002_H100(benchmark::State& s) { run_workload(s, "h100.yaml", "seed002/r0-naive.yaml", {}); }
// Trace replay: Rodinia b+tree as captured by Accel-Sim's tracer on an H100 PCIe (../shared/traces).
void BM_Trace_BTree_H100Pcie(benchmark::State& s) {
  run_workload(s, "h100-pcie.yaml", "traces/btree-h100-pcie.yaml", {});
}

void BM_TagArrayAccess(benchmark::State& state) {
  gms::TagArray t(640 * 1024, 128, 32, 16, gms::Replacement::kLru);
  std::uint64_t i = 0;
  for (auto _ : state) {
    gms::Addr line = (i * 0x9E3779B97F4A7C15ull >> 20) << 7;
    auto a = t.access(0, static_cast<std::uint32_t>(i % t.sets()), line, 0xF, false, i);
    if (a.miss) t.fill(a.slot, a.miss, i + 100);
    benchmark::DoNotOptimize(a);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_BandwidthServer(benchmark::State& state) {
  gms::BandwidthServer s(1024.0 / 48);
  gms::Tick t = 0;
  for (auto _ : state) {
    t += 700;
    benchmark::DoNotOptimize(s.serve(t + (t * 7919 % 50000), 128));
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_Gemm8192_H100)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_Gemm8192_H100_Wave)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Gemm8192_H100_Threads2)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Gemm8192_H100_Wave_Threads2)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Gemv_Seed001_H100)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TiledGemm_Seed002_H100)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_Trace_BTree_H100Pcie)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TagArrayAccess);
BENCHMARK(BM_BandwidthServer);
BENCHMARK_MAIN();
