#pragma once
// The MIO queue in front of the SM's shared-memory data path: shared loads, stores and ldmatrix a
// sub-partition has issued and the path has not yet finished. When it is full, a warp whose next
// instruction is one of them cannot issue (Nsight's mio_throttle) until the oldest is through.
//
// gms-mio-ubench (validate/results/h100/mio, H100 and H200 alike): warps issuing 32-wavefront LDS
// back to back stall once ~29.5 are outstanding on one sub-partition (one or two warps there) and
// ~57-59 on the SM (one warp on each of the four). Both bounds are kept: `per_subpartition` and
// `per_sm` instructions (0 = unbounded, the model before the measurement).
//
// An entry frees `release` ticks after the path has finished its instruction (sm.mio_release_latency):
// the same ubench with 4-32 wavefronts per LDS (validate/results/h100/mio, rerun 2026-11-27) stalls with
// ~61 per SM issued and not freed when the entries leave ~42 cycles after the path - 49-60 counted
// at the path's finish, fewer the faster the path drains them.
//
// Each bound is a FIFO of finish times, in time order: first come, first served per SM they come in that order; a path
// that serves the warps in turn (sm.shared_path_in_turns) inserts an earlier one where it belongs.
//
// The SM's bound is shared fairly: a sub-partition holding less than its share (per_sm / the
// sub-partitions) may add one even when the SM is full. Without that, the sub-partition whose event
// comes first at a tick took every entry that freed, and a CTA's warps (one per sub-partition)
// drifted apart into barrier waits. With four sub-partitions issuing alike each still stalls near
// its share (the ubench: ~16 each, ~60 in all). Above its share, a sub-partition the full SM turns
// away waits in line for the entries that free, first come first served (sm_room, below): before the
// line the lowest-index sub-partition still took each freed entry, and on the Triton GEMVs the model
// put ~10 points of silicon's mio_throttle into barrier waits (docs/shared-memory.md, "The MIO queue").
//
// Oldest first (sm.mio_entries_oldest_first, gms-mio-startup-ubench): silicon gives no sub-partition a share - a warp
// alone on a sub-partition without traffic waits as long as the others - and an entry that frees goes to the SM's
// oldest waiting warp. Then every warp the full SM turns away waits with its age, and an asking warp is owed the
// entries after those owed to the older waiting warps of the SM.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "common/error.h"
#include "common/types.h"

namespace gms {

class MioQueue {
 public:
  // `ties_in_line` (sm.mio_entries_by_cta_age): waiting warps of one age - a CTA's, when the engine asks with CTA ages -
  // are owed entries in the order they were first turned away, not whichever asks first.
  MioQueue(int sms, int subpartitions, std::uint32_t per_sm, std::uint32_t per_subpartition, Tick release = 0,
           bool oldest_first = false, bool ties_in_line = false)
      : per_sm_(per_sm), per_sp_(per_subpartition), nsp_(subpartitions), release_(release), oldest_first_(oldest_first),
        ties_in_line_(ties_in_line),
        sm_(per_sm ? static_cast<std::size_t>(sms) : 0),
        sp_(per_subpartition ? static_cast<std::size_t>(sms) * static_cast<std::size_t>(subpartitions) : 0),
        line_(per_sm && !oldest_first ? static_cast<std::size_t>(sms) : 0),
        waiting_(per_sm && oldest_first ? static_cast<std::size_t>(sms) : 0) {}

  bool bounded() const { return per_sm_ > 0 || per_sp_ > 0; }
  // Entries the SM's bound still holds (finished ones not yet dropped included).
  std::size_t held(int sm) const { return per_sm_ ? sm_[static_cast<std::size_t>(sm)].size() : 0; }

