// sm.shared_fills: when a cp.async (LDGSTS) writes its data into shared memory - as it issues, when
// its data is back (in time order with the shared instructions), or when the data path is idle.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/simulation.h"
#include "model/engine.h"
#include "model/shared_fills.h"
#include "metric_util.h"
#include "one_cta_kernel.h"
#include "test_util.h"

namespace gms {
namespace {

TEST(SharedFills, TakesArrivedFillsInArrivalThenIssueOrder) {
  SharedFills q(2);
  auto fill = [&q](Tick arrive, int warp) { return PendingFill{arrive, q.issue_seq(), 4, warp, 0, 1}; };
  q.add(1, fill(50, 0));
  q.add(1, fill(10, 1));
  q.add(1, fill(10, 2));
  q.add(1, fill(70, 3));
  EXPECT_TRUE(q.empty(0));
  EXPECT_EQ(q.earliest(1), 10u);
  std::vector<int> order;
  q.take_arrived(1, 50, [&](const PendingFill& f) { order.push_back(f.warp); });
  EXPECT_EQ(order, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(q.earliest(1), 70u);
  q.take_arrived(1, 69, [&](const PendingFill&) { ADD_FAILURE() << "a fill taken before it arrived"; });
  EXPECT_FALSE(q.empty(1));
}

// A pipelined run adds a fill whose lines went to L2 when the memory side has timed them, after fills issued later
// that hit in L1: ties still go in the order the fills issued, not the order they were added.
TEST(SharedFills, TiesGoInIssueOrderNotInTheOrderTheyWereAdded) {
  SharedFills q(1);
  const std::uint64_t first = q.issue_seq(), second = q.issue_seq(), third = q.issue_seq();
  q.add(0, PendingFill{10, third, 4, 3, 0, 1});
  q.add(0, PendingFill{10, first, 4, 1, 0, 1});
  q.add(0, PendingFill{10, second, 4, 2, 0, 1});
  std::vector<int> order;
  q.take_arrived(0, 10, [&](const PendingFill& f) { order.push_back(f.warp); });
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

// One CTA of three warps: warp 0 copies one line into shared memory and waits for it; warp 1 queues
// 100 shared loads of 32 wavefronts (3,200 cycles of the data path) at once; warp 2 issues one such
// load after a stretch of math that ends while the path is still busy and the copy's data is back.
class CopyBehindSharedLoads final : public test::OneCtaKernel {
 public:
  CopyBehindSharedLoads() : OneCtaKernel("copy_behind_shared_loads", 3) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (c.warp == 0) {
      if (!test::wait_then_exit(step, 1, 2, out)) test::copy_past_l1(Region{0x7f0000000000ull, 1, 128, 128, 0, 128}, 2, out);
      return;
    }
    const int loads = c.warp == 1 ? 100 : 1;
    const int first = c.warp == 1 ? 0 : 1;  // warp 2: its math first
    if (c.warp == 2 && step == 0) {
      out.op = Op::kCompute;
      out.pipe = Pipe::kFma;
      out.flops = 64.0 * 1500;  // ~1,500 cycles of this sub-partition's FMA pipe (256 FLOP/cycle/SM)
      out.issue_cycles = 1;
      return;
    }
    if (step < first + loads) {
      out.op = Op::kSharedLoad;
      out.wavefronts = 32;
      out.conflicts = 31;
      out.issue_cycles = 1;
      out.slot = 1;
    } else if (step == first + loads) {
      out.op = Op::kWait;
      out.slot = 1;
    } else {
      out.op = Op::kExit;
    }
  }
  double compulsory_bytes() const override { return 128; }
  double flops() const override { return 0; }
};

SimResult run_with(const std::string& mode) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                       test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                       {"gpu.sm.shared_fills=" + mode}});
  CopyBehindSharedLoads k;
  return Engine(cfg.gpu.value, k).run();
}

