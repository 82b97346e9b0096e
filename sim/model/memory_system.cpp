#include "model/memory_system.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "common/error.h"
#include "model/gpc_layout.h"

namespace gms {
namespace {

InsertPriority priority_of(EvictHint h) {
  return h == EvictHint::kFirst ? InsertPriority::kFirst
         : h == EvictHint::kLast ? InsertPriority::kLast
                                 : InsertPriority::kNormal;
}

// Widens a sector mask to whole fetch units (e.g. sector pairs for 64 B DRAM access granularity).
std::uint32_t widen(std::uint32_t mask, std::uint32_t unit) {
  if (unit <= 1) return mask;
  std::uint32_t group = (unit >= 32 ? ~0u : (1u << unit) - 1);
  std::uint32_t out = 0;
  for (std::uint32_t base = 0; base < 32; base += unit)
    if (mask & (group << base)) out |= group << base;
  return out;
}

}  // namespace

MemorySystem::MemorySystem(const GpuConfig& gpu) : gpu_(gpu) {
  const double T = static_cast<double>(kTicksPerCycle);
  // L2 cycles per SM cycle: the slices keep their clock when the SM clock falls under load.
  const double l2_per_sm_cycle = gpu.l2_clock > 0 ? gpu.l2_clock / gpu.sm_clock : 1.0;
  l2_line_shift_ = std::countr_zero(static_cast<unsigned>(gpu.l2.line));
  l1_line_shift_ = std::countr_zero(static_cast<unsigned>(gpu.l1.line));
  slices_per_partition_ = static_cast<std::uint32_t>(gpu.l2.slices / gpu.l2.partitions);
  SIM_ASSERT(gpu.l2.partitions >= 1 && gpu.l2.partitions <= 256,
             "l2.partitions " << gpu.l2.partitions << " passed validation but does not fit the slice table's byte");
  for (int s = 0; s < gpu.l2.slices; ++s) slice_partition_.push_back(static_cast<std::uint8_t>(s / slices_per_partition_));
  replicate_ = gpu.l2.partition_mode == "replicate";
  for (int sm = 0; sm < gpu.sm.count; ++sm) {
    int p = 0;
    if (gpu.l2.partitions > 1 && !gpu.l2.sm_partitions.empty())
      p = gpu.l2.sm_partitions[static_cast<size_t>(sm)] - '0';
    else if (gpu.l2.partitions > 1)
      p = gpu.l2.sm_partition_map == "interleave"
              ? sm % gpu.l2.partitions
              : static_cast<int>(static_cast<std::int64_t>(sm) * gpu.l2.partitions / gpu.sm.count);
    sm_partition_.push_back(p);
  }
  far_latency_ = gpu.l2.partition_mode != "none";
  fill_mask_unit_ = static_cast<std::uint32_t>(gpu.dram.access_granularity / gpu.l2.sector);
  l1_hit_ticks_ = cycles_to_ticks(gpu.l1.hit_latency);
  local_stores_through_ = gpu.l1.local_stores == "write_through";
  copy_far_stores_ = replicate_ && gpu.l2.far_stores_copy_near;
  far_home_first_ = replicate_ && gpu.l2.far_read_home_evict_first;
  dirty_ways_limit_ = gpu.l2.dirty_ways_per_set;
  local_dirty_ways_limit_ = gpu.l2.local_dirty_ways_per_set > 0 ? gpu.l2.local_dirty_ways_per_set : dirty_ways_limit_;
  icnt_ticks_ = cycles_to_ticks(gpu.icnt.latency);
  l2_return_ticks_ = cycles_to_ticks(gpu.l2.hit_latency - gpu.icnt.latency);
  far_ticks_ = far_latency_ ? cycles_to_ticks(gpu.l2.far_extra_latency) : 0;
  sm_port_ticks_per_byte_ = T / std::min(gpu.sm.lsu_bytes_per_cycle, gpu.icnt.sm_bytes_per_cycle);
  sm_port_ticks_per_request_ = gpu.icnt.sm_requests_per_cycle > 0 ? T / gpu.icnt.sm_requests_per_cycle : 0;
  sm_out_ticks_per_byte_ = gpu.icnt.sm_write_bytes_per_cycle > 0 ? T / gpu.icnt.sm_write_bytes_per_cycle : 0;
  if (gpu.l2.fabric_bytes_per_cycle > 0)
    fabric_.assign(static_cast<std::size_t>(gpu.l2.partitions),
                   BandwidthServer(T / (gpu.l2.fabric_bytes_per_cycle * l2_per_sm_cycle)));

  Replacement l2_policy = replacement_from_name(gpu.l2.replacement);
  set_l1_bytes(gpu.l1.size);
  l2_ = std::make_unique<TagArray>(gpu.l2.size / gpu.l2.slices, gpu.l2.line, gpu.l2.sector, gpu.l2.assoc, l2_policy,
                                   gpu.l2.slices);
  slice_hash_ = make_slice_hash(gpu.l2.hash, static_cast<std::uint32_t>(gpu.l2.slices));
  if (gpu.l2.slice_interleave > 0)
    interleave_shift_ = std::countr_zero(static_cast<std::uint64_t>(gpu.l2.slice_interleave)) - l2_line_shift_;
  coalescer_ = RequestCoalescer(gpu.l2.slices, gpu.l2.coalescer_entries, cycles_to_ticks(gpu.l2.coalescer_hold),
                                l2_->full_mask());

  DramTiming dt;
  dt.channels = static_cast<std::uint32_t>(gpu.dram.channels);
  dt.interleave = static_cast<std::uint64_t>(gpu.dram.interleave);
  dt.bytes_per_cycle = gpu.dram.bandwidth * gpu.dram.efficiency / gpu.sm_clock;
  // A copy moves R + W bytes in (R + W (1 + s)) / efficiency of the peak's time: R = W gives s.
  if (gpu.dram.copy_efficiency > 0)
    dt.mixed_write_surcharge = std::max(0.0, 2.0 * gpu.dram.efficiency / gpu.dram.copy_efficiency - 2.0);
  // dram.latency is what a chase over random lines measures: a mean over the lines of the SM's near
  // and far partitions. Far misses pay the far penalty on their way (l2_read_line), so the DRAM's
  // own share is what makes the mean come out as measured.
  dt.access_ticks = cycles_to_ticks(gpu.dram.latency - gpu.l2.hit_latency) -
                    static_cast<Tick>(far_line_share(gpu.l2) * static_cast<double>(far_ticks_) + 0.5);
  {
    std::string why;
    const auto spread = parse_latency_spread(gpu.dram.latency_spread, &why);
    SIM_ASSERT(spread, "dram.latency_spread passed the schema but does not parse: " << why);
    dt.spread_ticks = dram_spread_ticks(*spread);
    const std::string& scope = gpu.dram.latency_spread_scope;
    dt.spread_scope = scope == "block"     ? DramTiming::SpreadScope::kBlock
                      : scope == "channel" ? DramTiming::SpreadScope::kChannel
                      : scope == "device"  ? DramTiming::SpreadScope::kDevice
                                           : DramTiming::SpreadScope::kRead;
    dt.spread_block = static_cast<std::uint64_t>(gpu.dram.latency_spread_block);
    dt.spread_window = std::max<Tick>(1, cycles_to_ticks(gpu.dram.latency_spread_window));
  }
  gpc_share_ = GpcShare(gpu, dt.bytes_per_cycle);
  dram_ = std::make_unique<Dram>(dt);

  slices_bw_.assign(gpu.l2.slices, BandwidthServer(T / (gpu.l2.slice_bytes_per_cycle * l2_per_sm_cycle)));
  if (gpu.l2.reply_bytes_per_cycle > 0)
    replies_.assign(gpu.l2.slices, BandwidthServer(T / (gpu.l2.reply_bytes_per_cycle * l2_per_sm_cycle)));
  // A reduction's sector holds the slice's pipeline 1/atomic_sectors_per_cycle cycles (the read-modify-
  // write), in the same server as reads: gms-red-ubench measures reductions and a read stream sharing
  // one resource (validate/results/h100/red).
  red_bytes_per_sector_ = static_cast<std::uint32_t>(gpu.l2.slice_bytes_per_cycle / gpu.l2.atomic_sectors_per_cycle + 0.5);
  atomic_lines_ = AtomicLines(static_cast<Tick>(static_cast<double>(gpu.l2.atomic_line_interval) * T / l2_per_sm_cycle + 0.5));
  if (gpu.l2.tag_requests_per_cycle > 0)
    tag_stage_.assign(gpu.l2.slices, BandwidthServer(T / (gpu.l2.tag_requests_per_cycle * l2_per_sm_cycle)));
  if (gpu.l2.input_bytes_per_cycle > 0)
    slice_input_.assign(gpu.l2.slices, BandwidthServer(T / (gpu.l2.input_bytes_per_cycle * l2_per_sm_cycle)));
  if (gpu.icnt.gpc_bytes_per_cycle > 0) {
    std::string why;
    const auto sizes = parse_gpc_sms(gpu.icnt.gpc_sms, &why);
    SIM_ASSERT(sizes && !sizes->empty(), "icnt.gpc_bytes_per_cycle without a valid icnt.gpc_sms: " << why);
    gpc_of_sm_ = sm_gpcs(gpu);
    gpc_ports_.assign(sizes->size(), BandwidthServer(T / (gpu.icnt.gpc_bytes_per_cycle * l2_per_sm_cycle)));
  }
  sm_port_free_.assign(gpu.sm.count, 0);
  sm_out_free_.assign(gpu.sm.count, 0);
  tma_free_.assign(gpu.sm.count, 0);
  tma_box_ticks_ = cycles_to_ticks(gpu.sm.tma_box_cycles);
  mshr_ring_.assign(gpu.sm.count, std::vector<Tick>(gpu.l1.mshrs, 0));
  mshr_next_.assign(gpu.sm.count, 0);
  reads_in_order_ = gpu.l2.reads_in_arrival_order;
  writes_in_order_ = gpu.l2.writes_in_arrival_order;
  outbox_ = DepartureQueue<OutboundRequest>(gpu.sm.count);
  dirty_other_data(0);
}

void MemorySystem::dirty_other_data(Tick at) {
  // A smaller L2 (a what-if of l2.size) holds what of it fits; what a full set pushes out before the
  // kernel starts is not the kernel's DRAM traffic. The data are their sets' first victims: under the
  // records' profiles (several replay passes) evict-first streams of 64 MB to 1 GB write 1.9 MB of it
  // back, as plain streams write 2.3 MB (validate/results/h100/evict, evict_ncu_gemv_metrics.csv);
  // inserted as normal lines, an evict-first stream never displaced them.
  copy_into_l2(kOtherDirtyData, static_cast<std::uint64_t>(std::min(gpu_.l2.dirty_at_launch, gpu_.l2.size)), at,
               InsertPriority::kFirst);
  dram_->reset_counts();
}

MemorySystem::~MemorySystem() = default;

Tick MemorySystem::reserve(Tick& free_at, Tick arrive, double ticks) const {
  Tick start = std::max(free_at, arrive);
  free_at = start + round_ticks(ticks);
  return start;
}

void MemorySystem::dram_fill(TagArray& tags, const TagArray::Access& a, Addr line, Tick at, Tick* ready, int sm) {
  std::uint32_t fetch = widen(a.miss, fill_mask_unit_) & ~a.valid;
  std::uint32_t bytes = popc(fetch) * static_cast<std::uint32_t>(gpu_.l2.sector);
  Tick data = dram_->read(line, bytes, at);
  if (timeline_) timeline_->at(sm, at).dram_read_bytes += bytes;
  tags.fill(a.slot, fetch, data);
  *ready = std::max(*ready, data);
}

Tick MemorySystem::sm_port(int sm, Tick now, std::uint32_t bytes) {
  // One line request: its bytes at the port's width, and at least one request slot of the L1/TEX.
  return reserve(sm_port_free_[sm], now, std::max(bytes * sm_port_ticks_per_byte_, sm_port_ticks_per_request_));
}

Tick MemorySystem::sm_out(int sm, Tick t, std::uint32_t bytes) {
  if (sm_out_ticks_per_byte_ <= 0) return t;
  // A request is one cycle of the way out; store data its bytes at the way's width.
  const double ticks = bytes > 0 ? bytes * sm_out_ticks_per_byte_ : static_cast<double>(kTicksPerCycle);
  return reserve(sm_out_free_[sm], t, ticks);
}

void MemorySystem::count_read_lookup(int sm, Tick at, std::uint32_t hits, std::uint32_t misses, CtaMemCounts* cta,
                                     bool final_misses) {
  const std::uint64_t sector = static_cast<std::uint64_t>(gpu_.l2.sector);
  counters_.l2_read_sectors += hits + misses;
  counters_.l2_read_hit_sectors += hits;
  counters_.l2_hit_bytes += hits * sector;
  if (final_misses) counters_.dram_served_bytes += misses * sector;
  if (cta) {
    cta->l2_hit_sectors += hits;
    if (final_misses) cta->l2_miss_sectors += misses;
  }
  if (timeline_) {
    auto& b = timeline_->at(sm, at);
    b.l2_hit_sectors += hits;
    if (final_misses) b.l2_miss_sectors += misses;
  }
}

Tick MemorySystem::home_slice_read(std::uint32_t slice, std::uint32_t set, Addr line, std::uint32_t mask, Tick arrive,
                                   int sm, CtaMemCounts* cta, EvictHint hint, Tick* served, bool from_fabric) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  TagArray& tags = *l2_;
  const bool takes_bandwidth = !from_fabric || gpu_.l2.far_fills_take_slice_bandwidth;
  const Tick looked_up = tag_lookup(slice, arrive);
  // Every read takes its data-path turn before its lookup; with l2.miss_data_forwarded the tags decide first (a miss
  // leaves for DRAM at once) and each sector's reply takes the path when its data is in the slice: a held sector's at
  // the lookup, one on its way (a fill) when the fill lands.
  const bool forwarded = gpu_.l2.miss_data_forwarded;
  const Tick s = forwarded ? looked_up : data_path(slice, looked_up, popc(mask) * sector, takes_bandwidth);
  // A far read's home line serves the near copy's fills; the home partition's own reads keep it (l2.far_read_home_evict_first).
  const InsertPriority priority = from_fabric && far_home_first_ ? InsertPriority::kFirst : priority_of(hint);
  auto a = tags.access(slice, set, line, mask, false, s, priority);
  count_read_lookup(sm, s, popc(a.hit), popc(a.miss), cta, true);
  if (a.evicted_dirty) dram_->write(a.evicted_line, popc(a.evicted_dirty) * sector, s);
  read_class_ = a.miss ? ReadClass::kMiss : a.ready > s ? ReadClass::kInFlight : ReadClass::kHit;
  Tick ready = !a.hit ? s : forwarded ? data_path(slice, a.ready, popc(a.hit) * sector, takes_bandwidth) : a.ready;
  if (served) *served = forwarded ? ready : s;
  if (a.miss) {
    Tick filled = forwarded ? s : ready;
    dram_fill(tags, a, line, s, &filled, sm);
    ready = forwarded ? std::max(ready, data_path(slice, filled, popc(a.miss) * sector, takes_bandwidth)) : filled;
  }
  return ready;
}

