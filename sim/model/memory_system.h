#pragma once
// L1 per SM, the SM->L2 interconnect, the sliced and partitioned L2, and DRAM. Requests are
// timed by reserving each resource they pass (FCFS servers with bandwidth and latency), so the cost
// of a simulation follows the number of line requests, not cycles x SMs.
#include <bit>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "common/types.h"
#include "config/gpu_config.h"
#include "model/address_map.h"
#include "model/atomic_lines.h"
#include "model/bandwidth_server.h"
#include "model/coalescer.h"
#include "model/departure_queue.h"
#include "model/dram.h"
#include "model/gpc_share.h"
#include "model/l1_in_flight.h"
#include "model/mem_counters.h"
#include "model/request_coalescer.h"
#include "model/request_pipeline.h"
#include "model/shared_copy.h"
#include "model/tag_array.h"
#include "model/store_sectors.h"
#include "model/timeline.h"

namespace gms {

// `rows` runs of `row_bytes` contiguous bytes, `stride` bytes apart: a warp's share of a tile.
// A copy into shared memory (cp.async) says where its rows land: row i at shared byte offset
// shared_dest + i x shared_pitch (shared_dest < 0: not a copy into shared memory).
struct Region {
  Addr base = 0;
  std::uint32_t rows = 0;
  std::uint32_t row_bytes = 0;
  std::uint64_t stride = 0;
  std::int64_t shared_dest = -1;
  std::uint32_t shared_pitch = 0;
};

// Calls fn(row, row_begin, line, lo, hi, sector_mask) for every line the region touches, in address
// order per row: [lo, hi) is the row's part of the line.
template <class Fn>
void for_each_line_span(const Region& r, int line_bytes, int sector_bytes, Fn&& fn) {
  const Addr line_mask = ~static_cast<Addr>(line_bytes - 1);
  const int sector_shift = std::countr_zero(static_cast<unsigned>(sector_bytes));  // a power of two (gpu_schema)
  for (std::uint32_t row = 0; row < r.rows; ++row) {
    const Addr begin = r.base + row * r.stride, end = begin + r.row_bytes;
    for (Addr line = begin & line_mask; line < end; line += line_bytes) {
      const Addr lo = begin > line ? begin : line, hi = end < line + line_bytes ? end : line + line_bytes;
      const auto first = static_cast<std::uint32_t>((lo - line) >> sector_shift);
      const auto last = static_cast<std::uint32_t>((hi - 1 - line) >> sector_shift);
      const std::uint32_t mask = ((last - first + 1) >= 32 ? ~0u : ((1u << (last - first + 1)) - 1)) << first;
      fn(row, begin, line, lo, hi, mask);
    }
  }
}

// Calls fn(line_address, sector_mask) for every line the region touches, in address order per row.
template <class Fn>
void for_each_line(const Region& r, int line_bytes, int sector_bytes, Fn&& fn) {
  for_each_line_span(r, line_bytes, sector_bytes,
                     [&](std::uint32_t, Addr, Addr line, Addr, Addr, std::uint32_t mask) { fn(line, mask); });
}

// The same for a copy into shared memory: fn(line, sector_mask, shared_copy_sectors(...)).
template <class Fn>
void for_each_copy_line(const Region& r, int line_bytes, int sector_bytes, Fn&& fn) {
  for_each_line_span(r, line_bytes, sector_bytes, [&](std::uint32_t row, Addr begin, Addr line, Addr lo, Addr hi, std::uint32_t mask) {
    const std::uint64_t dest = static_cast<std::uint64_t>(r.shared_dest) + static_cast<std::uint64_t>(row) * r.shared_pitch;
    fn(line, mask, shared_copy_sectors(line, lo, hi, dest + (lo - begin), static_cast<std::uint32_t>(sector_bytes)));
  });
}

// One warp instruction's lane addresses, as a trace records them: `count` active lanes, each
// accessing `bytes` bytes from its address.
// Either a list (`addr`) or, when `addr` is null, lane i at base + i x stride (the tracer's
// base-stride form: most accesses, kept without a list).
struct LaneAccess {
  const Addr* addr = nullptr;
  std::uint32_t count = 0;
  std::uint32_t bytes = 0;
  Addr base = 0;
  std::int64_t stride = 0;
  bool present() const { return addr != nullptr || count > 0; }
};

enum class EvictHint : std::uint8_t { kNormal, kFirst, kLast };

struct AccessCtx {
  int sm = 0;
  Tick now = 0;
  CtaMemCounts* cta = nullptr;
  bool local = false;  // a load from per-thread local memory (LDL): counted as local, not global
};

class MemorySystem {
 public:
  explicit MemorySystem(const GpuConfig& gpu);
  ~MemorySystem();

