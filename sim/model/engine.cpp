#include "model/engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <queue>

#include "common/error.h"
#include "model/dispatcher.h"
#include "model/memory_system.h"
#include "model/shared_fills.h"
#include "model/warp_scheduler.h"
#include "model/wave_sampling.h"

namespace gms {

struct Engine::Impl {
  struct Warp {
    WarpCursor cursor;
    Instr instr;
    Tick ready = 0;
    Tick accounted = 0;  // the warp's time is classified up to here
    Tick started = 0;
    std::uint64_t age = 0;
    bool active = false;
    bool at_barrier = false;
    std::array<Tick, kMaxSlots> slot_ready{};
    std::uint32_t short_slots = 0;  // bit i: slot i was last filled from shared memory
    std::uint32_t fixed_slots = 0;  // bit i: slot i was last filled by a fixed-latency ALU result
    Tick posted = 0;  // when the L2 has taken its stores and reductions so far (its exit waits: drain)
    std::array<std::uint16_t, kMaxSlots> pending_fills{};  // per slot: copies not yet written to shared memory
    int blocked_slot = -1;  // waits on that slot's pending fills (ready = kNever meanwhile)
    Tick blocked_from = 0;  // when it would have started waiting
  };
  struct Cta {
    bool active = false;
    std::int64_t record = -1;
    int warps_left = 0;
    int arrived = 0;
    Tick barrier_release = 0;
    Tick drained = 0;  // the latest of its exited warps' drains: the slot is free from then on
  };
  struct SubPart {
    int sm = 0;
    std::vector<int> warps;  // global warp indices
    std::vector<WarpView> views;
    Tick issue_free = 0;
    std::array<Tick, kPipeCount> pipe_free{};
    int last = -1;
    Tick scheduled = kNever;
  };
  // (time, index): index < sps.size() wakes that sub-partition; index = sps.size() + CTA slot retires
  // a CTA whose warps have drained; index = sps.size() + CTA slots + SM writes that SM's arrived
  // cp.async data into shared memory (both after the sub-partitions' events of the same time).
  using Event = std::pair<Tick, std::uint32_t>;

  const GpuConfig& gpu;
  const Kernel& kernel;
  LaunchShape shape;
  Occupancy occ;
  std::unique_ptr<MemorySystem> own_mem;
  MemorySystem& mem;  // own_mem, or the memory a sequence of kernels shares
  Tick start_tick = 0;
  std::unique_ptr<WarpScheduler> scheduler;
  std::unique_ptr<Dispatcher> dispatcher;
  int nsp, warps_per_cta, warps_per_sm;
  std::array<double, kPipeCount> pipe_ticks_per_flop{};
  std::vector<Warp> warps;
  std::vector<Cta> ctas;
  std::vector<SubPart> sps;
  std::vector<int> free_slots;
  std::vector<Tick> sm_first_start, sm_last_end;
  std::vector<Tick> sm_next_dispatch;  // earliest start of the SM's next CTA (its launch rate)
  Tick dispatch_ticks = 0;
  std::vector<Tick> smem_free;  // per SM: when its shared-memory data path is next free
  // sm.shared_fills: a cp.async's shared-memory write takes the data path when the LDGSTS issues
  // (issue), or when its data is back (arrival: in time order with the shared instructions; idle:
  // only where they leave the path idle).
  bool fills_at_arrival = false, fills_when_idle = false;
  SharedFills fills;
  Tick smem_ticks_per_wavefront = 0, smem_latency = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  std::int64_t next_launch = 0, retired = 0;
  int last_sm = -1;
  std::uint64_t age_counter = 0;
  SimResult result;
  // Sampling (Engine::set_sample_waves): the counters at retirements `sample_from` and `sample_to`;
  // the run stops at the second.
  std::int64_t sample_from = 0, sample_to = 0;
  CountSnapshot sample_mid, sample_last;
  bool sample_done = false;
  ProgressFn* progress = nullptr;
  std::int64_t progress_every = 1;

