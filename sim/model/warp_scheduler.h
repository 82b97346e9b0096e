#pragma once
// Which ready warp of a sub-partition issues next. A named policy.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"

namespace gms {

struct WarpView {
  bool eligible;      // resident, not at a barrier, ready by now
  std::uint64_t age;  // launch order: smaller is older
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Returns the position in `warps` to issue, or -1. `last` is the position that issued last (-1: none).
  virtual int pick(const std::vector<WarpView>& warps, int last) const = 0;
};

// "gto": keep issuing from the last warp while it can, else the oldest eligible warp.
// "lrr": the next eligible warp after the last one, round robin.
std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name);

}  // namespace gms
