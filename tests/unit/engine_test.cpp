#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "api/simulation.h"
#include "model/dispatcher.h"
#include "model/memory_system.h"
#include "model/warp_scheduler.h"
#include "stats/metrics.h"
#include "metric_util.h"
#include "test_util.h"

namespace gms {
namespace {

LoadedConfigs seed(const std::string& order, std::vector<std::string> sets = {}) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/seed000-9sm.yaml"),
                                   test::source_path("configs/workloads/seed000-" + order + ".yaml"), std::move(sets)});
}

using test::metric;

constexpr double kBlock = 64 * 64 * 2;  // one 64x64 fp16 tile-block

// Seed 000: the first wave of 9 CTAs loads 90 blocks row-major, 54 grouped (GROUP_SIZE_M = 3), and
// 162 (= 9 CTAs x 18 blocks) when L2 can keep nothing between uses.
TEST(Seed000, RowMajorLoads90Blocks) {
  auto cfg = seed("row-major");
  auto run = simulate(cfg);
  EXPECT_EQ(metric(cfg, run, "dram__bytes_read.sum"), 90 * kBlock);
}

TEST(Seed000, GroupedLoads54Blocks) {
  auto cfg = seed("grouped");
  auto run = simulate(cfg);
  EXPECT_EQ(metric(cfg, run, "dram__bytes_read.sum"), 54 * kBlock);
}

TEST(Seed000, NoReuseLoads162Blocks) {
  for (const char* order : {"row-major", "grouped"}) {
    auto cfg = seed(order, {"gpu.l2.size=1KiB", "gpu.l2.assoc=1"});
    auto run = simulate(cfg);
    EXPECT_EQ(metric(cfg, run, "dram__bytes_read.sum"), 162 * kBlock) << order;
  }
}

TEST(Engine, ComputeBoundGemmRunsAtTheTensorRate) {
  // Unlimited memory bandwidth and a warm-up-free tile: time is the MMA work over the tensor rate
  // (mma: none, the MMA blocks without a data path, at the dtype's full rate).
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                       test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                       {"workload.m=2048", "workload.n=2048", "workload.k=4096", "workload.mma=none",
                                        "gpu.l2.slice_bytes_per_cycle=100000", "gpu.icnt.sm_bytes_per_cycle=100000",
                                        "gpu.sm.lsu_bytes_per_cycle=100000", "gpu.dram.bandwidth=1000TB/s"}});
  auto run = simulate(cfg);
  double ideal_cycles = 2.0 * 2048 * 2048 * 4096 / (4096.0 * 128);  // 256 CTAs on 128 SMs' worth of pipes
  double cycles = metric(cfg, run, "sm__cycles_elapsed.max");
  // 256 CTAs over 132 SMs x 2 slots: one wave, each SM's pipes shared by up to 2 CTAs.
  EXPECT_GT(cycles, ideal_cycles * 0.9);
  EXPECT_LT(cycles, ideal_cycles * 1.25);
  EXPECT_GT(metric(cfg, run, "gpumemsim__flop_rate.pct_of_peak"), 75);
}

TEST(Engine, DramBoundGemmApproachesSustainedBandwidth) {
  // A skinny GEMM whose B is streamed once: time ~ DRAM bytes / (bandwidth x efficiency).
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                       test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                       {"workload.m=128", "workload.n=65536", "workload.k=8192",
                                        "workload.stages=4"}});
  auto run = simulate(cfg);
  double pct = metric(cfg, run, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_GT(pct, 60);
  EXPECT_LT(pct, 92.5);  // never above the configured efficiency
}

TEST(Engine, SameInputsGiveIdenticalResults) {
  auto cfg = seed("grouped", {"workload.cta_limit=0"});
  auto a = simulate(cfg), b = simulate(cfg);
  ASSERT_EQ(a.result.ctas.size(), b.result.ctas.size());
  EXPECT_EQ(a.result.end, b.result.end);
  for (size_t i = 0; i < a.result.ctas.size(); ++i) {
    EXPECT_EQ(a.result.ctas[i].end, b.result.ctas[i].end);
    EXPECT_EQ(a.result.ctas[i].mem.l2_hit_sectors, b.result.ctas[i].mem.l2_hit_sectors);
  }
}