  Impl(const GpuConfig& g, const Kernel& k, MemorySystem* shared)
      : gpu(g),
        kernel(k),
        shape(k.shape()),
        occ(compute_occupancy(g, shape)),
        own_mem(shared ? nullptr : std::make_unique<MemorySystem>(g)),
        mem(shared ? *shared : *own_mem),
        fills(g.sm.count) {
    fills_at_arrival = g.sm.shared_fills != "issue";
    fills_when_idle = g.sm.shared_fills == "idle";
    scheduler = make_warp_scheduler(g.sm.warp_scheduler);
    dispatcher = make_dispatcher(g.launch.dispatch);
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
        sp.views.resize(sp.warps.size());
      }
    free_slots.assign(g.sm.count, occ.ctas_per_sm);
    smem_free.assign(g.sm.count, 0);
    smem_ticks_per_wavefront = static_cast<Tick>(kTicksPerCycle * 128.0 / g.sm.shared_bytes_per_cycle + 0.5);
    smem_latency = cycles_to_ticks(g.sm.shared_latency);
    sm_first_start.assign(g.sm.count, kNever);
    sm_next_dispatch.assign(g.sm.count, 0);
    dispatch_ticks = cycles_to_ticks(std::max<std::uint64_t>(
        g.launch.cta_dispatch_interval, g.launch.warp_dispatch_interval * static_cast<std::uint64_t>(warps_per_cta)));
    sm_last_end.assign(g.sm.count, 0);
    result.ctas.reserve(static_cast<size_t>(shape.ctas));
  }

  int slot_of(const Warp& w) const { return static_cast<int>(&w - warps.data()) % warps_per_sm; }
  int sm_of(const Warp& w) const { return static_cast<int>(&w - warps.data()) / warps_per_sm; }
  void account(Warp& w, WarpState s, Tick to) {
    result.stalls.add(sm_of(w), slot_of(w), w.cursor.cta, s, w.accounted, to);
    w.accounted = std::max(w.accounted, to);
  }

  void fetch_next(Warp& w) {
    kernel.next(w.cursor, w.instr);
    resolve_waits(w);
  }
  // Passes the waits at the warp's cursor whose data times are known; stops at one on a slot with
  // copies not yet written to shared memory (the warp resumes when they are).
  void resolve_waits(Warp& w) {
    while (w.instr.op == Op::kWait) {
      if (w.pending_fills[w.instr.slot] > 0) {
        w.blocked_slot = w.instr.slot;
        w.blocked_from = w.ready;
        w.ready = kNever;
        return;
      }
      Tick data = w.slot_ready[w.instr.slot];
      if (data > w.ready) {
        account(w, WarpState::kSelected, w.ready);  // the previous instruction's own time
        const std::uint32_t bit = 1u << w.instr.slot;
        account(w, (w.short_slots & bit)   ? WarpState::kShortScoreboard
                   : (w.fixed_slots & bit) ? WarpState::kWait
                                           : WarpState::kLongScoreboard,
                data);
        w.ready = data;
      }
      kernel.next(w.cursor, w.instr);
    }
  }

  void reschedule(SubPart& sp, std::uint32_t index) {
    Tick next = kNever;
    for (int wi : sp.warps) {
      const Warp& w = warps[wi];
      if (w.active && !w.at_barrier) next = std::min(next, w.ready);
    }
    if (next == kNever) return;
    next = std::max(next, sp.issue_free);
    if (next < sp.scheduled) {
      sp.scheduled = next;
      events.emplace(next, index);
    }
  }

  void wake_sm(int sm) {
    for (int p = 0; p < nsp; ++p) reschedule(sps[sm * nsp + p], static_cast<std::uint32_t>(sm * nsp + p));
  }

