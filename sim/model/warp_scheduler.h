#pragma once
// Which ready warp of a sub-partition issues next. A named policy.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"

namespace gms {

struct WarpView {
  bool eligible = false;      // resident, not at a barrier, ready by now
  std::uint64_t age = 0;      // launch order: smaller is older
  std::uint64_t cta_age = 0;  // its CTA's launch order (the age of the CTA's first warp)
  Tick ready = kNever;        // when its next instruction can issue (kNever: at a barrier or gone)
  Tick last_issue = 0;        // when it last issued (0: not yet)
  double pass = 0;            // cta_share: the issue slots it has used, over its weight (a stride's pass)
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Returns the position in `warps` to issue at `now`, or -1. `last` is the position that issued last (-1: none).
  // A policy may leave eligible warps waiting (-1 with some eligible): the caller wakes it again when another warp
  // becomes ready.
  virtual int pick(const std::vector<WarpView>& warps, int last, Tick now) const = 0;
  // Whether the policy keeps account of the slots each warp used (issued() is called after every pick).
  virtual bool counts_issue() const { return false; }
  // The warp at `pick` issued `instructions`: the policy's accounts in the views move on.
  virtual void issued(std::vector<WarpView>& /*warps*/, int /*pick*/, std::uint32_t /*instructions*/) const {}
};

// "gto": keep issuing from the last warp while it can, else the oldest eligible warp.
// "lrr": the next eligible warp after the last one, round robin.
// "oldest_three": three places, taken by the oldest warps whose next instruction is ready within a short stall (a
//   CTA's warps rotating through them), take turns; younger warps wait (gms-issue-trace-ubench,
//   validate/results/h200/issue_trace).
// "cta_share": the eligible warps share the port by weight, a warp of each younger CTA (among those with an eligible
//   warp) weighing `younger_cta_share` of one of the next older CTA: the eligible warp that has used the fewest slots
//   for its weight issues (a stride scheduler; a warp that waited does not bank slots). At 0.5 two CTAs of two warps
//   each that all want the port split it 1/3, 1/3, 1/6, 1/6 - the issue trace's shares for that case.
std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name, double younger_cta_share = 0.5);

}  // namespace gms
