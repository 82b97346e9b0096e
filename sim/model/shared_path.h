#pragma once
// The SM's shared-memory data path as a booking per SM: instructions (shared loads and stores,
// ldmatrix) reserve it first come, first served as they issue, one wavefront a cycle; a cp.async's
// data arriving from L2 is written in slots of one cycle.
//
// Where a slot goes (sm.shared_fills: between) is what gms-fill-ubench measured on the H100 and H200
// (validate/results/h100/fill): with ldmatrix keeping the path busy, a 512-byte copy costs the
// readers 2 cycles and completes after 2 x (the ldmatrix's wavefronts + 1) cycles - 34 beside
// 16-wavefront ldmatrix (twice its pace from L2 alone), 18 beside 8-wavefront ones, unhurried beside
// 4-wavefront ones. So a slot waits for the end of the instruction the path is serving, not for the
// whole queue, and when both wait the path alternates: one instruction, one slot. The instructions
// already booked keep their times (the model cannot move them); the slots delay the ones booked later.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "common/types.h"

namespace gms {

class SharedPath {
 public:
  // `keep_blocks`: remember the booked instructions' boundaries and warps (the `between` fills and a
  // copy's wait behind a few of each warp's need them).
  SharedPath(int sms, bool keep_blocks) : sms_(static_cast<std::size_t>(sms)), keep_(keep_blocks) {}

  Tick free_at(int sm) const { return sms_[static_cast<std::size_t>(sm)].free; }
  // When everything booked is through, its warps' own time included (book_in_turn's replays): never before free_at.
  Tick done_at(int sm) const {
    const Sm& s = sms_[static_cast<std::size_t>(sm)];
    return std::max(s.free, s.own_done);
  }

  // `instructions` instructions of `ticks` in all, issued at t by `warp` (-1: no warp's, a copy's
  // write): returns when the last one is through.
  Tick book(int sm, Tick t, Tick ticks, std::uint32_t instructions = 1, int warp = -1) {
    Sm& s = sms_[static_cast<std::size_t>(sm)];
    const Tick start = std::max(t, s.free);
    s.free = start + ticks;
    if (keep_ && ticks > 0) {
      // No fill looks before the present: blocks that ended by t are done with.
      while (!s.blocks.empty() && s.blocks.front().end <= t) s.blocks.pop_front();
      s.blocks.push_back(
          Block{start, s.free, std::max<Tick>(1, ticks / std::max<std::uint32_t>(1, instructions)), warp, s.free});
    }
    return s.free;
  }

  // The path's time at t still owed to the booked instructions, counting at most `per_warp` of each
  // warp's (the first it has not finished): what a copy entering the LSU at t waits behind when each
  // warp has only that many in the data path and the rest in the MIO queue behind it
  // (sm.copy_waits_per_warp; gms-fill-ubench --probe-grid). Part of the booked time, so never past
  // free_at(sm). Needs `keep_blocks`.
  Tick owed_to_first_of_each_warp(int sm, Tick t, std::uint32_t per_warp) {
    Sm& s = sms_[static_cast<std::size_t>(sm)];
    while (!s.blocks.empty() && s.blocks.front().end <= t) s.blocks.pop_front();
    counted_.clear();
    Tick owed = 0;
    for (const Block& b : s.blocks) {
      if (b.warp < 0) continue;
      auto it = find(counted_, b.warp);
      if (it->second >= per_warp) continue;
      const Tick left = b.end - std::max(t, b.start);
      const auto whole = static_cast<std::uint32_t>((left + b.per_instruction - 1) / b.per_instruction);
      const auto take = static_cast<std::uint32_t>(std::min<Tick>(whole, per_warp - it->second));
      it->second += take;
      owed += take == whole ? left : static_cast<Tick>(take) * b.per_instruction;
    }
    return owed;
  }

