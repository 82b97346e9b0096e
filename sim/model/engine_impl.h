#pragma once
// The engine's state and its parts, shared by engine.cpp (launch, retirement, the event loop) and
// engine_issue.cpp (a sub-partition's step and what an issued instruction does: memory, the
// shared-memory data path, math pipes, barriers, exit). Private to the engine: model/engine.h is its
// interface.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "common/error.h"
#include "model/dispatcher.h"
#include "model/engine.h"
#include "model/event_queue.h"
#include "model/memory_system.h"
#include "model/mio_queue.h"
#include "model/shared_fills.h"
#include "model/shared_path.h"
#include "model/warp_scheduler.h"
#include "model/wave_sampling.h"

namespace gms {

struct Engine::Impl {
  struct Gate {
    Tick ready = kNever;        // the warp's `ready` while it is resident and not at a barrier
    std::uint32_t mio_need = 0;  // its next instruction's MIO queue entries (0: not counted there)
    bool slips = false;          // its next instruction may issue among another warp's held MMAs
    bool starts = false;         // its next instruction is its start S2R (waits for the queue to drain)
  };
  // What a wait on a slot is, as Nsight samples it: a global load's or copy's data long_scoreboard, a
  // shared load's short_scoreboard, a fixed-latency result wait, and a wgmma group's completion
  // (WARPGROUP.DEPBAR) barrier - 86-100 % of its samples in the Triton GEMMs' source profiles
  // (validate/results/h100/issue/triton{,_tma}_source.csv.xz).
  enum class SlotKind : std::uint8_t { kLong = 0, kShort, kFixed, kWarpgroupMma };
  static constexpr WarpState wait_state(SlotKind kind) {
    switch (kind) {
      case SlotKind::kShort: return WarpState::kShortScoreboard;
      case SlotKind::kFixed: return WarpState::kWait;
      case SlotKind::kWarpgroupMma: return WarpState::kBarrier;
      case SlotKind::kLong: break;
    }
    return WarpState::kLongScoreboard;
  }
  // A change of `ready`, `active` or `at_barrier` is followed by sync_gate (the sub-partition's scan
  // reads the gate, not the warp).
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
    std::array<SlotKind, kMaxSlots> slot_kind{};  // what last filled each slot (a wait on it counts as)
    Tick posted = 0;  // when the L2 has taken its stores and reductions so far (its exit waits: drain)
    // l2.writes_in_arrival_order: its stores and reductions not yet taken by the slices, and when it exited
    // (kNever: it has not) - an exited warp with some drains when the last is taken (finish_exit).
    std::uint32_t posts_pending = 0;
    Tick exited = kNever;
    // Per slot, what it waits for whose time is not known yet: copies not yet written to shared memory, and
    // loads whose lines have not all been to L2 (l2.reads_in_arrival_order).
    std::array<std::uint16_t, kMaxSlots> pending{};
    int blocked_slot = -1;  // waits on that slot's pending work (ready = kNever meanwhile)
    Gate* gate = nullptr;   // its entry in its sub-partition's gates (set at launch)
    Tick blocked_from = 0;  // when it would have started waiting
    Tick shared_data_free = 0;  // sm.shared_warp_bytes_per_cycle: when its shared loads' data so far has reached it
  };
  struct Cta {
    bool active = false;
    std::int64_t record = -1;
    int warps_left = 0;
    int arrived = 0;
    Tick barrier_release = 0;
    Tick drained = 0;  // the latest of its exited warps' drains: the slot is free from then on
    int draining = 0;  // exited warps whose stores are still in their SM's outbox (writes in arrival order)
  };
  struct SubPart {
    int sm = 0;
    std::vector<int> warps;  // global warp indices
    std::vector<WarpView> views;  // the ages persist (set at launch); eligibility per step
    // Per position, what the scan at every wake-up asks of the warp, kept here instead of read from
    // its 500-byte state (a host cache miss a warp: a quarter of a Triton GEMV's simulation time,
    // 16 warps per sub-partition).
    std::vector<Gate> gate;
    // Per position, sm.mio_starvation_period: since when the warp's next instruction has wanted an MIO entry (kNever:
    // it does not) - beside the gates for the same reason (the scan reads it for every ready MIO-wanting warp).
    std::vector<Tick> mio_since;
    Tick issue_free = 0;
    // Until when an mma.sync block holds the dispatch (sm.mma_sync_holds_dispatch): a warp kept from
    // issuing until then counts as dispatch_stall, not not_selected.
    Tick dispatch_held = 0;
    // Within a held MMA block: its HMMAs' end (after that, its other instructions), the ticks of one
    // HMMA, and the earliest another warp's instruction may slip in (after the last one that did).
    Tick hmma_until = 0, hmma_ticks = 0, open_from = 0;
    std::array<Tick, kPipeCount> pipe_free{};
    int tensor_warp = -1;  // the warp whose mma.sync the tensor pipe holds until pipe_free[kTensor] (-1: a wgmma's)
    int resident = 0;      // warps resident on it (launched, not exited)
    int last = -1;
    Tick scheduled = kNever;
    // sm.issue_share_*: the block picked now holds its warp at least until then (0: no share applies).
    Tick share_floor = 0;
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
  bool scheduler_counts_issue = false;  // its issued() is called after every pick (cta_share)
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
  SharedPath path;  // per SM: the shared-memory data path's bookings (model/shared_path.h)
  // sm.shared_fills: a cp.async's shared-memory write takes the data path when the LDGSTS issues
  // (issue), or when its data is back (arrival: in time order with the shared instructions; idle:
  // only where they leave the path idle; between: at the end of the instruction the path serves).
  bool fills_at_arrival = false, fills_when_idle = false, fills_between = false;
  bool stores_wait_for_way_out = false;  // icnt.stores_wait_for_way_out
  bool mma_holds_dispatch = false;       // sm.mma_sync_holds_dispatch
  bool dispatch_follows_residents = false;  // sm.dispatch_stall_follows_residents, for a kernel with a lone profile
  bool copies_queue = false;             // sm.copies_wait_for_shared_queue
  bool loads_in_mio = false;             // sm.loads_wait_in_mio_queue
  bool mio_bursts_one = false;           // sm.mio_bursts_enter_one_at_a_time
  bool mio_oldest_first = false;         // sm.mio_entries_oldest_first
  bool mio_by_cta_age = false;           // sm.mio_entries_by_cta_age
  std::uint32_t copy_waits_per_warp = 0;  // sm.copy_waits_per_warp (0: behind the whole booked path)
  bool path_turns = false;                // sm.shared_path_in_turns
  std::uint32_t path_depth = 0;           // sm.shared_path_depth
  Tick replay_ticks = 0;                  // sm.shared_replay_cycles in ticks
  double warp_ticks_per_byte = 0;         // 1 / sm.shared_warp_bytes_per_cycle in ticks (0: no limit)
  // Whether `in` holds its sub-partition's dispatch while in the tensor pipe: an mma.sync where the GPU
  // does so (gms-sharing-ubench), never an asynchronous wgmma.
  bool holds_dispatch(const Instr& in) const { return mma_holds_dispatch && in.pipe == Pipe::kTensor && !in.async_mma; }
  SharedFills fills;
  MioQueue mio;  // shared instructions issued, not yet through the path (sm.mio_queue_*)
  Tick smem_ticks_per_wavefront = 0, smem_latency = 0, smem_latency_per_wavefront = 0, shuffle_latency = 0;
  bool ldsm_one_at_a_time = false;  // sm.ldmatrix_one_at_a_time_beside_mma
  bool wgmma_on_path = false;       // sm.wgmma_operands_use_shared_path
  std::int64_t start_backlog = -1;  // sm.mio_start_backlog
  Tick starvation_ticks = 0;        // sm.mio_starvation_period
  double share_one_ticks = 0, share_more_ticks = 0;  // sm.issue_share_*: ticks an instruction (0 = no share)
  double fill_ticks_per_byte = 0;  // sm.copy_fill_bytes_per_cycle as ticks per byte; 0: copies cost store wavefronts
  double load_ticks_per_byte = 0;  // sm.load_data_bytes_per_cycle as ticks per byte; 0: loads take no data-path time
  EventQueue events;
  std::int64_t next_launch = 0, retired = 0;
  int last_sm = -1;
  std::uint64_t age_counter = 0;
  SimResult result;
  // Sampling (Engine::set_sample_waves): the counters at retirements `sample_from` and `sample_to`;
  // the run stops at the second.
  std::int64_t sample_from = 0, sample_to = 0;
  CountSnapshot sample_mid, sample_last;
  bool sample_done = false;
  Pipeline pipeline = Pipeline::kOff;
  bool eager_take = false;  // pipelined: take every queued request before the next event
  ProgressFn* progress = nullptr;
  std::int64_t progress_every = 1;

