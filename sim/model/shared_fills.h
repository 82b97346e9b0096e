#pragma once
// Copies into shared memory (cp.async / LDGSTS) that wait for a gap in the SM's shared-memory data
// path. Their data arrives from L2 while warps keep issuing ldmatrix and shared loads; when the
// fills take the path only where the instruction traffic leaves it idle (`sm.shared_fills: idle`),
// a kernel whose shared loads saturate the path sees its copies land late and its warps wait on
// them (long_scoreboard) - the WMMA GEMM at pad 0 on the H100: path 84 % busy, warps 16 % on global
// data with the L2 20 % busy (docs/shared-memory.md). This file keeps the fills not yet written,
// per SM, in order of arrival; the engine decides when the path is idle.
#include <cstdint>
#include <queue>
#include <vector>

#include "common/error.h"
#include "common/types.h"

namespace gms {

struct PendingFill {
  Tick arrive = 0;             // the copy's last line is back at the SM
  std::uint64_t seq = 0;       // order of issue (issue_seq): ties of `arrive` go in issue order
  Tick ticks = 0;              // the data path's time to write it
  int warp = 0;                // global warp index and its launch age (a later warp may reuse the index)
  std::uint64_t age = 0;
  int slot = 0;                // the scoreboard slot the copy completes
};

class SharedFills {
 public:
  explicit SharedFills(int sms) : queues_(static_cast<std::size_t>(sms)), scheduled_(static_cast<std::size_t>(sms), kNever) {}

  // The next fill's place among ties, taken when its copy or load issues - not when it is added: a pipelined run
  // adds a fill whose lines went to L2 only when the memory side has timed them, later than one that hit in L1,
  // and the order of ties must not depend on that (Cli.ThreadCountsGiveIdenticalResults).
  std::uint64_t issue_seq() { return next_seq_++; }
  // Adds a fill whose `seq` was taken from issue_seq() when it issued.
  void add(int sm, const PendingFill& f) {
    SIM_ASSERT(f.seq < next_seq_, "a fill added with order " << f.seq << " not taken at issue (next " << next_seq_ << ")");
    queues_[static_cast<std::size_t>(sm)].push(f);
  }
  bool empty(int sm) const { return queues_[static_cast<std::size_t>(sm)].empty(); }
  Tick earliest(int sm) const { return queues_[static_cast<std::size_t>(sm)].top().arrive; }
  // Calls fn(fill) for each fill of `sm` that has arrived by `t`, in order of arrival, removing it.
  template <class Fn>
  void take_arrived(int sm, Tick t, Fn&& fn) {
    auto& q = queues_[static_cast<std::size_t>(sm)];
    while (!q.empty() && q.top().arrive <= t) {
      const PendingFill f = q.top();
      q.pop();
      fn(f);
    }
  }
  // The tick of the SM's pending wake-up event (kNever: none), so that superseded events are skipped.
  Tick& scheduled(int sm) { return scheduled_[static_cast<std::size_t>(sm)]; }

 private:
  struct Later {
    bool operator()(const PendingFill& a, const PendingFill& b) const {
      return a.arrive != b.arrive ? a.arrive > b.arrive : a.seq > b.seq;
    }
  };
  std::vector<std::priority_queue<PendingFill, std::vector<PendingFill>, Later>> queues_;
  std::vector<Tick> scheduled_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace gms
