// l2.reads_in_arrival_order: loads timed at their SM, their lines handed to the slices, the fabric and DRAM
// from the SMs' outboxes in order of departure (docs/calibration.md, "Reads in arrival order"). The SM side
// (L1, the port, the way out) is memory_system.cpp's, run with `deferring_` set: its line requests go to the
// outbox instead of to l2_read_line.
#include "model/memory_system.h"

#include <algorithm>

#include "common/error.h"

namespace gms {

template <class Issue>
MemorySystem::Issued MemorySystem::deferred(std::uint32_t owner, Issue&& issue) {
  SIM_ASSERT(reads_in_order_ && deferring_ == kNoLoad, "load_in_order without l2.reads_in_arrival_order, or inside another");
  std::uint32_t id;
  if (!free_loads_.empty()) {
    id = free_loads_.back();
    free_loads_.pop_back();
  } else {
    id = static_cast<std::uint32_t>(open_loads_.size());
    open_loads_.emplace_back();
  }
  open_loads_[id] = OpenLoad{0, 0, owner};
  deferring_ = id;
  const Tick known = issue();
  deferring_ = kNoLoad;
  OpenLoad& o = open_loads_[id];
  if (o.lines_left == 0) {
    free_loads_.push_back(id);
    return {known, false};
  }
  o.done = known;
  return {known, true};
}

MemorySystem::Issued MemorySystem::load_in_order(const AccessCtx& ctx, const Region& region, bool bypass_l1,
                                                 EvictHint hint, std::uint32_t owner) {
  return deferred(owner, [&] { return load(ctx, region, bypass_l1, hint); });
}
MemorySystem::Issued MemorySystem::load_in_order(const AccessCtx& ctx, const LaneAccess& lanes, bool bypass_l1,
                                                 EvictHint hint, std::uint32_t owner) {
  return deferred(owner, [&] { return load(ctx, lanes, bypass_l1, hint); });
}
MemorySystem::Issued MemorySystem::tma_load_in_order(const AccessCtx& ctx, const Region& region, std::uint32_t boxes,
                                                     EvictHint hint, std::uint32_t owner) {
  return deferred(owner, [&] { return tma_load(ctx, region, boxes, hint); });
}

bool MemorySystem::take_next_read(Completed* out) {
  const int sm = outbox_.next_sm();
  const Tick depart = outbox_.front_departure();
  // The line takes the SM's oldest MSHR entry once it is free; until then it and the SM's later lines wait.
  const Tick mshr = mshr_ring_[static_cast<std::size_t>(sm)][mshr_next_[static_cast<std::size_t>(sm)]];
  if (mshr > depart) {
    outbox_.delay_front(mshr);
    return false;
  }
  const OutboundRead r = outbox_.front();
  outbox_.pop();
  // The next line's L2 set into the host's cache while this one is timed (the batch prefetch of read_batch
  // ran at issue, long before).
  if (!outbox_.empty()) prefetch_l2(outbox_.next_sm(), outbox_.front().line, outbox_.front_departure());
  const Tick done = l2_read_line(sm, r.line, r.mask, depart, r.cta, r.hint, r.may_merge);
  if (r.l1_slot != kNoSlot && l1_ && l1_->holds(r.l1_slot, r.l1_line)) l1_->hold_until(r.l1_slot, r.l1_mask, done);
  OpenLoad& o = open_loads_[r.load];
  o.done = std::max(o.done, done);
  if (--o.lines_left > 0) return false;
  *out = Completed{o.owner, o.done};
  free_loads_.push_back(r.load);
  return true;
}

}  // namespace gms