  // When `instructions` more may enter from sub-partition `sp` (global index) of `sm`, asked at t:
  // t itself when there is room. A block of more instructions than a bound waits for room for as
  // many as the bound (its later ones follow as the path drains, which its issue port time covers).
  // `warp` and `age`: the asking warp (global index) and its age (smaller is older; 0 for a starved one), for
  // sm.mio_entries_oldest_first.
  Tick room_at(int sm, int sp, std::uint32_t instructions, Tick t, int warp = -1, std::uint64_t age = 0) {
    Tick at = t;
    std::size_t own = 0;
    // The SM's entries that have left by t go now, though only a turned-away sub-partition reads them
    // (sm_room): asks come in time order, and a sub-partition within its share never trims them -
    // they piled up by the million on a long kernel.
    if (per_sm_) drop_left(sm_[static_cast<std::size_t>(sm)], t);
    if (per_sp_) {
      at = std::max(at, room(sp_[static_cast<std::size_t>(sp)], per_sp_, instructions, t));
      own = sp_[static_cast<std::size_t>(sp)].size();
    }
    // Oldest first (gms-mio-startup-ubench: a warp whose sub-partition holds nothing waits as long as the others), a
    // sub-partition's share gives it nothing.
    const bool within_share = !oldest_first_ && per_sp_ &&
                              own + std::min(instructions, per_sm_) <= per_sm_ / static_cast<std::uint32_t>(nsp_);
    if (per_sm_ && !within_share)
      at = std::max(at, oldest_first_ ? sm_room_oldest_first(sm, warp, instructions, t, age) : sm_room(sm, sp, instructions, t));
    return at;
  }

  // When the SM's queue holds at most `backlog` entries, asked at t (t itself if it does now). Without a
  // per-SM bound, the sub-partition's queue.
  Tick drained_to(int sm, int sp, std::size_t backlog, Tick t) {
    auto& q = per_sm_ ? sm_[static_cast<std::size_t>(sm)] : sp_[static_cast<std::size_t>(sp)];
    return room(q, static_cast<std::uint32_t>(backlog) + 1, 1, t);  // room for one more under backlog + 1
  }

  // `instructions` issued together, the first starting on the path at `start` and the block
  // finishing at `end` (evenly spaced): each leaves the queue `release` after the path has finished it.
  void push(int sm, int sp, std::uint32_t instructions, Tick start, Tick end, int warp = -1) {
    if (!bounded() || instructions == 0) return;
    if (per_sm_ && oldest_first_) {  // the warp has had its turn
      waiting_[static_cast<std::size_t>(sm)].remove(warp);
    } else if (per_sm_) {  // a sub-partition in the line has had its turn
      auto& line = line_[static_cast<std::size_t>(sm)];
      for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i].sp == sp) {
          line.erase(line.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
    }
    const Tick each = (end - start) / instructions;
    for (std::uint32_t k = 1; k <= instructions; ++k) {
      const Tick done = (k == instructions ? end : start + k * each) + release_;
      if (per_sm_) add(sm_[static_cast<std::size_t>(sm)], done);
      if (per_sp_) add(sp_[static_cast<std::size_t>(sp)], done);
    }
  }

 private:
  // A finish time into its bound's FIFO, kept in time order: first come, first served it is always the last; a path
  // that serves the warps in turn (sm.shared_path_in_turns) may finish a later instruction before earlier ones.
  static void add(std::deque<Tick>& q, Tick done) {
    if (q.empty() || q.back() <= done) q.push_back(done);
    else q.insert(std::upper_bound(q.begin(), q.end(), done), done);
  }
  // When `instructions` more fit under `bound`, behind `ahead` entries owed to others first (the SM's line).
  static void drop_left(std::deque<Tick>& q, Tick t) {
    while (!q.empty() && q.front() <= t) q.pop_front();
  }
  static Tick room(std::deque<Tick>& q, std::uint32_t bound, std::uint32_t instructions, Tick t, std::size_t ahead = 0) {
    drop_left(q, t);
    const std::size_t wanted = q.size() + ahead + std::min(instructions, bound);
    if (wanted <= bound || q.empty()) return t;  // empty: those ahead have yet to add theirs
    // Room once all but bound - ahead - need of the outstanding ones have finished. Entries owed beyond those
    // outstanding free only after instructions not issued yet: ask again when the last has.
    return q[std::min(wanted - bound - 1, q.size() - 1)];
  }

