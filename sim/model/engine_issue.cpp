// Issue: a sub-partition's wake-up (its scheduler picks a warp), what the issued instruction does
// (Engine::Impl::issue) and the SM's shared-memory data path it books, including the cp.async copies
// written into it when their data is back. step() lives beside issue() so the compiler keeps the
// per-instruction path in one unit (5 % slower across two).
#include "model/engine_impl.h"

namespace gms {

void Engine::Impl::step(std::uint32_t index, Tick t) {
  SubPart& sp = sps[index];
  if (sp.scheduled != t) return;  // superseded by an earlier wake-up
  sp.scheduled = kNever;
  // The queue does not change during the scan: warps waiting for as many entries get the same answer.
  std::uint32_t asked = 0;
  Tick room = 0;
  int eligible_count = 0;
  const bool held = mma_held(sp);
  for (size_t i = 0; i < sp.warps.size(); ++i) {
    Gate& g = sp.gate[i];
#ifndef NDEBUG  // a change of the warp without sync_gate (debug builds: it costs the scan's cache misses)
    const Warp& c = warps[sp.warps[i]];
    SIM_ASSERT(g.ready == (c.active && !c.at_barrier ? c.ready : kNever) &&
                   g.mio_need == (in_mio_queue(c.instr) ? std::max<std::uint32_t>(1, c.instr.issue_cycles) : 0) &&
                   g.starts == c.instr.warp_start,
               "stale gate of warp " << sp.warps[i] << ": ready " << g.ready << " vs " << c.ready << ", active "
                                     << c.active << ", at barrier " << c.at_barrier << ", MIO " << g.mio_need);
#endif
    bool eligible = g.ready <= t && (t >= sp.issue_free || (held && g.slips && t >= sp.open_from));
    if (starvation_ticks > 0 && g.mio_need > 0 && g.ready <= t && sp.mio_since[i] == kNever)
      sp.mio_since[i] = t;  // wanting an entry from now on (kept until it issues)
    if (eligible && g.starts && g.mio_need > 0 && start_backlog >= 0) {
      // A new warp's first MIO instructions wait for the SM's queue to drain (gms-mio-ubench mio_startup).
      const Tick drained = mio.drained_to(sp.sm, static_cast<int>(index), static_cast<std::size_t>(start_backlog), t);
      if (drained > t) {
        Warp& w = warps[sp.warps[i]];
        account(w, WarpState::kMioThrottle, drained);
        w.ready = g.ready = drained;
        eligible = false;
      }
    }
    if (eligible && g.mio_need > 0) {
      // A burst waits for room for all its instructions, or (sm.mio_bursts_enter_one_at_a_time) for one: silicon
      // issues them one at a time and the oldest ready warp takes each entry that frees, so a younger warp's single
      // instruction does not pass an older warp's burst (validate/results/h200/mio_order). Its other entries then
      // overfill the bounds by at most the burst's size less one.
      const std::uint32_t need = mio_bursts_one ? 1u : g.mio_need;
      if (mio_oldest_first) {  // each warp asks with its age (the scheduler's view has it); a starved one as the oldest (0)
        // sm.mio_entries_by_cta_age: a CTA's warps ask with one age; the queue owes them entries in the order it turned
        // them away (MioQueue's ties_in_line).
        const std::uint64_t own_age = mio_by_cta_age ? sp.views[i].cta_age : sp.views[i].age;
        const std::uint64_t age = starvation_ticks > 0 && starved(sp.mio_since[i], t) ? 0 : own_age + 1;
        room = mio.room_at(sp.sm, static_cast<int>(index), need, t, sp.warps[i], age);
      } else if (need != asked) {
        asked = need;
        room = mio.room_at(sp.sm, static_cast<int>(index), asked, t);
      }
      if (room > t) {  // throttled: eligible again when the queue has room
        Warp& w = warps[sp.warps[i]];
        account(w, WarpState::kMioThrottle, room);
        w.ready = g.ready = room;
        eligible = false;
      }
    }
    sp.views[i].eligible = eligible;
    sp.views[i].ready = g.ready;
    eligible_count += eligible;
  }
  int pick = scheduler->pick(sp.views, sp.last, t);
  if (starvation_ticks > 0 && pick >= 0) pick = starving_first(sp, pick, t);
  if (pick < 0 && eligible_count > 0) {  // the policy leaves them waiting: try again when another warp is ready
    wake_after(sp, index, t);
    return;
  }
  if (pick >= 0) {
    sp.last = pick;
    sp.views[pick].last_issue = t;
    Warp& w = warps[sp.warps[pick]];
    if (scheduler_counts_issue) scheduler->issued(sp.views, pick, w.instr.instructions_issued());
    dispatch_for_residents(sp, w.instr);
    // sm.issue_share_*: beside other eligible warps the block takes the port's share silicon's scheduler gives one warp
    // (a block that slips in between another warp's held HMMAs, below, takes it too).
    const double share = eligible_count > 2 ? share_more_ticks : eligible_count == 2 ? share_one_ticks : 0.0;
    const std::uint32_t n_issued = w.instr.instructions_issued();
    sp.share_floor = share > 0 ? t + round_ticks(n_issued * share) : 0;
    const Tick held_until = sp.issue_free;
    if (t >= held_until) {
      issue(sp, w, sp.warps[pick], t);
    } else {  // it goes in between another warp's held HMMAs: its block's floor and size, before issue() moves on
      const Instr& in = w.instr;
      const Tick floor = std::max(in.hold_ticks, in.fetch_ticks) + in.short_ticks + in.dispatch_ticks + in.branch_ticks;
      const Tick n = in.instructions_issued();
      issue(sp, w, sp.warps[pick], t);
      slipped_in(sp, w, t, held_until, floor, n);
    }
  }
  reschedule(sp, index);
}

int Engine::Impl::starving_first(SubPart& sp, int pick, Tick t) {
  // sm.mio_starvation_period: the SM ticks at every multiple of the period; an eligible warp that already wanted an
  // MIO entry at the tick before the last one has starved a whole period, and the one that has wanted it longest goes
  // before the scheduler's pick (gms-mio-startup-ubench: starved S2Rs issue just after a multiple of 16,384 cycles,
  // 16-32 k cycles after they began to wait; the youngest chain beside a flood, 32,765 cycles a hop - two ticks).
  Tick longest = kNever;
  for (size_t i = 0; i < sp.warps.size(); ++i) {
    if (!sp.views[i].eligible || sp.gate[i].mio_need == 0) continue;
    if (starved(sp.mio_since[i], t) && sp.mio_since[i] < longest) {
      longest = sp.mio_since[i];
      pick = static_cast<int>(i);
    }
  }
  if (sp.gate[pick].mio_need > 0) sp.mio_since[pick] = kNever;  // it issues now
  return pick;
}

void Engine::Impl::issue(SubPart& sp, Warp& w, int warp_index, Tick t) {
  const int sm = sp.sm;
  const int local = warp_index - sm * warps_per_sm;
  Cta& cta = ctas[sm * occ.ctas_per_sm + local / warps_per_cta];
  CtaMemCounts* counts = &result.ctas[static_cast<size_t>(cta.record)].mem;
  Instr& in = w.instr;
  result.warp_instructions += in.instructions_issued();
  // Ready since `accounted`, picked only now: behind another warp's mma.sync in the tensor pipe, the
  // dispatcher's stall; otherwise the scheduler chose another warp.
  if (sp.dispatch_held > w.accounted && t >= sp.issue_free)
    account(w, WarpState::kDispatchStall, std::min(t, sp.dispatch_held));
  account(w, WarpState::kNotSelected, t);
  switch (in.op) {
    case Op::kLoad: {
      const AccessCtx ctx{sm, t, counts, in.local};
      if (in.tma_boxes > 0) {  // a bulk tensor copy: every warp of the CTA waits on its mbarrier
        const int first = sm * warps_per_sm + local / warps_per_cta * warps_per_cta;
        Tick done;
        bool pending = false;
        if (reads_in_order) {
          std::uint32_t id;
          std::tie(done, id) = in_order({PendingLoad::Kind::kCta, first, warps[first].age, in.slot, 0}, [&](std::uint32_t owner) {
            return mem.tma_load_in_order(ctx, in.region, in.tma_boxes, in.hint, owner);
          });
          pending = id != ~0u;
          if (pending) pending_loads[id].at_least = done;
        } else {
          done = mem.tma_load(ctx, in.region, in.tma_boxes, in.hint);
        }
        for (int k = 0; k < warps_per_cta; ++k)
          if (warps[first + k].active) {
            fill_slot(warps[first + k], in.slot, done, SlotKind::kLong);
            if (pending) ++warps[first + k].pending[in.slot];
          }
        hold(sp, w, in, t);
        break;
      }
      // An LDGSTS enters the LSU behind the shared instructions booked before it
      // (sm.copies_wait_for_shared_queue) - or only those each warp has in the data path
      // (sm.copy_waits_per_warp) -: its requests leave from then on.
      Tick entered = t;
      if (in.async_copy && copies_queue && path.free_at(sm) > t)
        entered = copy_waits_per_warp == 0 ? path.free_at(sm)
                                           : t + path.owed_to_first_of_each_warp(sm, t, copy_waits_per_warp);
      const bool through_mio = in_mio_queue(in);  // sm.loads_wait_in_mio_queue (a copy never is)
      if (through_mio) {  // in the MIO queue behind the shared instructions booked before it (or its turn), then into the LSU
        entered = path_turns ? t + path.turn_wait(sm, t, std::max<std::uint32_t>(1, in.issue_cycles), warp_index, path_depth)
                             : std::max(t, path.free_at(sm));
        mio.push(sm, static_cast<int>(&sp - sps.data()), std::max<std::uint32_t>(1, in.issue_cycles), entered, entered, warp_index);
      }
      SIM_ASSERT(entered <= std::max(t, path.done_at(sm)),
                 "copy enters at " << entered << ", past its SM's booked path (done at " << path.done_at(sm) << ")");
      const AccessCtx at_lsu{sm, entered, counts, in.local};
      Tick done;
      std::uint32_t pending_id = ~0u;  // l2.reads_in_arrival_order: its lines wait in the outbox (take_request)
      if (reads_in_order) {
        std::tie(done, pending_id) = in_order({PendingLoad::Kind::kSlot, warp_index, w.age, in.slot, 0}, [&](std::uint32_t owner) {
          return in.lanes.present() ? mem.load_in_order(at_lsu, in.lanes, in.bypass_l1, in.hint, owner)
                                    : mem.load_in_order(at_lsu, in.region, in.bypass_l1, in.hint, owner);
        });
      } else {
        done = in.lanes.present() ? mem.load(at_lsu, in.lanes, in.bypass_l1, in.hint) : mem.load(at_lsu, in.region, in.bypass_l1, in.hint);
      }
      if (in.async_copy) {  // LDGSTS: the arriving data is written into shared memory
        result.shared.ldgsts_instructions += in.issue_cycles;
        result.shared.ldgsts_wavefronts += in.wavefronts;
        if (fills_at_arrival) {  // written when the data is back (fill_event)
          queue_fill(w, warp_index, in.slot, done, fill_ticks(in), pending_id);
        } else {
          done = std::max(done, shared_pipe_ticks(sm, t, fill_ticks(in)));
        }
      }
      // A plain load's data passes the SM's shared-memory data path on its way to the registers (as a copy's fill:
      // when it is back, in slots beside the shared instructions); its slot is settled when it has passed.
      if (const Tick carry = fills_at_arrival ? load_data_ticks(in) : 0; carry > 0)
        queue_fill(w, warp_index, in.slot, done, carry, pending_id);
      if (pending_id != ~0u) {
        pending_loads[pending_id].at_least = done;
        ++w.pending[in.slot];
      }
      fill_slot(w, in.slot, done, SlotKind::kLong);
      hold(sp, w, in, t);
      if (entered > w.ready && !through_mio) {  // the next instruction rewrites the copy's address registers: it waits
        wait_past_floor(w, sp, in, t, WarpState::kLongScoreboard, entered);
        return;
      }
      break;
    }
    case Op::kSharedLoad: {
      // A conflicted load's data comes later than its last wavefront leaves the path: ldmatrix.x4
      // with 4 / 8 / 16 wavefronts has a latency of 26.6 + 2 cycles per wavefront on the H100
      // (validate/results/h100/smem, ldsm_latency), while it holds the path one cycle per wavefront.
      // A block of several loads waits on its last one: the wavefronts of one instruction count.
      Tick passed = shared_instruction(sp, warp_index, in, t);
      if (ldsm_one_at_a_time && in.ldmatrix) passed = std::max(passed, ldmatrix_beside_mma(sp, warp_index, in, t));
      if (in.special_read) {  // S2R: an MIO entry each, no data-path pass
        CtaRecord& rec = result.ctas[static_cast<size_t>(cta.record)];
        if (local % warps_per_cta == 0 && rec.first_special_read == kNever) rec.first_special_read = t;
        if (!in.warp_start) fill_slot(w, in.slot, t + cycles_to_ticks(in.latency), SlotKind::kShort);
        hold(sp, w, in, t);
        break;
      }
      fill_slot(w, in.slot, passed + (in.shuffle ? shuffle_latency : data_after_pass(in)), SlotKind::kShort);
      if (in.shuffle) {  // the path like a conflict-free LDS, its own latency (sm.shuffle_latency)
        result.shared.shfl_instructions += in.issue_cycles;
        result.shared.shfl_wavefronts += in.wavefronts;
        hold(sp, w, in, t);
        break;
      }
      (in.ldmatrix ? result.shared.ldsm_instructions : result.shared.ld_instructions) += in.issue_cycles;
      result.shared.ld_wavefronts += in.wavefronts;
      result.shared.ld_conflicts += in.conflicts;
      hold(sp, w, in, t);
      break;
    }
    case Op::kSharedStore:
      shared_instruction(sp, warp_index, in, t);
      result.shared.st_instructions += in.issue_cycles;
      result.shared.st_wavefronts += in.wavefronts;
      result.shared.st_conflicts += in.conflicts;
      hold(sp, w, in, t);
      break;
    case Op::kStore: {
      CtaRecord& rec = result.ctas[static_cast<size_t>(cta.record)];
      if (!in.local && rec.first_store == kNever) rec.first_store = t;
      const AccessCtx ctx{sm, t, counts};
      MemorySystem::Stored st;
      if (writes_in_order) {  // what the slices do comes back through take_request
        std::uint32_t id;
        std::tie(st, id) = in_order({PendingLoad::Kind::kPosted, warp_index, w.age, -1, 0}, [&](std::uint32_t owner) {
          return in.lanes.present() ? mem.store_in_order(ctx, in.lanes, in.local, owner)
                                    : mem.store_in_order(ctx, in.region, in.local, owner);
        });
        if (id != ~0u) ++w.posts_pending;
      } else {
        st = in.lanes.present() && in.local ? mem.store_local(ctx, in.lanes)
             : in.lanes.present()          ? mem.store(ctx, in.lanes)
             : in.local                    ? mem.store_local(ctx, in.region)
                                           : mem.store(ctx, in.region);
      }
      w.posted = std::max(w.posted, st.taken);
      hold(sp, w, in, t);
      // The LSU takes the warp's next instruction when this store's data is out. Not for local stores:
      // a spill program stores a frame chunk as one block that the compiled loop spreads among its
      // MMAs (held back whole, the spill records ran 27 % slow).
      if (stores_wait_for_way_out && !in.local && st.left > w.ready) {
        wait_past_floor(w, sp, in, t, WarpState::kLgThrottle, st.left);
        return;
      }
      break;
    }
    case Op::kReduce: {
      const AccessCtx ctx{sm, t, counts};
      MemorySystem::Reduced r;
      if (writes_in_order) {
        std::uint32_t id;
        const PendingLoad p{PendingLoad::Kind::kPosted, warp_index, w.age, in.returns ? static_cast<int>(in.slot) : -1, 0};
        std::tie(r, id) = in_order(p, [&](std::uint32_t owner) {
          return in.lanes.present() ? mem.reduce_in_order(ctx, in.lanes, owner) : mem.reduce_in_order(ctx, in.region, owner);
        });
        if (id != ~0u) {
          ++w.posts_pending;
          if (in.returns) ++w.pending[in.slot];
        }
      } else {
        r = in.lanes.present() ? mem.reduce(ctx, in.lanes) : mem.reduce(ctx, in.region);
      }
      if (in.returns) fill_slot(w, in.slot, r.back, SlotKind::kLong);
      w.posted = std::max(w.posted, r.taken);
      hold(sp, w, in, t);
      break;
    }
    case Op::kCompute: {
      int p = static_cast<int>(in.pipe);
      if (in.pipe == Pipe::kTensor) sp.tensor_warp = in.async_mma ? -1 : warp_index;  // ldmatrix_beside_mma's
      if (in.pipe_cycles > 0) {  // one traced instruction, pipelined
        Tick start = std::max(t, sp.pipe_free[p]);
        sp.pipe_free[p] = start + cycles_to_ticks(in.pipe_cycles);
        sp.issue_free = t + kTicksPerCycle;
        if (holds_dispatch(in)) {  // an HMMA: until the pipe takes the next
          sp.issue_free = sp.pipe_free[p];
          hold_for_hmmas(sp, t, sp.pipe_free[p], cycles_to_ticks(in.pipe_cycles));
        }
        w.ready = start + kTicksPerCycle;
        result.flops += in.flops;
        if (in.pipe == Pipe::kTensor) {
          result.tensor_busy_ticks += static_cast<double>(cycles_to_ticks(in.pipe_cycles));
          ++result.mma_instructions;
        }
        if (in.writes_slot) fill_slot(w, in.slot, start + cycles_to_ticks(in.latency), SlotKind::kFixed);
        account(w, WarpState::kMathPipeThrottle, start);
        account(w, WarpState::kSelected, w.ready);
        if (in.hold_ticks > kTicksPerCycle) {  // a taken branch (program.h): its warp waits for the target's fetch
          w.ready = start + in.hold_ticks;
          account(w, WarpState::kBranchResolving, w.ready);
        }
        if (t + in.fetch_ticks > w.ready) {  // past the instruction cache: the next one arrives at the warp's fetch rate
          w.ready = t + in.fetch_ticks;
          account(w, WarpState::kNoInstruction, w.ready);
        }
        break;
      }
      if (in.pipe == Pipe::kAlu && in.flops == 0) {  // a block of a compiled kernel's other instructions:
        hold(sp, w, in, t);                           // the issue port, one a cycle
        account_floor(w, sp, in, t);
        break;
      }
      Tick start = std::max(t, sp.pipe_free[p]);
      Tick end = start + round_ticks(in.flops * pipe_ticks_per_flop[p]);
      sp.pipe_free[p] = end;
      // A block of N instructions holds the sub-partition's issue port N cycles (one a cycle), and
      // its register-bank conflict cycles. An mma.sync holds it for its whole tensor-pipe interval
      // where the GPU's dispatch does (gms-sharing-ubench: another warp issues nothing meanwhile).
      const bool holds = holds_dispatch(in);
      const Tick own = holds ? std::max(cycles_to_ticks(in.issue_cycles), end - start) : cycles_to_ticks(in.issue_cycles);
      sp.issue_free = t + own + cycles_to_ticks(in.other_instructions) + in.port_ticks;
      if (holds) hold_for_hmmas(sp, t, t + own, (end - start) / std::max<std::uint32_t>(1, in.issue_cycles));
      result.flops += in.flops;
      if (in.pipe == Pipe::kTensor) {
        result.tensor_busy_ticks += static_cast<double>(end - start);
        result.mma_instructions += in.issue_cycles;
      }
      const Tick issue_floor = floor_end(sp, in, t);
      if (in.async_mma) {  // wgmma: the warp goes on; a later wait on `slot` joins the MMAs
        // Its shared-memory operands pass the SM's data path first come, first served with the LSU's
        // traffic: one booking from the pipe's start, its HGMMAs' boundaries the places a copy's fill may go
        // in between (sm.wgmma_operands_use_shared_path; no warp's: they are not in the MIO queue). The
        // MMAs are done no sooner than their operands are read.
        Tick done = end;
        if (wgmma_on_path && in.wavefronts > 0) done = std::max(end, shared_pipe(sm, start, in.wavefronts, in.issue_cycles));
        fill_slot(w, in.slot, done, SlotKind::kWarpgroupMma);
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
      if (++cta.arrived < cta.warps_left) {
        w.at_barrier = true;
        sync_gate(w);
      } else
        release_barrier(sm, local / warps_per_cta, cta);
      break;
    }
    case Op::kExit: {
      w.active = false;
      --sp.resident;
      sync_gate(w);
      account(w, WarpState::kSelected, t + kTicksPerCycle);
      sp.issue_free = t + kTicksPerCycle;
      w.exited = t;
      --cta.warps_left;
      if (w.posts_pending > 0) {  // its stores are still on their way: it drains when the last is taken (take_request)
        ++cta.draining;
        eager_take = mem.pipelined();  // taken now, as at issue: its CTA may retire at this exit
      } else {
        finish_exit(warp_index);
      }
      if (cta.warps_left > 0 && cta.arrived > 0 && cta.arrived == cta.warps_left) {  // the others wait at a barrier
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

void Engine::Impl::slipped_in(SubPart& sp, Warp& w, Tick t, Tick held_until, Tick floor, Tick n) {
  // Another warp held the dispatch with an MMA block. Each of its HMMAs still to come leaves one
  // dispatch slot, which this block's instructions take in turn (gms-sharing-ubench: an instruction
  // beside a neighbour's HMMAs waits out their pipe interval); the rest issue after them, one a cycle.
  // An instruction that waits longer for its slot than its own pace (the block's floor per
  // instruction) delays the ones after it; the holder is later by the slots it gave.
  const Tick own = sp.issue_free - t;  // the block's issue ticks, as issue() booked them
  // HMMAs still to come (none when the block had no FLOPs to pace: its hold is its issue cycles alone).
  const Tick left =
      sp.hmma_until > t && sp.hmma_ticks > 0 ? (sp.hmma_until - t + sp.hmma_ticks - 1) / sp.hmma_ticks : 0;
  const Tick k = std::min(n, left), slot = sp.hmma_ticks + kTicksPerCycle;
  const Tick pace = std::max<Tick>(kTicksPerCycle, floor / n);
  Tick interleaved = t + own, delay = 0;
  if (k > 0) {  // instruction i issues at the end of the i-th HMMA interval still to come
    const Tick first = sp.hmma_until - (left - 1) * sp.hmma_ticks, last = first + (k - 1) * slot;
    interleaved = last + kTicksPerCycle + (own > k * kTicksPerCycle ? own - k * kTicksPerCycle : 0);
    delay = last > t + (k - 1) * pace ? last - t - (k - 1) * pace : 0;
  }
  const Tick done = std::max(t + std::max(floor, own) + delay, interleaved);
  sp.dispatch_held = held_until + k * kTicksPerCycle;
  sp.hmma_until += k * kTicksPerCycle;  // k > 0 only while HMMAs are still to come
  sp.issue_free = std::max(sp.dispatch_held, interleaved);
  sp.open_from = k > 0 ? interleaved - (n - k) * kTicksPerCycle : t;
  if (!w.active || w.at_barrier) return;
  if (w.blocked_slot >= 0) {
    w.blocked_from = std::max(w.blocked_from, done);
  } else if (w.ready < done) {
    account(w, WarpState::kDispatchStall, done);
    w.ready = done;
    sync_gate(w);
  }
}

void Engine::Impl::account_floor(Warp& w, const SubPart& sp, const Instr& in, Tick t) {
  // Selected for its own issue cycles: beyond them an mma.sync block holds the port for its pipe
  // interval (sm.mma_sync_holds_dispatch), which is the warp's wait, as Nsight counts it. Its
  // register-bank conflict cycles (port_ticks) hold the port for the other warps; the issuing warp's
  // own are in the measured dispatch_stall (docs/issue-model.md), so they are not selected either.
  const Tick issuing = t + cycles_to_ticks(in.instructions_issued());
  account(w, WarpState::kSelected, std::min(sp.issue_free, issuing));
  // An mma.sync block's HMMAs follow one another at the pipe's interval: its `wait` lasts until the
  // last, with the measured stalls after it.
  const Tick measured = in.short_ticks + in.dispatch_ticks;
  Tick waited = t + in.hold_ticks;
  if (in.op == Op::kCompute && holds_dispatch(in) && sp.hmma_until > waited + measured) waited = sp.hmma_until - measured;
  account(w, WarpState::kWait, waited);
  // Beside other eligible warps (sm.issue_share_*) the port's share the scheduler gives the warp: the others issue.
  const Tick shared = std::max(waited, sp.share_floor);
  account(w, WarpState::kNotSelected, shared);
  // Past the instruction cache the block's instructions arrive no faster than the warp's fetch delivers them: the
  // time beyond its dependencies' floor waits for them (Nsight's no_instruction).
  const Tick fetched = std::max(shared, t + in.fetch_ticks);
  account(w, WarpState::kNoInstruction, fetched);
  account(w, WarpState::kShortScoreboard, fetched + in.short_ticks);
  account(w, WarpState::kDispatchStall, fetched + measured);
  account(w, WarpState::kBranchResolving, floor_end(sp, in, t));
}

void Engine::Impl::release_barrier(int sm, int cta_slot, Cta& cta) {
  // All go on sm.barrier_latency after the last arrival (a lone CTA's barrier costs 43-49 cycles on an H200).
  cta.barrier_release += cycles_to_ticks(gpu.sm.barrier_latency);
  CtaRecord& rec = result.ctas[static_cast<size_t>(cta.record)];
  if (rec.first_barrier == kNever) rec.first_barrier = cta.barrier_release;
  result.stalls.add_barrier_release(sm, rec.launch_index, cta.barrier_release);
  const int first = sm * warps_per_sm + cta_slot * warps_per_cta;
  for (int k = 0; k < warps_per_cta; ++k) {
    Warp& o = warps[first + k];
    if (!o.active) continue;
    o.at_barrier = false;
    if (o.blocked_slot >= 0) {  // its next instruction waits on copies not yet in shared memory: from the release on
      o.blocked_from = std::max(o.blocked_from, cta.barrier_release);
      account(o, WarpState::kBarrier, o.blocked_from);
    } else {
      o.ready = std::max(o.ready, cta.barrier_release);
      account(o, WarpState::kBarrier, o.ready);
    }
    sync_gate(o);
  }
  cta.arrived = 0;
  cta.barrier_release = 0;
  wake_sm(sm);
}

void Engine::Impl::queue_fill(Warp& w, int warp_index, int slot, Tick done, Tick ticks, std::uint32_t& pending_id) {
  if (pending_id != ~0u) {  // its lines are in the outboxes: queued when they are back (take_request)
    PendingLoad& p = pending_loads[pending_id];
    p.kind = PendingLoad::Kind::kFill;
    p.at_least = done;
    p.fill_ticks = ticks;
    p.fill_seq = fills.issue_seq();
    pending_id = ~0u;
  } else {
    const int sm = sm_of(w);
    fills.add(sm, PendingFill{done, fills.issue_seq(), ticks, warp_index, w.age, slot});
    schedule_fills(sm);
  }
  ++w.pending[slot];
}

void Engine::Impl::schedule_fills(int sm) {
  if (fills.empty(sm)) return;
  const Tick at = fills_when_idle ? std::max(fills.earliest(sm), path.free_at(sm)) : fills.earliest(sm);
  if (at < fills.scheduled(sm)) {
    fills.scheduled(sm) = at;
    events.emplace(at, static_cast<std::uint32_t>(sps.size() + ctas.size() + sm));
  }
}

void Engine::Impl::fill_event(int sm, Tick t) {
  if (fills.scheduled(sm) != t) return;  // superseded
  fills.scheduled(sm) = kNever;
  if (!fills_when_idle || path.free_at(sm) <= t) {
    fills.take_arrived(sm, t, [&](const PendingFill& f) {
      // between: one-cycle slots, each at the end of the instruction the path serves
      const Tick end = fills_between ? path.fill_between(sm, t, f.ticks) : shared_pipe_ticks(sm, t, f.ticks);
      settle(f.warp, f.age, f.slot, end);
    });
  }
  schedule_fills(sm);
}

}  // namespace gms