  Impl(const GpuConfig& g, const Kernel& k, MemorySystem* shared);

  int slot_of(const Warp& w) const { return static_cast<int>(&w - warps.data()) % warps_per_sm; }
  int sm_of(const Warp& w) const { return static_cast<int>(&w - warps.data()) / warps_per_sm; }
  void account(Warp& w, WarpState s, Tick to) {
    // The warp's SM and slot (two divisions, on every instruction's several calls) only for a traced SM.
    if (result.stalls.traced())
      result.stalls.add(sm_of(w), slot_of(w), w.cursor.cta, s, w.accounted, to);
    else
      result.stalls.add_untraced(s, w.accounted, to);
    w.accounted = std::max(w.accounted, to);
  }

  // Warp g (global index) sits on sub-partition sub_partition(g), at position (g % warps_per_sm) / nsp
  // of its warps and gates (the constructor deals an SM's warps out round robin).
  std::uint32_t sub_partition(int g) const {
    return static_cast<std::uint32_t>((g / warps_per_sm) * nsp + g % warps_per_sm % nsp);
  }
  void sync_gate(const Warp& w) {
    *w.gate = Gate{w.active && !w.at_barrier ? w.ready : kNever,
                   in_mio_queue(w.instr) ? std::max<std::uint32_t>(1, w.instr.issue_cycles) : 0,
                   mma_holds_dispatch && !(w.instr.op == Op::kCompute && w.instr.pipe == Pipe::kTensor),
                   w.instr.warp_start};
  }