  // Returns the tick at which all data of the region is in the SM's registers/shared memory.
  Tick load(const AccessCtx& ctx, const Region& region, bool bypass_l1, EvictHint hint = EvictHint::kNormal);
  // A bulk tensor copy (TMA) of `region` into shared memory in `boxes` boxes: the SM's copy engine
  // takes sm.tma_box_cycles per box, in order of issue, and its line requests share the SM's port;
  // nothing passes the LSU or L1. Returns when the last byte is in shared memory.
  Tick tma_load(const AccessCtx& ctx, const Region& region, std::uint32_t boxes, EvictHint hint = EvictHint::kNormal);
  // Stores: write-through L1, write-back L2 with sector write masks. Returns when the last line left
  // the SM (what a warp waits for under icnt.stores_wait_for_way_out: Nsight's `lg_throttle`) and when
  // the slices' inputs took the last sector (what a warp's exit waits for: `drain`).
  struct Stored {
    Tick left = 0;   // its last line has left the SM (icnt.sm_write_bytes_per_cycle)
    Tick taken = 0;  // the L2 has taken it
  };
  Stored store(const AccessCtx& ctx, const Region& region);
  // Reductions (RED: atomics whose old value nobody reads) are posted too; each sector is a
  // read-modify-write at its home slice: a miss fetches the sector from DRAM first.
  struct Reduced {
    Tick taken = 0;  // the first slice each line passes has taken its data in (a warp's exit waits for this;
                     // the read-modify-writes complete later, in the slices)
    Tick back = 0;   // the old values would be back at the SM (what an ATOM waits for)
  };
  Reduced reduce(const AccessCtx& ctx, const Region& region);
  // The same three for per-lane addresses (traces), coalesced into lines and sectors as the LSU does.
  Tick load(const AccessCtx& ctx, const LaneAccess& lanes, bool bypass_l1, EvictHint hint = EvictHint::kNormal);
  Stored store(const AccessCtx& ctx, const LaneAccess& lanes);
  Reduced reduce(const AccessCtx& ctx, const LaneAccess& lanes);
  // A store to per-thread local memory (STL), as l1.local_stores says: write_through sends every
  // sector on to L2 and keeps it valid in L1 (returns when L2 took them); write_back writes the
  // sectors into L1 (allocated, dirty), to reach L2 only when evicted (returns when L1 has them).
  Stored store_local(const AccessCtx& ctx, const LaneAccess& lanes);
  Stored store_local(const AccessCtx& ctx, const Region& region);