  void launch(int sm, Tick t) {
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
    for (int w = 0; w < warps_per_cta; ++w) {
      Warp& warp = warps[sm * warps_per_sm + slot * warps_per_cta + w];
      warp = Warp{};
      kernel.start_warp(warp.cursor, next_launch, w);
      warp.active = true;
      warp.ready = t;
      warp.accounted = t;
      warp.started = t;
      warp.age = age_counter++;
      fetch_next(warp);
    }
    ++next_launch;
    last_sm = sm;
  }

  void fill(Tick t) {
    while (next_launch < shape.ctas) {
      int sm = dispatcher->pick(free_slots, last_sm);
      if (sm < 0) break;
      launch(sm, t);
      wake_sm(sm);
    }
  }

  void retire(int sm, Cta& cta, Tick t) {
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
    if (sample_to > 0 && retired == sample_from) sample_mid = snapshot(t);
    if (sample_to > 0 && retired == sample_to) {
      sample_last = snapshot(t);
      sample_done = true;
      return;
    }
    fill(t + cycles_to_ticks(gpu.launch.cta_launch_latency));
  }

  CountSnapshot snapshot(Tick t) const {
    double active = 0;
    for (int sm = 0; sm < gpu.sm.count; ++sm)
      if (sm_first_start[sm] != kNever) active += static_cast<double>(t - sm_first_start[sm]);
    return snapshot_counts(result, mem, active, t);
  }

