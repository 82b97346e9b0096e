#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/simulation.h"
#include "common/error.h"
#include "stats/metrics.h"
#include "metric_util.h"
#include "test_util.h"
#include "model/memory_system.h"
#include "workload/mma_data_path.h"

namespace gms {
namespace {

LoadedConfigs gemm(const std::string& gpu, std::vector<std::string> sets) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/" + gpu + ".yaml"),
                                   test::source_path("configs/workloads/gemm-8192-grouped8.yaml"), std::move(sets)});
}

using test::metric;

// The project's WMMA kernel (validate/kernels/gemm_kernel.cuh): 128x128x32, 4 warps of 64x64.
const std::vector<std::string> kWmma = {"workload.tile.k=32", "workload.warps=4", "workload.stages=3"};

TEST(MmaDataPath, WmmaKernelPlanMatchesItsSass) {
  auto cfg = gemm("h100", kWmma);
  const GemmConfig& g = cfg.workload.value.gemm;
  EXPECT_EQ(resolved_gemm_mma(g), "mma_sync");
  WarpGrid grid = gemm_warp_grid(g);
  EXPECT_EQ(grid.parts_m, 2);
  EXPECT_EQ(grid.parts_n, 2);
  MmaPlan p = plan_mma(g, cfg.gpu.value, "mma_sync");
  ASSERT_EQ(p.k_steps, 2);
  // Per 16-deep K step a warp loads 4 A and 4 B fragments (LDSM.x4, 4 wavefronts each when
  // conflict-free) and runs 4 x 8 HMMA.16816: 67.1 M LDSM and 268.4 M HMMA at 8192^3 (ncu).
  EXPECT_EQ(p.ldsm[0], 8u);
  EXPECT_EQ(p.ldsm_wavefronts[0], 32u);
  EXPECT_EQ(p.mma_instructions, 32u);
  EXPECT_DOUBLE_EQ(p.flops, 2.0 * 64 * 64 * 16);
  EXPECT_EQ(p.copy_instructions_a, 4u);  // 128x32 fp16 = 512 chunks of 16 B over 128 threads
  EXPECT_EQ(p.copy_instructions_b, 4u);
  EXPECT_EQ(p.copy_wavefronts_a, 16u);
}

TEST(MmaDataPath, WgmmaOperandWavefrontsPerWarpAndKStep) {
  // Per K step each HGMMA.64xNx16 reads its A block (64 x 32 bytes) and its B chunk (N x 32 bytes) from shared memory,
  // once per warpgroup (gms-sharing-ubench --wgmma, sm.wgmma_operands_use_shared_path); a warp carries a quarter.
  const auto wavefronts = [](int m, int n, int warps) {
    auto cfg = gemm("h100", {"workload.tile.m=" + std::to_string(m), "workload.tile.n=" + std::to_string(n),
                             "workload.warps=" + std::to_string(warps), "workload.mma=wgmma"});
    return plan_mma(cfg.workload.value.gemm, cfg.gpu.value, "wgmma").wgmma_operand_wavefronts;
  };
  EXPECT_EQ(wavefronts(64, 128, 4), 12u);   // one HGMMA.64x128: 2 + 4 KiB
  EXPECT_EQ(wavefronts(128, 128, 4), 24u);  // two, each its own A block and the same B chunk again: 12 KiB
  EXPECT_EQ(wavefronts(128, 256, 8), 20u);  // a warpgroup per 64 rows, one HGMMA.64x256 each: 2 + 8 KiB
}

TEST(MmaDataPath, PaddingRemovesLdmatrixConflictsOfPlainRows) {
  auto plain = gemm("h100", {"workload.tile.k=32", "workload.smem.swizzle=none"});
  auto padded = gemm("h100", {"workload.tile.k=32", "workload.smem.swizzle=none", "workload.smem.pad=8"});
  MmaPlan p0 = plan_mma(plain.workload.value.gemm, plain.gpu.value, "mma_sync");
  MmaPlan p8 = plan_mma(padded.workload.value.gemm, padded.gpu.value, "mma_sync");
  // 64-byte rows of A put rows r and r+2 in the same banks: ldmatrix phases conflict 2-way.
  EXPECT_GT(p0.ldsm_conflicts[0], 0u);
  EXPECT_EQ(p8.ldsm_conflicts[0], 0u);  // 80-byte rows (the WMMA kernel's padding): conflict-free
  EXPECT_EQ(p8.ldsm_wavefronts[0], 32u);
  EXPECT_GT(p8.shared_bytes_per_stage, p0.shared_bytes_per_stage);
}