  // The warp's next instruction, past the waits whose data times are known.
  void fetch_next(Warp& w) {
    kernel.next(w.cursor, w.instr);
    resolve_waits(w);
    sync_gate(w);
  }
  // Passes the waits at the warp's cursor whose data times are known; stops at one on a slot with
  // copies not yet written to shared memory (the warp resumes when they are). Its callers sync the gate.
  void resolve_waits(Warp& w) {
    while (w.instr.op == Op::kWait) {
      if (w.pending[w.instr.slot] > 0) {
        w.blocked_slot = w.instr.slot;
        w.blocked_from = w.ready;
        w.ready = kNever;
        return;
      }
      Tick data = w.slot_ready[w.instr.slot];
      if (data > w.ready) {
        account(w, WarpState::kSelected, w.ready);  // the previous instruction's own time
        account(w, wait_state(w.slot_kind[w.instr.slot]), data);
        w.ready = data;
      }
      kernel.next(w.cursor, w.instr);
    }
  }

  // The issue port is held by an MMA block (not by a block of other instructions): a warp whose next
  // instruction is no MMA may go in between its HMMAs (slipped_in).
  bool mma_held(const SubPart& sp) const { return mma_holds_dispatch && sp.dispatch_held == sp.issue_free; }
  // An MMA block or traced HMMA issued at t holds the port until sp.issue_free (set by the caller), its
  // HMMAs paced `per_hmma` apart until `hmmas_end`; another warp may go in from the next cycle.
  static void hold_for_hmmas(SubPart& sp, Tick t, Tick hmmas_end, Tick per_hmma) {
    sp.dispatch_held = sp.issue_free;
    sp.hmma_until = hmmas_end;
    sp.hmma_ticks = per_hmma;
    sp.open_from = t + kTicksPerCycle;
  }
  void reschedule(SubPart& sp, std::uint32_t index) {
    Tick next = kNever;
    const bool held = mma_held(sp);
    for (const Gate& g : sp.gate)
      next = std::min(next, std::max(g.ready, held && g.slips ? sp.open_from : sp.issue_free));
    if (next == kNever) return;
    if (next < sp.scheduled) {
      sp.scheduled = next;
      events.emplace(next, index);
    }
  }