  void issue(SubPart& sp, Warp& w, int warp_index, Tick t) {
    const int sm = sp.sm;
    const int local = warp_index - sm * warps_per_sm;
    Cta& cta = ctas[sm * occ.ctas_per_sm + local / warps_per_cta];
    CtaMemCounts* counts = &result.ctas[static_cast<size_t>(cta.record)].mem;
    Instr& in = w.instr;
    result.warp_instructions += std::max<std::uint32_t>(1, in.issue_cycles) + in.other_instructions;
    account(w, WarpState::kNotSelected, t);  // ready since `accounted`, picked only now
    switch (in.op) {
      case Op::kLoad: {
        const AccessCtx ctx{sm, t, counts};
        if (in.tma_boxes > 0) {  // a bulk tensor copy: every warp of the CTA waits on its mbarrier
          const Tick done = mem.tma_load(ctx, in.region, in.tma_boxes, in.hint);
          const int first = sm * warps_per_sm + local / warps_per_cta * warps_per_cta;
          for (int k = 0; k < warps_per_cta; ++k)
            if (warps[first + k].active) fill_slot(warps[first + k], in.slot, done, SlotKind::kLong);
          hold(sp, w, in, t);
          break;
        }
        Tick done = in.lanes.present() ? mem.load(ctx, in.lanes, in.bypass_l1, in.hint) : mem.load(ctx, in.region, in.bypass_l1, in.hint);
        if (in.async_copy) {  // LDGSTS: the arriving data is written into shared memory
          result.shared.ldgsts_instructions += in.issue_cycles;
          result.shared.ldgsts_wavefronts += in.wavefronts;
          if (fills_at_arrival) {  // written when the data is back (fill_event)
            fills.add(sm, PendingFill{done, 0, in.wavefronts, warp_index, w.age, in.slot});
            ++w.pending_fills[in.slot];
            schedule_fills(sm);
          } else {
            done = std::max(done, shared_pipe(sm, t, in.wavefronts));
          }
        }
        fill_slot(w, in.slot, done, SlotKind::kLong);
        hold(sp, w, in, t);
        break;
      }
      case Op::kSharedLoad: {
        Tick done = shared_pipe(sm, t, in.wavefronts) + smem_latency;
        fill_slot(w, in.slot, done, SlotKind::kShort);
        (in.ldmatrix ? result.shared.ldsm_instructions : result.shared.ld_instructions) += in.issue_cycles;
        result.shared.ld_wavefronts += in.wavefronts;
        result.shared.ld_conflicts += in.conflicts;
        hold(sp, w, in, t);
        break;
      }
      case Op::kSharedStore:
        shared_pipe(sm, t, in.wavefronts);
        result.shared.st_instructions += in.issue_cycles;
        result.shared.st_wavefronts += in.wavefronts;
        result.shared.st_conflicts += in.conflicts;
        hold(sp, w, in, t);
        break;
      case Op::kStore: {
        const AccessCtx ctx{sm, t, counts};
        const Tick taken = in.lanes.present() && in.local ? mem.store_local(ctx, in.lanes)
                           : in.lanes.present()          ? mem.store(ctx, in.lanes)
                                                         : mem.store(ctx, in.region);
        w.posted = std::max(w.posted, taken);
        hold(sp, w, in, t);
        break;
      }
      case Op::kReduce: {
        const AccessCtx ctx{sm, t, counts};
        const MemorySystem::Reduced r = in.lanes.present() ? mem.reduce(ctx, in.lanes) : mem.reduce(ctx, in.region);
        if (in.returns) fill_slot(w, in.slot, r.back, SlotKind::kLong);
        w.posted = std::max(w.posted, r.taken);
        hold(sp, w, in, t);
        break;
      }
      case Op::kCompute: {
        int p = static_cast<int>(in.pipe);
        if (in.pipe_cycles > 0) {  // one traced instruction, pipelined
          Tick start = std::max(t, sp.pipe_free[p]);
          sp.pipe_free[p] = start + cycles_to_ticks(in.pipe_cycles);
          sp.issue_free = t + kTicksPerCycle;
          w.ready = start + kTicksPerCycle;
          result.flops += in.flops;
          if (in.pipe == Pipe::kTensor) {
            result.tensor_busy_ticks += static_cast<double>(cycles_to_ticks(in.pipe_cycles));
            ++result.mma_instructions;
          }
          if (in.writes_slot) fill_slot(w, in.slot, start + cycles_to_ticks(in.latency), SlotKind::kFixed);
          account(w, WarpState::kMathPipeThrottle, start);
          account(w, WarpState::kSelected, w.ready);
          break;
        }
        Tick start = std::max(t, sp.pipe_free[p]);
        Tick end = start + static_cast<Tick>(in.flops * pipe_ticks_per_flop[p] + 0.5);
        sp.pipe_free[p] = end;
        // A block of N instructions holds the sub-partition's issue port N cycles (one a cycle), and
        // its register-bank conflict cycles.
        sp.issue_free = t + cycles_to_ticks(in.issue_cycles + in.other_instructions) + in.port_ticks;
        result.flops += in.flops;
        if (in.pipe == Pipe::kTensor) {
          result.tensor_busy_ticks += static_cast<double>(end - start);
          result.mma_instructions += in.issue_cycles;
        }
        const Tick issue_floor = floor_end(sp, in, t);
        if (in.async_mma) {  // wgmma: the warp goes on; a later wait on `slot` joins the MMAs
          fill_slot(w, in.slot, end, SlotKind::kLong);
          w.ready = issue_floor;
          account_floor(w, sp, in, t);
          break;
        }
        w.ready = std::max(end, issue_floor);
        if (in.hold_ticks > 0) {  // the issue floor first: the pipe throttles only beyond it
          account_floor(w, sp, in, t);
          account(w, WarpState::kMathPipeThrottle, w.ready);
          break;
        }
        // The block of math issues one warp instruction per cycle at best (FFMA: 2 FLOP a lane;
        // MMA: 4096 FLOP); the rest of its time the warp waits on the busy pipe.
        account(w, WarpState::kMathPipeThrottle, start);
        const double per_inst = in.pipe == Pipe::kFma ? 2.0 * gpu.sm.warp_size : 4096.0;
        account(w, WarpState::kSelected, std::min(end, start + cycles_to_ticks(static_cast<std::uint64_t>(in.flops / per_inst + 0.5))));
        account(w, WarpState::kMathPipeThrottle, end);
        break;
      }
      case Op::kBarrier: {
        sp.issue_free = t + kTicksPerCycle;
        w.ready = floor_end(sp, in, t);
        cta.barrier_release = std::max(cta.barrier_release, w.ready);
        account_floor(w, sp, in, t);
        // Warps that have exited count as arrived (a traced CTA may lose warps before a barrier).
        if (++cta.arrived < cta.warps_left)
          w.at_barrier = true;
        else
          release_barrier(sm, local / warps_per_cta, cta);
        break;
      }
      case Op::kExit: {
        w.active = false;
        account(w, WarpState::kSelected, t + kTicksPerCycle);
        // The warp stays resident until the L2 has taken its stores and reductions.
        const Tick gone = std::max(t + kTicksPerCycle, w.posted);
        account(w, WarpState::kDrain, gone);
        result.stalls.add_active(gone - w.started);
        sp.issue_free = t + kTicksPerCycle;
        cta.drained = std::max(cta.drained, gone);
        if (--cta.warps_left == 0) {
          if (cta.drained <= t + kTicksPerCycle)
            retire(sm, cta, t);
          else  // the slot frees when the last warp has drained
            events.emplace(cta.drained, static_cast<std::uint32_t>(sps.size() + sm * occ.ctas_per_sm + local / warps_per_cta));
        } else if (cta.arrived > 0 && cta.arrived == cta.warps_left) {  // the others wait at a barrier
          cta.barrier_release = std::max(cta.barrier_release, t + kTicksPerCycle);
          release_barrier(sm, local / warps_per_cta, cta);
        }
        return;
      }
      case Op::kWait: SIM_ASSERT(false, "wait reached issue; fetch_next resolves waits");
    }
    if (in.op == Op::kLoad || in.op == Op::kStore || in.op == Op::kReduce || in.op == Op::kSharedLoad ||
        in.op == Op::kSharedStore)
      account_floor(w, sp, in, t);
    fetch_next(w);
  }

