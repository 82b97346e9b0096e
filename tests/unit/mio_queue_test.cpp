// The MIO queue (model/mio_queue.h): shared instructions issued and not yet through the data path,
// bounded per sub-partition and per SM as gms-mio-ubench measured (validate/results/h100/mio).
#include "model/mio_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "api/simulation.h"
#include "metric_util.h"
#include "model/engine.h"
#include "one_cta_kernel.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

TEST(MioQueue, UnboundedAlwaysHasRoom) {
  MioQueue q(1, 4, 0, 0);
  EXPECT_FALSE(q.bounded());
  for (int i = 0; i < 1000; ++i) q.push(0, 0, 1, i * 32 * kCycle, (i + 1) * 32 * kCycle);
  EXPECT_EQ(q.room_at(0, 0, 1, 0), 0);
}

// The ubench in miniature: one warp issues 32-wavefront loads every cycle; the path finishes one
// each 32 cycles. With 30 per sub-partition the 31st waits for the first to finish.
TEST(MioQueue, ASubPartitionWaitsForItsOldestOnceFull) {
  MioQueue q(1, 4, 0, 30);
  Tick t = 0;
  for (int i = 0; i < 30; ++i, t += kCycle) {
    ASSERT_EQ(q.room_at(0, 0, 1, t), t) << i;
    q.push(0, 0, 1, i * 32 * kCycle, (i + 1) * 32 * kCycle);
  }
  EXPECT_EQ(q.room_at(0, 0, 1, t), 32 * kCycle);      // the first finishes at cycle 32
  EXPECT_EQ(q.room_at(0, 1, 1, t), t);                 // another sub-partition has room
  EXPECT_EQ(q.room_at(0, 0, 2, t), 64 * kCycle);      // two need the first two through
  EXPECT_EQ(q.room_at(0, 0, 1, 40 * kCycle), 40 * kCycle);  // one has finished by then
}

// Sub-partitions within their share never consult the SM's bound; its finished entries still go
// (a 4,096-CTA seed-002 rung held 36 MB of them before).
TEST(MioQueue, TheSmsFinishedEntriesGoWhileEverySubPartitionStaysWithinItsShare) {
  MioQueue q(1, 4, 61, 31);
  for (int i = 0; i < 100000; ++i) {
    const Tick t = static_cast<Tick>(i) * 4 * kCycle;
    ASSERT_EQ(q.room_at(0, i % 4, 1, t), t) << i;
    q.push(0, i % 4, 1, t, t + kCycle);
  }
  EXPECT_LE(q.held(0), 2u);
}

// An entry frees its release latency after the path has finished its instruction (gms-mio-ubench:
// 47 cycles, the stall points at 4-32 wavefronts per LDS): the 31st waits for the first to finish
// and come back.
TEST(MioQueue, AnEntryFreesItsReleaseLatencyAfterThePath) {
  MioQueue q(1, 4, 0, 30, 47 * kCycle);
  for (int i = 0; i < 30; ++i) q.push(0, 0, 1, i * 32 * kCycle, (i + 1) * 32 * kCycle);
  EXPECT_EQ(q.room_at(0, 0, 1, 30 * kCycle), (32 + 47) * kCycle);
  EXPECT_EQ(q.room_at(0, 0, 1, 79 * kCycle), 79 * kCycle);
  // A block of 4 issued together frees its entries one by one, each its latency after the path.
  MioQueue b(1, 4, 0, 4, 47 * kCycle);
  b.push(0, 0, 4, 0, 16 * kCycle);
  EXPECT_EQ(b.room_at(0, 0, 1, 0), (4 + 47) * kCycle);
  EXPECT_EQ(b.room_at(0, 0, 4, 0), (16 + 47) * kCycle);
}

TEST(MioQueue, TheSmBoundCountsEverySubPartition) {
  MioQueue q(2, 4, 8, 30);
  for (int i = 0; i < 8; ++i) q.push(0, i % 4, 1, i * 32 * kCycle, (i + 1) * 32 * kCycle);
  EXPECT_EQ(q.room_at(0, 3, 1, 0), 32 * kCycle);  // eight on SM 0, two from each sub-partition
  EXPECT_EQ(q.room_at(1, 4, 1, 0), 0);            // SM 1 is empty
}