  // The sub-partition's next wake-up after t: the first warp that becomes ready later (a scheduler left the ready ones
  // waiting at t), or when the port frees.
  void wake_after(SubPart& sp, std::uint32_t index, Tick t) {
    Tick next = sp.issue_free > t ? sp.issue_free : kNever;
    for (const Gate& g : sp.gate)
      if (g.ready > t) next = std::min(next, g.ready);
    if (next != kNever && next < sp.scheduled) {
      sp.scheduled = next;
      events.emplace(next, index);
    }
  }

  void wake_sm(int sm) {
    for (int p = 0; p < nsp; ++p) reschedule(sps[sm * nsp + p], static_cast<std::uint32_t>(sm * nsp + p));
  }

  // Places the next CTA of the grid on `sm` at t (or when the SM's dispatcher is ready).
  void launch(int sm, Tick t);
  // Launches CTAs while the dispatcher finds an SM with a free slot.
  void fill(Tick t);
  // The CTA's last warp has drained at t: its slot frees and the grid refills.
  void retire(int sm, Cta& cta, Tick t);
  CountSnapshot snapshot(Tick t) const;
  // What the warp's current instruction does when its sub-partition issues it at t.
  void issue(SubPart& sp, Warp& w, int warp_index, Tick t);
  // w issued a block of n instructions (its floor: `floor` ticks) at t inside another warp's MMA hold
  // (until held_until): interleave them with the HMMAs (engine_issue.cpp).
  void slipped_in(SubPart& sp, Warp& w, Tick t, Tick held_until, Tick floor, Tick n);

  // A shared load or store the MIO queue counts and throttles (sm.mio_queue_*): one issued as compiled,
  // or a block the compiled code issues back to back (mio_burst) - not a block of N that stands for
  // instructions the compiled loop spreads over its math (the block's time cannot say when each would
  // enter the queue; as a burst they would fill it, which the loops' profiles do not show:
  // mio_throttle 0.5-1.3 % of the WMMA and ladder samples).
  bool in_mio_queue(const Instr& in) const {
    return (((in.op == Op::kSharedLoad || in.op == Op::kSharedStore) && (in.issue_cycles <= 1 || in.mio_burst)) ||
            plain_load_in_mio(in)) &&
           mio.bounded();
  }
  // sm.loads_wait_in_mio_queue: an LDG or LDL block, each instruction an entry (not cp.async: it has its own rule, nor TMA).
  bool plain_load_in_mio(const Instr& in) const {
    return loads_in_mio && in.op == Op::kLoad && !in.async_copy && in.tma_boxes == 0;
  }
  // A memory instruction block: the issue port for its instructions, the warp until its issue floor.
  static void hold(SubPart& sp, Warp& w, const Instr& in, Tick t) {
    sp.issue_free = t + cycles_to_ticks(in.issue_cycles + in.other_instructions) + in.port_ticks;
    w.ready = floor_end(sp, in, t);
  }
  // The block's dispatch stall for the warps resident on its sub-partition now (sm.dispatch_stall_follows_residents):
  // the lone profile's with as many as it had, the kernel's profile's with as many as that had, linear between.
  // Called once per block, as its warp is picked (step(): a picked warp always issues).
  void dispatch_for_residents(const SubPart& sp, Instr& in) const {
    if (!dispatch_follows_residents || in.dispatch_alone_ticks == in.dispatch_ticks) return;
    const double share = std::clamp((sp.resident - shape.alone_warps_per_scheduler) /
                                        (shape.profiled_warps_per_scheduler - shape.alone_warps_per_scheduler), 0.0, 1.0);
    in.dispatch_ticks = in.dispatch_alone_ticks +
                        static_cast<std::uint32_t>(std::lround(share * (static_cast<double>(in.dispatch_ticks) - in.dispatch_alone_ticks)));
  }
  // When the warp may issue again after a block issued at `t`: the latest of its floor, its instructions' arrival
  // past the instruction cache and the port's share it is given beside other warps (sm.issue_share_*); then the
  // loop's own shared-read wait and the measured issue-stage stalls (dispatch, branch resolution); never before the
  // issue port is free.
  static Tick floor_end(const SubPart& sp, const Instr& in, Tick t) {
    return std::max(sp.issue_free, std::max(t + std::max(in.hold_ticks, in.fetch_ticks), sp.share_floor) + in.short_ticks +
                                       in.dispatch_ticks + in.branch_ticks);
  }
  // The block's time as Nsight's states: issuing, `wait` to the floor, not_selected to its share's end,
  // no_instruction to its instructions' arrival, short_scoreboard, then the measured stalls.
  void account_floor(Warp& w, const SubPart& sp, const Instr& in, Tick t);
  // A memory block issued at t after which the LSU holds its warp until `until`, past the block's floor
  // (a store's data leaving, a copy's entry): the floor as account_floor, the rest as `state`; the warp
  // moves on to its next instruction.
  void wait_past_floor(Warp& w, const SubPart& sp, const Instr& in, Tick t, WarpState state, Tick until) {
    account_floor(w, sp, in, t);
    w.ready = until;
    account(w, state, until);
    fetch_next(w);
  }
  // Every warp of the CTA has arrived (or exited): all go on from the barrier's release, sm.barrier_latency after.
  void release_barrier(int sm, int cta_slot, Cta& cta);

