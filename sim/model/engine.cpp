// The engine: CTA launch and retirement, the event loop, and what comes back from the memory system's
// outboxes (a load's data, a store taken: the waits and drains on them); a sub-partition's step and what an
// issued instruction does are engine_issue.cpp; the state both share is engine_impl.h.
#include "model/engine_impl.h"

namespace gms {

Engine::Impl::Impl(const GpuConfig& g, const Kernel& k, MemorySystem* shared)
    : gpu(g),
      kernel(k),
      shape(k.shape()),
      occ(compute_occupancy(g, shape)),
      own_mem(shared ? nullptr : std::make_unique<MemorySystem>(g)),
      mem(shared ? *shared : *own_mem),
      path(g.sm.count, g.sm.shared_fills == "between" ||
                           (g.sm.copies_wait_for_shared_queue && g.sm.copy_waits_per_warp > 0) ||
                           g.sm.shared_path_in_turns),
      fills(g.sm.count),
      mio(g.sm.count, g.sm.subpartitions, g.sm.mio_queue_per_sm, g.sm.mio_queue_per_subpartition,
          cycles_to_ticks(g.sm.mio_release_latency), g.sm.mio_entries_oldest_first, g.sm.mio_entries_by_cta_age) {
  mem.set_l1_bytes(occ.l1_bytes);
  fills_at_arrival = g.sm.shared_fills != "issue";
  fills_when_idle = g.sm.shared_fills == "idle";
  stores_wait_for_way_out = g.icnt.stores_wait_for_way_out;
  mma_holds_dispatch = g.sm.mma_sync_holds_dispatch;
  dispatch_follows_residents = g.sm.dispatch_stall_follows_residents && shape.alone_warps_per_scheduler > 0;
  reads_in_order = mem.reads_in_arrival_order();
  writes_in_order = mem.writes_in_arrival_order();
  copies_queue = g.sm.copies_wait_for_shared_queue;
  loads_in_mio = g.sm.loads_wait_in_mio_queue;
  mio_bursts_one = g.sm.mio_bursts_enter_one_at_a_time;
  mio_oldest_first = g.sm.mio_entries_oldest_first;
  mio_by_cta_age = g.sm.mio_entries_by_cta_age;
  copy_waits_per_warp = g.sm.copy_waits_per_warp;
  path_turns = g.sm.shared_path_in_turns;
  path_depth = g.sm.shared_path_depth;
  replay_ticks = cycles_to_ticks(g.sm.shared_replay_cycles);
  warp_ticks_per_byte = g.sm.shared_warp_bytes_per_cycle > 0 ? kTicksPerCycle / g.sm.shared_warp_bytes_per_cycle : 0;
  fills_between = g.sm.shared_fills == "between";
  scheduler = make_warp_scheduler(g.sm.warp_scheduler, g.sm.younger_cta_share);
  scheduler_counts_issue = scheduler->counts_issue();
  dispatcher = make_dispatcher(g.launch.dispatch, sm_order_of(g));
  nsp = g.sm.subpartitions;
  warps_per_cta = shape.warps_per_cta;
  warps_per_sm = occ.ctas_per_sm * warps_per_cta;
  // The kernel's MMA class (mma.sync, wgmma) where it names one, else the dtype's tensor rate.
  const double tensor = shape.tensor_rate > 0 ? shape.tensor_rate : tensor_flops_per_cycle(g.sm, shape.math_dtype);
  pipe_ticks_per_flop[static_cast<int>(Pipe::kTensor)] = kTicksPerCycle * nsp / tensor;
  pipe_ticks_per_flop[static_cast<int>(Pipe::kFma)] = kTicksPerCycle * nsp / g.sm.fma_flops_per_cycle;

  warps.resize(static_cast<size_t>(g.sm.count) * warps_per_sm);
  ctas.resize(static_cast<size_t>(g.sm.count) * occ.ctas_per_sm);
  sps.resize(static_cast<size_t>(g.sm.count) * nsp);
  for (int sm = 0; sm < g.sm.count; ++sm)
    for (int p = 0; p < nsp; ++p) {
      SubPart& sp = sps[sm * nsp + p];
      sp.sm = sm;
      for (int w = p; w < warps_per_sm; w += nsp) sp.warps.push_back(sm * warps_per_sm + w);
      sp.views.assign(sp.warps.size(), WarpView{});
      sp.gate.assign(sp.warps.size(), Gate{});
      sp.mio_since.assign(sp.warps.size(), kNever);
    }
  free_slots.assign(g.sm.count, occ.ctas_per_sm);
  smem_ticks_per_wavefront = static_cast<Tick>(kTicksPerCycle * 128.0 / g.sm.shared_bytes_per_cycle + 0.5);
  smem_latency = cycles_to_ticks(g.sm.shared_latency);
  if (g.sm.copy_fill_bytes_per_cycle > 0) fill_ticks_per_byte = kTicksPerCycle / g.sm.copy_fill_bytes_per_cycle;
  if (g.sm.load_data_bytes_per_cycle > 0) load_ticks_per_byte = kTicksPerCycle / g.sm.load_data_bytes_per_cycle;
  smem_latency_per_wavefront = cycles_to_ticks(g.sm.shared_latency_per_wavefront);
  ldsm_one_at_a_time = g.sm.ldmatrix_one_at_a_time_beside_mma;
  wgmma_on_path = g.sm.wgmma_operands_use_shared_path;
  start_backlog = g.sm.mio_start_backlog;
  starvation_ticks = cycles_to_ticks(g.sm.mio_starvation_period);
  if (g.sm.issue_share_beside_one > 0) share_one_ticks = kTicksPerCycle / g.sm.issue_share_beside_one;
  if (g.sm.issue_share_beside_more > 0) share_more_ticks = kTicksPerCycle / g.sm.issue_share_beside_more;
  // 0: as a conflict-free shared load.
  shuffle_latency = cycles_to_ticks(g.sm.shuffle_latency > 0 ? g.sm.shuffle_latency
                                                         : static_cast<std::uint64_t>(one_wavefront_shared_latency(g.sm)));
  sm_first_start.assign(g.sm.count, kNever);
  sm_next_dispatch.assign(g.sm.count, 0);
  dispatch_ticks = cycles_to_ticks(std::max<std::uint64_t>(
      g.launch.cta_dispatch_interval, g.launch.warp_dispatch_interval * static_cast<std::uint64_t>(warps_per_cta)));
  sm_last_end.assign(g.sm.count, 0);
  result.ctas.reserve(static_cast<size_t>(shape.ctas));
}

void Engine::Impl::launch(int sm, Tick t) {
  int slot = -1;
  for (int c = 0; c < occ.ctas_per_sm; ++c)
    if (!ctas[sm * occ.ctas_per_sm + c].active) {
      slot = c;
      break;
    }
  SIM_ASSERT(slot >= 0, "SM " << sm << " reported a free CTA slot but has none");
  --free_slots[sm];
  Cta& cta = ctas[sm * occ.ctas_per_sm + slot];
  cta = Cta{};
  cta.active = true;
  cta.warps_left = warps_per_cta;
  cta.record = static_cast<std::int64_t>(result.ctas.size());
  CtaRecord rec;
  rec.launch_index = next_launch;
  rec.tile = kernel.tile_of(next_launch);
  rec.sm = sm;
  t = std::max(t, sm_next_dispatch[sm]);
  sm_next_dispatch[sm] = t + dispatch_ticks;
  rec.start = t;
  result.ctas.push_back(rec);
  sm_first_start[sm] = std::min(sm_first_start[sm], t);
  if (gpu.launch.cta_start_jitter > 0) {
    std::uint64_t h = static_cast<std::uint64_t>(next_launch) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    t += cycles_to_ticks(h % (gpu.launch.cta_start_jitter + 1));
  }
  const std::uint64_t cta_age = age_counter;  // the age of the CTA's first warp
  for (int w = 0; w < warps_per_cta; ++w) {
    const int g = sm * warps_per_sm + slot * warps_per_cta + w;
    Warp& warp = warps[g];
    warp = Warp{};
    kernel.start_warp(warp.cursor, next_launch, w);
    warp.active = true;
    warp.ready = t;
    warp.accounted = t;
    warp.started = t;
    warp.age = age_counter++;
    SubPart& sp = sps[sub_partition(g)];
    ++sp.resident;
    const auto position = static_cast<std::size_t>(g % warps_per_sm / nsp);
    sp.views[position] = WarpView{false, warp.age, cta_age};
    warp.gate = &sp.gate[position];
    sp.mio_since[position] = kNever;
    fetch_next(warp);
  }
  ++next_launch;
  last_sm = sm;
}

void Engine::Impl::fill(Tick t) {
  while (next_launch < shape.ctas) {
    int sm = dispatcher->pick(free_slots, last_sm);
    if (sm < 0) break;
    launch(sm, t);
    wake_sm(sm);
  }
}

void Engine::Impl::retire(int sm, Cta& cta, Tick t) {
  CtaRecord& rec = result.ctas[static_cast<size_t>(cta.record)];
  rec.end = t;
  result.warp_ticks_resident += static_cast<double>(t - rec.start) * warps_per_cta;
  sm_last_end[sm] = std::max(sm_last_end[sm], t);
  result.end = std::max(result.end, t);
  cta.active = false;
  ++free_slots[sm];
  ++retired;
  if (progress && *progress && (retired % progress_every == 0 || retired == shape.ctas))
    (*progress)(retired, shape.ctas, t);
  if (sample_to > 0 && (retired == sample_from || retired == sample_to))
    mem.time_queued_requests();  // pipelined: the memory side's counters then count what was issued, as at issue
  if (sample_to > 0 && retired == sample_from) sample_mid = snapshot(t);
  if (sample_to > 0 && retired == sample_to) {
    sample_last = snapshot(t);
    sample_done = true;
    return;
  }
  fill(t + cycles_to_ticks(gpu.launch.cta_launch_latency));
}

void Engine::Impl::settle(int g, std::uint64_t age, int slot, Tick done) {
  Warp& w = warps[static_cast<std::size_t>(g)];
  if (!w.active || w.age != age) return;
  w.slot_ready[slot] = std::max(w.slot_ready[slot], done);
  SIM_ASSERT(w.pending[slot] > 0, "work for slot " << slot << " of warp " << g << " not pending");
  if (--w.pending[slot] == 0 && w.blocked_slot == slot) {
    w.blocked_slot = -1;
    w.ready = w.blocked_from;
    resolve_waits(w);
    sync_gate(w);
    const std::uint32_t index = sub_partition(g);
    reschedule(sps[index], index);
  }
}

void Engine::Impl::finish_exit(int g) {
  Warp& w = warps[static_cast<std::size_t>(g)];
  const int sm = g / warps_per_sm, cta_slot = g % warps_per_sm / warps_per_cta;
  Cta& cta = cta_of(g);
  // The warp stays resident until the L2 has taken its stores and reductions.
  const Tick gone = std::max(w.exited + kTicksPerCycle, w.posted);
  account(w, WarpState::kDrain, gone);
  result.stalls.add_active(gone - w.started);
  cta.drained = std::max(cta.drained, gone);
  if (cta.warps_left > 0 || cta.draining > 0) return;
  // Drained within a cycle of its exit: the CTA retires as the warp exits. Never so after a store was taken from the
  // outbox: it was still there at the exit, so it left at the exit or later and reached its slice later still.
  if (cta.drained <= w.exited + kTicksPerCycle)
    retire(sm, cta, w.exited);
  else  // the slot frees when the last warp has drained
    events.emplace(cta.drained, static_cast<std::uint32_t>(sps.size() + sm * occ.ctas_per_sm + cta_slot));
}

void Engine::Impl::take_request() {
  MemorySystem::Completed c;
  if (!mem.take_next_request(&c)) return;
  const PendingLoad p = pending_loads[c.owner];
  free_pending_loads.push_back(c.owner);
  switch (p.kind) {
    case PendingLoad::Kind::kPosted: {
      Warp& w = warps[static_cast<std::size_t>(p.warp)];
      if (w.age != p.age) break;  // (an exited warp's slot is not reused before its CTA retires, which waits for this)
      w.posted = std::max(w.posted, c.done);
      if (p.slot >= 0) settle(p.warp, p.age, p.slot, c.back);  // an ATOM's old values
      SIM_ASSERT(w.posts_pending > 0, "a store of warp " << p.warp << " completes that was not pending");
      if (--w.posts_pending == 0 && w.exited != kNever) {
        --cta_of(p.warp).draining;
        finish_exit(p.warp);
      }
      break;
    }
    case PendingLoad::Kind::kSlot:
      settle(p.warp, p.age, p.slot, std::max(c.done, p.at_least));
      break;
    case PendingLoad::Kind::kFill: {  // its warp's count stays until the fill is written (fill_event)
      const Warp& w = warps[static_cast<std::size_t>(p.warp)];
      if (!w.active || w.age != p.age) break;
      const int sm = sm_of(w);
      fills.add(sm, PendingFill{std::max(c.done, p.at_least), p.fill_seq, p.fill_ticks, p.warp, p.age, p.slot});
      schedule_fills(sm);
      break;
    }
    case PendingLoad::Kind::kCta:
      for (int k = 0; k < warps_per_cta; ++k)
        settle(p.warp + k, p.age + static_cast<std::uint64_t>(k), p.slot, std::max(c.done, p.at_least));
      break;
  }
}

CountSnapshot Engine::Impl::snapshot(Tick t) const {
  double active = 0;
  for (int sm = 0; sm < gpu.sm.count; ++sm)
    if (sm_first_start[sm] != kNever) active += static_cast<double>(t - sm_first_start[sm]);
  return snapshot_counts(result, mem, active, t);
}

SimResult Engine::Impl::run(ProgressFn* fn) {
  progress = fn;
  progress_every = std::max<std::int64_t>(1, shape.ctas / 200);
  result.end = start_tick;
  const bool piped = pipeline != Pipeline::kOff && !mem.reads_in_arrival_order() && !mem.writes_in_arrival_order();
  if (piped) {
    mem.set_pipelined(true);
    reads_in_order = writes_in_order = true;  // every access through the FIFO, its completion through take_request
    if (pipeline == Pipeline::kWorker) mem.start_pipeline_worker();
  }
  const Tick lag = mem.min_request_ticks();
  fill(start_tick);
  if (piped) mem.publish_requests(start_tick);
  while (!sample_done) {
    const Tick next_event = events.empty() ? kNever : events.top().first;
    if (piped) {
      // Pipelined: a request issued at i is done no sooner than i + lag, so what comes back before the next event
      // is what was issued lag or more before it; the rest is taken later, while the memory side times it. Taken
      // sooner where the FIFO needs the room, or a warp's exit waits on its stores (eager_take).
      if (mem.requests_queued() &&
          (eager_take || next_event == kNever || mem.oldest_queued_issue() + lag <= next_event || mem.pipeline_needs_room())) {
        take_request();
        continue;
      }
      eager_take = false;
    } else if (mem.next_departure() < next_event) {
      // A line that leaves its SM at t reaches L2 before anything happens at later ticks (l2.reads_in_arrival_order;
      // without it the outboxes stay empty): what a warp issues at t' > t departs no sooner than t'.
      take_request();
      continue;
    }
    if (events.empty()) break;
    auto [t, index] = events.top();
    events.pop();
    if (index < sps.size()) {
      step(index, t);
    } else if (index >= sps.size() + ctas.size()) {
      fill_event(static_cast<int>(index - sps.size() - ctas.size()), t);
    } else {
      const std::uint32_t slot = index - static_cast<std::uint32_t>(sps.size());
      retire(static_cast<int>(slot / occ.ctas_per_sm), ctas[slot], t);
    }
    if (piped) mem.publish_requests(t);
  }
  if (piped) {
    while (mem.requests_queued()) take_request();  // a sampled run stops with requests in flight
    mem.stop_pipeline_worker();
    mem.set_pipelined(false);
  }
  SIM_ASSERT(retired == shape.ctas || sample_done, "simulation stalled: " << retired << " of " << shape.ctas
                                                                           << " CTAs retired, " << next_launch << " launched");
  if (sample_done) {
    extrapolate_counts(result, sample_mid, sample_last,
                       static_cast<double>(shape.ctas - sample_to) / static_cast<double>(sample_to - sample_from));
    result.sampled_ctas = sample_to;
    result.sampled_from = sample_from;
  } else {
    result.mem = mem.counters();
    result.dram_read_bytes = mem.dram().bytes_read();
    result.dram_write_bytes = mem.dram().bytes_written();
    for (int sm = 0; sm < gpu.sm.count; ++sm)
      if (sm_first_start[sm] != kNever) result.sm_active_ticks += static_cast<double>(sm_last_end[sm] - sm_first_start[sm]);
  }
  // The kernel is done when its reductions are (performed in the slices, not only taken in).
  if (!sample_done) result.end = std::max(result.end, mem.reductions_done());
  // Times relative to the kernel's start (a kernel of a sequence starts where the previous ended).
  result.end -= start_tick;
  for (CtaRecord& c : result.ctas) c.start -= start_tick, c.end -= start_tick;
  result.shape = shape;
  result.occupancy = occ;
  result.l2_dirty_sectors_at_end = mem.l2_dirty_sectors();
  return std::move(result);
}

void append_kernel_result(SimResult& total, SimResult&& next, Tick offset) {
  total.end += next.end;
  total.launches += next.launches;
  total.shape.ctas += next.shape.ctas;
  total.shape.grid_ctas += next.shape.grid_ctas;
  total.mem += next.mem;
  total.dram_read_bytes += next.dram_read_bytes;
  total.dram_write_bytes += next.dram_write_bytes;
  total.l2_dirty_sectors_at_end = next.l2_dirty_sectors_at_end;
  total.warp_instructions += next.warp_instructions;
  total.shared += next.shared;
  total.warp_ticks_resident += next.warp_ticks_resident;
  total.sm_active_ticks += next.sm_active_ticks;
  total.flops += next.flops;
  total.tensor_busy_ticks += next.tensor_busy_ticks;
  total.mma_instructions += next.mma_instructions;
  total.stalls.merge(next.stalls);
  for (CtaRecord& c : next.ctas) {
    c.start += offset, c.end += offset;
    total.ctas.push_back(c);
  }
}

Engine::Engine(const GpuConfig& gpu, const Kernel& kernel, MemorySystem* shared_memory)
    : impl_(std::make_unique<Impl>(gpu, kernel, shared_memory)) {}
void Engine::set_start(Tick t) { impl_->start_tick = t; }
void Engine::set_pipeline(Pipeline p) { impl_->pipeline = p; }
void Engine::set_sample_waves(int waves) {
  Impl& m = *impl_;
  const std::int64_t resident = static_cast<std::int64_t>(m.occ.ctas_per_sm) * m.gpu.sm.count;
  SIM_ASSERT(waves == 0 || waves >= 2, "sampling needs at least 2 waves, got " << waves);
  m.result.sample_waves = waves;
  if (waves == 0 || resident * waves >= m.shape.ctas) {
    m.sample_from = m.sample_to = 0;  // the whole grid
    return;
  }
  m.sample_to = resident * waves;
  m.sample_from = resident * (waves / 2);
}
Engine::~Engine() = default;
void Engine::set_timeline(Timeline* t) { impl_->mem.attach_timeline(t); }
void Engine::trace_warps_of_sm(int sm) { impl_->result.stalls.set_traced_sm(sm); }
SimResult Engine::run() { return impl_->run(&progress_); }

}  // namespace gms