  // l2.reads_in_arrival_order: the same loads, their lines handed to the slices in the order they arrive
  // there. A load is timed at its SM now (L1, the port, the way out) and its lines wait in their SM's outbox
  // until the caller takes them (take_next_request) in order of departure, in step with its own clock: a line
  // departing at t must be taken before anything the caller does at later ticks. `known`: when the load's
  // part that did not go to L2 is done (L1 hits, a copy engine); `pending`: lines of it are in the outbox,
  // and take_next_request reports, under `owner`, when its last one is back.
  template <class T>
  struct InOrder {
    T known{};
    bool pending = false;
  };
  using Issued = InOrder<Tick>;
  bool reads_in_arrival_order() const { return reads_in_order_; }
  // Whether loads (stores and reductions) go through the outboxes: in arrival order, or pipelined (below).
  bool defers_reads() const { return reads_in_order_ || pipelined_; }
  bool defers_writes() const { return writes_in_order_ || pipelined_; }
  // Pipelined (issue 13, item 3; where neither *_in_arrival_order switch is on): every request goes through one
  // FIFO in issue order (model/request_pipeline.h) and is timed at L2 exactly as at issue - the same calls, in
  // the same order, with the same ticks - only later: when the caller takes it, or ahead of it on a worker
  // thread. The caller publishes what an event pushed (publish_requests) and takes completions in order
  // (take_next_request) before anything they may change happens: a request issued at t is done no sooner
  // than t + min_request_ticks().
  void set_pipelined(bool on);
  bool pipelined() const { return pipelined_; }
  void start_pipeline_worker();
  void stop_pipeline_worker();
  // The requests pushed since the last call were issued at `now`; they may be timed from now on.
  void publish_requests(Tick now);
  bool requests_queued() const { return pipeline_ && !pipeline_->empty(); }
  // When the oldest queued request was issued (published ones only). A request a wait inside an event had to
  // publish early (an L1 slot's hold) reads 0: it is taken as soon as it is the oldest - sooner is always exact,
  // and the stamps of the requests behind it are no earlier than its true one.
  Tick oldest_queued_issue() const;
  Tick min_request_ticks() const { return icnt_ticks_; }
  // Whether the FIFO is too full for one more event's requests: take some first.
  bool pipeline_needs_room() const { return pipeline_ && !pipeline_->room(kEventRequestsMax); }
  // Every queued request timed (the memory side's counters then count them all, as at issue).
  void time_queued_requests() {
    if (pipeline_) pipeline_->time_all();
  }
  Issued load_in_order(const AccessCtx& ctx, const Region& region, bool bypass_l1, EvictHint hint, std::uint32_t owner);
  Issued load_in_order(const AccessCtx& ctx, const LaneAccess& lanes, bool bypass_l1, EvictHint hint, std::uint32_t owner);
  Issued tma_load_in_order(const AccessCtx& ctx, const Region& region, std::uint32_t boxes, EvictHint hint,
                           std::uint32_t owner);
  // l2.writes_in_arrival_order: stores and reductions through the outboxes too. `left` (a store's data has left
  // the SM) is known at once; what the slices do - `taken`, a reduction's `back` - comes through take_next_request
  // (Completed::done and ::back) when `pending`, and is the SM-side value otherwise.
  bool writes_in_arrival_order() const { return writes_in_order_; }
  using IssuedStore = InOrder<Stored>;
  using IssuedReduce = InOrder<Reduced>;
  IssuedStore store_in_order(const AccessCtx& ctx, const Region& region, bool local, std::uint32_t owner);
  IssuedStore store_in_order(const AccessCtx& ctx, const LaneAccess& lanes, bool local, std::uint32_t owner);
  IssuedReduce reduce_in_order(const AccessCtx& ctx, const Region& region, std::uint32_t owner);
  IssuedReduce reduce_in_order(const AccessCtx& ctx, const LaneAccess& lanes, std::uint32_t owner);
  // When the earliest line in the outboxes leaves its SM (kNever: none waits).
  Tick next_departure() const { return completed_.empty() ? outbox_.next() : 0; }  // 0: completions to hand out
  struct Completed {
    std::uint32_t owner = 0;
    Tick done = 0;  // a load's data is back; a store's or reduction's data taken in by the slices
    Tick back = 0;  // a reduction's old values would be back at the SM (ATOM)
  };
  // Takes the earliest line to L2 (or, when its SM has no free MSHR before a later tick, moves a read there
  // among the others). True when it was the last line of its access: `out` says whose and when it is done.
  bool take_next_request(Completed* out);

  // A kernel boundary in a sequence of kernels: counters start from zero, L1s are empty, and L2
  // keeps its contents or is emptied (what a profiler's cache flush does) and then holds
  // l2.dirty_at_launch of other dirty data, written at `at`. Time goes on.
  void begin_kernel(bool keep_l2, Tick at);
  // The L1 the next kernel runs with (occupancy.h's l1_bytes_for); a new size empties every L1,
  // as a kernel boundary does.
  void set_l1_bytes(std::int64_t bytes);
  // A host-to-device copy between kernels: its bytes are written through L2 (dirty in their home
  // slices, as the copy engine leaves them), costing no kernel time.
  void copy_into_l2(Addr base, std::uint64_t bytes, Tick at, InsertPriority priority = InsertPriority::kNormal);

  // The counters, with the slices' stage busy times summed from their servers.
  MemCounters counters() const {
    MemCounters c = counters_;
    for (const auto& s : slices_bw_) c.l2_slice_data_busy_ticks += s.booked_ticks();
    for (const auto& s : tag_stage_) c.l2_tag_busy_ticks += s.booked_ticks();
    return c;
  }
  const Dram& dram() const { return *dram_; }
  std::uint64_t l2_dirty_sectors() const;
  // When the last reduction's read-modify-write is done in its slice (a kernel ends no sooner).
  Tick reductions_done() const { return reductions_done_; }
  int sm_partition(int sm) const { return sm_partition_[sm]; }
  // The home slice of line `line_index` (address / l2.line): l2.hash over runs of l2.slice_interleave bytes.
  std::uint32_t home_slice(std::uint64_t line_index) const { return slice_hash_->slice(line_index >> interleave_shift_); }
  // The slices a write or reduction from `sm` to line `line_index` passes: its home, and - when the home is
  // in another partition and `pass_near` - the near slice it passes first (`passes_near`).
  struct Route {
    std::uint32_t home, near;
    bool far, passes_near;
  };
  Route route(int sm, std::uint64_t line_index, bool pass_near) const {
    const std::uint32_t home = home_slice(line_index);
    const int part = sm_partition(sm);
    const bool far = is_far(part, home);
    return {home, far && pass_near ? replica_slice(part, line_index) : home, far, far && pass_near};
  }
  void attach_timeline(Timeline* t) { timeline_ = t; }

