// The L2 request coalescer, the L2's own clock and the run at the power model's clock (issue 10).
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "model/memory_system.h"
#include "model/power_clock.h"
#include "model/request_coalescer.h"
#include "stats/metrics.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

TEST(RequestCoalescer, MergesOnlyIntoAnOpenRequestThatCoversTheSectors) {
  RequestCoalescer lrc(/*slices=*/4, /*entries_per_slice=*/8, /*hold_ticks=*/10 * C);
  ASSERT_TRUE(lrc.enabled());
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 100 * C), RequestCoalescer::kNoMerge);  // nothing open
  lrc.open(1, 77, 0xF, /*from=*/100 * C, /*ready=*/400 * C);
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 150 * C), 400 * C);                    // while open
  EXPECT_EQ(lrc.merge(1, 77, 0x3, 150 * C), RequestCoalescer::kNoMerge);  // half lines never merge
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 409 * C), 400 * C);                    // within the hold
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 410 * C), RequestCoalescer::kNoMerge);  // hold over
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 99 * C), RequestCoalescer::kNoMerge);   // before it arrived
  EXPECT_EQ(lrc.merge(2, 77, 0xF, 150 * C), RequestCoalescer::kNoMerge);  // another slice's table
  EXPECT_EQ(lrc.merge(1, 78, 0xF, 150 * C), RequestCoalescer::kNoMerge);  // another line
  lrc.open(1, 77, 0x3, 500 * C, 600 * C);                                // a half line opens nothing
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 550 * C), RequestCoalescer::kNoMerge);
  lrc.open(1, 77, 0xF, 500 * C, 600 * C);
  lrc.clear();
  EXPECT_EQ(lrc.merge(1, 77, 0xF, 550 * C), RequestCoalescer::kNoMerge);
  EXPECT_FALSE(RequestCoalescer(4, 0, 0).enabled());
}

TEST(RequestCoalescer, ATableOfOneEntryKeepsOnlyTheLatestLine) {
  RequestCoalescer lrc(1, 1, 0);
  lrc.open(0, 5, 0xF, 0, 1000 * C);
  lrc.open(0, 6, 0xF, 0, 1000 * C);  // same (only) slot: line 5 stops merging
  EXPECT_EQ(lrc.merge(0, 5, 0xF, 10 * C), RequestCoalescer::kNoMerge);
  EXPECT_EQ(lrc.merge(0, 6, 0xF, 10 * C), 1000 * C);
}

TEST(RequestCoalescer, AnExtendedEntryStaysOpenUntilItsLastQueuedReply) {
  RequestCoalescer lrc(2, 4, 0);
  lrc.open(1, 9, 0xF, 100 * C, 300 * C);
  lrc.extend(1, 9, 380 * C);  // a merged reply queued behind the first leaves at 380
  EXPECT_EQ(lrc.merge(1, 9, 0xF, 350 * C), 380 * C);
  EXPECT_EQ(lrc.merge(1, 9, 0xF, 380 * C), RequestCoalescer::kNoMerge);
  lrc.extend(1, 9, 200 * C);  // never shortens
  EXPECT_EQ(lrc.merge(1, 9, 0xF, 350 * C), 380 * C);
  lrc.extend(1, 10, 900 * C);  // another line's extension leaves this entry alone
  EXPECT_EQ(lrc.merge(1, 10, 0xF, 350 * C), RequestCoalescer::kNoMerge);
  EXPECT_EQ(lrc.merge(1, 9, 0xF, 385 * C), RequestCoalescer::kNoMerge);
}

LoadedConfigs h100(std::vector<std::string> sets) {
  sets.push_back("gpu.l2.partition_mode=none");  // one slice per line: the merge is easy to see
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", std::move(sets)});
}

