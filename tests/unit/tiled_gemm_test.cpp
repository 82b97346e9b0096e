// kind: tiled_gemm (seed 002) and the SM data path of the engine: the shared-memory pipe, its
// wavefronts from the access analyser, short-scoreboard waits, and the committed silicon counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "common/error.h"
#include "model/engine.h"
#include "stats/metrics.h"
#include "metric_util.h"
#include "one_cta_kernel.h"
#include "test_util.h"
#include "workload/tiled_gemm_kernel.h"

namespace gms {
namespace {

LoadedConfigs rung(std::vector<std::string> sets = {}, const std::string& gpu = "h100") {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/" + gpu + ".yaml"),
                                   test::source_path("configs/workloads/seed002/r0-naive.yaml"), std::move(sets)});
}

// The rung with `base` and then `more` settings (later ones win).
LoadedConfigs rung_with(const std::vector<std::string>& base, std::vector<std::string> more) {
  more.insert(more.begin(), base.begin(), base.end());
  return rung(more);
}

using test::metric;

TEST(TiledGemm, NaivePlanMatchesTheSeedsPartitions) {
  auto cfg = rung();
  TiledGemmKernel k(cfg.workload.value.tiled, cfg.gpu.value, "");
  for (int w = 0; w < 2; ++w) {
    const auto& p = k.plan(w);
    EXPECT_EQ(p.copy_instructions, 32u);       // tA (64,1): 16 scalar copies of A and 16 of B per thread
    EXPECT_EQ(p.store_wavefronts, 32u);        // one column of 32 consecutive words per STS
    EXPECT_EQ(p.read_instructions, 16u * 16);  // BK x (8 rows of A + 8 columns of B)
    EXPECT_EQ(p.read_wavefronts, 256u);        // tCsA and tCsB are broadcasts: no bank conflict
    EXPECT_EQ(p.read_conflicts, 0u);
  }
  EXPECT_EQ(k.ffma_per_k_tile(), 64u * 16);
  EXPECT_EQ(k.shape().shared_mem_per_cta, 16 * (64 + 64) * 4);
}

// The plan times the grid must give the shared-memory counts Nsight measured on silicon for every
// rung of the ladder: instructions exactly, wavefronts within the few concurrent-warp conflicts
// silicon adds (< 1 %).
TEST(TiledGemm, LadderCountsEqualSilicon) {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::source_path("validate/results/h100/seed002"))) {
    if (e.path().extension() != ".json") continue;
    auto rec = nlohmann::json::parse(std::ifstream(e.path()));
    std::string yaml = (std::filesystem::temp_directory_path() / "gpumemsim_rung.yaml").string();
    std::ofstream(yaml) << rec["workload"].dump();
    auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), yaml, {}});
    const auto& t = cfg.workload.value.tiled;
    TiledGemmKernel k(t, cfg.gpu.value, "");
    const double ctas = static_cast<double>(t.m / t.tile.m) * (t.n / t.tile.n), ktiles = static_cast<double>(t.k / t.tile.k);
    double lds = 0, lds_wf = 0, sts = 0;
    for (int w = 0; w < k.shape().warps_per_cta; ++w) {
      lds += k.plan(w).read_instructions;
      lds_wf += k.plan(w).read_wavefronts;
      sts += k.plan(w).copy_instructions;
    }
    const auto& c = rec["ncu"]["counters"];
    const std::string name = rec["case"];
    EXPECT_EQ(lds * ctas * ktiles, c["smsp__sass_inst_executed_op_shared_ld.sum"].get<double>()) << name;
    const char* copy = t.copy_async ? "smsp__sass_inst_executed_op_ldgsts.sum" : "smsp__sass_inst_executed_op_shared_st.sum";
    EXPECT_EQ(sts * ctas * ktiles, c[copy].get<double>()) << name;
    EXPECT_NEAR(lds_wf * ctas * ktiles, c["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"].get<double>(),
                0.01 * lds_wf * ctas * ktiles)
        << name;
    ++checked;
  }
  EXPECT_EQ(checked, 9);
}