 private:
  static std::uint32_t popc(std::uint32_t m) { return static_cast<std::uint32_t>(std::popcount(m)); }
  // Where the other data of l2.dirty_at_launch lives: the top of the 48-bit address space, away from
  // the workloads' buffers (0x7f0000000000 on) and a trace's usual mappings.
  static constexpr Addr kOtherDirtyData = 0xffff00000000ull;
  void dirty_other_data(Tick at);  // l2.dirty_at_launch (at most the L2) into L2, dirty, at `at`
  // `each_line(line_bytes, sector_bytes, fn)` calls fn(line, sector_mask) for every line accessed.
  template <class EachLine>
  Tick load_lines(const AccessCtx& ctx, EachLine&& each_line, bool bypass_l1, EvictHint hint);
  template <class EachLine>
  Stored store_lines(const AccessCtx& ctx, EachLine&& each_line);
  template <class EachLine>
  Stored store_local_lines(const AccessCtx& ctx, EachLine&& each_line);
  template <class EachLine>
  Reduced reduce_lines(const AccessCtx& ctx, EachLine&& each_line);
  // One reduction request of `mask` sectors of `line`, leaving the SM at `t`: its `taken` and `back` into `out`.
  void reduce_line(int sm, Addr line, std::uint32_t mask, Tick t, Reduced& out);
  auto region_lines(const Region& r) const {
    return [&r](int line_bytes, int sector_bytes, auto&& fn) { for_each_line(r, line_bytes, sector_bytes, fn); };
  }
  // The same for a store: fn(line, sector_mask, partial_mask), partial_mask the sectors written in part.
  auto region_store_lines(const Region& r) const {
    return [&r](int line_bytes, int sector_bytes, auto&& fn) {
      for_each_line_span(r, line_bytes, sector_bytes, [&](std::uint32_t, Addr, Addr line, Addr lo, Addr hi, std::uint32_t mask) {
        fn(line, mask, partial_sectors_of_span(line, lo, hi, sector_bytes));
      });
    };
  }
  auto lane_store_lines(const LaneAccess& lanes) {
    return [this, &lanes](int line_bytes, int sector_bytes, auto&& fn) {
      lane_lines(lanes)(line_bytes, sector_bytes, [&](Addr line, std::uint32_t mask) {
        // A partial sector costs nothing more on the way out nor at the slices' inputs: no need to find it.
        if (gpu_.icnt.partial_sector_write_slots == 1 && gpu_.l2.partial_sector_input_slots == 1) return fn(line, mask, 0u);
        // lane_lines has the lanes' addresses in its scratch where the access gave none.
        const Addr* addr = lanes.addr ? lanes.addr : lane_addr_scratch_.data();
        LineCoverage cover(line, line_bytes);
        for (std::uint32_t i = 0; i < lanes.count; ++i) cover.add(addr[i], lanes.bytes);
        fn(line, mask, cover.partial(mask, sector_bytes));
      });
    };
  }
  auto lane_lines(const LaneAccess& lanes) {
    return [this, &lanes](int line_bytes, int sector_bytes, auto&& fn) {
      const Addr* addr = lanes.addr;
      if (!addr) {
        lane_addr_scratch_.resize(lanes.count);
        for (std::uint32_t i = 0; i < lanes.count; ++i)
          lane_addr_scratch_[i] = lanes.base + static_cast<Addr>(static_cast<std::int64_t>(i) * lanes.stride);
        addr = lane_addr_scratch_.data();
      }
      coalesce_into(lane_scratch_, addr, lanes.count, lanes.bytes, static_cast<std::uint32_t>(line_bytes),
                    static_cast<std::uint32_t>(sector_bytes));
      for (const LineRequest& r : lane_scratch_) fn(r.line, r.sectors);
    };
  }
  // Where a read of a line from an SM is looked up: the line's home slice, its set (the same in every slice), and
  // the slice that answers it first (for a far line in replicating partitions the near slice keeping its copy).
  // Taken once per line request, where the request is made: the slice hash, the set hash and the replica's were
  // each taken two or three times a request before (the prefetches and the timing; docs/performance.md, "Host
  // instructions per line request"), and a pipelined run takes them on the SM's thread instead of the worker's.
  struct LinePlace {
    std::uint32_t home = 0, set = 0, first = 0;
    bool far = false;
  };
  LinePlace place_of(int sm, Addr line) const {
    const std::uint64_t line_index = line >> l2_line_shift_;
    const std::uint32_t home = home_slice(line_index);
    const int part = sm_partition(sm);
    const bool far = is_far(part, home);
    return {home, hashed_set(line_index, l2_->sets()), far && replicate_ ? replica_slice(part, line_index) : home, far};
  }
  // Host-cache prefetch of the L2 set(s) and slice bandwidth bucket(s) a read of `line` (placed at `p`)
  // issued at `now` will use (no simulated effect).
  // Not while pipelined: the worker times the lookups on another core and fetches their sets itself (its
  // lookahead), so fetching them into this core's cache would only move the lines between the two.
  void prefetch_l2(const LinePlace& p, Addr line, Tick now) const {
    if (!pipelined_) prefetch_l2_sets(p, line, now);
  }
  void prefetch_l2_sets(const LinePlace& p, Addr line, Tick now) const;
  // The records of `line` (placed at `p`) in the slices a read of it looks it up in (where their fingerprints match).
  void prefetch_l2_records(const LinePlace& p, Addr line) const;
  // Whether `slice` lies in another partition than `part` (the SM's near one).
  bool is_far(int part, std::uint32_t slice) const { return gpu_.l2.partitions > 1 && partition_of(slice) != part; }
  int partition_of(std::uint32_t slice) const { return slice_partition_[slice]; }
  // The slice of `part` that keeps copies of the far line `line_index` (replicating partitions).
  std::uint32_t replica_slice(int part, std::uint64_t line_index) const {
    return static_cast<std::uint32_t>(part) * slices_per_partition_ +
           reduce_range(static_cast<std::uint32_t>(mix64(line_index) >> 7), slices_per_partition_);
  }
  // `may_merge` false: a second fetch of sectors the same load is fetching (a copy's shared-sector
  // split) neither merges into nor opens a coalescer entry; silicon looks each one up.
  // `p`: place_of(sm, line).
  Tick l2_read_line(int sm, Addr line, const LinePlace& p, std::uint32_t mask, Tick t, CtaMemCounts* cta, EvictHint hint,
                    bool may_merge = true);
  // Times the L1-bypassing reads listed in load_batch_ (lines whose sets are prefetched).
  Tick read_batch(const AccessCtx& ctx, EvictHint hint);
  // Counts a line read of class c sent at t whose data is back at the SM at `back`; returns `back`.
  Tick count_line_read(ReadClass c, Tick t, Tick back) {
    ++counters_.l2_line_reads[static_cast<int>(c)];
    counters_.l2_line_read_ticks[static_cast<int>(c)] += back - t;
    return back;
  }
  // `served`, when given, receives when the slice started on the request. `from_fabric`: the near
  // partition's miss forwarded here, which takes the slice's bandwidth only where
  // l2.far_fills_take_slice_bandwidth says so.
  Tick home_slice_read(std::uint32_t slice, std::uint32_t set, Addr line, std::uint32_t mask, Tick arrive, int sm,
                       CtaMemCounts* cta, EvictHint hint, Tick* served = nullptr, bool from_fabric = false);
  // When `bytes` of a reply whose data is in `slice` at `at` leave on its data path (l2.slice_bytes_per_cycle).
  Tick data_path(std::uint32_t slice, Tick at, std::uint32_t bytes, bool takes_bandwidth) {
    return takes_bandwidth ? slices_bw_[slice].serve_start(at, bytes) : at;
  }
  // When a read lookup arriving at `slice` at `arrive` passes the slice's tag stage.
  Tick tag_lookup(std::uint32_t slice, Tick arrive) {
    return tag_stage_.empty() ? arrive : tag_stage_[slice].serve_start(arrive, 1);
  }
  // Counts one L2 read lookup. `final_misses`: the misses go to DRAM (home slice); a replica's
  // misses are forwarded to the home slice and counted there.
  void count_read_lookup(int sm, Tick at, std::uint32_t hits, std::uint32_t misses, CtaMemCounts* cta,
                         bool final_misses);
  // When a read reply of `bytes` leaving L2 at `ready` has passed the GPC port of `sm`'s GPC.
  Tick gpc_port(int sm, Tick ready, std::uint32_t bytes) {
    return gpc_ports_[static_cast<std::size_t>(gpc_of_sm_[static_cast<std::size_t>(sm)])].serve_start(ready, bytes);
  }
  // The SM's LSU/port, FCFS: when one line request of `bytes` leaves the SM.
  Tick sm_port(int sm, Tick now, std::uint32_t bytes);
  // The SM's way out towards L2 (icnt.sm_write_bytes_per_cycle): store bytes, or one miss request
  // (bytes 0). Returns when this one leaves; `t` unchanged where the GPU has no such limit.
  Tick sm_out(int sm, Tick t, std::uint32_t bytes);
  // Returns when the home slice's input has taken the data. `input_bytes`: what it costs the slices'
  // inputs (write_cost_bytes; 0 = the mask's sectors). `local`: a spill store (l2.local_dirty_ways_per_set).
  Tick l2_write_line(int sm, Addr line, std::uint32_t mask, Tick t, std::uint32_t input_bytes = 0, bool local = false);
  // Bytes a store of the sectors of `mask` costs a part of the write path where a sector written in part
  // (`partial`) takes `partial_slots` of a whole one's slots.
  std::uint32_t write_cost_bytes(std::uint32_t mask, std::uint32_t partial, double partial_slots) const;
  // Routes a write or reduction from an SM to the line's home slice (interconnect, a pass through a
  // near slice first when far and `pass_near`, fabric when far, the slice's input, its pipeline held
  // for `hold` bytes); returns where, when the first slice's input had the data and when the home
  // slice starts on it.
  struct AtHome {
    std::uint32_t slice, set;
    Tick start, taken;
    bool far, near_pass;
    std::uint32_t near;  // the near slice a far line passed (near_pass)
  };
  // `near_hold`: what a far line's pass through a near slice holds of its pipeline (pass_near).
  // `input_bytes`: what it costs each slice input (0 = the mask's sectors); the fabric takes the mask's sectors.
  // `home_input_after_near`: whether a line that passed a near slice and came over the fabric also takes
  // its home slice's crossbar input (a far store does not: gms-fabric-ubench stores; reductions keep it).
  AtHome to_home_slice(int sm, Addr line, std::uint32_t mask, Tick t, std::uint32_t hold, bool pass_near,
                       std::uint32_t near_hold, std::uint32_t input_bytes = 0, bool home_input_after_near = false);
  Tick reserve(Tick& free_at, Tick arrive, double ticks) const;
  void dram_fill(TagArray& tags, const TagArray::Access& a, Addr line, Tick at, Tick* ready, int sm);