// Four sub-partitions issuing alike stall near their share of the SM's bound (the ubench: ~16 of
// ~60 each); one alone reaches its own bound; one that fell behind gets its share though the SM is full.
TEST(MioQueue, TheSmBoundIsSharedFairlyAmongSubPartitions) {
  const Tick never = 10000 * kCycle;  // nothing finishes meanwhile
  MioQueue four(1, 4, 58, 30);
  int total = 0;
  for (int round = 0; round < 40; ++round)
    for (int sp = 0; sp < 4; ++sp)
      if (four.room_at(0, sp, 1, 0) == 0) {
        four.push(0, sp, 1, 0, never);
        ++total;
      }
  EXPECT_GE(total, 58);
  EXPECT_LE(total, 60);
  MioQueue one(1, 4, 58, 30);
  int alone = 0;
  while (one.room_at(0, 0, 1, 0) == 0 && alone < 100) one.push(0, 0, 1, 0, never), ++alone;
  EXPECT_EQ(alone, 30);
  MioQueue lag(1, 4, 58, 30);
  for (int i = 0; i < 29; ++i) lag.push(0, 0, 1, 0, never), lag.push(0, 1, 1, 0, never);
  EXPECT_EQ(lag.room_at(0, 2, 1, 0), 0);      // holds none of the 58: within its share
  EXPECT_EQ(lag.room_at(0, 0, 1, 0), never);  // holds 29: waits for the SM
}

// Sub-partitions above their share that the full SM turns away are served in the order it turned
// them away, each owed its own entry: before, all were told the SM's next free entry and the one whose
// event came first at that tick (the lowest index) took it every time.
TEST(MioQueue, TurnedAwaySubPartitionsGetTheFreedEntriesInTurn) {
  MioQueue q(1, 4, 8, 30);  // a share of 2
  for (int i = 0; i < 8; ++i) q.push(0, i % 4, 1, i * 32 * kCycle, (i + 1) * 32 * kCycle);  // 2 each, full
  EXPECT_EQ(q.room_at(0, 3, 1, 0), 32 * kCycle);  // turned away first: the first entry to free
  EXPECT_EQ(q.room_at(0, 1, 1, 0), 64 * kCycle);  // then: the second
  EXPECT_EQ(q.room_at(0, 0, 2, 0), 128 * kCycle);  // two after those two: the third and fourth
  EXPECT_EQ(q.room_at(0, 1, 1, 0), 64 * kCycle);   // asked again: the same place in the line
  // At 32 cycles the first has freed: sub-partition 3 gets it; 1 and 0 still wait for theirs.
  EXPECT_EQ(q.room_at(0, 1, 1, 32 * kCycle), 64 * kCycle);
  EXPECT_EQ(q.room_at(0, 3, 1, 32 * kCycle), 32 * kCycle);
  q.push(0, 3, 1, 32 * kCycle, 1000 * kCycle);  // it adds its instruction and leaves the line
  EXPECT_EQ(q.room_at(0, 1, 1, 64 * kCycle), 64 * kCycle);
  q.push(0, 1, 1, 64 * kCycle, 1000 * kCycle);
  EXPECT_EQ(q.room_at(0, 0, 2, 64 * kCycle), 128 * kCycle);
  // A sub-partition in line that the SM has room for by the time it asks takes it.
  EXPECT_EQ(q.room_at(0, 0, 2, 128 * kCycle), 128 * kCycle);
}

// Oldest first: a younger warp waits behind an older one whenever it asks. With ties in line (sm.mio_entries_by_cta_age:
// the engine asks with CTA ages), warps of one age are owed entries in the order the full SM turned them away - not the
// one that happens to ask first when an entry frees (gms-lds-pace-ubench: one CTA's flooding warps served fairly) -
// while an older age still goes first (gms-mio-order-ubench: the oldest CTA's rounds end first).
TEST(MioQueue, WarpsOfOneAgeWaitInLineOlderAgesFirst) {
  for (bool in_line : {false, true}) {
    MioQueue q(1, 4, 4, 0, 0, true, in_line);
    for (int i = 0; i < 4; ++i) q.push(0, 0, 1, i * 32 * kCycle, (i + 1) * 32 * kCycle, 9);  // full, freeing every 32
    EXPECT_EQ(q.room_at(0, 1, 1, 0, 1, 5), 32 * kCycle);  // warp 1, age 5, turned away first: the first to free
    const Tick second = q.room_at(0, 2, 1, 0, 2, 5);        // warp 2, the same age, turned away next
    EXPECT_EQ(second, in_line ? 64 * kCycle : 32 * kCycle) << in_line;  // without the line both are told the first
    EXPECT_EQ(q.room_at(0, 3, 1, 0, 3, 1), 32 * kCycle);  // an older warp (age 1) is owed the first free entry
    EXPECT_EQ(q.room_at(0, 1, 1, 0, 1, 5), 64 * kCycle);  // and warp 1, asking again, now waits behind it
  }
}