  // A memory instruction block: the issue port for its instructions, the warp until its issue floor.
  static void hold(SubPart& sp, Warp& w, const Instr& in, Tick t) {
    sp.issue_free = t + cycles_to_ticks(in.issue_cycles + in.other_instructions) + in.port_ticks;
    w.ready = floor_end(sp, in, t);
  }
  // When the warp may issue again after a block issued at `t`: its floor, the loop's own shared-read
  // wait, then the measured issue-stage stalls (dispatch, branch resolution), never before the issue
  // port is free.
  static Tick floor_end(const SubPart& sp, const Instr& in, Tick t) {
    return std::max(sp.issue_free, t + in.hold_ticks + in.short_ticks + in.dispatch_ticks + in.branch_ticks);
  }
  // The block's time as Nsight's states: issuing, `wait` to the floor, short_scoreboard, then the
  // measured stalls.
  void account_floor(Warp& w, const SubPart& sp, const Instr& in, Tick t) {
    account(w, WarpState::kSelected, sp.issue_free);
    account(w, WarpState::kWait, t + in.hold_ticks);
    account(w, WarpState::kShortScoreboard, t + in.hold_ticks + in.short_ticks);
    account(w, WarpState::kDispatchStall, t + in.hold_ticks + in.short_ticks + in.dispatch_ticks);
    account(w, WarpState::kBranchResolving, floor_end(sp, in, t));
  }

  void release_barrier(int sm, int cta_slot, Cta& cta) {
    const int first = sm * warps_per_sm + cta_slot * warps_per_cta;
    for (int k = 0; k < warps_per_cta; ++k) {
      Warp& o = warps[first + k];
      if (!o.active) continue;
      o.at_barrier = false;
      o.ready = std::max(o.ready, cta.barrier_release);
      account(o, WarpState::kBarrier, o.ready);
    }
    cta.arrived = 0;
    cta.barrier_release = 0;
    wake_sm(sm);
  }