// The slices' stage busy times: every line read books its sectors on its slice's data stage and one lookup
// on its tag stage, a hit as a miss; the metrics put them over the slices' elapsed time.
TEST(L2StageBusy, EveryReadTakesItsSlicesDataAndTagStages) {
  auto cfg = h100({"gpu.l2.coalescer_entries=0"});
  const GpuConfig& gpu = cfg.gpu.value;
  ASSERT_GT(gpu.l2.tag_requests_per_cycle, 0);
  MemorySystem mem(gpu);
  const Region line{0x40000, 1, 128, 0};
  for (int i = 0; i < 4; ++i) mem.load(AccessCtx{i, 1000 * C + i * 5000 * C, nullptr}, line, true);  // a miss, 3 hits
  const MemCounters m = mem.counters();
  const double l2_per_sm = gpu.l2_clock > 0 ? gpu.l2_clock / gpu.sm_clock : 1.0;
  const double data = static_cast<double>(m.l2_slice_data_busy_ticks), tag = static_cast<double>(m.l2_tag_busy_ticks);
  // 4 x 128 B at slice_bytes_per_cycle L2 cycles; 4 lookups at tag_requests_per_cycle (rounded per booking).
  EXPECT_NEAR(data, 4 * 128 / (gpu.l2.slice_bytes_per_cycle * l2_per_sm) * C, 4.0);
  EXPECT_NEAR(tag, 4 / (gpu.l2.tag_requests_per_cycle * l2_per_sm) * C, 4.0);
  EXPECT_EQ(m.l2_read_sectors, 16u);
}

TEST(L2Coalescer, ASecondSmReadingALineInFlightIsAnsweredByTheSameLookup) {
  for (const char* entries : {"16", "0"}) {
    auto cfg = h100({std::string("gpu.l2.coalescer_entries=") + entries, "gpu.l2.coalescer_hold=0"});
    MemorySystem mem(cfg.gpu.value);
    const Region line{0x40000, 1, 128, 0};
    const Tick t = 1000 * C;
    const Tick first = mem.load(AccessCtx{0, t, nullptr}, line, true);       // DRAM miss
    const Tick second = mem.load(AccessCtx{7, t + 50 * C, nullptr}, line, true);  // while it is in flight
    const MemCounters& m = mem.counters();
    EXPECT_EQ(m.l2_requested_sectors, 8u);
    EXPECT_EQ(m.l2_read_requests, 2u);
    if (std::string(entries) == "16") {
      EXPECT_EQ(m.l2_coalesced_sectors, 4u);
      EXPECT_EQ(m.l2_first_lookup_sectors, 4u);
      EXPECT_EQ(m.l2_first_lookup_requests, 1u);  // lts__t_requests_srcunit_tex_op_read: one tag-stage request
      EXPECT_EQ(m.l2_read_sectors, 4u);  // one lookup
      EXPECT_EQ(second, first);          // one reply, delivered to both
    } else {
      EXPECT_EQ(m.l2_coalesced_sectors, 0u);
      EXPECT_EQ(m.l2_first_lookup_requests, 2u);
      EXPECT_EQ(m.l2_read_sectors, 8u);  // two lookups, the second a hit on the fill in flight
    }
    // Long after the reply left the slice the line is looked up again (an L2 hit).
    const Tick later = t + 5000 * C;
    EXPECT_EQ(mem.load(AccessCtx{3, later, nullptr}, line, true), later + cycles_to_ticks(cfg.gpu.value.l2.hit_latency));
    EXPECT_EQ(mem.counters().l2_coalesced_sectors, std::string(entries) == "16" ? 4u : 0u);
    // What each read found (ReadClass) and its time from the send to the data back at the SM: the first a miss, the
    // second merged into it or a hit on its fill in flight, the last a hit.
    const bool merged = std::string(entries) == "16";
    const MemCounters& c = mem.counters();
    using R = ReadClass;
    auto n = [&](R k) { return c.l2_line_reads[static_cast<int>(k)]; };
    auto ticks = [&](R k) { return c.l2_line_read_ticks[static_cast<int>(k)]; };
    EXPECT_EQ(n(R::kMiss), 1u);
    EXPECT_EQ(ticks(R::kMiss), first - t);
    EXPECT_EQ(n(R::kMerged), merged ? 1u : 0u);
    EXPECT_EQ(n(R::kInFlight), merged ? 0u : 1u);
    EXPECT_EQ(ticks(merged ? R::kMerged : R::kInFlight), second - (t + 50 * C));
    EXPECT_EQ(n(R::kHit), 1u);
    EXPECT_EQ(ticks(R::kHit), cycles_to_ticks(cfg.gpu.value.l2.hit_latency));
  }
}

