// kind: gemm with register spills (workload/gemm_spill.h): the frame the main loop swaps every K
// tile, estimated or as compiled, and what the timing model does with it.
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "common/error.h"
#include "metric_util.h"
#include "test_util.h"
#include "workload/gemm_kernel.h"
#include "workload/gemm_spill.h"

namespace gms {
namespace {

using test::metric;

// Triton's spilling tiling (validate/results/h100/triton_gemm_spill): 128x256x32, 4 warps, wgmma.
LoadedConfigs spilling(std::vector<std::string> sets) {
  std::vector<std::string> all = {"workload.m=1024", "workload.n=1024", "workload.k=1024", "workload.tile.m=128",
                                  "workload.tile.n=256", "workload.tile.k=32", "workload.warps=4", "workload.stages=3",
                                  "workload.mma=wgmma"};
  all.insert(all.end(), sets.begin(), sets.end());
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/gemm-8192-grouped8.yaml"), all});
}

TEST(GemmSpill, TheEstimateIsTheMissingRegistersPlusOneSwappedMmaGroup) {
  auto cfg = spilling({});
  const GemmConfig& g = cfg.workload.value.gemm;
  // 256 accumulators + 24 operand + 32 other registers: 57 beyond 255, plus one HGMMA.64x256's 128
  // accumulators - 740 B, where the compiler spilled 720 (3 stages) and 696 (4 stages).
  EXPECT_EQ(GemmKernel::registers_needed(g), 312);
  EXPECT_EQ(estimated_gemm_spill_bytes(g, cfg.gpu.value, "wgmma"), 740);
  EXPECT_EQ(estimated_gemm_spill_bytes(g, cfg.gpu.value, "mma_sync"), 57 * 4);  // no groups to swap
  auto fits = spilling({"workload.tile.n=128"});
  EXPECT_EQ(estimated_gemm_spill_bytes(fits.workload.value.gemm, fits.gpu.value, "wgmma"), 0);
}

TEST(GemmSpill, TheFrameSplitsIntoOneChunkPerMmaGroupOfWholeSlots) {
  auto cfg = spilling({"workload.spill_bytes_per_thread=720B"});
  const MmaPlan mma = plan_mma(cfg.workload.value.gemm, cfg.gpu.value, "wgmma");
  ASSERT_EQ(mma.mma_instructions, 2u);  // two 64-row groups per K step
  const GemmSpillPlan p = plan_gemm_spill(cfg.workload.value.gemm, cfg.gpu.value, mma);
  EXPECT_FALSE(p.estimated);
  ASSERT_EQ(p.groups, 2);
  EXPECT_EQ(p.chunk(0).offset, 0);
  EXPECT_EQ(p.chunk(0).bytes, 360);
  EXPECT_EQ(p.chunk(1).offset, 360);
  EXPECT_EQ(p.chunk(0).instructions + p.chunk(1).instructions, 90u);  // the SASS: 91 STL and 91 LDL
  // A frame smaller than the groups goes in one chunk; odd sizes round up to whole slots.
  auto tiny = spilling({"workload.spill_bytes_per_thread=6B"});
  const GemmSpillPlan t = plan_gemm_spill(tiny.workload.value.gemm, tiny.gpu.value, mma);
  EXPECT_EQ(t.groups, 2);
  EXPECT_EQ(t.frame_bytes, 8);
  EXPECT_EQ(t.chunk(1).bytes, 4);
  auto one = spilling({"workload.spill_bytes_per_thread=4B"});
  EXPECT_EQ(plan_gemm_spill(one.workload.value.gemm, one.gpu.value, mma).groups, 1);
  auto none = spilling({"workload.spill_bytes_per_thread=0B"});
  EXPECT_EQ(plan_gemm_spill(none.workload.value.gemm, none.gpu.value, mma).frame_bytes, 0);
}

TEST(GemmSpill, EveryKTileStoresAndReloadsTheFrameThroughL1) {
  // 32 CTAs x 128 threads x 32 K tiles x 720 B each way. Stores reach L2 whole (write-through); the
  // reloads miss the L1 the carve-out leaves (3 x 73 KiB of shared memory: 228 KiB, L1 28 KiB)
  // and read L2, where the frames stay.
  const std::string once = "gpu.l2.far_writes_in_both_partitions=false";  // each stored sector counted once
  auto none = spilling({"workload.spill_bytes_per_thread=0B", once});
  auto spill = spilling({"workload.spill_bytes_per_thread=720B", once});
  auto rn = simulate(none), rs = simulate(spill);
  const double sectors = 32.0 * 128 * 32 * 720 / 32;
  EXPECT_EQ(metric(spill, rs, "lts__t_sectors_op_write.sum") - metric(none, rn, "lts__t_sectors_op_write.sum"), sectors);
  EXPECT_GT(metric(spill, rs, "lts__t_sectors_op_read.sum") - metric(none, rn, "lts__t_sectors_op_read.sum"), 0.9 * sectors);
  EXPECT_EQ(rs.result.occupancy.l1_bytes, 28 * 1024);
  // Synchronous MMA groups behind L2 round trips: several times slower, not a little.
  EXPECT_GT(metric(spill, rs, "gpu__time_duration.sum"), 3 * metric(none, rn, "gpu__time_duration.sum"));
  // The warp states still add up (a warp released from a barrier while its next wait is on copies
  // not yet in shared memory is accounted from the release on).
  double sum = 0;
  for (const char* s : {"selected", "not_selected", "long_scoreboard", "short_scoreboard", "barrier", "math_pipe_throttle",
                        "wait", "dispatch_stall", "branch_resolving", "drain", "mio_throttle", "lg_throttle"})
    sum += metric(spill, rs, std::string("smsp__warp_issue_stalled_") + s + "_per_warp_active.pct");
  EXPECT_NEAR(sum, 100, 0.5);
}

TEST(GemmSpill, TheEstimatePricesATilingThatNeedsMoreRegistersThanTheGpuHas) {
  auto estimated = spilling({});
  auto measured = spilling({"workload.spill_bytes_per_thread=720B"});
  auto re = simulate(estimated), rm = simulate(measured);
  const double te = metric(estimated, re, "gpu__time_duration.sum"), tm = metric(measured, rm, "gpu__time_duration.sum");
  EXPECT_NEAR(te / tm, 740.0 / 720, 0.1);
}

TEST(GemmSpill, AnMmaSyncTileSwapsItsWholeFrameBeforeItsLdmatrix) {
  // mma.sync keeps accumulators per 16x8 fragment: only the 57 missing registers are estimated, in
  // one chunk a K tile, each stored sector reaching L2 once.
  const std::string once = "gpu.l2.far_writes_in_both_partitions=false";
  auto none = spilling({"workload.mma=mma_sync", "workload.spill_bytes_per_thread=0B", once});
  auto spill = spilling({"workload.mma=mma_sync", once});
  const MmaPlan mma = plan_mma(spill.workload.value.gemm, spill.gpu.value, "mma_sync");
  const GemmSpillPlan p = plan_gemm_spill(spill.workload.value.gemm, spill.gpu.value, mma);
  ASSERT_EQ(p.frame_bytes, 228);
  EXPECT_EQ(p.groups, 1);
  auto rn = simulate(none), rs = simulate(spill);
  EXPECT_EQ(metric(spill, rs, "lts__t_sectors_op_write.sum") - metric(none, rn, "lts__t_sectors_op_write.sum"),
            32.0 * 128 * 32 * 228 / 32);
  EXPECT_GT(metric(spill, rs, "gpu__time_duration.sum"), metric(none, rn, "gpu__time_duration.sum"));
}

TEST(GemmSpill, ASpillNeedsTheDataPath) {
  EXPECT_THROW(spilling({"workload.mma=none", "workload.spill_bytes_per_thread=64B"}), ConfigError);
}

}  // namespace
}  // namespace gms