  const GpuConfig& gpu_;
  int l2_line_shift_;
  int l1_line_shift_;  // l1.line as a shift (a power of two, gpu_schema)
  int interleave_shift_ = 0;  // lines per l2.slice_interleave run, as a shift
  std::uint32_t slices_per_partition_;
  std::vector<int> sm_partition_;  // L2 partition each SM is near
  // Per slice, its partition (slice / slices_per_partition_, looked up: a division per far test otherwise).
  std::vector<std::uint8_t> slice_partition_;
  bool replicate_;
  bool far_latency_;
  std::uint32_t fill_mask_unit_;  // sectors fetched together from DRAM
  Tick l1_hit_ticks_, l2_return_ticks_, icnt_ticks_, far_ticks_;
  std::int64_t l1_bytes_ = -1;  // the L1 size in use (set_l1_bytes; -1 before the first)
  bool local_stores_through_ = true;  // l1.local_stores
  bool copy_far_stores_ = false;      // l2.far_stores_copy_near, in the replicating mode (the only one with near copies)
  bool far_home_first_ = false;      // l2.far_read_home_evict_first, in the replicating mode
  int dirty_ways_limit_ = 0, local_dirty_ways_limit_ = 0;  // l2.dirty_ways_per_set, l2.local_dirty_ways_per_set
  double sm_port_ticks_per_byte_;
  double sm_port_ticks_per_request_;  // 0: no request rate