// Equal CTAs launched in waves stay in lockstep; start jitter spreads them (deterministically).
TEST(Engine, CtaStartJitterDelaysWarpsDeterministically) {
  auto plain = seed("grouped", {"workload.cta_limit=0"});
  auto jit = seed("grouped", {"workload.cta_limit=0", "gpu.launch.cta_start_jitter=5000"});
  auto a = simulate(plain), b = simulate(jit), c = simulate(jit);
  EXPECT_EQ(b.result.end, c.result.end);
  EXPECT_GT(b.result.end, a.result.end);
  std::set<Tick> first_wave_ends_plain, first_wave_ends_jit;
  for (size_t i = 0; i < 9; ++i) {  // one CTA per SM: the first wave
    first_wave_ends_plain.insert(a.result.ctas[i].end);
    first_wave_ends_jit.insert(b.result.ctas[i].end);
  }
  EXPECT_GT(first_wave_ends_jit.size(), first_wave_ends_plain.size());
  EXPECT_LE(b.result.end - a.result.end, cycles_to_ticks(5000) * 9 + a.result.end / 2);
}

TEST(Engine, AnSmStartsCtasNoFasterThanItsDispatchInterval) {
  auto starts_per_sm = [](const RunOutput& run) {
    std::map<int, std::vector<Tick>> s;
    for (const auto& c : run.result.ctas) s[c.sm].push_back(c.start);
    return s;
  };
  auto min_gap = [&](const RunOutput& run) {
    Tick gap = kNever;
    for (auto& [sm, v] : starts_per_sm(run)) {
      std::sort(v.begin(), v.end());
      for (size_t i = 1; i < v.size(); ++i) gap = std::min(gap, v[i] - v[i - 1]);
    }
    return gap;
  };
  // Seed 001's GEMV at BLOCK_K 16: 3,584 programs of 4 warps, ~12 resident per SM at once.
  auto gemv = [](std::vector<std::string> sets) {
    sets.push_back("workload.block.k=16");
    return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                     test::source_path("configs/workloads/seed001-gemv-llcc.yaml"), std::move(sets)});
  };
  // At the measured 157 cycles the pacing hides under DRAM time; at 4,000 it is the limit: 27
  // programs per SM cannot finish before 26 intervals have passed.
  auto plain = gemv({"gpu.launch.cta_dispatch_interval=0", "gpu.launch.warp_dispatch_interval=0"});
  auto paced = gemv({"gpu.launch.cta_dispatch_interval=4000", "gpu.launch.warp_dispatch_interval=0"});
  // 4 warps x 2,000 cycles outweighs the CTA interval.
  auto warps = gemv({"gpu.launch.cta_dispatch_interval=4000", "gpu.launch.warp_dispatch_interval=2000"});
  auto a = simulate(plain), b = simulate(paced), c = simulate(warps);
  EXPECT_EQ(min_gap(a), 0);  // a whole wave starts at once without pacing
  EXPECT_GE(min_gap(b), cycles_to_ticks(4000));
  EXPECT_GE(min_gap(c), cycles_to_ticks(8000));
  EXPECT_GE(b.result.end, cycles_to_ticks(4000) * 26);
  EXPECT_GE(c.result.end, cycles_to_ticks(8000) * 26);
  EXPECT_GT(b.result.end, a.result.end);
}

TEST(Engine, PerCtaRecordsCoverTheGridInLaunchOrder) {
  auto cfg = seed("grouped", {"workload.cta_limit=0"});
  auto run = simulate(cfg);
  ASSERT_EQ(run.result.ctas.size(), 81u);
  std::uint64_t hits = 0, misses = 0;
  for (size_t i = 0; i < 81; ++i) {
    const auto& c = run.result.ctas[i];
    EXPECT_EQ(c.launch_index, static_cast<std::int64_t>(i));
    EXPECT_LT(c.start, c.end);
    hits += c.mem.l2_hit_sectors;
    misses += c.mem.l2_miss_sectors;
  }
  EXPECT_EQ(static_cast<double>(hits + misses), metric(cfg, run, "lts__t_sectors_op_read.sum"));
}