TEST(Engine, CopiesTakeTheSharedPathWhenTheirDataIsBackNotWhenTheyIssue) {
  const SimResult issue = run_with("issue"), arrival = run_with("arrival"), idle = run_with("idle");
  // The same work in every mode: one copy of 4 wavefronts, 101 loads of 32.
  for (const SimResult* r : {&issue, &arrival, &idle}) {
    EXPECT_EQ(r->shared.ldgsts_wavefronts, 4u);
    EXPECT_EQ(r->shared.ld_wavefronts, 101u * 32u);
  }
  // issue: the copy's 4 wavefronts went in ahead of warp 1's queue, so warp 0 waits only for its
  // data; arrival and idle: its data is back while the queue is still being served, and it waits
  // behind it (~3,200 cycles), as Nsight's long_scoreboard.
  const double waited_issue = issue.stalls.pct(WarpState::kLongScoreboard);
  EXPECT_GT(arrival.stalls.pct(WarpState::kLongScoreboard), 2 * waited_issue);
  EXPECT_GE(idle.stalls.pct(WarpState::kLongScoreboard), arrival.stalls.pct(WarpState::kLongScoreboard));
  // idle: warp 2's load, issued after the copy's data was back, still goes first; arrival: it queues
  // behind the copy. Either way the path ends busy at the same time, the CTA no earlier.
  EXPECT_GT(idle.stalls.pct(WarpState::kLongScoreboard), arrival.stalls.pct(WarpState::kLongScoreboard));
  EXPECT_GE(arrival.end, issue.end);
}

TEST(Engine, SharedFillModesChangeNothingWithoutCopiesIntoSharedMemory) {
  // Seed 001's GEMV and the naive seed-002 rung copy with plain loads and stores: bit-identical - once their loads'
  // data does not take the data path as fills do (sm.load_data_bytes_per_cycle, load_data_path_test.cpp).
  for (const char* workload : {"configs/workloads/seed001-gemv-llcc.yaml", "configs/workloads/seed002/r0-naive.yaml"}) {
    std::vector<std::string> sets{"gpu.sm.load_data_bytes_per_cycle=0"};
    if (std::string(workload).find("seed002") != std::string::npos) sets.insert(sets.end(), {"workload.cta_limit=132", "workload.k=512"});
    auto base = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), test::source_path(workload), sets});
    sets.push_back("gpu.sm.shared_fills=idle");
    auto idle = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), test::source_path(workload), sets});
    const auto a = simulate(base), b = simulate(idle);
    EXPECT_EQ(a.result.end, b.result.end) << workload;
    EXPECT_EQ(a.result.stalls.pct(WarpState::kLongScoreboard), b.result.stalls.pct(WarpState::kLongScoreboard)) << workload;
  }
}

// The WMMA GEMM at pad 0 (ldmatrix with 4- and 8-way conflicts keep the shared path busy): with the
// copies written only where the path is idle, its warps wait on them (long_scoreboard; silicon 16 %,
// validate/results/h100/padding) and no longer on ldmatrix queued behind copies booked as they issued
// (short_scoreboard). The fills' order alone: without the mma.sync dispatch hold, which keeps the other
// warps from issuing while a warp's HMMAs are in the pipe and so hides part of either wait
// (mma_dispatch_test.cpp; with it the copies' wait still doubles, 2.8 -> 5.8 %), and without ldmatrix going one
// at a time beside the other warps' HMMAs (ldsm_beside_mma_test.cpp), which adds to the ldmatrix wait in both.
TEST(Engine, IdleFillsMakeThePadZeroGemmWaitOnItsCopies) {
  auto with = [](const std::string& mode) {
    return simulate(load_configs(ConfigInputs{
        test::source_path("configs/gpus/h100.yaml"), test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
        {"workload.tile.k=32", "workload.smem.pad=0", "workload.k=2048", "workload.cta_limit=264",
         "gpu.sm.shared_fills=" + mode, "gpu.sm.mma_sync_holds_dispatch=false",
         "gpu.sm.ldmatrix_one_at_a_time_beside_mma=false"}}));
  };
  const auto issue = with("issue"), idle = with("idle");
  EXPECT_GT(idle.result.stalls.pct(WarpState::kLongScoreboard), issue.result.stalls.pct(WarpState::kLongScoreboard) + 5);
  EXPECT_LT(idle.result.stalls.pct(WarpState::kShortScoreboard), issue.result.stalls.pct(WarpState::kShortScoreboard) - 5);
  EXPECT_EQ(idle.result.shared.ld_wavefronts, issue.result.shared.ld_wavefronts);
}