Tick MemorySystem::l2_read_line(int sm, Addr line, const LinePlace& p, std::uint32_t mask, Tick t, CtaMemCounts* cta,
                                EvictHint hint, bool may_merge) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  std::vector<Tick>& ring = mshr_ring_[sm];
  std::uint32_t& next = mshr_next_[sm];
  Tick start = std::max(t, ring[next]);
  // The request holds its MSHR until its data is back.
  auto retire = [&](Tick done) {
    ring[next] = done;
    next = next + 1 == ring.size() ? 0 : next + 1;
    return done;
  };
  Tick arrive = start + icnt_ticks_;

  const std::uint64_t line_index = line >> l2_line_shift_;
  const std::uint32_t home = p.home;
  const int my_part = sm_partition(sm);
  const bool far = p.far;
  const bool via_replica = far && replicate_;
  // The replica slice answers far lines in the replicating mode, the home slice everything else.
  const std::uint32_t first_slice = p.first;
  ++counters_.l2_read_requests;
  counters_.l2_requested_sectors += popc(mask);
  if (may_merge && coalescer_.enabled()) {
    const Tick open_ready = coalescer_.merge(first_slice, line_index, mask, arrive);
    if (open_ready != RequestCoalescer::kNoMerge) {
      counters_.l2_coalesced_sectors += popc(mask);
      counters_.l2_hit_bytes += static_cast<std::uint64_t>(popc(mask)) * sector;
      Tick out = std::max(open_ready, arrive);
      if (!replies_.empty()) {  // its own reply, after those queued before it; the entry stays open for it
        out = replies_[first_slice].serve(out, popc(mask) * sector);
        coalescer_.extend(first_slice, line_index, out);
      }
      return retire(count_line_read(ReadClass::kMerged, t, out + l2_return_ticks_));
    }
  }
  counters_.l2_first_lookup_sectors += popc(mask);
  ++counters_.l2_first_lookup_requests;
  Tick served = arrive;
  Tick ready;
  if (via_replica) {
    // The near partition keeps copies of far lines; a copy costs near capacity.
    const std::uint32_t replica = first_slice;
    TagArray& tags = *l2_;
    const Tick looked_up = tag_lookup(replica, arrive);
    // With l2.miss_data_forwarded the copy's tags decide first and each reply takes the data path when its data is
    // in the slice (as home_slice_read); otherwise every read takes its turn there before the lookup.
    const bool forwarded = gpu_.l2.miss_data_forwarded;
    const Tick decided = forwarded ? looked_up : data_path(replica, looked_up, popc(mask) * sector, true);
    auto a = tags.access(replica, p.set, line, mask, false, decided, priority_of(hint));
    const bool held = a.hit && a.ready <= decided;  // the copy's hit sectors are there, not on their way
    const Tick s = forwarded && a.hit ? data_path(replica, a.ready, popc(a.hit) * sector, true) : decided;
    served = s;
    count_read_lookup(sm, s, popc(a.hit), popc(a.miss), cta, false);
    counters_.l2_replica_hit_sectors += popc(a.hit);
    if (a.hit && gpu_.l2.far_read_hits_at_home) {
      // The copy answers; the home slice's tags are consulted too. That lookup moves no data, so
      // it is counted but costs no slice bandwidth (charging it as data slowed the GEMM replays
      // 14-20 % past silicon), and it leaves the home LRU state alone.
      counters_.l2_read_sectors += popc(a.hit);
      counters_.l2_read_hit_sectors += popc(a.hit);
      counters_.l2_home_check_sectors += popc(a.hit);
    }
    if (a.evicted_dirty) dram_->write(a.evicted_line, popc(a.evicted_dirty) * sector, s);
    ready = a.hit ? std::max(a.ready, s) : s;
    read_class_ = held ? ReadClass::kHit : ReadClass::kInFlight;  // a miss: the home's lookup says what it found
    if (a.miss) {
      counters_.l2_far_sectors += popc(a.miss);
      // The home's data crosses into this partition when it is there (after the home's DRAM read on a
      // miss), on this partition's link.
      const Tick home_ready = home_slice_read(home, p.set, line, a.miss, decided, sm, cta, hint, nullptr, true);
      const Tick h = cross_fabric(my_part, home_ready, popc(a.miss) * sector) + far_ticks_;
      tags.fill(a.slot, a.miss, h);
      // Forwarded, the copy's reply takes this slice's data path when the home's data has landed.
      ready = std::max(ready, forwarded ? data_path(replica, h, popc(a.miss) * sector, true) : h);
    }
  } else {
    ready = home_slice_read(home, p.set, line, mask, arrive, sm, cta, hint, &served);
    if (far) {
      counters_.l2_far_sectors += popc(mask);
      ready = cross_fabric(my_part, ready, popc(mask) * sector) + far_ticks_;
    }
  }
  // The reply leaves the slice when the reply path has room for it (l2.reply_bytes_per_cycle).
  if (!replies_.empty()) ready = replies_[first_slice].serve(ready, popc(mask) * sector);  // ready >= served
  // Open from its arrival (requests queued behind it at the slice merge too) until its data leaves.
  if (may_merge && coalescer_.enabled()) coalescer_.open(first_slice, line_index, mask, arrive, std::max(ready, served));
  // Then the reply crosses the requesting SM's GPC port; replies merged into it do not (their SMs'
  // ports are not charged: the per-GPC shares of silicon's lookups, not of its deliveries, agree).
  if (!gpc_ports_.empty()) ready = gpc_port(sm, ready, popc(mask) * sector);
  return retire(count_line_read(read_class_, t, gpc_share_.back_for(sm, start, ready + l2_return_ticks_)));
}

