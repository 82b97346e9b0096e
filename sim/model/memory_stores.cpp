// MemorySystem's stores: global and local stores from an SM to its L2 slices (memory_system.h).
// A store's data leaves the SM on its way out (icnt.sm_write_bytes_per_cycle), a partly written
// sector at icnt.partial_sector_write_slots of a whole one's slots (model/store_sectors.h), and
// enters its home slice (and a near one first where far writes count in both partitions) at
// l2.partial_sector_input_slots; over the fabric it goes as a whole sector (gms-fabric-ubench
// halfstores: validate/results/h200/fabric_halfstores).
#include <algorithm>

#include "model/memory_system.h"

namespace gms {
MemorySystem::Stored MemorySystem::store(const AccessCtx& ctx, const Region& region) { return store_lines(ctx, region_store_lines(region)); }
MemorySystem::Stored MemorySystem::store(const AccessCtx& ctx, const LaneAccess& lanes) { return store_lines(ctx, lane_store_lines(lanes)); }

MemorySystem::Stored MemorySystem::store_local(const AccessCtx& ctx, const LaneAccess& lanes) { return store_local_lines(ctx, lane_lines(lanes)); }
MemorySystem::Stored MemorySystem::store_local(const AccessCtx& ctx, const Region& region) { return store_local_lines(ctx, region_lines(region)); }

template <class EachLine>
MemorySystem::Stored MemorySystem::store_local_lines(const AccessCtx& ctx, EachLine&& each_line) {
  if (!l1_ || gpu_.l1.line != gpu_.l2.line || gpu_.l1.sector != gpu_.l2.sector)  // spill frames: whole sectors
    return store_lines(ctx, [&](int line_bytes, int sector_bytes, auto&& fn) {
      each_line(line_bytes, sector_bytes, [&](Addr line, std::uint32_t mask) { fn(line, mask, 0u); });
    });
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l1.sector);
  ++counters_.st_requests;
  TagArray& l1 = *l1_;
  Stored done{ctx.now, ctx.now};
  each_line(gpu_.l1.line, gpu_.l1.sector, [&](Addr line, std::uint32_t mask) {
    const Tick t = sm_port(ctx.sm, ctx.now, popc(mask) * sector);
    done.left = std::max(done.left, t);
    counters_.l1_local_st_sectors += popc(mask);
    const std::uint32_t set = l1.set_of(line >> l1_line_shift_);
    if (local_stores_through_) {  // on to L2; the written sectors stay valid in L1 at once
      const auto a = l1.access(static_cast<std::uint32_t>(ctx.sm), set, line, mask, false, t);
      settle_l1(a.slot);
      if (a.miss) l1.fill(a.slot, a.miss, t);
      const Tick out = sm_out(ctx.sm, t, popc(mask) * sector);
      done.left = std::max(done.left, out);
      if (deferring_ != kNoLoad)
        send(ctx.sm, out, write_request(line, mask, 0, true, ctx.cta, Outbound::kWrite));
      else
        done.taken = std::max(done.taken, l2_write_line(ctx.sm, line, mask, out, 0, true));
      return;
    }
    const auto a = l1.access(static_cast<std::uint32_t>(ctx.sm), set, line, mask, true, t);
    settle_l1(a.slot);
    if (a.evicted_dirty) {  // a write-back: nobody waits
      const Tick out = sm_out(ctx.sm, t, popc(a.evicted_dirty) * sector);
      if (deferring_ != kNoLoad)
        send(ctx.sm, out, write_request(a.evicted_line, a.evicted_dirty, 0, true, ctx.cta, Outbound::kWriteBack));
      else
        l2_write_line(ctx.sm, a.evicted_line, a.evicted_dirty, out, 0, true);
    }
    done.taken = std::max(done.taken, t + l1_hit_ticks_);
  });
  return done;
}

Tick MemorySystem::l2_write_line(int sm, Addr line, std::uint32_t mask, Tick t, std::uint32_t input_bytes, bool local) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  // A far store passes the near slice's input (counted there, not written: 0 of its pipeline).
  const AtHome h =
      to_home_slice(sm, line, mask, t, popc(mask) * sector, gpu_.l2.far_writes_in_both_partitions, 0, input_bytes);
  auto a = l2_->access(h.slice, h.set, line, mask, true, h.start);
  counters_.l2_write_sectors += popc(mask);
  counters_.l2_write_hit_sectors += popc(a.hit);
  if (h.near_pass) {  // counted at the near slice too
    counters_.l2_write_sectors += popc(mask);
    counters_.l2_write_hit_sectors += popc(mask);
    if (copy_far_stores_) {
      // The near slice keeps what passed it, clean (the home slice holds it dirty): a read of the line
      // from this partition finds it there (gms-local-ubench: a stored line read back costs one lookup).
      const auto c = l2_->access(h.near, h.set, line, mask, false, h.taken);
      if (c.evicted_dirty) dram_->write(c.evicted_line, popc(c.evicted_dirty) * sector, h.taken);
      if (c.miss) l2_->fill(c.slot, c.miss, h.taken);
    }
  }
  if (a.evicted_dirty) dram_->write(a.evicted_line, popc(a.evicted_dirty) * sector, h.start);
  // A set past its dirty ways writes this line through (gms-local-ubench --writeback: stored frames reach DRAM
  // long before the L2 is full, and stay in it - validate/results/h200/local_writeback).
  if (const std::uint32_t through = l2_->write_through_over(a.slot, local ? local_dirty_ways_limit_ : dirty_ways_limit_))
    dram_->write(line, popc(through) * sector, h.start);
  return h.taken;
}

template <class EachLine>
MemorySystem::Stored MemorySystem::store_lines(const AccessCtx& ctx, EachLine&& each_line) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  ++counters_.st_requests;
  Stored done{ctx.now, ctx.now};
  each_line(gpu_.l2.line, gpu_.l2.sector, [&](Addr line, std::uint32_t mask, std::uint32_t partial) {
    const Tick t = sm_port(ctx.sm, ctx.now, popc(mask) * sector);
    const Tick out = sm_out(ctx.sm, t, write_cost_bytes(mask, partial, gpu_.icnt.partial_sector_write_slots));
    done.left = std::max(done.left, out);
    const std::uint32_t input = write_cost_bytes(mask, partial, gpu_.l2.partial_sector_input_slots);
    if (deferring_ != kNoLoad)
      send(ctx.sm, out, write_request(line, mask, input, false, ctx.cta, Outbound::kWrite));
    else
      done.taken = std::max(done.taken, l2_write_line(ctx.sm, line, mask, out, input));
  });
  return done;
}

std::uint32_t MemorySystem::write_cost_bytes(std::uint32_t mask, std::uint32_t partial, double partial_slots) const {
  const double sectors = popc(mask) + (partial_slots - 1) * popc(partial & mask);
  return static_cast<std::uint32_t>(sectors * gpu_.l2.sector + 0.5);
}

}  // namespace gms
