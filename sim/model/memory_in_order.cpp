// l2.reads_in_arrival_order / l2.writes_in_arrival_order: accesses timed at their SM, their requests handed to
// the slices, the fabric and DRAM from the SMs' outboxes in order of departure (docs/calibration.md, "Reads in
// arrival order"). The SM side (L1, the port, the way out) is memory_system.cpp's and memory_stores.cpp's, run
// with `deferring_` set: their requests go to the outbox instead of to l2_read_line, l2_write_line and
// reduce_line.
#include "model/memory_system.h"

#include <algorithm>

#include "common/error.h"

namespace gms {

template <class Issue>
auto MemorySystem::deferred(bool enabled, std::uint32_t owner, Issue&& issue) -> InOrder<decltype(issue())> {
  SIM_ASSERT(enabled, "an in-order access without its l2.*_in_arrival_order switch");
  SIM_ASSERT(deferring_ == kNoLoad, "an in-order access issued inside another");
  std::uint32_t id;
  if (!free_loads_.empty()) {
    id = free_loads_.back();
    free_loads_.pop_back();
  } else {
    id = static_cast<std::uint32_t>(open_loads_.size());
    open_loads_.emplace_back();
  }
  open_loads_[id] = OpenLoad{0, 0, 0, owner};
  deferring_ = id;
  auto known = issue();
  deferring_ = kNoLoad;
  const bool pending = open_loads_[id].lines_left > 0;
  if (!pending) free_loads_.push_back(id);
  return {known, pending};
}

MemorySystem::Issued MemorySystem::load_in_order(const AccessCtx& ctx, const Region& region, bool bypass_l1,
                                                 EvictHint hint, std::uint32_t owner) {
  return deferred(defers_reads(), owner, [&] { return load(ctx, region, bypass_l1, hint); });
}
MemorySystem::Issued MemorySystem::load_in_order(const AccessCtx& ctx, const LaneAccess& lanes, bool bypass_l1,
                                                 EvictHint hint, std::uint32_t owner) {
  return deferred(defers_reads(), owner, [&] { return load(ctx, lanes, bypass_l1, hint); });
}
MemorySystem::Issued MemorySystem::tma_load_in_order(const AccessCtx& ctx, const Region& region, std::uint32_t boxes,
                                                     EvictHint hint, std::uint32_t owner) {
  return deferred(defers_reads(), owner, [&] { return tma_load(ctx, region, boxes, hint); });
}
MemorySystem::IssuedStore MemorySystem::store_in_order(const AccessCtx& ctx, const Region& region, bool local,
                                                       std::uint32_t owner) {
  return deferred(defers_writes(), owner, [&] { return local ? store_local(ctx, region) : store(ctx, region); });
}
MemorySystem::IssuedStore MemorySystem::store_in_order(const AccessCtx& ctx, const LaneAccess& lanes, bool local,
                                                       std::uint32_t owner) {
  return deferred(defers_writes(), owner, [&] { return local ? store_local(ctx, lanes) : store(ctx, lanes); });
}
MemorySystem::IssuedReduce MemorySystem::reduce_in_order(const AccessCtx& ctx, const Region& region, std::uint32_t owner) {
  return deferred(defers_writes(), owner, [&] { return reduce(ctx, region); });
}
MemorySystem::IssuedReduce MemorySystem::reduce_in_order(const AccessCtx& ctx, const LaneAccess& lanes, std::uint32_t owner) {
  return deferred(defers_writes(), owner, [&] { return reduce(ctx, lanes); });
}

bool MemorySystem::take_next_request(Completed* out) {
  if (pipelined_) return take_next_queued(out);
  if (hand_out_completed(out)) return true;  // loads the last take completed besides its own (hits on its L1 sectors)
  const int sm = outbox_.next_sm();
  const Tick depart = outbox_.front_departure();
  const bool read = outbox_.front().kind == Outbound::kRead;
  // A read takes the SM's oldest MSHR entry once it is free; until then it and the SM's later requests wait.
  const Tick mshr = read ? mshr_ring_[static_cast<std::size_t>(sm)][mshr_next_[static_cast<std::size_t>(sm)]] : 0;
  if (mshr > depart) {
    outbox_.delay_front(mshr);
    return false;
  }
  const OutboundRequest r = outbox_.front();
  outbox_.pop();
  // The next line's L2 set into the host's cache while this one is timed (the batch prefetch of read_batch
  // ran at issue, long before).
  if (!outbox_.empty()) {
    const int next = outbox_.next_sm();
    prefetch_l2_sets(placed(next, outbox_.front()), outbox_.front().line, outbox_.front_departure());
    const auto n = static_cast<std::size_t>(next);
    __builtin_prefetch(&mshr_ring_[n][mshr_next_[n]]);  // the MSHR entry it will ask for
  }
  Tick back = 0;
  // A write at its departure (the way out's, or later behind a read that waited for an MSHR).
  const Tick done = time_request(sm, depart, r, &back);
  raise_l1_fill(r, done);
  if (r.l1_slot != kNoSlot)  // the loads that hit on its sectors while it waited: their data is there now
    l1_in_flight_.back(r.l1_slot, r.l1_line, r.l1_mask, done, [&](std::uint32_t load, Tick at) {
      Completed c;
      if (request_done(load, at, 0, &c)) completed_.push_back(c);
    });
  return request_done(r.load, done, back, out) || hand_out_completed(out);
}

bool MemorySystem::hand_out_completed(Completed* out) {
  if (completed_.empty()) return false;
  *out = completed_.front();
  completed_.pop_front();
  return true;
}

bool MemorySystem::request_done(std::uint32_t load, Tick done, Tick back, Completed* out) {
  if (load == kNoLoad) return false;
  OpenLoad& o = open_loads_[load];
  o.done = std::max(o.done, done);
  o.back = std::max(o.back, back);
  if (--o.lines_left > 0) return false;
  *out = Completed{o.owner, o.done, o.back};
  free_loads_.push_back(load);
  return true;
}

}  // namespace gms