TEST(MioQueue, ABlockLeavesOneInstructionAtATimeAndNeverWaitsPastTheBound) {
  MioQueue q(1, 1, 0, 4);
  q.push(0, 0, 4, 0, 16 * kCycle);  // four instructions, the path finishing one every 4 cycles
  EXPECT_EQ(q.room_at(0, 0, 1, 0), 4 * kCycle);
  EXPECT_EQ(q.room_at(0, 0, 3, 0), 12 * kCycle);
  EXPECT_EQ(q.room_at(0, 0, 9, 0), 16 * kCycle);  // more than the bound: room for the bound's worth
}

// The ubench in the engine: one warp issues 64 independent 32-wavefront LDS, one at a time as
// compiled; the 31st waits for room (mio_throttle). The same loads as one block of 64 - a block
// stands for loads a compiled loop spreads over its math - are not throttled.
class ConflictedLoads final : public test::OneCtaKernel {
 public:
  explicit ConflictedLoads(std::uint32_t per_instruction) : OneCtaKernel("conflicted_loads", 1), per_(per_instruction) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const auto step = static_cast<std::uint32_t>(c.step++);
    if (test::wait_then_exit(static_cast<int>(step), static_cast<int>(64 / per_), 1, out)) return;
    out.op = Op::kSharedLoad;
    out.issue_cycles = per_;
    out.wavefronts = 32 * per_;
    out.slot = 1;
  }

 private:
  std::uint32_t per_;
};

TEST(MioQueue, SingleSharedInstructionsWaitForRoomBlocksDoNot) {
  auto run = [](std::uint32_t per_instruction, const char* per_sp) {
    return test::run_on_h100(ConflictedLoads(per_instruction),
                             {std::string("gpu.sm.mio_queue_per_subpartition=") + per_sp,
                              std::string("gpu.sm.mio_queue_per_sm=") + (per_sp[0] == '0' ? "0" : "58")});
  };
  const SimResult single = run(1, "30"), unbounded = run(1, "0"), block = run(64, "30");
  EXPECT_GT(single.stalls.pct(WarpState::kMioThrottle), 30);  // 34 of 64 loads wait ~32 cycles each
  EXPECT_EQ(unbounded.stalls.pct(WarpState::kMioThrottle), 0);
  EXPECT_EQ(block.stalls.pct(WarpState::kMioThrottle), 0);
  // The path's work is the same; the warp's last load is through at the same time either way.
  EXPECT_EQ(single.shared.ld_wavefronts, block.shared.ld_wavefronts);
  EXPECT_NEAR(ticks_to_cycles(single.end), ticks_to_cycles(unbounded.end), 40);
}