Tick MemorySystem::load(const AccessCtx& ctx, const Region& region, bool bypass_l1, EvictHint hint) {
  if (region.shared_dest < 0 || (l1_ && !bypass_l1)) return load_lines(ctx, region_lines(region), bypass_l1, hint);
  // A copy into shared memory past L1: the t-stage counts the shared sectors written, and global
  // sectors split over two of them are read twice (shared_copy.h).
  ++counters_.ld_requests;
  load_batch_.clear();
  for_each_copy_line(region, gpu_.l2.line, gpu_.l2.sector, [&](Addr line, std::uint32_t mask, SharedCopySectors c) {
    const LinePlace p = place_of(ctx.sm, line);
    load_batch_.push_back({line, mask, c.twice, gpu_.l1.copy_request_per_shared_line ? c.next_shared_line : 0u, p});
    if (l1_) counters_.l1_ld_sectors += c.written;
    prefetch_l2(p, line, ctx.now);
  });
  return read_batch(ctx, hint);
}

Tick MemorySystem::tma_load(const AccessCtx& ctx, const Region& region, std::uint32_t boxes, EvictHint hint) {
  SIM_ASSERT(tma_box_ticks_ > 0, "a bulk tensor copy on a GPU without a copy engine (sm.tma_box_cycles 0)");
  Tick& engine = tma_free_[ctx.sm];
  const Tick start = std::max(ctx.now, engine);
  engine = start + boxes * tma_box_ticks_;
  // The engine writes whole 16-byte pieces, swizzled: no global sector is split over two shared
  // sectors, so every line is read once (unlike a padded cp.async, shared_copy.h).
  load_batch_.clear();
  for_each_line(region, gpu_.l2.line, gpu_.l2.sector, [&](Addr line, std::uint32_t mask) {
    const LinePlace p = place_of(ctx.sm, line);
    load_batch_.push_back({line, mask, 0, 0, p});
    counters_.tma_sectors += popc(mask);
    prefetch_l2(p, line, start);
  });
  return std::max(read_batch(AccessCtx{ctx.sm, start, ctx.cta}, hint), engine);
}

