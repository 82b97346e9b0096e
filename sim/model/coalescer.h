#pragma once
// A warp (or wavefront) instruction's lane addresses -> the lines it touches and, per line, the
// sectors, in the order the lanes first touch them: what the LSU sends on. Generated workloads use
// the region form (for_each_line in memory_system.h); traces and per-lane patterns use this one.
#include <cstdint>
#include <vector>

#include "common/types.h"

namespace gms {

struct LineRequest {
  Addr line = 0;              // line-aligned address
  std::uint32_t sectors = 0;  // bit i = sector i of the line
};

// `lanes[i]` is lane i's address, used when bit i of `active` is set (up to 64 lanes); each lane
// accesses `bytes` bytes from its address (it may cross sector and line boundaries).
// The same for `count` addresses that are all active (a trace's lanes), into `out` (cleared first),
// so a caller that keeps `out` allocates nothing per instruction.
void coalesce_into(std::vector<LineRequest>& out, const Addr* lanes, std::uint32_t count, std::uint32_t bytes,
                   std::uint32_t line_bytes, std::uint32_t sector_bytes);

std::vector<LineRequest> coalesce(const std::vector<Addr>& lanes, std::uint64_t active, std::uint32_t bytes,
                                  std::uint32_t line_bytes, std::uint32_t sector_bytes);

}  // namespace gms