  // sm.shared_path_in_turns: the time from t until an instruction block of `warp` (`instructions` of them) asked at t
  // has gone onto the path, when the path takes the warps' next instructions in turn behind the `depth` instructions
  // already past the turn (gms-ldg-backlog-ubench: a chase beside seven warps streaming conflict-free LDS.128 waits
  // about one of each, +50-70 cycles, not the ~61 queued; beside one warp's 32-way LDS.32, ~3.5 of them at their
  // 63 cycles). Owed at t: the first `depth` booked instructions (booking order, any warp) - the longer of their path
  // time and each warp's own time among them (one warp's wavefronts leave gaps only another warp fills) -, then at most
  // `instructions` of each other warp's, plus one for each of `warp`'s own still booked (each has had a turn; their
  // path time), beside `warp`'s own later ones (its own come in order: the longer of their own time and their path time
  // with those turns), and writes of no warp's (-1) whole. Needs `keep_blocks`.
  Tick turn_wait(int sm, Tick t, std::uint32_t instructions, int warp, std::uint32_t depth) {
    Sm& s = sms_[static_cast<std::size_t>(sm)];
    while (!s.blocks.empty() && s.blocks.front().own_end <= t) s.blocks.pop_front();
    // Its own booked instructions past the front have each had a turn of every other warp as well.
    std::uint32_t own_pending = 0;
    scan_front(s, t, depth, [&](const Left& l, std::uint32_t in_front) {
      if (l.b->warp == warp) own_pending += l.whole - in_front;
    });
    const auto allowed = static_cast<Tick>(instructions) + own_pending;
    chain_.clear();
    turns_.clear();
    Tick front_path = 0, own_own = 0, own_path = 0, others = 0;
    scan_front(s, t, depth, [&](const Left& l, std::uint32_t in_front) {
      const Block& b = *l.b;
      if (in_front > 0) {
        const Tick own = l.own_time(in_front);
        front_path += l.path_time(own);
        find(chain_, b.warp)->second += own;  // the warp's own chain among the front ones
      }
      if (in_front == l.whole) return;
      const Tick rest = l.left - l.own_time(in_front);
      if (b.warp == warp) {  // its own: their own time alone, their path time beside other warps' turns
        own_own += rest;
        own_path += l.path_time(rest);
      } else if (b.warp < 0) {
        others += l.path_time(rest);
      } else {
        auto it = find(turns_, b.warp);  // its instructions counted as turns so far
        const auto turns = static_cast<std::uint32_t>(std::min<Tick>(l.whole - in_front, allowed - std::min(allowed, it->second)));
        it->second += turns;
        others += l.path_time(l.own_time(in_front + turns) - l.own_time(in_front));
      }
    });
    Tick chain = 0;
    for (const auto& c : chain_) chain = std::max(chain, c.second);
    // The front ones fill each other's gaps, not a newcomer's; behind them the warp's own wavefronts leave gaps that
    // the other warps' turns fill.
    // Never past everything booked: a block's path share is taken in proportion to its own time left, which may
    // count path cycles already served.
    const Tick owed = std::max(front_path, chain) + std::max(own_own, own_path + others);
    return std::min(owed, std::max(t, done_at(sm)) - t);
  }

  // An instruction block of `warp` booked in turn (turn_wait), `ticks` of the path issued at t: it goes onto the path
  // after the time owed at t and takes its ticks there; the path's later bookings come after it as well (the
  // instructions booked before keep their times: the model cannot move them). Returns when its last is through.
  // `own_ticks` (at least `ticks`): the block's time for its own warp, which may leave the path gaps that other warps'
  // instructions fill (sm.shared_replay_cycles: a lone warp's wavefronts come two cycles apart) - its warp's
  // next instruction waits for them, the others only for `ticks`.
  Tick book_in_turn(int sm, Tick t, Tick ticks, std::uint32_t instructions, int warp, std::uint32_t depth, Tick own_ticks) {
    const Tick start = t + turn_wait(sm, t, instructions, warp, depth);
    Sm& s = sms_[static_cast<std::size_t>(sm)];
    s.free = std::max(s.free, start) + ticks;
    own_ticks = std::max(own_ticks, ticks);
    s.own_done = std::max(s.own_done, start + own_ticks);
    if (ticks > 0)
      s.blocks.push_back(Block{start, start + ticks, std::max<Tick>(1, ticks / std::max<std::uint32_t>(1, instructions)),
                               warp, start + own_ticks});
    return start + own_ticks;
  }