Tick MemorySystem::read_batch(const AccessCtx& ctx, EvictHint hint) {
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  Tick done = ctx.now;
  if (!pipelined_) {  // the MSHR entries the batch's requests take, one host cache line per 8 (132 SMs' rings: 1 MB, cold)
    const std::vector<Tick>& ring = mshr_ring_[ctx.sm];
    const std::size_t first = mshr_next_[ctx.sm], n = std::min(ring.size(), load_batch_.size() + 8);
    for (std::size_t k = 0; k < n; k += 8) __builtin_prefetch(&ring[first + k < ring.size() ? first + k : first + k - ring.size()]);
  }
  // One request of the line's `mask` sectors: through the SM's port and its way out, then to L2.
  auto request = [&](Addr line, const LinePlace& p, std::uint32_t mask, bool may_merge) {
    const Tick t = sm_out(ctx.sm, sm_port(ctx.sm, ctx.now, popc(mask) * sector), 0);
    if (deferring_ != kNoLoad) {
      OutboundRequest r{line, mask, deferring_, ctx.cta, hint, may_merge};
      r.place = p;
      send(ctx.sm, t, r);
    } else {
      done = std::max(done, l2_read_line(ctx.sm, line, p, mask, t, ctx.cta, hint, may_merge));
    }
  };
  for (const BatchLine& b : load_batch_) {
    request(b.line, b.place, b.mask & ~b.split, true);
    if (b.split) request(b.line, b.place, b.split, true);
    if (b.twice) request(b.line, b.place, b.twice, false);  // a second fetch: silicon looks each one up
  }
  return done;
}