// sm.copy_fill_bytes_per_cycle: warp 0 copies 64 x 512 bytes into shared memory past L1 (cp.async.cg,
// 4 destination wavefronts each) while warp 1 keeps the data path busy with 2,000 two-wavefront
// loads (one warp's 31 MIO entries, each freed 47 cycles after the path, cannot keep it busy with
// one-wavefront loads). The path's time per copy is its bytes at the rate (gms-fill-ubench: ~2
// cycles on the H100) instead of its 4 wavefronts, so warp 1 finishes 64 x 2 cycles earlier; copies
// through L1 keep their store wavefronts.
class CopiesBesideSharedLoads final : public test::OneCtaKernel {
 public:
  explicit CopiesBesideSharedLoads(bool bypass_l1) : OneCtaKernel("copies_beside_shared_loads", 2), bypass_(bypass_l1) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (test::wait_then_exit(step, c.warp == 0 ? 64 : 2000, 1, out)) return;
    out.issue_cycles = 1;
    out.slot = 1;
    out.wavefronts = c.warp == 0 ? 4 : 2;
    if (c.warp == 0) {
      out.op = Op::kLoad;
      out.async_copy = true;
      out.bypass_l1 = bypass_;
      out.region = Region{0x7f0000000000ull + static_cast<Addr>(step) * 512, 1, 512, 512, step * 512, 512};
    } else {
      out.op = Op::kSharedLoad;
    }
  }

 private:
  bool bypass_;
};

TEST(Engine, CopiesPastL1TakeTheSharedPathAtTheirFillRate) {
  auto warp1_end = [](bool bypass_l1, const std::string& rate) {
    auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                         test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                         {"gpu.sm.copy_fill_bytes_per_cycle=" + rate}});
    CopiesBesideSharedLoads k(bypass_l1);
    const SimResult r = Engine(cfg.gpu.value, k).run();
    EXPECT_EQ(r.shared.ldgsts_instructions, 64u);
    EXPECT_EQ(r.shared.ldgsts_wavefronts, 256u);  // what ncu would count as their store wavefronts
    return ticks_to_cycles(r.end);
  };
  const double as_stores = warp1_end(true, "0"), at_rate = warp1_end(true, "256");
  EXPECT_NEAR(as_stores - at_rate, 64 * 2, 8);
  EXPECT_EQ(warp1_end(false, "0"), warp1_end(false, "256"));
}

// sm.shared_fills: between - warp 0 queues 200 ldmatrix of 16 wavefronts (3,200 cycles of the data
// path) while warp 1's copy is in flight. Its data is back long before the queue drains: `arrival`
// writes it behind the whole queue, `between` at the end of the ldmatrix in service (the arbitration
// gms-fill-ubench measured), so warp 1 waits far less on it.
class CopyBesideAnLdmatrixQueue final : public test::OneCtaKernel {
 public:
  CopyBesideAnLdmatrixQueue() : OneCtaKernel("copy_beside_an_ldmatrix_queue", 2) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    const int n = c.warp == 0 ? 200 : 1;
    if (step < n) {
      out.issue_cycles = 1;
      out.slot = 1;
      if (c.warp == 0) {
        out.op = Op::kSharedLoad;
        out.ldmatrix = true;
        out.wavefronts = 16;
      } else {
        out.op = Op::kLoad;
        out.async_copy = true;
        out.bypass_l1 = true;
        out.wavefronts = 4;
        out.region = Region{0x7f0000000000ull, 1, 512, 512, 0, 512};
      }
    } else if (step == n) {
      out.op = Op::kWait;
      out.slot = 1;
    } else {
      out.op = Op::kExit;
    }
  }
};

TEST(Engine, BetweenFillsTakeTheNextInstructionBoundaryNotTheQueuesEnd) {
  auto run = [](const std::string& mode) {
    auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                         test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                         // 200 ldmatrix booked at once: no MIO bound caps the queue
                                         {"gpu.sm.shared_fills=" + mode, "gpu.sm.mio_queue_per_sm=0",
                                          "gpu.sm.mio_queue_per_subpartition=0"}});
    CopyBesideAnLdmatrixQueue k;
    return Engine(cfg.gpu.value, k).run();
  };
  const SimResult arrival = run("arrival"), between = run("between");
  EXPECT_GT(ticks_to_cycles(arrival.end), 3200);
  EXPECT_NEAR(ticks_to_cycles(between.end), ticks_to_cycles(arrival.end), 8);  // warp 0's queue ends the CTA
  // Warp 1 waits from its copy's issue to its write: ~3,200 cycles behind the queue, or its data's
  // return from L2 plus at most one ldmatrix.
  EXPECT_LT(between.stalls.pct(WarpState::kLongScoreboard), 0.5 * arrival.stalls.pct(WarpState::kLongScoreboard));
}

}  // namespace
}  // namespace gms