  // The SM's bound, first come first served: a sub-partition the full SM turns away joins a line and is
  // owed the entries that free after those owed to the sub-partitions ahead of it; it leaves the line
  // when it adds its instructions. Without the line every turned-away sub-partition woke for the same
  // entry and the first in the engine's event order - the lowest index - took it, every time.
  struct Waiting {
    int sp;
    std::uint32_t need;
  };
  Tick sm_room(int sm, int sp, std::uint32_t instructions, Tick t) {
    auto& line = line_[static_cast<std::size_t>(sm)];
    std::size_t ahead = 0, i = 0;
    for (; i < line.size() && line[i].sp != sp; ++i) ahead += line[i].need;
    const Tick at = room(sm_[static_cast<std::size_t>(sm)], per_sm_, instructions, t, ahead);
    if (at > t && i == line.size()) line.push_back({sp, std::min(instructions, per_sm_)});
    return at;
  }

  // Oldest first (sm.mio_entries_oldest_first): every warp the full SM turned away waits with its age until it adds its
  // instructions, and an asking warp is owed the entries after those of the older waiting warps of the SM, whatever
  // their sub-partitions (gms-mio-startup-ubench sts_warps012).
  // The warps turned away, in columns: the scan of every ask (each MIO-wanting warp at every step of its
  // sub-partition) sums the needs of the older ones without a branch per entry - it was a fifth of a Triton GEMV's
  // simulation as a list of records (docs/performance.md). Removal moves the last entry into the gap.
  struct Waiters {
    std::vector<int> warp;
    std::vector<std::uint64_t> age;
    std::vector<std::uint32_t> need;
    std::size_t find(int w) const {
      return static_cast<std::size_t>(std::find(warp.begin(), warp.end(), w) - warp.begin());
    }
    void remove(int w) {
      const std::size_t i = find(w);
      if (i == warp.size()) return;
      warp[i] = warp.back(), age[i] = age.back(), need[i] = need.back();
      warp.pop_back(), age.pop_back(), need.pop_back();
    }
    // The summed needs of the entries older than `a` (a smaller age), the asking warp's own included.
    std::size_t need_older_than(std::uint64_t a) const {
      std::uint64_t sum = 0;  // a product, not a branch: which entries are older is as random as the warps' ages
      for (std::size_t k = 0; k < age.size(); ++k) sum += static_cast<std::uint64_t>(age[k] < a) * need[k];
      return static_cast<std::size_t>(sum);
    }
  };
  Tick sm_room_oldest_first(int sm, int warp, std::uint32_t instructions, Tick t, std::uint64_t age) {
    Waiters& waiting = waiting_[static_cast<std::size_t>(sm)];
    const std::size_t mine = waiting.find(warp);
    if (ties_in_line_) {  // the age above, the order first turned away below: ties go in line
      SIM_ASSERT(age < (std::uint64_t{1} << 32), "MIO queue: age " << age << " past 32 bits with ties in line");
      age = age << 32 | (mine < waiting.warp.size() ? waiting.age[mine] & 0xffffffffu : line_seq_ & 0xffffffffu);
    }
    std::size_t ahead = waiting.need_older_than(age);
    if (mine < waiting.warp.size()) {  // not ahead of itself; a starved warp asks as the oldest
      if (waiting.age[mine] < age) ahead -= waiting.need[mine];
      waiting.age[mine] = age;
    }
    const Tick at = room(sm_[static_cast<std::size_t>(sm)], per_sm_, instructions, t, ahead);
    if (at > t && mine == waiting.warp.size()) {
      ++line_seq_;
      waiting.warp.push_back(warp);
      waiting.age.push_back(age);
      waiting.need.push_back(std::min(instructions, per_sm_));
    }
    return at;
  }

  std::uint32_t per_sm_, per_sp_;
  int nsp_;
  Tick release_;
  bool oldest_first_, ties_in_line_;
  // Ties in line: warps turned away so far, the low half of their key (past 2^32 turn-aways it wraps, and one warp
  // turned away then may pass another of its CTA once).
  std::uint64_t line_seq_ = 0;
  std::vector<std::deque<Tick>> sm_, sp_;
  std::vector<std::vector<Waiting>> line_;  // per SM, unless oldest first: the sub-partitions turned away, in that order
  std::vector<Waiters> waiting_;  // per SM, when oldest first: the warps turned away and not yet through
};

}  // namespace gms