Tick MemorySystem::load(const AccessCtx& ctx, const LaneAccess& lanes, bool bypass_l1, EvictHint hint) {
  return load_lines(ctx, lane_lines(lanes), bypass_l1, hint);
}

void MemorySystem::set_l1_bytes(std::int64_t bytes) {
  if (bytes == l1_bytes_) return;
  SIM_ASSERT(outbox_.empty() && !requests_queued() && l1_in_flight_.empty() && completed_.empty(),
             outbox_.size() << " reads still in the outboxes when the L1 is rebuilt");
  l1_bytes_ = bytes;
  l1_ = bytes > 0 ? std::make_unique<TagArray>(bytes, gpu_.l1.line, gpu_.l1.sector, gpu_.l1.assoc,
                                               replacement_from_name(gpu_.l1.replacement), gpu_.sm.count)
                  : nullptr;
  if (pipelined_) l1_hold_pending_.assign(l1_ ? l1_->slots() : 0, 0);
}

void MemorySystem::begin_kernel(bool keep_l2, Tick at) {
  SIM_ASSERT(outbox_.empty() && !requests_queued() && l1_in_flight_.empty() && completed_.empty(),
             outbox_.size() << " reads still in the outboxes at a kernel boundary");
  counters_ = MemCounters{};
  dram_->reset_counts();
  reductions_done_ = at;
  if (l1_) l1_->invalidate_all();
  if (!keep_l2) {
    l2_->invalidate_all();
    dirty_other_data(at);
  }
  coalescer_.clear();
}