  enum class SlotKind { kLong, kShort, kFixed };
  // A scoreboard slot takes the later of its pending data and `done`; its kind names the stall a
  // wait on it counts as.
  static void fill_slot(Warp& w, int slot, Tick done, SlotKind kind) {
    w.slot_ready[slot] = std::max(w.slot_ready[slot], done);
    const std::uint32_t bit = 1u << slot;
    w.short_slots = kind == SlotKind::kShort ? w.short_slots | bit : w.short_slots & ~bit;
    w.fixed_slots = kind == SlotKind::kFixed ? w.fixed_slots | bit : w.fixed_slots & ~bit;
  }

  // Reserves `wavefronts` cycles of the SM's shared-memory data path from t on (in order of issue);
  // returns when the last one is through.
  Tick shared_pipe(int sm, Tick t, std::uint32_t wavefronts) {
    Tick start = std::max(t, smem_free[sm]);
    smem_free[sm] = start + wavefronts * smem_ticks_per_wavefront;
    return smem_free[sm];
  }

  // Wakes the SM's pending fills when the first has arrived and the data path is free.
  void schedule_fills(int sm) {
    if (fills.empty(sm)) return;
    const Tick at = fills_when_idle ? std::max(fills.earliest(sm), smem_free[sm]) : fills.earliest(sm);
    if (at < fills.scheduled(sm)) {
      fills.scheduled(sm) = at;
      events.emplace(at, static_cast<std::uint32_t>(sps.size() + ctas.size() + sm));
    }
  }
  // At `t` (after the sub-partitions' issues of that tick): if the data path is idle, the fills that
  // have arrived take it, in order of arrival; their warps' waits resolve.
  void fill_event(int sm, Tick t) {
    if (fills.scheduled(sm) != t) return;  // superseded
    fills.scheduled(sm) = kNever;
    if (!fills_when_idle || smem_free[sm] <= t) {
      fills.take_arrived(sm, t, [&](const PendingFill& f) {
        const Tick end = shared_pipe(sm, t, f.wavefronts);
        Warp& w = warps[static_cast<std::size_t>(f.warp)];
        if (!w.active || w.age != f.age) return;
        w.slot_ready[f.slot] = std::max(w.slot_ready[f.slot], end);
        SIM_ASSERT(w.pending_fills[f.slot] > 0, "fill for slot " << f.slot << " of warp " << f.warp << " not pending");
        if (--w.pending_fills[f.slot] == 0 && w.blocked_slot == f.slot) {
          w.blocked_slot = -1;
          w.ready = w.blocked_from;
          resolve_waits(w);
          const int local = f.warp - sm * warps_per_sm;
          reschedule(sps[static_cast<std::size_t>(sm * nsp + local % nsp)], static_cast<std::uint32_t>(sm * nsp + local % nsp));
        }
      });
    }
    schedule_fills(sm);
  }

  void step(std::uint32_t index, Tick t) {
    SubPart& sp = sps[index];
    if (sp.scheduled != t) return;  // superseded by an earlier wake-up
    sp.scheduled = kNever;
    for (size_t i = 0; i < sp.warps.size(); ++i) {
      const Warp& w = warps[sp.warps[i]];
      sp.views[i] = WarpView{w.active && !w.at_barrier && w.ready <= t, w.age};
    }
    int pick = scheduler->pick(sp.views, sp.last);
    if (pick >= 0) {
      sp.last = pick;
      issue(sp, warps[sp.warps[pick]], sp.warps[pick], t);
    }
    reschedule(sp, index);
  }

  SimResult run(ProgressFn* fn) {
    progress = fn;
    progress_every = std::max<std::int64_t>(1, shape.ctas / 200);
    result.end = start_tick;
    fill(start_tick);
    while (!events.empty() && !sample_done) {
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
    // Times relative to the kernel's start (a kernel of a sequence starts where the previous ended).
    result.end -= start_tick;
    for (CtaRecord& c : result.ctas) c.start -= start_tick, c.end -= start_tick;
    result.shape = shape;
    result.occupancy = occ;
    result.l2_dirty_sectors_at_end = mem.l2_dirty_sectors();
    return std::move(result);
  }
};

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