  // A scoreboard slot takes the later of its pending data and `done`; its kind names the stall a
  // wait on it counts as (wait_state).
  static void fill_slot(Warp& w, int slot, Tick done, SlotKind kind) {
    w.slot_ready[slot] = std::max(w.slot_ready[slot], done);
    w.slot_kind[slot] = kind;
  }

  // Reserves `wavefronts` cycles of the SM's shared-memory data path from t on, in the order asked
  // (an instruction as it issues, a copy's data as it arrives); returns when the last one is through.
  // In turns (sm.shared_path_in_turns), a warp's wavefronts pass sm.shared_replay_cycles apart for it (gms-lds-pace-ubench:
  // a lone warp's 4- to 32-way LDS.32 2.04-2.08 cycles a wavefront), while the path is held one cycle each.
  Tick shared_pipe(int sm, Tick t, std::uint32_t wavefronts, std::uint32_t instructions = 1, int warp = -1) {
    const Tick ticks = wavefronts * smem_ticks_per_wavefront;
    if (path_turns && warp >= 0)
      return path.book_in_turn(sm, t, ticks, instructions, warp, path_depth, wavefronts * warp_wavefront_ticks());
    return path.book(sm, t, ticks, instructions, warp);
  }
  // A wavefront's time for the warp whose instruction it is: the path's, or in turns the longer replay pace.
  Tick warp_wavefront_ticks() const { return path_turns ? std::max(replay_ticks, smem_ticks_per_wavefront) : smem_ticks_per_wavefront; }
  // In turns, a shared load block's data reaches its warp at sm.shared_warp_bytes_per_cycle, one block after another
  // (gms-lds-pace-ubench: a lone warp's conflict-free LDS.128 take 12.65 cycles each where 4 wavefronts at the replay
  // pace take 8; two warps of one sub-partition get twice the loads, so the limit is the warp's). Neither the path nor
  // the MIO entries are held for it: other warps' instructions pass meanwhile (a chase beside one warp's LDS.128 waits
  // +0-3 cycles a hop, gms-ldg-backlog-ubench same128). `from`: the block's first wavefront through the path, `passed`:
  // its last. Returns when its data is all back at the warp (`passed` where the rule is off or the lanes' bytes are
  // not known).
  Tick shared_data_back(Warp& w, const Instr& in, Tick from, Tick passed) const {
    if (!path_turns || warp_ticks_per_byte == 0 || in.op != Op::kSharedLoad || in.lane_bytes == 0) return passed;
    const double bytes = 32.0 * in.lane_bytes * std::max<std::uint32_t>(1, in.issue_cycles);
    const Tick start = std::max(from, w.shared_data_free);
    w.shared_data_free = std::max(passed, start + static_cast<Tick>(bytes * warp_ticks_per_byte + 0.5));
    return w.shared_data_free;
  }
  Tick shared_pipe_ticks(int sm, Tick t, Tick ticks) { return path.book(sm, t, ticks); }
  // A shared load or store block issued by `sp`'s warp `warp` at t: its path booking, and its
  // instructions in the MIO queue until the path has finished each (their data's way back is the queue's
  // sm.mio_release_latency, not shared_data_back's pace). Returns when the last is through the path and, for a
  // load, its data back at the warp.
  Tick shared_instruction(SubPart& sp, int warp, const Instr& in, Tick t) {
    const Tick own = in.wavefronts * warp_wavefront_ticks();
    const Tick through = shared_pipe(sp.sm, t, in.wavefronts, in.issue_cycles, warp);
    if (in_mio_queue(in))
      mio.push(sp.sm, static_cast<int>(&sp - sps.data()), std::max<std::uint32_t>(1, in.issue_cycles),
               through - own, through, warp);
    return shared_data_back(warps[static_cast<std::size_t>(warp)], in, through - own, through);
  }
  // A shared load's data comes this long after its last wavefront has passed the path: sm.shared_latency and,
  // per instruction of the block, its wavefronts' sm.shared_latency_per_wavefront.
  Tick data_after_pass(const Instr& in) const {
    return smem_latency + in.wavefronts * smem_latency_per_wavefront / std::max<std::uint32_t>(1, in.issue_cycles);
  }
  // sm.ldmatrix_one_at_a_time_beside_mma: while another warp's mma.sync holds the sub-partition's tensor pipe,
  // a block of ldmatrix issued at t passes one at a time, each starting when the last one's data is back (its
  // latency: gms-sharing-ubench --ldsm, 32 independent ldmatrix.x4 beside a dependent HMMA chain take 36.6 /
  // 44.5 cycles each at 4 / 8 wavefronts, a chain's hop beside it 37.0 / 45.9; beside the warp's own HMMAs
  // 26.6, not one at a time); those that start after the pipe is free go at the path's rate. Returns when the
  // block's last one is through on that account (t when the pipe holds no other warp's mma.sync).
  Tick ldmatrix_beside_mma(const SubPart& sp, int warp, const Instr& in, Tick t) const {
    const Tick busy_until = sp.pipe_free[static_cast<int>(Pipe::kTensor)];
    if (busy_until <= t || sp.tensor_warp < 0 || sp.tensor_warp == warp) return t;
    const std::uint32_t n = std::max<std::uint32_t>(1, in.issue_cycles);
    const Tick path_each = in.wavefronts * smem_ticks_per_wavefront / n;
    const Tick latency = path_each + data_after_pass(in);
    const Tick serial = std::min<Tick>(n, (busy_until - t + latency - 1) / latency);  // those starting while it is held
    return t + (serial - 1) * latency + (n - serial + 1) * path_each;
  }
  // The data path's time to write a cp.async block's data into shared memory: for a copy past L1
  // (cp.async.cg) its bytes at sm.copy_fill_bytes_per_cycle (gms-fill-ubench: ~2 cycles per
  // LDGSTS.128 on the H100, whatever the destination's banks), else its destination's store
  // wavefronts (a copy through L1 measured 5.7-6.3 cycles there, its 4 store wavefronts modelled).
  Tick fill_ticks(const Instr& in) const {
    if (fill_ticks_per_byte <= 0 || !in.bypass_l1) return in.wavefronts * smem_ticks_per_wavefront;
    const double bytes = in.lanes.present() ? static_cast<double>(in.lanes.count) * in.lanes.bytes
                                            : static_cast<double>(in.region.rows) * in.region.row_bytes;
    return round_ticks(bytes * fill_ticks_per_byte);
  }