void MemorySystem::copy_into_l2(Addr base, std::uint64_t bytes, Tick at, InsertPriority priority) {
  if (bytes == 0) return;
  const std::uint32_t sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  const Addr line_bytes = static_cast<Addr>(gpu_.l2.line);
  for (Addr line = base & ~(line_bytes - 1); line < base + bytes; line += line_bytes) {
    const Addr lo = std::max(line, base), hi = std::min(line + line_bytes, base + bytes);
    const std::uint32_t first = static_cast<std::uint32_t>((lo - line) / sector);
    const std::uint32_t last = static_cast<std::uint32_t>((hi - 1 - line) / sector);
    const std::uint32_t mask = (last - first + 1 >= 32 ? ~0u : (1u << (last - first + 1)) - 1) << first;
    const std::uint64_t index = line >> l2_line_shift_;
    auto acc = l2_->access(home_slice(index), hashed_set(index, l2_->sets()), line, mask, true, at, priority);
    if (acc.evicted_dirty) dram_->write(acc.evicted_line, popc(acc.evicted_dirty) * sector, at);
  }
}

void MemorySystem::prefetch_l2_sets(const LinePlace& p, Addr line, Tick now) const {
  auto hint = [&](std::uint32_t slice) {
    l2_->prefetch(slice, p.set);
    slices_bw_[slice].prefetch(now + icnt_ticks_);
  };
  hint(p.home);
  if (p.first != p.home) hint(p.first);
  coalescer_.prefetch(p.first, line >> l2_line_shift_);
}