TEST(MemorySystem, UnloadedLatenciesMatchTheConfiguration) {
  // The configured latencies themselves: no DRAM spread (a read's own draw; tests/unit/dram_spread_test.cpp).
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                       {"gpu.l2.partition_mode=none", "gpu.dram.latency_spread="}});
  MemorySystem mem(cfg.gpu.value);
  Region one_sector{0x10000, 1, 32, 0};
  const Tick t0 = cycles_to_ticks(1000);
  EXPECT_EQ(mem.load(AccessCtx{0, t0, nullptr}, one_sector, true), t0 + cycles_to_ticks(670));  // DRAM
  const Tick t1 = cycles_to_ticks(5000);
  EXPECT_EQ(mem.load(AccessCtx{0, t1, nullptr}, one_sector, true), t1 + cycles_to_ticks(273));  // L2 hit
  const Tick t2 = cycles_to_ticks(9000);
  mem.load(AccessCtx{0, t2, nullptr}, Region{0x20000, 1, 32, 0}, false);  // through L1: miss, fills L1
  const Tick t3 = cycles_to_ticks(12000);
  EXPECT_EQ(mem.load(AccessCtx{0, t3, nullptr}, Region{0x20000, 1, 32, 0}, false), t3 + cycles_to_ticks(33));
}

TEST(MemorySystem, FarPartitionCostsExtraLatencyAndReplicates) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", {}});
  MemorySystem mem(cfg.gpu.value);
  // Find a line whose home is far from SM 0 by trying addresses; the first far access pays
  // far_extra_latency, the second hits the near copy at near latency.
  for (Addr a = 0; a < 128 * 64; a += 128) {
    Tick t0 = cycles_to_ticks(100000 + a);
    mem.load(AccessCtx{0, t0, nullptr}, Region{a, 1, 32, 0}, true);  // DRAM fill
    Tick t1 = t0 + cycles_to_ticks(2000);
    Tick d1 = mem.load(AccessCtx{0, t1, nullptr}, Region{a, 1, 32, 0}, true);
    if (mem.counters().l2_far_sectors == 0) continue;
    (void)d1;
    Tick t2 = t1 + cycles_to_ticks(2000);
    EXPECT_EQ(mem.load(AccessCtx{0, t2, nullptr}, Region{a, 1, 32, 0}, true), t2 + cycles_to_ticks(273));
    EXPECT_GT(mem.counters().l2_replica_hit_sectors, 0u);
    return;
  }
  FAIL() << "no far line found";
}

// dram.latency is a chase's mean over random lines, half of them in the far partition
// (gms-l2-load-ubench dram: 693 cycles unloaded on the H100); the far half pays the far penalty
// on top of a DRAM share taken so that the mean is the configured latency, not 124 cycles over it.
TEST(MemorySystem, AChaseOverRandomLinesAveragesTheConfiguredDramLatency) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", {}});
  MemorySystem mem(cfg.gpu.value);
  double sum = 0;
  int far = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const Tick t = cycles_to_ticks(10000) * static_cast<Tick>(i + 1);  // unloaded: one at a time
    const auto before = mem.counters().l2_far_sectors;
    sum += ticks_to_cycles(mem.load(AccessCtx{0, t, nullptr}, Region{0x40000000ull + static_cast<Addr>(i) * 4096 * 128, 1, 32, 0}, true) - t);
    far += mem.counters().l2_far_sectors > before;
  }
  EXPECT_NEAR(static_cast<double>(far) / n, 0.5, 0.05);
  EXPECT_NEAR(sum / n, 670, 0.02 * 670);
}

TEST(Policies, GtoKeepsTheLastWarpThenTakesTheOldest) {
  auto gto = make_warp_scheduler("gto");
  std::vector<WarpView> w = {{true, 5, 5, 0, 0}, {true, 2, 2, 0, 0}, {false, 1, 1, 9, 0}, {true, 3, 3, 0, 0}};
  EXPECT_EQ(gto->pick(w, 3, 0), 3);
  EXPECT_EQ(gto->pick(w, 2, 0), 1);  // last not eligible: oldest eligible
  auto lrr = make_warp_scheduler("lrr");
  EXPECT_EQ(lrr->pick(w, 0, 0), 1);
  EXPECT_EQ(lrr->pick(w, 1, 0), 3);
  EXPECT_EQ(lrr->pick(w, 3, 0), 0);
}