TEST(MmaDataPath, SimulatedCountersFollowThePlan) {
  auto cfg = gemm("h100", {"workload.m=1024", "workload.n=1024", "workload.k=1024", "workload.tile.k=32"});
  auto run = simulate(cfg);
  const double ctas = 8 * 8, k_tiles = 1024 / 32;
  // The main loop's ldmatrix, and the staged epilogue's read-back of C (gemm_epilogue.h): 512 bytes
  // an LDSM.x4 in four wavefronts.
  const double c_bytes = 1024.0 * 1024 * 2;
  EXPECT_EQ(metric(cfg, run, "smsp__sass_inst_executed_op_ldsm.sum"), ctas * k_tiles * 4 * 2 * 8 + c_bytes / 512);
  EXPECT_EQ(metric(cfg, run, "smsp__inst_executed_pipe_tensor_op_hmma.sum"), ctas * k_tiles * 4 * 2 * 32);
  EXPECT_EQ(metric(cfg, run, "smsp__sass_inst_executed_op_ldgsts.sum"), ctas * k_tiles * 4 * 8);
  EXPECT_EQ(metric(cfg, run, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            ctas * k_tiles * 4 * 2 * 32 + c_bytes / 128);
  EXPECT_EQ(metric(cfg, run, "smsp__inst_executed_pipe_tensor_op_gmma.sum"), 0);
  EXPECT_EQ(metric(cfg, run, "gpumemsim__flop.sum"), 2.0 * 1024 * 1024 * 1024);
}

// The compiled loop's issue profile (workload issue.*, from `gpumemsim issue`): the instructions the
// data path does not model issue among the MMAs, and each K tile holds a warp at least the loop's
// stall-count sum (the WMMA kernel on the H100: 354 instructions, 923 cycles).
TEST(MmaDataPath, IssueProfileAddsInstructionsAndTheWarpsFloor) {
  // No DRAM latency spread: this one wave's slowest reads would set its time, not the issue floor under test.
  std::vector<std::string> small = {"workload.m=1024", "workload.n=1024", "workload.k=1024", "gpu.dram.latency_spread="};
  small.insert(small.end(), kWmma.begin(), kWmma.end());
  auto base_cfg = gemm("h100", small);
  small.insert(small.end(), {"workload.issue.instructions=354", "workload.issue.stall_cycles=923cycles"});
  auto cfg = gemm("h100", small);
  auto base = simulate(base_cfg), run = simulate(cfg);
  const double ctas = 8 * 8, k_tiles = 1024 / 32, warps = 4, modelled = 8 + 16 + 64 + 1;
  EXPECT_EQ(metric(cfg, run, "smsp__inst_executed.sum") - metric(base_cfg, base, "smsp__inst_executed.sum"),
            ctas * warps * k_tiles * (354 - modelled));
  EXPECT_EQ(metric(cfg, run, "smsp__inst_executed_pipe_tensor_op_hmma.sum"),
            metric(base_cfg, base, "smsp__inst_executed_pipe_tensor_op_hmma.sum"));
  EXPECT_EQ(metric(base_cfg, base, "smsp__warp_issue_stalled_wait_per_warp_active.pct"), 0);
  EXPECT_GT(metric(cfg, run, "smsp__warp_issue_stalled_wait_per_warp_active.pct"), 20);
  // One wave (64 CTAs on 132 SMs): every warp runs its 32 K tiles at no less than the floor.
  EXPECT_GE(metric(cfg, run, "sm__cycles_elapsed.max"), k_tiles * 923);
  EXPECT_LT(metric(base_cfg, base, "sm__cycles_elapsed.max"), k_tiles * 923);
}

TEST(MmaDataPath, IssueProfileErrorsAreTheUsers) {
  std::vector<std::string> w = kWmma;
  w.push_back("workload.issue.instructions=80");  // fewer than the 89 the data path issues
  EXPECT_THROW(simulate(gemm("h100", w)), ConfigError);
  w.back() = "workload.issue.stall_cycles=300cycles";  // without a count to spread them over
  EXPECT_THROW(gemm("h100", w), ConfigError);
  w.push_back("workload.issue.instructions=354");  // fewer cycles than instructions
  EXPECT_THROW(gemm("h100", w), ConfigError);
  EXPECT_THROW(gemm("h100", {"workload.mma=none", "workload.issue.instructions=354"}), ConfigError);
}

TEST(MmaDataPath, WgmmaSplitsOverWarpgroupsAndNeedsAHopper) {
  auto cfg = gemm("h100", {"workload.tile.n=256", "workload.warps=8", "workload.stages=4", "workload.mma=wgmma"});
  WarpGrid grid = gemm_warp_grid(cfg.workload.value.gemm);
  EXPECT_EQ(grid.parts_m, 2);  // Triton: two warpgroups of 64 x 256
  EXPECT_EQ(grid.tile_n, 256);
  MmaPlan p = plan_mma(cfg.workload.value.gemm, cfg.gpu.value, "wgmma");
  EXPECT_EQ(p.mma_instructions, 1u);  // one HGMMA.64x256x16 per K step per warpgroup
  EXPECT_TRUE(p.ldsm.empty());        // operands straight from shared memory
  auto a100 = gemm("a100", {"workload.mma=wgmma"});
  EXPECT_THROW(simulate(a100), ConfigError);  // the GPU decides: no sm.wgmma_fraction
  auto bad = [] { gemm("h100", {"workload.mma=wgmma", "workload.warps=2"}); };
  EXPECT_THROW(bad(), ConfigError);  // not a whole warpgroup
}

// copy: tma - warp 0 copies each whole tile as one bulk tensor copy per operand (Triton's SASS: one
// UTMALDG each), nothing passes the LSU, and every warp waits on the tile's mbarrier.
TEST(MmaDataPath, TmaCopiesWholeTilesFromOneWarp) {
  const std::vector<std::string> small = {"workload.m=1024", "workload.n=1024", "workload.k=1024", "workload.mma=wgmma"};
  auto with = [&](const std::string& copy) {
    std::vector<std::string> w = small;
    w.push_back("workload.copy=" + copy);
    return gemm("h100", w);
  };
  auto tma_cfg = with("tma"), cp_cfg = with("cp_async");
  MmaPlan p = plan_mma(tma_cfg.workload.value.gemm, tma_cfg.gpu.value, "wgmma");
  EXPECT_TRUE(p.tma);
  EXPECT_EQ(p.tma_boxes_a, 1u);  // 128 x 64 fp16
  EXPECT_EQ(p.tma_boxes_b, 1u);  // 64 x 128 fp16
  EXPECT_EQ(p.copy_wavefronts_a + p.copy_wavefronts_b, 0u);
  auto tma = simulate(tma_cfg), cp = simulate(cp_cfg);
  const double ctas = 8 * 8, k_tiles = 1024 / 64, sectors_per_tile = 2 * 128 * 64 * 2 / 32.0;
  EXPECT_EQ(metric(tma_cfg, tma, "smsp__sass_inst_executed_op_ldgsts.sum"), 0);
  EXPECT_EQ(metric(tma_cfg, tma, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum"), ctas * k_tiles * sectors_per_tile);
  EXPECT_EQ(metric(cp_cfg, cp, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum"), 0);
  EXPECT_GT(metric(cp_cfg, cp, "smsp__sass_inst_executed_op_ldgsts.sum"), 0);
  // The same sectors cross to the SMs either way (Triton's swizzled cp.async splits none).
  EXPECT_EQ(metric(tma_cfg, tma, "l1tex__m_xbar2l1tex_read_sectors.sum"), ctas * k_tiles * sectors_per_tile);
  EXPECT_EQ(metric(cp_cfg, cp, "l1tex__m_xbar2l1tex_read_sectors.sum"), ctas * k_tiles * sectors_per_tile);
  EXPECT_EQ(metric(tma_cfg, tma, "smsp__inst_executed_pipe_tensor_op_gmma.sum"),
            metric(cp_cfg, cp, "smsp__inst_executed_pipe_tensor_op_gmma.sum"));
  EXPECT_GT(metric(tma_cfg, tma, "gpu__time_duration.sum"), 0);
  // The user's errors: no copy engine, no data path, a padded layout.
  auto a100 = [&] {
    std::vector<std::string> w = small;
    w.back() = "workload.mma=mma_sync";
    w.push_back("workload.copy=tma");
    return simulate(gemm("a100", w));
  };
  EXPECT_THROW(a100(), ConfigError);
  EXPECT_THROW(gemm("h100", {"workload.mma=none", "workload.copy=tma"}), ConfigError);
  EXPECT_THROW(gemm("h100", {"workload.mma=wgmma", "workload.copy=tma", "workload.smem.pad=8"}), ConfigError);
}

// The copy engine alone: bulk tensor copies of one SM take sm.tma_box_cycles each, in order, while
// their lines share the SM's port (validate/results/h100/tma; bench/tma_curve replays the ubench).
TEST(MmaDataPath, TmaEngineTakesItsCyclesPerBox) {
  auto cfg = gemm("h100", {});
  MemorySystem mem(cfg.gpu.value);
  const Tick box = cycles_to_ticks(cfg.gpu.value.sm.tma_box_cycles);
  ASSERT_GT(box, 0u);
  Tick last = 0;
  for (int j = 0; j < 32; ++j)  // 32 boxes of 8 rows x 128 B, issued at once
    last = std::max(last, mem.tma_load({0, 0, nullptr}, Region{0x7f0000000000ull + j * 1024ull, 8, 128, 128, -1, 0}, 1));
  EXPECT_GE(last, 32 * box);
  EXPECT_LT(last, 32 * box + cycles_to_ticks(2000));  // the last box's own latency on top, from DRAM
  EXPECT_EQ(mem.counters().tma_sectors, 32u * 8 * 4);
}

TEST(MmaDataPath, ClassRatesAndThePowerLimitedClock) {
  // Memory unlimited: wgmma runs the pipe's 4096 FLOP/cycle (sm.wgmma_fraction 1, gms-sharing-ubench --wgmma), mma.sync
  // the measured 2655 (1.54x fewer), less the shared-memory path wgmma's operands share with its copies' fills;
  // mma.sync's ldmatrix loads take shared-memory time too, hidden behind its MMAs
  // since the copies' own wavefronts take the path when their data is back (sm.shared_fills: arrival)
  // at their measured ~2 cycles each (sm.copy_fill_bytes_per_cycle). The run's fixed costs, common to
  // both, dilute the rates' ratio a little (1.447 with the presets of 2026-11-26); the kernel's fixed cost
  // (launch.kernel_overhead) is left out, as it is no part of either class's rate.
  std::vector<std::string> fast = {"workload.m=2048", "workload.n=2048", "workload.k=4096", "gpu.launch.kernel_overhead=0cycles",
                                   "gpu.l2.slice_bytes_per_cycle=100000", "gpu.icnt.sm_bytes_per_cycle=100000",
                                   "gpu.sm.lsu_bytes_per_cycle=100000", "gpu.dram.bandwidth=1000TB/s"};
  auto with = [&](const char* mma) {
    auto s = fast;
    s.push_back(std::string("workload.mma=") + mma);
    return gemm("h100", s);
  };
  auto sync = with("mma_sync"), wg = with("wgmma");
  auto rs = simulate(sync), rw = simulate(wg);
  const double ratio = metric(sync, rs, "sm__cycles_elapsed.max") / metric(wg, rw, "sm__cycles_elapsed.max");
  EXPECT_GT(ratio, 1.42);
  EXPECT_LT(ratio, 2.2);
  // The wgmma pipe busy most of the time pulls the clock down (H100: ~1.6 GHz); mma.sync does not.
  EXPECT_GT(metric(wg, rw, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"), 60);
  EXPECT_LT(metric(wg, rw, "sm__cycles_elapsed.avg.per_second"), 0.9 * wg.gpu.value.sm_clock);
  EXPECT_GT(metric(sync, rs, "sm__cycles_elapsed.avg.per_second"), 0.97 * sync.gpu.value.sm_clock);
}

// Which tensor-core class Triton's compiler gives a tile (supportMMA v3): wgmma needs warpgroups (warps % 4), a
// tile.m of whole 64-row blocks and a tile.n of 8s on a GPU that has warpgroup MMAs; anything else is mma.sync.
TEST(MmaDataPath, TheCompilerClassIsWgmmaOnlyForWarpgroupTiles) {
  const GpuConfig hopper = gemm("h200", {}).gpu.value, ampere = gemm("a100", {}).gpu.value;
  auto cls = [](const GpuConfig& gpu, int m, int n, int k, int warps, const std::string& dtype = "fp16") {
    GemmConfig c;
    c.tile = {m, n, k};
    c.warps = warps;
    c.dtype = dtype;
    return compiler_mma_class(c, gpu);
  };
  EXPECT_EQ(cls(hopper, 128, 128, 64, 4), "wgmma");
  EXPECT_EQ(cls(hopper, 64, 256, 32, 8), "wgmma");
  EXPECT_EQ(cls(hopper, 128, 32, 32, 4), "wgmma");
  EXPECT_EQ(cls(hopper, 32, 64, 32, 2), "mma_sync");    // the tutorial's two-warp tiles
  EXPECT_EQ(cls(hopper, 64, 32, 32, 2), "mma_sync");    // 64 rows, but two warps are no warpgroup
  EXPECT_EQ(cls(hopper, 96, 128, 32, 4), "mma_sync");   // 96 rows are no whole 64-row block
  EXPECT_EQ(cls(hopper, 128, 128, 64, 6), "mma_sync");  // six warps are a warpgroup and a half
  EXPECT_EQ(cls(hopper, 128, 128, 64, 4, "fp32"), "none");
  EXPECT_EQ(cls(ampere, 128, 128, 64, 4), "mma_sync");  // no warpgroup MMA on the GPU
}

// The rule against what Triton 3.6 compiled on an H200 (validate/results/h200/recommend: the PTX of every
// configuration recommend_check.py measured has wgmma.mma_async or mma.sync).
TEST(MmaDataPath, TheCompilerClassIsTheOneTritonCompiledOnSilicon) {
  const GpuConfig gpu = gemm("h200", {}).gpu.value;
  std::ifstream f(test::source_path("validate/results/h200/recommend/recommend.jsonl"));
  ASSERT_TRUE(f);
  std::map<std::string, int> seen;
  for (std::string line; std::getline(f, line);) {
    const auto r = nlohmann::json::parse(line);
    if (!r.contains("mma_class")) continue;
    GemmConfig c;  // "128x256x64 w8 s3 g8"
    char x1, x2, w;
    std::istringstream label(r["config"].get<std::string>());
    label >> c.tile.m >> x1 >> c.tile.n >> x2 >> c.tile.k >> w >> c.warps;
    ASSERT_TRUE(label && x1 == 'x' && x2 == 'x' && w == 'w') << r["config"];
    c.dtype = "fp16";
    EXPECT_EQ(compiler_mma_class(c, gpu), r["mma_class"].get<std::string>()) << r["config"];
    ++seen[r["mma_class"].get<std::string>()];
  }
  EXPECT_GE(seen["wgmma"], 40) << "the measured configurations";
  EXPECT_GE(seen["mma_sync"], 8) << "the two-warp tiles of four shapes";
}

}  // namespace
}  // namespace gms