  std::unique_ptr<TagArray> l1_;  // one bank per SM; null when the GPU has no L1 for global data
  std::unique_ptr<TagArray> l2_;  // one bank per slice
  std::unique_ptr<SliceHash> slice_hash_;
  std::unique_ptr<Dram> dram_;
  std::vector<BandwidthServer> slices_bw_;
  std::vector<BandwidthServer> replies_;  // per slice, l2.reply_bytes_per_cycle (empty: unlimited)
  std::vector<BandwidthServer> tag_stage_;  // per slice, one "byte" per read lookup; empty: unlimited
  std::uint32_t red_bytes_per_sector_;  // slice bandwidth a reduction's sector holds (its read-modify-write)
  std::vector<BandwidthServer> slice_input_;  // per slice: its crossbar input for write data (empty: unlimited)
  RequestCoalescer coalescer_;
  // Per SM, the narrower of the LSU data path and the SM<->L2 port, as one FCFS server: one SM's
  // requests are handed over in issue order, which is time order, so a plain counter is exact.
  std::vector<Tick> sm_port_free_;
  std::vector<Tick> sm_out_free_;
  double sm_out_ticks_per_byte_ = 0;  // 0: no limit
  std::vector<Tick> tma_free_;  // per SM: when its copy engine takes the next box
  Tick tma_box_ticks_ = 0;
  // Per partition, the fabric's link into it (l2.fabric_bytes_per_cycle, one per direction as
  // gms-fabric-ubench measures: streams whose every line is far carry twice what one partition's SMs
  // alone can pull); empty: unlimited.
  std::vector<BandwidthServer> fabric_;
  // When `bytes` ready to cross into partition `to` at `at` start through its link (after the link's queue).
  Tick cross_fabric(int to, Tick at, std::uint32_t bytes) {
    return fabric_.empty() ? at : fabric_[static_cast<std::size_t>(to)].serve_start(at, bytes);
  }
  // Per GPC, its port for read replies (icnt.gpc_bytes_per_cycle); empty: unlimited.
  std::vector<int> gpc_of_sm_;
  std::vector<BandwidthServer> gpc_ports_;
  GpcShare gpc_share_;  // the DRAM's share by GPC (dram.gpc_share_backlog); off by default
  // Per SM, a ring of the completion ticks of the last `mshrs` line requests: a new miss waits for
  // the oldest one, bounding the requests one SM keeps in flight.
  std::vector<std::vector<Tick>> mshr_ring_;
  std::vector<std::uint32_t> mshr_next_;
  MemCounters counters_;
  ReadClass read_class_ = ReadClass::kHit;  // what the last slice lookup of a line read found (l2_read_line)
  std::vector<std::pair<Addr, std::uint32_t>> red_scratch_;  // reused by reduce()
  AtomicLines atomic_lines_;  // each line's reductions take turns (l2.atomic_line_interval)
  Tick reductions_done_ = 0;
  std::vector<LineRequest> lane_scratch_;                     // reused by the lane forms
  struct BatchLine {
    Addr line;
    std::uint32_t mask, twice;  // sectors read, and those read a second time (copies into shared)
    std::uint32_t split = 0;    // of `mask`, those read in a second request (l1.copy_request_per_shared_line)
    LinePlace place{};          // place_of(the SM, line), taken once for the prefetch and the request
  };
  std::vector<BatchLine> load_batch_;  // one load's lines, reused
  std::vector<Addr> lane_addr_scratch_;
  Timeline* timeline_ = nullptr;