// Warp views for oldest_three: (CTA age, warp age, ready, last issue), every one eligible when ready by `now`.
std::vector<WarpView> views(std::initializer_list<std::array<Tick, 4>> warps, Tick now) {
  std::vector<WarpView> v;
  for (const auto& [cta, age, ready, last] : warps) v.push_back({ready <= now, age, cta, ready, last});
  return v;
}

TEST(Policies, OldestThreeGivesThreePlacesToTheOldestWarpsInTurn) {
  auto three = make_warp_scheduler("oldest_three");
  const Tick now = cycles_to_ticks(1000), soon = now + cycles_to_ticks(5), late = now + cycles_to_ticks(400);
  // Four CTAs, one warp each: the three oldest take turns, the one that issued longest ago first; the youngest waits,
  // also while one of the three is in a short stall (it keeps its place) - until one waits longer (on memory, at a
  // barrier: it leaves its place).
  EXPECT_EQ(three->pick(views({{0, 0, now, 30}, {1, 1, now, 10}, {2, 2, now, 20}, {3, 3, now, 0}}, now), -1, now), 1);
  EXPECT_EQ(three->pick(views({{0, 0, now, 30}, {1, 1, soon, 10}, {2, 2, now, 20}, {3, 3, now, 0}}, now), -1, now), 2);
  EXPECT_EQ(three->pick(views({{0, 0, soon, 30}, {1, 1, soon, 10}, {2, 2, soon, 20}, {3, 3, now, 0}}, now), -1, now), -1);
  EXPECT_EQ(three->pick(views({{0, 0, late, 30}, {1, 1, soon, 10}, {2, 2, soon, 20}, {3, 3, now, 0}}, now), -1, now), 3);
  EXPECT_EQ(three->pick(views({{0, 0, kNever, 30}, {1, 1, soon, 10}, {2, 2, soon, 20}, {3, 3, now, 0}}, now), -1, now), 3);
  // One CTA of four warps: the three that issued longest ago hold the places, so all four rotate through them.
  EXPECT_EQ(three->pick(views({{0, 0, now, 40}, {0, 1, now, 10}, {0, 2, now, 20}, {0, 3, now, 30}}, now), -1, now), 1);
  EXPECT_EQ(three->pick(views({{0, 0, now, 40}, {0, 1, now, 50}, {0, 2, now, 20}, {0, 3, now, 30}}, now), -1, now), 2);
  // Two CTAs of two warps: the older CTA holds two places, the younger one, which its warps share - its turn comes by
  // its latest issue, so the older CTA's warps take a third each and the younger's a sixth.
  EXPECT_EQ(three->pick(views({{0, 0, now, 40}, {0, 1, now, 50}, {4, 4, now, 60}, {4, 5, now, 5}}, now), -1, now), 0);
  EXPECT_EQ(three->pick(views({{0, 0, now, 40}, {0, 1, now, 50}, {4, 4, now, 30}, {4, 5, now, 5}}, now), -1, now), 3);
  EXPECT_EQ(three->pick(views({{0, 0, now, 40}, {0, 1, now, 50}, {4, 4, now, 5}, {4, 5, now, 30}}, now), -1, now), 2);
}

// The rule's shares on a sub-partition whose warps each want the port every cycle (each issue one cycle): picks
// counted over a long run, per warp.
std::vector<int> turns(const std::vector<std::array<Tick, 2>>& ctas_and_ages, int picks) {
  auto three = make_warp_scheduler("oldest_three");
  std::vector<WarpView> w;
  for (const auto& [cta, age] : ctas_and_ages) w.push_back({true, age, cta, 0, 0});
  std::vector<int> count(w.size());
  for (int k = 1; k <= picks; ++k) {
    const Tick now = cycles_to_ticks(static_cast<std::uint64_t>(k));
    for (auto& v : w) v.ready = now;
    const int i = three->pick(w, -1, now);
    ++count[static_cast<size_t>(i)];
    w[static_cast<size_t>(i)].last_issue = now;
  }
  return count;
}