// l2.reply_bytes_per_cycle (gms-lrc-ubench: warps sharing a few lines are bounded by their replies): replies merged
// into one lookup still leave the slice one after another, and the entry stays open for those queued.
TEST(L2Coalescer, MergedRepliesLeaveTheSliceOneAfterAnother) {
  auto unlimited = h100({"gpu.l2.coalescer_entries=16", "gpu.l2.coalescer_hold=0"});
  auto limited = h100({"gpu.l2.coalescer_entries=16", "gpu.l2.coalescer_hold=0", "gpu.l2.reply_bytes_per_cycle=64"});
  const Region line{0x40000, 1, 128, 0};
  const Tick t = 1000 * C;
  std::vector<Tick> free_replies, queued_replies;
  for (auto* cfg : {&unlimited, &limited}) {
    MemorySystem mem(cfg->gpu.value);
    auto& out = cfg == &unlimited ? free_replies : queued_replies;
    for (int sm = 0; sm < 4; ++sm) out.push_back(mem.load(AccessCtx{sm, t + sm * C, nullptr}, line, true));
    EXPECT_EQ(mem.counters().l2_first_lookup_requests, 1u);  // one lookup either way: the later three merge
    EXPECT_EQ(mem.counters().l2_coalesced_sectors, 12u);
  }
  // One reply for all four without the limit; with it, each 128-byte reply takes two L2 cycles of the slice's
  // reply path (64 B a cycle), so the merged ones leave 2, 4 and 6 L2 cycles after the first.
  const LoadedConfigs& g = limited;
  const double l2_per_sm = g.gpu.value.l2_clock / g.gpu.value.sm_clock;
  const Tick reply = static_cast<Tick>(128.0 / 64.0 / l2_per_sm * kTicksPerCycle + 0.5);
  for (int i = 1; i < 4; ++i) {
    EXPECT_EQ(free_replies[i], free_replies[0]);
    EXPECT_NEAR(static_cast<double>(queued_replies[i] - queued_replies[0]), static_cast<double>(i * reply), 2.0 * i)
        << "reply " << i;
  }
}

TEST(L2Coalescer, HalfLineRequestsPassThrough) {
  // gms-l2-ubench: 64 lines read by every warp of the grid merge 74 % as whole lines, 10 % as halves.
  auto cfg = h100({"gpu.l2.coalescer_entries=16"});
  MemorySystem mem(cfg.gpu.value);
  const Region half{0x40000, 1, 64, 0};
  const Tick t = 1000 * C;
  mem.load(AccessCtx{0, t, nullptr}, half, true);
  mem.load(AccessCtx{7, t + 50 * C, nullptr}, half, true);
  EXPECT_EQ(mem.counters().l2_coalesced_sectors, 0u);
  EXPECT_EQ(mem.counters().l2_read_sectors, 4u);
}

// 64 reads of one (cached) line from one SM at once queue at its home slice: their completion is
// set by the slice's bandwidth, which counts L2 cycles when clock.l2 is given.
Tick burst_end(std::vector<std::string> sets) {
  // No coalescer: the 64 reads would merge into one.
  sets.insert(sets.begin(), "gpu.l2.coalescer_entries=0");
  sets.insert(sets.end(), {"gpu.l2.slice_bytes_per_cycle=1", "gpu.icnt.sm_bytes_per_cycle=100000",
                           "gpu.sm.lsu_bytes_per_cycle=100000", "gpu.clock.sm=1000MHz"});
  auto cfg = h100(std::move(sets));
  MemorySystem mem(cfg.gpu.value);
  const Region line{0x40000, 1, 128, 0};
  mem.load(AccessCtx{0, 0, nullptr}, line, true);
  Tick end = 0;
  for (int i = 0; i < 64; ++i) end = std::max(end, mem.load(AccessCtx{0, 100000 * C, nullptr}, line, true));
  return end - 100000 * C;
}

TEST(L2Clock, SliceBandwidthCountsL2CyclesWhenTheL2HasItsOwnClock) {
  const Tick same = burst_end({"gpu.clock.l2=0MHz"});  // counted in SM cycles
  const Tick twice = burst_end({"gpu.clock.l2=2000MHz"});  // the L2 runs at twice the SM clock
  const Tick half = burst_end({"gpu.clock.l2=500MHz"});
  // 64 x 128 B at 1 B per L2 cycle: 8192 L2 cycles of transfer dominate the fixed latency.
  EXPECT_NEAR(static_cast<double>(same) / twice, 2.0, 0.1);
  EXPECT_NEAR(static_cast<double>(half) / same, 2.0, 0.1);
  EXPECT_EQ(burst_end({"gpu.clock.l2=1000MHz"}), same);  // the SM's clock: nothing changes
}