TEST(TiledGemm, BadConfigurationsNameTheKey) {
  auto expect_error = [](std::vector<std::string> sets, const std::string& want) {
    try {
      rung(std::move(sets));
      ADD_FAILURE() << "no error for " << want;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  expect_error({"workload.stages=2"}, "workload key 'stages': double buffering here uses cp.async");
  expect_error({"workload.copy.async=true"}, "cp.async moves 16 bytes");
  expect_error({"workload.threads.m=5"}, "workload key 'threads.n'");
  expect_error({"workload.read_vector=4", "workload.threads.m=32", "workload.threads.n=2"}, "groups of 4");
  expect_error({"workload.smem.swizzle=3,3,1"}, "CuTe requires |S| >= B");
  expect_error({"workload.tile.k=24"}, "workload key 'tile.k': must divide k");
  expect_error({"workload.tile.m=1024", "workload.tile.n=1024", "workload.tile.k=1024", "workload.threads.m=32",
                "workload.threads.n=32", "workload.k=4096"},
               "shared reads per K tile; at most 2^24");
}

// A warp that only reads shared memory: the pipe serves one wavefront a cycle, so 32-way conflicts
// take ~32x the data-path time of conflict-free reads, and the warp waits on the short scoreboard.
class SharedOnlyKernel final : public test::OneCtaKernel {
 public:
  explicit SharedOnlyKernel(std::uint32_t wavefronts) : OneCtaKernel("shared_only", 1), wavefronts_(wavefronts) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    if (c.step < 100) {
      out.op = c.sub == 0 ? Op::kSharedLoad : Op::kWait;
      out.slot = 1;
      out.wavefronts = wavefronts_;
      out.conflicts = wavefronts_ - 1;
      if (++c.sub == 2) {
        c.sub = 0;
        ++c.step;
      }
      return;
    }
    out.op = Op::kExit;
  }
  double compulsory_bytes() const override { return 0; }
  double flops() const override { return 0; }

 private:
  std::uint32_t wavefronts_;
};

TEST(Engine, SharedPipeServesOneWavefrontACycleAndWaitsAreShortScoreboard) {
  auto cfg = rung();
  const GpuConfig& gpu = cfg.gpu.value;
  SharedOnlyKernel free_k(1), conflicted_k(32);
  SimResult a = Engine(gpu, free_k).run(), b = Engine(gpu, conflicted_k).run();
  const double latency = static_cast<double>(gpu.sm.shared_latency);
  const double per_wavefront = 1.0 + static_cast<double>(gpu.sm.shared_latency_per_wavefront);  // H100: 2 (measured)
  ASSERT_EQ(gpu.sm.shared_latency_per_wavefront, 1u);
  // 100 dependent reads: each costs its wavefronts' latency plus the base latency.
  EXPECT_NEAR(ticks_to_cycles(a.end), 100 * (1 * per_wavefront + latency + 1), 100 * 2.0);
  EXPECT_NEAR(ticks_to_cycles(b.end), 100 * (32 * per_wavefront + latency + 1), 100 * 2.0);
  EXPECT_EQ(b.shared.ld_wavefronts, 3200u);
  EXPECT_EQ(b.shared.ld_conflicts, 3100u);
  EXPECT_GT(b.stalls.pct(WarpState::kShortScoreboard), 90.0);
  EXPECT_EQ(b.stalls.pct(WarpState::kLongScoreboard), 0.0);
}

TEST(TiledGemm, PaddingThatRemovesNoConflictChangesNothingAndSameInputsRepeat) {
  // 8 floats (32 B) of padding keeps every shared row on the sector alignment of its global row. It
  // moves rows across 128-byte shared lines, which costs requests only where the L1 splits a copy at
  // them (l1.copy_request_per_shared_line): off here, so that nothing may change.
  const std::vector<std::string> async = {"workload.cta_limit=264", "workload.k=512", "workload.copy.vector=4",
                                          "workload.copy.async=true", "workload.stages=2",
                                          "gpu.l1.copy_request_per_shared_line=false"};
  auto base = rung_with(async, {}), padded = rung_with(async, {"workload.smem.pad=8"});
  auto r1 = simulate(base), r2 = simulate(padded), r3 = simulate(base);
  EXPECT_EQ(r1.result.end, r2.result.end);
  EXPECT_EQ(r1.result.end, r3.result.end);
  EXPECT_EQ(metric(base, r1, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            metric(padded, r2, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
}

TEST(TiledGemm, PaddedRowsThatCrossASharedLineAreRequestedTwice) {
  // The same padding with the split on: every unpadded 64-float row (256 B) starts a shared line;
  // padded by 32 B (a 288-byte pitch), three rows in four start inside one, and each of their two
  // global lines then lands in two shared lines: two requests each (as the WMMA GEMM's pads show,
  // validate/results/h100/padding).
  const std::vector<std::string> async = {"workload.cta_limit=264", "workload.k=512", "workload.copy.vector=4",
                                          "workload.copy.async=true", "workload.stages=2",
                                          "gpu.l1.copy_request_per_shared_line=true", "gpu.l2.coalescer_entries=0"};
  auto base = rung_with(async, {}), padded = rung_with(async, {"workload.smem.pad=8"});
  auto r1 = simulate(base), r2 = simulate(padded);
  const double requests = metric(base, r1, "lts__t_requests_srcunit_tex_op_read.sum");
  const double padded_requests = metric(padded, r2, "lts__t_requests_srcunit_tex_op_read.sum");
  EXPECT_GT(padded_requests, 1.3 * requests);
  EXPECT_EQ(metric(base, r1, "lts__t_sectors_srcunit_tex_op_read.sum"),
            metric(padded, r2, "lts__t_sectors_srcunit_tex_op_read.sum"));  // the same sectors, in more requests
}

TEST(TiledGemm, SixteenBytesOfPaddingMakeTheAsyncCopiesFetchOddRowsTwice) {
  // Seed 002's r5 rung (pad 4 floats): every other shared row of k is 16 B off its sector alignment;
  // silicon counts 1.125x the t-stage sectors of r4 (validate/results/h100/seed002), and the copies
  // receive 1.5x (validate/results/h100/ldgsts/).
  const std::vector<std::string> async = {"workload.cta_limit=264", "workload.k=512", "workload.copy.vector=4",
                                          "workload.copy.async=true", "workload.stages=2"};
  auto base = rung(async);
  auto more = async;
  more.push_back("workload.smem.pad=4");
  auto padded = rung(more);
  auto r1 = simulate(base), r2 = simulate(padded);
  const double t1 = metric(base, r1, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_DOUBLE_EQ(metric(padded, r2, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") / t1, 1.125);
  EXPECT_DOUBLE_EQ(metric(padded, r2, "l1tex__m_xbar2l1tex_read_sectors.sum") /
                       metric(base, r1, "l1tex__m_xbar2l1tex_read_sectors.sum"),
                   1.5);
  EXPECT_GE(r2.result.end, r1.result.end);
}

// The compiled loop's issue profile (workload issue.*, `gpumemsim issue` on the ladder's SASS: r0 runs
// 1,947 instructions and 2,841 stall cycles per warp and K tile). The count fixes the loop's other
// instructions (1,947 - 1,024 FFMA - 256 LDS - 32 LDG - 32 STS - 2 barriers = 601); one cycle per
// instruction is exactly the model without a profile; the compiler's stall counts hold each warp
// longer, the time beyond its issue cycles counted as Nsight's `wait`.
TEST(TiledGemm, IssueProfileGivesTheLoopsCountAndTheWarpsFloor) {
  const std::vector<std::string> small = {"workload.cta_limit=264", "workload.k=512"};
  auto other = rung_with(small, {"workload.other_instructions_per_k_tile=601"});
  auto counted = rung_with(small, {"workload.issue.instructions=1947"});
  auto floored = rung_with(small, {"workload.issue.instructions=1947", "workload.issue.stall_cycles=2841cycles"});
  TiledGemmKernel k(counted.workload.value.tiled, counted.gpu.value, "");
  EXPECT_EQ(k.modelled_per_k_tile(), 1024u + 256 + 32 + 32 + 2);
  auto a = simulate(other), b = simulate(counted), c = simulate(floored);
  EXPECT_EQ(a.result.end, b.result.end);
  EXPECT_EQ(metric(other, a, "smsp__inst_executed.sum"), metric(counted, b, "smsp__inst_executed.sum"));
  EXPECT_EQ(metric(counted, b, "smsp__inst_executed.sum"), metric(floored, c, "smsp__inst_executed.sum"));
  EXPECT_EQ(metric(counted, b, "smsp__warp_issue_stalled_wait_per_warp_active.pct"), 0);
  EXPECT_GT(metric(floored, c, "smsp__warp_issue_stalled_wait_per_warp_active.pct"), 5);
  EXPECT_GT(c.result.end, b.result.end);
  // 264 CTAs of 2 warps on 132 SMs: each warp's 32 K tiles take at least the floor.
  EXPECT_GE(metric(floored, c, "sm__cycles_elapsed.max"), 32 * 2841);

  EXPECT_THROW(simulate(rung_with(small, {"workload.issue.instructions=1000"})), ConfigError);  // below the 1,346 modelled
  EXPECT_THROW(rung_with(small, {"workload.issue.instructions=1947", "workload.other_instructions_per_k_tile=601"}), ConfigError);
  EXPECT_THROW(rung_with(small, {"workload.issue.instructions=1947", "workload.issue.stall_cycles=1000cycles"}), ConfigError);
  EXPECT_THROW(rung_with(small, {"workload.issue.measured.dispatch_stall=100cycles"}), ConfigError);  // nothing to spread over
}

// The measured issue profile: a measured wait replaces the stall counts' (floor = instructions +
// wait), and the dispatch and branch stalls hold each warp beyond its floor, in their own states.
TEST(TiledGemm, MeasuredIssueStallsHoldTheWarpInTheirOwnStates) {
  const std::vector<std::string> base = {"workload.cta_limit=264", "workload.k=512", "workload.issue.instructions=1947",
                                         "workload.issue.stall_cycles=2841cycles"};
  auto codes = rung_with(base, {});
  auto same = rung_with(base, {"workload.issue.measured.wait=894cycles"});  // 1947 + 894 = 2841: the same floor
  auto measured = rung_with(base, {"workload.issue.measured.wait=894cycles", "workload.issue.measured.dispatch_stall=400cycles",
                        "workload.issue.measured.branch_resolving=100cycles"});
  auto a = simulate(codes), b = simulate(same), c = simulate(measured);
  EXPECT_EQ(a.result.end, b.result.end);
  EXPECT_EQ(metric(codes, a, "smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct"), 0);
  const double dispatch = metric(measured, c, "smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct");
  const double branch = metric(measured, c, "smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct");
  EXPECT_GT(dispatch, 5);
  EXPECT_NEAR(branch / dispatch, 0.25, 0.02);  // 100 of 400 cycles, spread alike over the instructions
  EXPECT_GT(c.result.end, a.result.end);
  EXPECT_EQ(metric(codes, a, "smsp__inst_executed.sum"), metric(measured, c, "smsp__inst_executed.sum"));
  // 264 CTAs of 2 warps on 132 SMs: each warp's 32 K tiles take at least floor + measured stalls.
  EXPECT_GE(metric(measured, c, "sm__cycles_elapsed.max"), 32 * (2841 + 400 + 100));
}

// A lone profile (issue.measured.alone.*): with sm.dispatch_stall_follows_residents a CTA alone on its SM (264 CTAs
// of r0's 2 warps on 132 SMs: one warp a scheduler, as the lone profile had) pays the lone dispatch stall, not the
// kernel's; without the switch, or with the SM full, the kernel's. Half-given lone profiles are refused.
TEST(TiledGemm, ALoneProfileHoldsALoneCtaOnlyWhereTheSwitchSaysSo) {
  const std::vector<std::string> base = {"workload.cta_limit=264", "workload.k=512", "workload.issue.instructions=1947",
                                         "workload.issue.stall_cycles=2841cycles", "workload.issue.measured.dispatch_stall=1381cycles"};
  const std::vector<std::string> lone = {"workload.issue.measured.warps_per_scheduler=3.78",
                                         "workload.issue.measured.alone.dispatch_stall=408cycles",
                                         "workload.issue.measured.alone.warps_per_scheduler=1"};
  auto shared_only = rung_with(base, {});
  auto with_lone = rung_with(base, lone);
  std::vector<std::string> on = lone;
  on.push_back("gpu.sm.dispatch_stall_follows_residents=true");
  auto follows = rung_with(base, on);
  auto a = simulate(shared_only), b = simulate(with_lone), c = simulate(follows);
  EXPECT_EQ(a.result.end, b.result.end);  // carried, not used
  // Dispatch stall cycles per issued instruction (its share of the warps' time over `selected`'s).
  auto per_instruction = [](const LoadedConfigs& cfg, const auto& out) {
    return metric(cfg, out, "smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct") /
           metric(cfg, out, "smsp__warp_issue_stalled_selected_per_warp_active.pct");
  };
  EXPECT_LT(c.result.end, a.result.end);
  EXPECT_NEAR(per_instruction(follows, c) / per_instruction(shared_only, a), 408.0 / 1381.0, 0.01);
  EXPECT_THROW(rung_with(base, {"workload.issue.measured.alone.dispatch_stall=408cycles"}), ConfigError);  // no warps
  EXPECT_THROW(rung_with(base, {"workload.issue.measured.warps_per_scheduler=1", "workload.issue.measured.alone.dispatch_stall=408cycles",
                                "workload.issue.measured.alone.warps_per_scheduler=1"}), ConfigError);  // no more warps than alone
}

// The compiled loop's own wait on shared reads (issue.shared_reads): each exposed read holds the warp
// the GPU's shared latency less the hidden part, as short_scoreboard; a GPU with a longer latency
// waits longer on the same loop, and a hidden part beyond the latency costs nothing.
TEST(TiledGemm, ExposedSharedReadsHoldTheWarpInShortScoreboard) {
  const std::vector<std::string> base = {"workload.cta_limit=264", "workload.k=512", "workload.issue.instructions=1947",
                                         "workload.issue.stall_cycles=2841cycles"};
  auto none = rung_with(base, {});
  auto hidden = rung_with(base, {"workload.issue.shared_reads.exposed=60", "workload.issue.shared_reads.hidden=40cycles"});
  auto exposed = rung_with(base, {"workload.issue.shared_reads.exposed=60", "workload.issue.shared_reads.hidden=4cycles"});
  auto a = simulate(none), b = simulate(hidden), c = simulate(exposed);
  EXPECT_EQ(a.result.end, b.result.end);  // the preset's 29 cycles are all hidden
  const char* kShort = "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct";
  EXPECT_GT(metric(exposed, c, kShort), metric(none, a, kShort) + 5);
  EXPECT_GT(c.result.end, a.result.end);
  EXPECT_EQ(metric(none, a, "smsp__inst_executed.sum"), metric(exposed, c, "smsp__inst_executed.sum"));
  // 264 CTAs of 2 warps on 132 SMs: each warp's 32 K tiles take at least floor + 60 x (29 - 4).
  EXPECT_GE(metric(exposed, c, "sm__cycles_elapsed.max"), 32 * (2841 + 60 * 25));
  auto slower = exposed;
  slower.gpu.value.sm.shared_latency = 45;
  auto d = simulate(slower);
  EXPECT_GT(metric(slower, d, kShort), metric(exposed, c, kShort));
}

// The special registers the loop re-reads (issue.special_reads) hold the warp the GPU's
// sm.special_register_latency less the hidden part, as short_scoreboard; a GPU without the latency
// (0: not modelled) replays the loop as before.
TEST(TiledGemm, ExposedSpecialRegisterReadsHoldTheWarpInShortScoreboard) {
  const std::vector<std::string> base = {"workload.cta_limit=264", "workload.k=512", "workload.issue.instructions=1947",
                                         "workload.issue.stall_cycles=2841cycles"};
  auto none = rung_with(base, {});
  auto reads = rung_with(base, {"workload.issue.special_reads.exposed=40", "workload.issue.special_reads.hidden=5cycles"});
  ASSERT_EQ(reads.gpu.value.sm.special_register_latency, 25u);  // the H100 preset, measured
  auto a = simulate(none), c = simulate(reads);
  const char* kShort = "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct";
  EXPECT_GT(metric(reads, c, kShort), metric(none, a, kShort) + 5);
  // 264 CTAs of 2 warps on 132 SMs: each warp's 32 K tiles take at least floor + 40 x (25 - 5).
  EXPECT_GE(metric(reads, c, "sm__cycles_elapsed.max"), 32 * (2841 + 40 * 20));
  EXPECT_EQ(metric(none, a, "smsp__inst_executed.sum"), metric(reads, c, "smsp__inst_executed.sum"));
  auto unmodelled = reads;
  unmodelled.gpu.value.sm.special_register_latency = 0;
  EXPECT_EQ(simulate(unmodelled).result.end, a.result.end);
}

// Register-bank conflicts (issue.register_bank_conflicts) hold the sub-partition's issue port, so the
// other warps wait as not_selected; the issuing warp's own time is unchanged but for the port.
TEST(TiledGemm, RegisterBankConflictsHoldTheIssuePortForEveryWarp) {
  // Without the MIO bound: warps it throttles would wait as mio_throttle, not not_selected.
  const std::vector<std::string> base = {"workload.cta_limit=528", "workload.k=512", "workload.issue.instructions=1947",
                                         "gpu.sm.mio_queue_per_sm=0", "gpu.sm.mio_queue_per_subpartition=0"};
  auto none = rung_with(base, {});
  auto banks = rung_with(base, {"workload.issue.register_bank_conflicts=600cycles"});
  auto a = simulate(none), b = simulate(banks);
  EXPECT_GT(b.result.end, a.result.end);
  const char* kNotSelected = "smsp__warp_issue_stalled_not_selected_per_warp_active.pct";
  EXPECT_GT(metric(banks, b, kNotSelected), metric(none, a, kNotSelected));
  EXPECT_EQ(metric(none, a, "smsp__inst_executed.sum"), metric(banks, b, "smsp__inst_executed.sum"));
  EXPECT_EQ(metric(banks, b, "smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct"), 0);
}

}  // namespace
}  // namespace gms
