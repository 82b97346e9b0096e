#include "model/request_coalescer.h"

#include <algorithm>

namespace gms {

RequestCoalescer::RequestCoalescer(int slices, int entries_per_slice, Tick hold_ticks, std::uint32_t full_mask)
    : entries_(static_cast<std::uint32_t>(std::max(entries_per_slice, 0))),
      entry_of_(std::max<std::uint32_t>(1, entries_)),
      hold_ticks_(hold_ticks),
      full_mask_(full_mask),
      table_(static_cast<std::size_t>(slices) * entries_) {}

void RequestCoalescer::clear() { std::fill(table_.begin(), table_.end(), Open{}); }

}  // namespace gms
