// sm.barrier_latency: a CTA's warps go on from a barrier that long after its last warp arrives. On an H200 a
// barrier costs a CTA alone on its SM 43-49 cycles (gms-issue-ubench --wake, validate/results/h200/issue_wake).
#include <gtest/gtest.h>

#include <string>

#include "model/engine.h"
#include "one_cta_kernel.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

// Warp 1 computes 100 cycles before the barrier, warp 0 arrives at once; after it each warp computes 10 cycles
// (`exit_early`: warp 1 exits instead of arriving, which releases warp 0 - a traced CTA may lose warps so).
class BarrierAfterMath final : public test::OneCtaKernel {
 public:
  explicit BarrierAfterMath(bool exit_early) : OneCtaKernel("barrier_after_math", 2), exit_early_(exit_early) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    // warp 0: barrier, 10 cycles, exit; warp 1: 100 cycles, barrier (or exit), 10 cycles, exit
    const int math = c.warp == 0 ? (step == 1 ? 10 : 0) : (step == 0 ? 100 : step == 2 ? 10 : 0);
    if (math > 0) {
      out.op = Op::kCompute;
      out.pipe = Pipe::kFma;
      out.flops = 64.0 * math;  // cycles of the sub-partition's FMA pipe
      out.issue_cycles = 1;
      return;
    }
    const bool at_barrier = c.warp == 0 ? step == 0 : step == 1 && !exit_early_;
    out.op = at_barrier ? Op::kBarrier : Op::kExit;
  }

 private:
  bool exit_early_;
};

SimResult run(bool exit_early, int latency) {
  return test::run_on_h100(BarrierAfterMath(exit_early), {"gpu.sm.barrier_latency=" + std::to_string(latency) + "cycles"});
}

TEST(Engine, ABarrierReleasesItsWarpsTheLatencyAfterTheLastArrival) {
  const SimResult none = run(false, 0), lat = run(false, 45);
  EXPECT_EQ(lat.end, none.end + 45 * kCycle);
  // Both warps wait the 45 cycles more at the barrier: warp 0 from its arrival, warp 1 from its own.
  EXPECT_EQ(lat.stalls.total(WarpState::kBarrier), none.stalls.total(WarpState::kBarrier) + 2 * 45 * kCycle);
  EXPECT_GT(none.stalls.total(WarpState::kBarrier), 90 * kCycle);  // warp 0 waited for warp 1's math
}

TEST(Engine, ABarrierThatAnExitCompletesWaitsTheLatencyToo) {
  const SimResult none = run(true, 0), lat = run(true, 45);
  EXPECT_EQ(lat.end - none.end, 45 * kCycle);
  EXPECT_EQ(lat.stalls.total(WarpState::kBarrier), none.stalls.total(WarpState::kBarrier) + 45 * kCycle);
}

}  // namespace
}  // namespace gms