  // The data path's time to carry a plain load's data (LDG/LDL, not cp.async or TMA) into its registers, once it is
  // back (sm.load_data_bytes_per_cycle; 0 when off): its bytes at the measured rate.
  Tick load_data_ticks(const Instr& in) const {
    if (load_ticks_per_byte <= 0 || in.async_copy || in.tma_boxes > 0) return 0;
    const double bytes = in.lanes.present() ? static_cast<double>(in.lanes.count) * in.lanes.bytes
                                            : static_cast<double>(in.region.rows) * in.region.row_bytes;
    return round_ticks(bytes * load_ticks_per_byte);
  }

  // Loads whose lines wait in the memory system's outboxes (l2.reads_in_arrival_order), by the owner
  // number they were handed over with: what their completion fills.
  struct PendingLoad {
    enum class Kind : std::uint8_t {
      kSlot,  // the warp's slot (a copy's shared-memory write booked at issue in `at_least`)
      kFill,  // a copy written into shared memory when its data is back: queued as a fill (`fill_ticks` its time)
      kCta,   // a bulk tensor copy: the slot of every warp of the CTA from `warp` on
      kPosted,  // a store or reduction: the warp's `posted` (and, `slot` >= 0, an ATOM's old values into it)
    };
    Kind kind = Kind::kSlot;
    int warp = 0;
    std::uint64_t age = 0;  // the warp's launch age (a later warp may reuse the index)
    int slot = 0;
    Tick at_least = 0;    // done no sooner: what did not go to L2 (L1 hits, the copy engine, a booked write)
    Tick fill_ticks = 0;  // kFill: the data path's time to write it
    std::uint64_t fill_seq = 0;  // kFill: its place among fills arriving at one tick, taken at issue
  };
  bool reads_in_order = false;   // l2.reads_in_arrival_order
  bool writes_in_order = false;  // l2.writes_in_arrival_order
  std::vector<PendingLoad> pending_loads;
  std::vector<std::uint32_t> free_pending_loads;
  std::uint32_t add_pending_load(const PendingLoad& p) {
    if (free_pending_loads.empty()) {
      pending_loads.push_back(p);
      return static_cast<std::uint32_t>(pending_loads.size() - 1);
    }
    const std::uint32_t id = free_pending_loads.back();
    free_pending_loads.pop_back();
    pending_loads[id] = p;
    return id;
  }
  // Warp `g` has exited at w.exited and has no store left in the outboxes: it drains until its stores are taken,
  // and its CTA retires when every warp has.
  void finish_exit(int g);
  // Issues an in-order access (`issue(id)`: a MemorySystem::*_in_order call) under a new pending record `p`;
  // returns what it knew at once and the record's id, or ~0u - the record freed - when nothing went to the outbox.
  template <class Issue>
  auto in_order(const PendingLoad& p, Issue&& issue) {
    const std::uint32_t id = add_pending_load(p);
    const auto is = issue(id);
    if (!is.pending) free_pending_loads.push_back(id);
    return std::pair{is.known, is.pending ? id : ~0u};
  }
  Cta& cta_of(int g) { return ctas[static_cast<std::size_t>(g / warps_per_sm * occ.ctas_per_sm + g % warps_per_sm / warps_per_cta)]; }
  // The memory system's next outbound line goes to L2; when it completes a load, what waited on it learns when.
  void take_request();
  // A slot of warp `g` (launched as `age`) has one pending piece of work less, done at `done`; a warp blocked
  // on it goes on. Work of a warp that has exited since is dropped.
  void settle(int g, std::uint64_t age, int slot, Tick done);