template <class EachLine>
Tick MemorySystem::load_lines(const AccessCtx& ctx, EachLine&& each_line, bool bypass_l1, EvictHint hint) {
  const int sm = ctx.sm;
  Tick done = ctx.now;
  if (!ctx.local) ++counters_.ld_requests;
  std::uint64_t& l1_sectors = ctx.local ? counters_.l1_local_ld_sectors : counters_.l1_ld_sectors;
  std::uint64_t& l1_hits = ctx.local ? counters_.l1_local_ld_hit_sectors : counters_.l1_ld_hit_sectors;
  if (bypass_l1 || !l1_) {
    // The lines of one load are listed and their sets prefetched before any is timed: the lookups
    // are host-cache misses into tag arrays of tens of MB, and this way they overlap. The t-stage
    // counts the sectors though nothing is cached (ld.global.cg and LDGSTS.BYPASS on the H100).
    load_batch_.clear();
    each_line(gpu_.l2.line, gpu_.l2.sector, [&](Addr line, std::uint32_t mask) {
      const LinePlace p = place_of(sm, line);
      load_batch_.push_back({line, mask, 0, 0, p});
      if (l1_) l1_sectors += popc(mask);
      prefetch_l2(p, line, ctx.now);
    });
    return read_batch(ctx, hint);
  }
  // Through L1, at L1 line and sector size (which may differ from L2's): each missing L1 sector
  // is fetched as the L2 sectors that cover it.
  const std::uint32_t l1_sector = static_cast<std::uint32_t>(gpu_.l1.sector);
  const std::uint32_t l2_sector = static_cast<std::uint32_t>(gpu_.l2.sector);
  const Addr l2_line_mask = ~static_cast<Addr>(gpu_.l2.line - 1);
  // Line and sector sizes are powers of two (gpu_schema): shifts, not 64-bit divisions, on this per-sector
  // path (the L2 sector's index was 40 % of a SIMT load's own time on a host whose divider is slow).
  const int l2_sector_shift = std::countr_zero(l2_sector);
  TagArray& l1 = *l1_;
  each_line(gpu_.l1.line, gpu_.l1.sector, [&](Addr line, std::uint32_t mask) {
    Tick t = sm_port(sm, ctx.now, popc(mask) * l1_sector);
    auto a = l1.access(static_cast<std::uint32_t>(sm), l1.set_of(line >> l1_line_shift_), line, mask,
                       false, t, priority_of(hint));
    if (settle_l1(a.slot) && a.hit) a.ready = l1.ready_at(a.slot, a.hit, t);
    if (deferring_ != kNoLoad && !pipelined_ && a.hit) {  // hits on sectors still in an outbox wait for their data
      if (const std::uint32_t late = l1_in_flight_.late(a.slot, line, a.hit)) {
        l1_in_flight_.wait(a.slot, line, late, deferring_, t + l1_hit_ticks_);
        ++open_loads_[deferring_].lines_left;
        a.ready = (a.hit & ~late) ? l1.ready_at(a.slot, a.hit & ~late, t) : 0;
      }
    }
    l1_sectors += popc(mask);
    l1_hits += popc(a.hit);
    counters_.l1_hit_bytes += static_cast<std::uint64_t>(popc(a.hit)) * l1_sector;
    Tick r = a.hit ? std::max(t + l1_hit_ticks_, a.ready) : t;
    if (a.miss) {
      // L2 requests for the missing L1 sectors, one per L2 line they fall in.
      Addr cur_line = ~Addr{0};
      std::uint32_t cur_mask = 0;
      Tick d = t;
      auto flush = [&] {
        if (!cur_mask) return;
        const Tick out = sm_out(sm, t, 0);
        const LinePlace p = place_of(sm, cur_line);
        if (deferring_ == kNoLoad) {
          d = std::max(d, l2_read_line(sm, cur_line, p, cur_mask, out, ctx.cta, hint));
          return;
        }
        OutboundRequest r{cur_line, cur_mask, deferring_, ctx.cta, hint, true, a.slot, a.miss, line};
        r.place = p;
        send(sm, out, r);
        // Until the data's time is known, a hit on these sectors takes an unloaded L2 hit's (raised when it is).
        d = std::max(d, out + icnt_ticks_ + l2_return_ticks_);
      };
      for (std::uint32_t m = a.miss; m; m &= m - 1) {
        Addr lo = line + static_cast<Addr>(std::countr_zero(m)) * l1_sector, hi = lo + l1_sector - 1;
        for (Addr b = lo; b <= hi; b = (b & ~static_cast<Addr>(l2_sector - 1)) + l2_sector) {
          Addr l2_line = b & l2_line_mask;
          if (l2_line != cur_line) {
            flush();
            cur_line = l2_line;
            cur_mask = 0;
          }
          cur_mask |= 1u << ((b - l2_line) >> l2_sector_shift);
        }
      }
      flush();
      if (deferring_ != kNoLoad && !pipelined_) l1_in_flight_.sent(a.slot, line, a.miss);
      l1.fill(a.slot, a.miss, d);
      r = std::max(r, d);
    }
    done = std::max(done, r);
  });
  return done;
}