TEST(PowerClock, AWgmmaGemmIsSimulatedAgainAtTheClockItIsTimedAt) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                       test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                       {"workload.m=2048", "workload.n=2048", "workload.k=2048", "workload.mma=wgmma",
                                        "gpu.l2.slice_bytes_per_cycle=100000", "gpu.dram.bandwidth=1000TB/s"}});
  const double configured = cfg.gpu.value.sm_clock;  // clock.sm_tensor
  RunOutput run = simulate(cfg);
  auto m = compute_metrics(run.result, cfg.gpu.value, *run.kernel);
  const double simulated = find_metric(m, "gpumemsim__sm_clock_simulated")->value;
  const double timed = find_metric(m, "sm__cycles_elapsed.avg.per_second")->value;
  // The busy wgmma pipe lowers the clock well over 2 %: the run was repeated at that clock, and the
  // clock of the repeat is close to it (the repeat has the same activity).
  EXPECT_LT(timed, 0.95 * configured);
  EXPECT_LT(simulated, 0.95 * configured);
  EXPECT_NEAR(timed / simulated, 1.0, 0.02);
  // A GEMV runs at clock.sm: simulated once, at it.
  auto gemv = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                        test::source_path("configs/workloads/seed001-gemv-llcc.yaml")});
  RunOutput g = simulate(gemv);
  EXPECT_EQ(g.result.simulated_clock, gemv.gpu.value.sm_clock);
}

// The power model's two lines (fit_power_clock.py): a wgmma kernel's clock falls with its L2 reads,
// an mma.sync kernel's does not; without clock.sm_wgmma both use the one line of clock.sm_tensor.
TEST(PowerClock, WgmmaKernelsPayForTheirL2ReadsOnALineOfTheirOwn) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", {}});
  GpuConfig g = cfg.gpu.value;
  g.sm_clock_tensor = 1844e6;
  g.clock_sm_wgmma = 2423e6;
  g.clock_drop_full_wgmma = 586e6;
  g.clock_drop_per_l2_tbps = 49e6;
  g.clock_drop_per_dram_tbps = 46e6;
  g.launch.kernel_overhead = 0;
  auto run = [&](const char* mma, double l2_tbps_at_1500mhz, const GpuConfig& gpu) {
    SimResult r;
    r.end = static_cast<Tick>(1'500'000) * kTicksPerCycle;  // 1 ms at 1.5 GHz
    r.shape.mma_class = mma;
    r.sm_active_ticks = 1000.0;
    r.tensor_busy_ticks = 0.9 * 1000.0 * gpu.sm.subpartitions;  // 90 % busy
    r.mem.l2_read_sectors = static_cast<std::uint64_t>(l2_tbps_at_1500mhz * 1e12 * 1e-3 / 32);
    r.dram_read_bytes = static_cast<std::uint64_t>(1e12 * 1e-3);  // 1 TB/s at 1.5 GHz
    return clock_under_load(gpu, r);
  };
  const double low = run("wgmma", 5.0, g), high = run("wgmma", 8.0, g);
  // 3 TB/s more L2 reads (at 1.5 GHz) at 49 MHz each: ~100 MHz lower, solved at the lower clock.
  EXPECT_GT(low - high, 80e6);
  EXPECT_LT(low - high, 150e6);
  EXPECT_NEAR(high, 2423e6 - 586e6 * 0.9 - (49e6 * 8.0 + 46e6) * high / 1.5e9, 1e6);
  // mma.sync: clock.sm_tensor less the DRAM drop, whatever its L2 reads.
  EXPECT_EQ(run("mma_sync", 5.0, g), run("mma_sync", 8.0, g));
  EXPECT_NEAR(run("mma_sync", 5.0, g), 1844e6 / (1 + 46e6 / 1.5e9), 1e6);
  // Without clock.sm_wgmma (and its L2 term): the single line of clock.sm_tensor.
  GpuConfig one = g;
  one.clock_sm_wgmma = 0;
  one.clock_drop_per_l2_tbps = 0;
  EXPECT_EQ(run("wgmma", 5.0, one), run("wgmma", 8.0, one));
  EXPECT_NEAR(run("wgmma", 5.0, one), (1844e6 - 586e6 * 0.9) / (1 + 46e6 / 1.5e9), 1e6);
  // The line's intercept lies above any real clock: the result stays at most clock.sm_tensor.
  EXPECT_LE(run("wgmma", 0.0, g), 1844e6);
}

}  // namespace
}  // namespace gms
