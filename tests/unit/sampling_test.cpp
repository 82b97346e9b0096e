// The approximate mode (RunOptions::sample_waves, `--sample-waves`): a sampled run simulates the
// first waves of CTAs and extrapolates the rest linearly in retired CTAs from the later half. It is
// never the default, says so in its result, and is only as good as its steady state: these tests hold
// its error on a many-wave GEMM, its determinism, and that a sample covering the grid is exact.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "api/simulation.h"
#include "common/error.h"
#include "stats/metrics.h"
#include "metric_util.h"
#include "test_util.h"

namespace gms {
namespace {

// Seed 000's GEMM on its 9-SM GPU, grown to 24 x 24 tiles (576 CTAs, many waves) whose 6 MB of
// operands are 3x the L2 (2 MiB here): misses continue through the run, as in a full-size GEMM.
LoadedConfigs many_waves(std::vector<std::string> sets = {}) {
  sets.insert(sets.begin(), {"workload.m=1536", "workload.n=1536", "workload.k=1024", "workload.cta_limit=0",
                             "gpu.l2.size=2MiB"});
  return load_configs(ConfigInputs{test::source_path("configs/gpus/seed000-9sm.yaml"),
                                   test::source_path("configs/workloads/seed000-grouped.yaml"), std::move(sets)});
}

RunOutput run(const LoadedConfigs& cfg, int waves) {
  RunOptions opt;
  opt.sample_waves = waves;
  return simulate(cfg, opt);
}

using test::metric;

TEST(Sampling, ExtrapolatesAManyWaveGemmWithinAFewPercent) {
  auto cfg = many_waves();
  const RunOutput full = run(cfg, 0), sampled = run(cfg, 8);
  const std::int64_t resident = static_cast<std::int64_t>(full.result.occupancy.ctas_per_sm) * cfg.gpu.value.sm.count;
  ASSERT_GT(full.result.shape.ctas, 20 * resident);  // enough waves for a sample to be a sample
  EXPECT_EQ(full.result.sampled_ctas, 0);
  EXPECT_EQ(sampled.result.sampled_ctas, 8 * resident);
  EXPECT_EQ(sampled.result.sampled_from, 4 * resident);
  EXPECT_LT(sampled.result.ctas.size(), full.result.ctas.size());
  for (const CtaRecord& c : sampled.result.ctas) EXPECT_GT(c.end, c.start);  // only CTAs that finished
  ASSERT_FALSE(sampled.notes.empty());
  EXPECT_NE(sampled.notes.front().find("approximate"), std::string::npos);
  // Tolerances as measured on the full-size WMMA GEMM records (docs/performance.md): time within a
  // few percent, DRAM bytes within ~10 % (which tiles miss in L2 drifts over a run), instructions and
  // FLOP per CTA exact but for the CTAs in flight at the snapshots.
  const std::pair<const char*, double> limits[] = {{"gpu__time_duration.sum", 0.05}, {"dram__bytes_read.sum", 0.12},
                                                   {"lts__t_sectors_op_read.sum", 0.05}, {"smsp__inst_executed.sum", 0.02},
                                                   {"gpumemsim__flop.sum", 0.02}};
  for (const auto& [name, limit] : limits) {
    const double want = metric(cfg, full, name), got = metric(cfg, sampled, name);
    EXPECT_NEAR(got / want, 1.0, limit) << name << ": full " << want << ", sampled " << got;
  }
  EXPECT_NEAR(metric(cfg, sampled, "lts__t_sector_hit_rate.pct"), metric(cfg, full, "lts__t_sector_hit_rate.pct"), 3.0);
}

TEST(Sampling, IsDeterministicAndExactWhenTheSampleCoversTheGrid) {
  auto cfg = many_waves({"workload.m=384", "workload.n=384"});  // 36 CTAs: a few waves
  const RunOutput full = run(cfg, 0), covering = run(cfg, 1000);
  EXPECT_EQ(covering.result.sampled_ctas, 0);
  EXPECT_EQ(covering.result.end, full.result.end);
  EXPECT_EQ(metric(cfg, covering, "dram__bytes_read.sum"), metric(cfg, full, "dram__bytes_read.sum"));
  auto big = many_waves();
  const RunOutput a = run(big, 4), b = run(big, 4);
  EXPECT_EQ(a.result.end, b.result.end);
  EXPECT_EQ(a.result.dram_read_bytes, b.result.dram_read_bytes);
  EXPECT_EQ(a.result.warp_instructions, b.result.warp_instructions);
}

// The same GEMM on the GPU's own 16 MiB L2 holds all its operands: its misses come while the data is
// first touched, which the sampled waves over-represent (4x DRAM, 1.5x time); the run says so.
TEST(Sampling, WarnsWhenTheDataFitsInL2) {
  auto cfg = many_waves({"gpu.l2.size=16MiB"});
  const RunOutput sampled = run(cfg, 8);
  ASSERT_EQ(sampled.notes.size(), 2u);
  EXPECT_NE(sampled.notes[1].find("within twice the L2"), std::string::npos) << sampled.notes[1];
  EXPECT_EQ(run(many_waves(), 8).notes.size(), 1u);  // 3x the L2: no warning
}

TEST(Sampling, NeedsTwoWaves) {
  auto cfg = many_waves();
  EXPECT_THROW(run(cfg, 1), ConfigError);
  EXPECT_THROW(run(cfg, -2), ConfigError);
}

TEST(Sampling, RefusesASequenceOfKernels) {
  NEED_SHARED_TRACES();
  auto dir = test::temp_dir("sampling_trace");
  const std::string wl = test::write_file(dir / "w.yaml", "kind: trace\npath: " + test::shared_trace("rodinia-b+tree-128-1000") + "\n");
  const auto trace = load_configs(ConfigInputs{test::source_path("configs/gpus/h100-pcie.yaml"), wl});
  EXPECT_NO_THROW(run(trace, 0));
  EXPECT_THROW(run(trace, 4), ConfigError);
}

}  // namespace
}  // namespace gms