  // A copy's data, `ticks` of the path, arriving at t; fills come in time order per SM. It is written
  // in one-cycle slots (the nearest whole number, at least one), each at the first instruction
  // boundary at or after the previous slot (or at once where the path is idle). Returns when the
  // last slot is written.
  Tick fill_between(int sm, Tick t, Tick ticks) {
    const auto slots = static_cast<std::uint32_t>(std::max<Tick>(1, (ticks + kTicksPerCycle / 2) / kTicksPerCycle));
    const Tick slot_ticks = ticks / slots;
    Sm& s = sms_[static_cast<std::size_t>(sm)];
    Tick at = std::max(t, s.fill_cursor);
    for (std::uint32_t i = 0; i < slots; ++i) {
      at = boundary_at_or_after(s, at);
      at += slot_ticks;
      // The slot takes the path: instructions booked from now on come after it.
      s.free = std::max(s.free, at - slot_ticks) + slot_ticks;
    }
    s.fill_cursor = at;
    return at;
  }

 private:
  struct Block {
    Tick start, end, per_instruction;
    int warp;
    Tick own_end;  // when its warp's next may start: `end`, or later for a block booked in turn (book_in_turn)
  };
  struct Sm {
    Tick free = 0, fill_cursor = 0, own_done = 0;
    std::deque<Block> blocks;
  };

  // What is left at t of a booked block, counted in its own time (its replays' gaps included); its path time is that
  // scaled by the block's path ticks over its own.
  struct Left {
    const Block* b;
    Tick per, left;
    std::uint32_t whole;
    Tick own_time(std::uint32_t first) const {  // of its first `first` instructions left
      return first == 0 ? Tick{0} : left - static_cast<Tick>(whole - first) * per;
    }
    Tick path_time(Tick own) const { return own * (b->end - b->start) / std::max<Tick>(1, b->own_end - b->start); }
  };
  // Calls f(left, in_front) for each block not through at t, in booking order: the first `depth` instructions are the
  // front ones.
  template <class F>
  static void scan_front(const Sm& s, Tick t, std::uint32_t depth, F f) {
    std::uint32_t front = depth;
    for (const Block& b : s.blocks) {
      if (b.own_end <= t) continue;  // booked in turn, blocks end out of order: a later one may be through
      const Tick per = std::max<Tick>(1, b.per_instruction * (b.own_end - b.start) / std::max<Tick>(1, b.end - b.start));
      const Tick left = b.own_end - std::max(t, b.start);
      const Left l{&b, per, left, static_cast<std::uint32_t>((left + per - 1) / per)};
      const std::uint32_t in_front = std::min(l.whole, front);
      front -= in_front;
      f(l, in_front);
    }
  }

  // The entry of `warp` in a per-warp scratch list (added at 0).
  using PerWarp = std::vector<std::pair<int, Tick>>;
  static PerWarp::iterator find(PerWarp& v, int warp) {
    auto it = std::find_if(v.begin(), v.end(), [&](const auto& c) { return c.first == warp; });
    return it != v.end() ? it : v.insert(v.end(), {warp, Tick{0}});
  }

  static Tick boundary_at_or_after(Sm& s, Tick t) {
    while (!s.blocks.empty() && s.blocks.front().end <= t) s.blocks.pop_front();
    if (s.blocks.empty() || t <= s.blocks.front().start) return t;  // the path is idle at t
    const Block& b = s.blocks.front();
    const Tick into = t - b.start;
    const Tick k = (into + b.per_instruction - 1) / b.per_instruction;
    return std::min(b.end, b.start + k * b.per_instruction);
  }

  std::vector<Sm> sms_;
  bool keep_;
  // Per warp scratch: owed_to_first_of_each_warp's instructions counted; turn_wait's own time among the front ones
  // and turns counted.
  PerWarp counted_, chain_, turns_;
};

}  // namespace gms
