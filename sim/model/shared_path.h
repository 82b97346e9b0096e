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
          Block{start, s.free, std::max<Tick>(1, ticks / std::max<std::uint32_t>(1, instructions)), warp});
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
      auto it = std::find_if(counted_.begin(), counted_.end(), [&](const auto& c) { return c.first == b.warp; });
      if (it == counted_.end()) it = counted_.insert(counted_.end(), {b.warp, 0u});
      if (it->second >= per_warp) continue;
      const Tick left = b.end - std::max(t, b.start);
      const auto whole = static_cast<std::uint32_t>((left + b.per_instruction - 1) / b.per_instruction);
      const std::uint32_t take = std::min(whole, per_warp - it->second);
      it->second += take;
      owed += take == whole ? left : static_cast<Tick>(take) * b.per_instruction;
    }
    return owed;
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
  };
  struct Sm {
    Tick free = 0, fill_cursor = 0;
    std::deque<Block> blocks;
  };

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
  std::vector<std::pair<int, std::uint32_t>> counted_;  // per warp, instructions counted (scratch)
};

}  // namespace gms