  // l2.reads_in_arrival_order / l2.writes_in_arrival_order (load_in_order, store_in_order, reduce_in_order): the
  // requests that have left their SMs, and the accesses they belong to.
  static constexpr std::uint32_t kNoLoad = ~0u, kNoSlot = ~0u;
  enum class Outbound : std::uint8_t {
    kRead,
    kWrite,      // a store's line (`input_bytes` at the slices' inputs, `local` a spill's)
    kWriteBack,  // an L1 line written back (local stores kept in L1): nobody waits for it
    kReduce,
  };
  struct OutboundRequest {
    Addr line;
    std::uint32_t mask;
    std::uint32_t load;  // its open access (kNoLoad: none)
    CtaMemCounts* cta;
    EvictHint hint;
    bool may_merge;
    std::uint32_t l1_slot = kNoSlot;  // through L1: the L1 line the data fills (its sectors `l1_mask`), which
    std::uint32_t l1_mask = 0;        // was given a provisional arrival at issue
    Addr l1_line = 0;
    Outbound kind = Outbound::kRead;
    bool local = false;
    std::uint32_t input_bytes = 0;
    Tick at = 0;  // a reduction's own departure (its place in the FIFO may be later: it leaves by the port
                  // alone, not by the way out the reads and stores before it queued on)
    LinePlace place{};  // a read's (place_of)
  };
  struct OpenLoad {
    Tick done = 0, back = 0;
    std::uint32_t lines_left = 0;
    std::uint32_t owner = 0;
  };
  bool reads_in_order_ = false, writes_in_order_ = false;
  bool pipelined_ = false;
  struct Queued {
    int sm;
    Tick depart;
    OutboundRequest request;
    Tick issued = 0;  // the event that pushed it (publish_requests)
    Tick done = 0, back = 0;  // what timing it found (time_request)
  };
  // The most requests one event may push (a TMA box's lines, a trace instruction's 32 lanes, a tile row set).
  static constexpr std::size_t kEventRequestsMax = 8192;
  std::unique_ptr<RequestPipeline<Queued>> pipeline_;
  // Pipelined through L1: per L1 slot, 1 + the last queued request whose data raises the arrival of sectors it
  // filled provisionally (0: none); such holds are applied in FIFO order up to l1_holds_applied_.
  std::vector<std::uint64_t> l1_hold_pending_;
  std::uint64_t l1_holds_applied_ = 0;
  // After an L1 access found or allocated `slot`: the holds queued for it, applied (waiting for their timing),
  // so that the slot reads as at issue - its data's arrival where the line is still there; and a line evicted
  // with a hold pending cannot come back into the slot before the hold is spent. True when it applied any.
  bool settle_l1(std::uint32_t slot) {
    if (!pipelined_ || l1_hold_pending_[slot] <= l1_holds_applied_) return false;
    for (const std::uint64_t last = l1_hold_pending_[slot]; l1_holds_applied_ < last; ++l1_holds_applied_)
      apply_l1_hold(l1_holds_applied_);
    return true;
  }
  void apply_l1_hold(std::uint64_t seq);
  // A read that filled L1 sectors provisionally (`r.l1_slot`) is back at `done`: they are not readable sooner,
  // where the slot still holds its line.
  void raise_l1_fill(const OutboundRequest& r, Tick done) {
    if (r.l1_slot != kNoSlot && l1_ && l1_->holds(r.l1_slot, r.l1_line)) l1_->hold_until(r.l1_slot, r.l1_mask, done);
  }
  bool take_next_queued(Completed* out);
  // A request of open access `load` (kNoLoad: none) is done at `done` (`back`: a reduction's old values); true,
  // with `out` filled in, when it was the access's last.
  bool request_done(std::uint32_t load, Tick done, Tick back, Completed* out);
  // Times one request at L2 as the access issuing it would have (memory-side state only: the worker's part);
  // returns its completion (a reduction's `back` in `back`).
  Tick time_request(int sm, Tick depart, const OutboundRequest& r, Tick* back);
  // Where a request's line is looked up: a read's place as taken at issue; for the others (their sets fetched
  // into the host's cache as a read's would be), taken now.
  LinePlace placed(int sm, const OutboundRequest& r) const { return r.kind == Outbound::kRead ? r.place : place_of(sm, r.line); }
  std::uint32_t deferring_ = kNoLoad;  // during an *_in_order call: its open access
  DepartureQueue<OutboundRequest> outbox_;
  // Booked at the SMs (not pipelined): L1 sectors whose request is in an outbox, and the loads that hit on them
  // (model/l1_in_flight.h); a take that completes such loads besides its own hands them out next (completed_).
  L1InFlight l1_in_flight_;
  std::deque<Completed> completed_;
  bool hand_out_completed(Completed* out);  // the oldest of completed_ into `out`; false when there is none
  std::vector<OpenLoad> open_loads_;
  std::vector<std::uint32_t> free_loads_;
  // Runs `issue` (an access's timing at its SM) with its L2 requests sent to the outbox under a new open
  // access; returns what `issue` returned and whether any request was sent. `enabled`: the switch it needs.
  template <class Issue>
  auto deferred(bool enabled, std::uint32_t owner, Issue&& issue) -> InOrder<decltype(issue())>;
  // A store's, write-back's or reduction's request (what the slices take in), under the access being issued.
  OutboundRequest write_request(Addr line, std::uint32_t mask, std::uint32_t input_bytes, bool local, CtaMemCounts* cta,
                                 Outbound kind) const {
    OutboundRequest r{line, mask, kind == Outbound::kWriteBack ? kNoLoad : deferring_, cta, EvictHint::kNormal, false};
    r.kind = kind;
    r.local = local;
    r.input_bytes = input_bytes;
    return r;
  }
  // A request of the access being issued leaves its SM at `depart`; its access waits for it unless it has none
  // (`load` kNoLoad: a write-back).
  void send(int sm, Tick depart, const OutboundRequest& r) {
    if (r.load != kNoLoad) ++open_loads_[r.load].lines_left;
    if (pipelined_) {
      pipeline_->push() = Queued{sm, depart, r};
      if (r.l1_slot != kNoSlot) l1_hold_pending_[r.l1_slot] = pipeline_->pushed();
    } else {
      outbox_.push(sm, depart, r);
    }
  }
};

}  // namespace gms
