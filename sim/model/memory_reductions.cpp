// MemorySystem's reductions (RED / ATOM): posted to their lines' home slices, where each sector is a
// read-modify-write that holds the slice's pipeline (memory_system.h).
#include <algorithm>

#include "model/memory_system.h"

namespace gms {

MemorySystem::Reduced MemorySystem::reduce(const AccessCtx& ctx, const Region& region) {
  return reduce_lines(ctx, region_lines(region));
}
MemorySystem::Reduced MemorySystem::reduce(const AccessCtx& ctx, const LaneAccess& lanes) {
  return reduce_lines(ctx, lane_lines(lanes));
}

template <class EachLine>
MemorySystem::Reduced MemorySystem::reduce_lines(const AccessCtx& ctx, EachLine&& each_line) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  ++counters_.red_requests;
  // Lanes of one instruction that land in the same line travel as one request (a strided region
  // visits a line once per lane): merge runs of the same line first.
  Addr run_line = ~Addr{0};
  std::uint32_t run_mask = 0;
  std::vector<std::pair<Addr, std::uint32_t>>& merged = red_scratch_;
  merged.clear();
  each_line(gpu_.l2.line, gpu_.l2.sector, [&](Addr line, std::uint32_t mask) {
    if (line != run_line) {
      if (run_mask) merged.emplace_back(run_line, run_mask);
      run_line = line;
      run_mask = 0;
    }
    run_mask |= mask;
  });
  if (run_mask) merged.emplace_back(run_line, run_mask);
  Reduced out{ctx.now, ctx.now};
  for (const auto& [line, mask] : merged) {
    const Tick t = sm_port(ctx.sm, ctx.now, popc(mask) * sector);
    if (deferring_ != kNoLoad) {  // leaves by the port alone: behind the SM's earlier requests in its outbox
      OutboundRequest r = write_request(line, mask, 0, false, ctx.cta, Outbound::kReduce);
      r.at = t;
      send(ctx.sm, std::max(t, outbox_.latest(ctx.sm)), r);
    } else {
      reduce_line(ctx.sm, line, mask, t, out);
    }
  }
  return out;
}

void MemorySystem::reduce_line(int sm, Addr line, std::uint32_t mask, Tick t, Reduced& out) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  const std::uint32_t sectors = popc(mask), hold = sectors * red_bytes_per_sector_;
  // A far reduction passes a near slice first when the GPU counts it in both partitions.
  // Its home's crossbar input too, though silicon's far reductions take one input, as near ones do
  // (validate/results/h100/fabric_reductions): without that second input the model replays gms-red-ubench
  // 1.43x as fast as silicon - it stands in for a limit of the atomic units not yet found.
  const AtHome h = to_home_slice(sm, line, mask, t, hold, gpu_.l2.far_reductions_in_both_partitions, hold, 0, true);
  out.taken = std::max(out.taken, h.taken);
  counters_.l2_red_sectors += sectors;
  if (h.near_pass) {  // counted at the near slice too
    counters_.l2_red_sectors += sectors;
    counters_.l2_red_hit_sectors += sectors;
  }
  // The home slice reads the old values (from DRAM on a miss) and holds its pipeline for the
  // read-modify-write - once the line's previous one is through (l2.atomic_line_interval); the
  // result makes the sectors dirty.
  const Tick rmw = atomic_lines_.start(line >> l2_line_shift_, h.start);
  TagArray& tags = *l2_;
  auto a = tags.access(h.slice, h.set, line, mask, false, rmw);
  counters_.l2_red_hit_sectors += popc(a.hit);
  if (a.evicted_dirty) dram_->write(a.evicted_line, popc(a.evicted_dirty) * sector, rmw);
  Tick ready = a.hit ? a.ready : rmw;
  if (a.miss) dram_fill(tags, a, line, rmw, &ready, sm);
  const Tick done = std::max(ready, rmw) + slices_bw_[h.slice].service_ticks(hold);
  tags.access(h.slice, h.set, line, mask, true, done);
  tags.hold_until(a.slot, mask, done);  // a read of these sectors waits for the sum (red_backlog)
  reductions_done_ = std::max(reductions_done_, done);
  out.back = std::max(out.back, done + l2_return_ticks_ + (h.far ? far_ticks_ : 0));
}

}  // namespace gms
