// sm.dispatch_stall_follows_residents: a block's measured dispatch stall is the lone profile's with as many
// warps resident on its sub-partition as one CTA an SM left there, the kernel's profile's with as many as that
// profile had, linear between (the seed-002 ladder on an H200: r0_naive 0.22 cycles an issued instruction
// alone, 0.76 with eight CTAs an SM; validate/results/h200/ladder_issue_alone).
#include <gtest/gtest.h>

#include <string>

#include "model/engine.h"
#include "one_cta_kernel.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

// Every warp issues `blocks` single instructions, each with a dispatch stall of 100 cycles on the kernel's
// profile (3 warps a scheduler) and 10 on its lone one (1 warp a scheduler), then exits.
class DispatchBlocks final : public test::OneCtaKernel {
 public:
  DispatchBlocks(int warps, int blocks) : OneCtaKernel("dispatch_blocks", warps), blocks_(blocks) {}
  LaunchShape shape() const override {
    LaunchShape s = OneCtaKernel::shape();
    s.profiled_warps_per_scheduler = 3;
    s.alone_warps_per_scheduler = 1;
    return s;
  }
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    if (c.step++ >= blocks_) {
      out.op = Op::kExit;
      return;
    }
    out.op = Op::kCompute;
    out.pipe = Pipe::kAlu;
    out.issue_cycles = 1;
    out.hold_ticks = static_cast<std::uint32_t>(kCycle);
    out.dispatch_ticks = static_cast<std::uint32_t>(100 * kCycle);
    out.dispatch_alone_ticks = static_cast<std::uint32_t>(10 * kCycle);
  }

 private:
  int blocks_;
};

Tick dispatch_stalls(int warps, bool follows) {
  const SimResult r = test::run_on_h100(DispatchBlocks(warps, 10), {std::string("gpu.sm.dispatch_stall_follows_residents=") +
                                                                         (follows ? "true" : "false")});
  return r.stalls.total(WarpState::kDispatchStall);
}

TEST(Engine, ADispatchStallFollowsTheWarpsResidentOnTheSubPartition) {
  // Off: the kernel's profile for every warp.
  EXPECT_EQ(dispatch_stalls(8, false), 8 * 10 * 100 * kCycle);
  // One warp a sub-partition (4 warps): the lone profile's 10 cycles.
  EXPECT_EQ(dispatch_stalls(4, true), 4 * 10 * 10 * kCycle);
  // Two (8 warps): half way from 1 to the profile's 3 warps, 10 + (100 - 10) / 2 = 55 cycles.
  EXPECT_EQ(dispatch_stalls(8, true), 8 * 10 * 55 * kCycle);
  // Three (12 warps): the kernel's profile's.
  EXPECT_EQ(dispatch_stalls(12, true), 12 * 10 * 100 * kCycle);
}

}  // namespace
}  // namespace gms