  // A copy's write, or a load's data, for the warp's `slot` passes the data path when it is back (`ticks` of it, its
  // data due at `done`): queued at once, or - `pending_id` an in-order load whose lines are in the outboxes - turned
  // into a fill queued by take_request (`pending_id` then spent); the slot waits for it either way.
  void queue_fill(Warp& w, int warp_index, int slot, Tick done, Tick ticks, std::uint32_t& pending_id);
  // Wakes the SM's pending fills when the first has arrived and the data path is free.
  void schedule_fills(int sm);
  // At `t` (after the sub-partitions' issues of that tick): if the data path is idle, the fills that
  // have arrived take it, in order of arrival; their warps' waits resolve.
  void fill_event(int sm, Tick t);
  // The sub-partition's wake-up at t: its scheduler picks a ready warp, which issues.
  void step(std::uint32_t index, Tick t);
  // sm.mio_starvation_period: whether the warp already wanted an MIO entry at the tick before the last one.
  bool starved(Tick mio_since, Tick t) const {
    const Tick last_tick = t / starvation_ticks * starvation_ticks;
    return last_tick >= starvation_ticks && mio_since <= last_tick - starvation_ticks;
  }
  // sm.mio_starvation_period: the warp to issue instead of the scheduler's pick, when one has starved for an MIO entry.
  int starving_first(SubPart& sp, int pick, Tick t);
  SimResult run(ProgressFn* fn);
};

}  // namespace gms