TEST(Policies, OldestThreeSharesThePortAsTheIssueTraceMeasured) {
  EXPECT_EQ(turns({{0, 0}, {0, 1}, {0, 2}, {0, 3}}, 1200), (std::vector<int>{300, 300, 300, 300}));  // one CTA: evenly
  EXPECT_EQ(turns({{0, 0}, {1, 1}, {2, 2}, {3, 3}}, 1200), (std::vector<int>{400, 400, 400, 0}));    // four: three
  EXPECT_EQ(turns({{0, 0}, {0, 1}, {2, 2}, {2, 3}}, 1200), (std::vector<int>{400, 400, 200, 200}));  // two of two
  EXPECT_EQ(turns({{0, 0}, {2, 2}}, 1200), (std::vector<int>{600, 600}));                            // one of each
}

// cta_share: picks per warp over a run in which the warps in `eligible` (all, by default) want the port at every pick,
// each issuing blocks of `block` instructions.
std::vector<int> shares(const std::vector<std::array<Tick, 2>>& ctas_and_ages, int picks, double younger, int block = 1,
                        const std::vector<bool>& eligible = {}) {
  auto share = make_warp_scheduler("cta_share", younger);
  std::vector<WarpView> w;
  for (const auto& [cta, age] : ctas_and_ages) w.push_back({true, age, cta, 0, 0});
  for (size_t i = 0; i < eligible.size(); ++i) w[i].eligible = eligible[i];
  std::vector<int> count(w.size());
  for (int k = 0; k < picks; ++k) {
    const int i = share->pick(w, -1, 0);
    ++count[static_cast<size_t>(i)];
    share->issued(w, i, static_cast<std::uint32_t>(block));
  }
  return count;
}

TEST(Policies, CtaShareSplitsThePortByCtaAge) {
  // Two CTAs of two warps, a younger warp weighing half an older one: 1/3, 1/3, 1/6, 1/6 - the issue trace's shares.
  EXPECT_EQ(shares({{0, 0}, {0, 1}, {4, 4}, {4, 5}}, 1200, 0.5), (std::vector<int>{400, 400, 200, 200}));
  // ... in blocks of 50 instructions too (the block model's grain), and one warp of each CTA: 2/3, 1/3.
  EXPECT_EQ(shares({{0, 0}, {0, 1}, {4, 4}, {4, 5}}, 1200, 0.5, 50), (std::vector<int>{400, 400, 200, 200}));
  EXPECT_EQ(shares({{0, 0}, {4, 4}}, 1200, 0.5), (std::vector<int>{800, 400}));
  // One CTA, or a weight of 1: evenly. Three CTAs: each a step lower.
  EXPECT_EQ(shares({{0, 0}, {0, 1}, {0, 2}}, 1200, 0.5), (std::vector<int>{400, 400, 400}));
  EXPECT_EQ(shares({{0, 0}, {0, 1}, {4, 4}, {4, 5}}, 1200, 1.0), (std::vector<int>{300, 300, 300, 300}));
  EXPECT_EQ(shares({{0, 0}, {2, 2}, {4, 4}}, 700, 0.5), (std::vector<int>{400, 200, 100}));
  // Alone on the port the younger CTA takes all of it: the share only divides what several warps want.
  EXPECT_EQ(shares({{0, 0}, {4, 4}}, 100, 0.5, 1, {false, true}), (std::vector<int>{0, 100}));
}

TEST(Policies, CtaShareBanksNoSlotsForAWarpThatWaited) {
  auto share = make_warp_scheduler("cta_share", 0.5);
  std::vector<WarpView> w = {{false, 0, 0, 0, 0}, {true, 4, 4, 0, 0}};
  for (int k = 0; k < 300; ++k) share->issued(w, share->pick(w, -1, 0), 1);  // the older warp waits (on memory)
  w[0].eligible = true;
  std::vector<int> count(2);
  for (int k = 0; k < 30; ++k) {
    const int i = share->pick(w, -1, 0);
    ++count[static_cast<size_t>(i)];
    share->issued(w, i, 1);
  }
  EXPECT_EQ(count, (std::vector<int>{20, 10}));  // its share from its return on, not the 300 slots it missed
}

TEST(Policies, DispatchersFillBreadthOrDepthFirst) {
  auto rr = make_dispatcher("round_robin"), greedy = make_dispatcher("greedy");
  std::vector<int> free = {2, 2, 0, 2};
  EXPECT_EQ(rr->pick(free, 1), 3);
  EXPECT_EQ(rr->pick(free, 3), 0);
  EXPECT_EQ(greedy->pick(free, 1), 0);
  EXPECT_EQ(rr->pick({0, 0}, 0), -1);
}

