// sm.issue_share_beside_one / sm.issue_share_beside_more: a block beside other eligible warps of its sub-partition
// holds its warp as long as silicon's scheduler, which shares the port instruction by instruction, would take to issue
// it (gms-issue-ubench, validate/results/h100/issue_share).
#include <gtest/gtest.h>

#include "one_cta_kernel.h"

namespace gms {
namespace {

// sm.issue_share_*: two warps a sub-partition, each of whose blocks could issue back to back (a floor of one cycle an
// instruction). Greedy blocks let the older warp finish before the younger starts (selected 2/3 of the warps' time);
// with a share of 0.5 beside one other warp they take turns, as silicon's two warps do (issue_share: 0.5 / 0.5).
TEST(IssueShare, TwoWarpsThatCouldEachIssueEveryCycleTakeTurns) {
  const auto k = test::RepeatedBlock("dense_alu", 8, test::alu_block(100, 100));
  const SimResult greedy = test::run_on_h100(k, {});
  const SimResult shared = test::run_on_h100(k, {"gpu.sm.issue_share_beside_one=0.5"});
  EXPECT_NEAR(greedy.stalls.pct(WarpState::kSelected), 100.0 * 2 / 3, 1.0);
  EXPECT_NEAR(shared.stalls.pct(WarpState::kSelected), 50.0, 1.0);
  EXPECT_NEAR(shared.stalls.pct(WarpState::kNotSelected), 50.0, 1.0);
  EXPECT_NEAR(static_cast<double>(shared.end), static_cast<double>(greedy.end), 0.02 * static_cast<double>(greedy.end));
}

}  // namespace
}  // namespace gms