MemorySystem::AtHome MemorySystem::to_home_slice(int sm, Addr line, std::uint32_t mask, Tick t, std::uint32_t hold,
                                                  bool pass_near, std::uint32_t near_hold, std::uint32_t input_bytes,
                                                  bool home_input_after_near) {
  const std::uint32_t bytes = input_bytes > 0 ? input_bytes : popc(mask) * static_cast<std::uint32_t>(gpu_.l2.sector);
  // A slice the data enters from the crossbar takes it through its input, then holds its pipeline.
  auto enter = [&](std::uint32_t slice, Tick at) { return slice_input_.empty() ? at : slice_input_[slice].serve(at, bytes); };
  Tick arrive = t + icnt_ticks_;
  const std::uint64_t line_index = line >> l2_line_shift_;
  const Route r = route(sm, line_index, pass_near);
  const std::uint32_t home = r.home;
  const bool far = r.far, near_pass = r.passes_near;
  Tick taken = 0;  // the first slice's input has the data: the SM's side is done
  if (far) {
    counters_.l2_far_sectors += popc(mask);
    if (near_pass) {
      taken = enter(r.near, arrive);
      arrive = near_hold > 0 ? slices_bw_[r.near].serve(taken, near_hold) : taken;
    }
    // The data goes to the home partition, a partly written sector as a whole one (gms-fabric-ubench halfstores).
    arrive = cross_fabric(partition_of(home), arrive, popc(mask) * static_cast<std::uint32_t>(gpu_.l2.sector));
  }
  // A store that came over the fabric enters its home slice from the fabric, not through the slice's
  // crossbar input (gms-fabric-ubench stores, validate/results/h100/fabric_stores: far stores cost
  // lts__xbar2lts 1.02 cycles per stored sector, as near ones do, though L2 counts them twice).
  const Tick in_home = near_pass && !home_input_after_near ? arrive : enter(home, arrive);
  return {home, hashed_set(line_index, l2_->sets()), slices_bw_[home].serve_start(in_home, hold),
          near_pass ? taken : in_home, far, near_pass, r.near};
}

std::uint64_t MemorySystem::l2_dirty_sectors() const {
  return l2_->dirty_sectors();
}

}  // namespace gms