// One wave of the H200's Triton GEMV (BLOCK_N 128, BLOCK_K 64, 4 warps, lclc: ten programs an SM), whose reduction
// issues its STS and LDS in bursts of back-to-back instructions. Silicon ends an SM's programs one at a time, oldest
// first (validate/results/h200/triton_gemv_cta_times: per SM the first wave's mean end over its last 0.83-0.84, the
// oldest at 12-13 us of ~19; gms-mio-order-ubench: the oldest warp takes each MIO entry that frees). A burst that
// waits for room for all its instructions lets younger warps' single instructions take the entries first, and the
// programs end together; entering one at a time (sm.mio_bursts_enter_one_at_a_time) the oldest goes first. Measured
// as the presets had the MIO queue when the switch came (start gate 31, loads entering as they issue, no starvation
// period, no oldest-first rule): beside those rules, on since 2026-12-01, the presets' programs end at 0.78.
struct FirstWave {
  double oldest_end = 0, mean_over_last = 0;  // medians over the SMs, from each SM's first start
};
FirstWave first_wave(bool one_at_a_time) {
  auto cfg = load_configs(ConfigInputs{
      test::source_path("configs/gpus/h200.yaml"),
      test::source_path("validate/results/h200/triton_gemv/triton_gemv_1x8192x28672_bn128_bk64_w4_lclc.json"),
      {"workload.n=2560", std::string("gpu.sm.mio_bursts_enter_one_at_a_time=") + (one_at_a_time ? "true" : "false"),
       "gpu.sm.mio_start_backlog=31", "gpu.sm.loads_wait_in_mio_queue=false", "gpu.sm.mio_starvation_period=0cycles",
       "gpu.sm.mio_entries_oldest_first=false"},
      true});
  const auto run = simulate(cfg);
  std::map<int, std::vector<std::pair<Tick, Tick>>> by_sm;  // (start, end), launch order within a start
  for (const CtaRecord& c : run.result.ctas) by_sm[c.sm].push_back({c.start, c.end});
  std::vector<double> oldest, ratio;
  for (auto& [sm, v] : by_sm) {
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<double> ends;
    for (const auto& [start, end] : v) ends.push_back(ticks_to_cycles(end - v.front().first));
    oldest.push_back(ends.front());
    ratio.push_back(std::accumulate(ends.begin(), ends.end(), 0.0) / ends.size() / *std::max_element(ends.begin(), ends.end()));
  }
  auto median = [](std::vector<double> x) {
    std::nth_element(x.begin(), x.begin() + x.size() / 2, x.end());
    return x[x.size() / 2];
  };
  EXPECT_EQ(by_sm.size(), 132u);
  return {median(oldest), median(ratio)};
}

TEST(MioQueue, BurstsEnteringOneAtATimeEndAnSmsProgramsOldestFirst) {
  const FirstWave together = first_wave(false), in_turn = first_wave(true);
  EXPECT_LT(in_turn.oldest_end, 0.9 * together.oldest_end);           // ~24.9 k cycles against ~30.0 k
  EXPECT_LT(in_turn.mean_over_last, together.mean_over_last - 0.04);  // ~0.83 against ~0.91
}

// sm.loads_wait_in_mio_queue: a global load takes an MIO entry and enters the LSU behind the shared instructions
// booked on the SM's data path (validate/results/h200/gemv_source_large: on the 8192x28672 Triton GEMV at BLOCK_N
// 256 the warps wait 19.5 % of their time in mio_throttle at LDG). Three waves of that record's programs on the H200,
// without the start gate: its loads then come later and its programs last longer; with the queue unbounded the
// switch changes nothing (a load has no queue to wait in). Without the DRAM's latency spread: with it these three
// waves' slowest reads set the time either way (145.1 against 145.3 M ticks), and the queue's own effect is hidden.
TEST(MioQueue, GlobalLoadsWaitBehindTheSharedPathWhenTheyTakeEntries) {
  auto run = [](bool loads_in_queue, bool bounded) {
    std::vector<std::string> sets = {"workload.n=10240", "gpu.sm.mio_start_backlog=-1", "gpu.dram.latency_spread=",
                                     std::string("gpu.sm.loads_wait_in_mio_queue=") + (loads_in_queue ? "true" : "false")};
    if (!bounded) sets.insert(sets.end(), {"gpu.sm.mio_queue_per_sm=0", "gpu.sm.mio_queue_per_subpartition=0"});
    auto cfg = load_configs(ConfigInputs{
        test::source_path("configs/gpus/h200.yaml"),
        test::source_path("validate/results/h200/triton_gemv/triton_gemv_1x8192x28672_bn256_bk64_w4_llcc.json"),
        std::move(sets), true});
    const auto r = simulate(cfg);
    return std::pair{r.result.end, test::metric(cfg, r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")};
  };
  const auto off = run(false, true), on = run(true, true);
  EXPECT_GT(on.first, off.first * 105 / 100);  // ~8 % longer
  EXPECT_EQ(on.second, off.second);             // the same loads, later
  EXPECT_EQ(run(true, false), run(false, false));
}

}  // namespace
}  // namespace gms