TEST(Policies, DispatchersFollowAnSmOrder) {
  const std::vector<int> order = {2, 0, 3, 1};
  auto rr = make_dispatcher("round_robin", order), greedy = make_dispatcher("greedy", order);
  std::vector<int> free = {1, 1, 1, 1};
  EXPECT_EQ(rr->pick(free, -1), 2);  // the first launch goes to the order's head
  EXPECT_EQ(rr->pick(free, 2), 0);
  EXPECT_EQ(rr->pick(free, 1), 2);  // wraps round
  free[3] = 0;
  EXPECT_EQ(rr->pick(free, 0), 1);  // skips a full SM
  EXPECT_EQ(greedy->pick(free, 1), 2);
}

TEST(SmOrder, ParsesRangesAndRefusesWhatIsNotEverySmOnce) {
  std::string why;
  EXPECT_EQ(*parse_sm_order("", 4, &why), std::vector<int>{});
  EXPECT_EQ(*parse_sm_order("2-3, 1-0", 4, &why), (std::vector<int>{2, 3, 1, 0}));
  EXPECT_FALSE(parse_sm_order("0-2", 4, &why));
  EXPECT_NE(why.find("SM 3 is missing"), std::string::npos) << why;
  EXPECT_FALSE(parse_sm_order("0-3,2", 4, &why));
  EXPECT_NE(why.find("SM 2 appears twice"), std::string::npos) << why;
  for (const char* junk : {"0-4", "x,1,2,3", "-1,0,1,2", "0--3", "0,1,2,3,", "1.0,0,2,3"})
    EXPECT_FALSE(parse_sm_order(junk, 4, &why)) << junk;
  // A preset's order under a smaller sm.count (--set gpu.sm.count=1): the message says how to drop it.
  EXPECT_FALSE(parse_sm_order("3,0-2", 1, &why));
  EXPECT_NE(why.find("set launch.sm_order empty"), std::string::npos) << why;
  EXPECT_FALSE(parse_sm_order("x,0", 1, &why));
  EXPECT_EQ(why.find("set launch.sm_order empty"), std::string::npos) << why;
  // Property: any permutation written out, with runs as ranges or not, reads back as itself.
  std::mt19937 rng(7);
  for (int k = 0; k < 200; ++k) {
    std::vector<int> p(static_cast<size_t>(1 + k % 40));
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng);
    std::string text;
    for (int v : p) text += (text.empty() ? "" : ",") + std::to_string(v);
    const auto back = parse_sm_order(text, static_cast<int>(p.size()), &why);
    ASSERT_TRUE(back) << text << ": " << why;
    EXPECT_EQ(*back, p);
  }
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

// gfx906-style: 64 B L1 lines (one sector) in front of 128 B L2 lines with 64 B sectors.
TEST(MemorySystem, L1AndL2WithDifferentLineSizes) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/z100.yaml"), "", {}, false});
  ASSERT_EQ(cfg.gpu.value.l1.line, 64);
  ASSERT_EQ(cfg.gpu.value.l2.line, 128);
  MemorySystem mem(cfg.gpu.value);
  Region r{0x100000, 4, 256, 4096};  // 4 rows of 4 L1 lines = 2 L2 lines each
  mem.load(AccessCtx{0, 0, nullptr}, r, false);
  EXPECT_EQ(mem.counters().l1_ld_sectors, 16u);
  EXPECT_EQ(mem.counters().l1_ld_hit_sectors, 0u);
  EXPECT_EQ(mem.counters().l2_read_sectors, 16u);  // 1024 B in 64 B L2 sectors
  const Tick later = cycles_to_ticks(100000);
  Tick done = mem.load(AccessCtx{0, later, nullptr}, r, false);
  EXPECT_EQ(mem.counters().l1_ld_hit_sectors, 16u);
  EXPECT_EQ(mem.counters().l2_read_sectors, 16u);
  EXPECT_LT(done, later + cycles_to_ticks(cfg.gpu.value.l2.hit_latency));
}

}  // namespace
}  // namespace gms
