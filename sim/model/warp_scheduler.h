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
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Returns the position in `warps` to issue at `now`, or -1. `last` is the position that issued last (-1: none).
  // A policy may leave eligible warps waiting (-1 with some eligible): the caller wakes it again when another warp
  // becomes ready.
  virtual int pick(const std::vector<WarpView>& warps, int last, Tick now) const = 0;
};

// "gto": keep issuing from the last warp while it can, else the oldest eligible warp.
// "lrr": the next eligible warp after the last one, round robin.
// "oldest_three": three places, taken by the oldest warps whose next instruction is ready within a short stall (a
//   CTA's warps rotating through them), take turns; younger warps wait (gms-issue-trace-ubench,
//   validate/results/h200/issue_trace).
std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name);

}  // namespace gms
