#pragma once
// l2.reads_in_arrival_order, booked at the SMs (not pipelined): an L1 miss's request waits in its SM's outbox and its
// data's time is known only when the slices have taken it. Until then the L1 sectors it fills hold an estimate (an
// unloaded L2 hit). A load that hits on such sectors must not read the estimate - booked at issue it would have read
// the data's real arrival - so it waits for the request that brings them: this file keeps, per L1 line in an L1 slot,
// the sectors still in flight and the loads waiting on them, and says which loads are complete when a request is back.
// (A pipelined run needs none of it: its requests are timed in issue order, settle_l1 in memory_system.h.)
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "common/types.h"

namespace gms {

class L1InFlight {
 public:
  // `sectors` of `line` in L1 slot `slot` are asked of L2 by a request now in an outbox.
  void sent(std::uint32_t slot, Addr line, std::uint32_t sectors) { in_flight_[key(slot, line)] |= sectors; }
  // Of `sectors` (hits of `line` in `slot`), those whose data is still in an outbox.
  std::uint32_t late(std::uint32_t slot, Addr line, std::uint32_t sectors) const {
    if (in_flight_.empty()) return 0;
    const auto it = in_flight_.find(key(slot, line));
    return it == in_flight_.end() ? 0 : it->second & sectors;
  }
  // Open access `load` hit `sectors` still in flight, its hit's data due no sooner than `floor`: it waits for them.
  void wait(std::uint32_t slot, Addr line, std::uint32_t sectors, std::uint32_t load, Tick floor) {
    waiters_.push_back({key(slot, line), sectors, load, floor});
  }
  // The request for `sectors` of `line` in `slot` is back at `done`: calls fn(load, at) for each waiting access that
  // waited for nothing else of it (`at`: when its hit's data is there), in the order they hit.
  template <class Fn>
  void back(std::uint32_t slot, Addr line, std::uint32_t sectors, Tick done, Fn&& fn) {
    const Key k = key(slot, line);
    if (const auto it = in_flight_.find(k); it != in_flight_.end() && (it->second &= ~sectors) == 0) in_flight_.erase(it);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < waiters_.size(); ++i) {
      Waiter w = waiters_[i];
      if (w.key == k && (w.sectors & sectors)) {
        w.floor = std::max(w.floor, done);
        w.sectors &= ~sectors;
        if (w.sectors == 0) {
          fn(w.load, w.floor);
          continue;
        }
      }
      waiters_[kept++] = w;
    }
    waiters_.resize(kept);
  }
  bool empty() const { return in_flight_.empty() && waiters_.empty(); }

 private:
  // A slot holds one line at a time; the line's address tells a refilled slot's sectors from its former line's.
  using Key = std::pair<std::uint32_t, Addr>;
  static Key key(std::uint32_t slot, Addr line) { return {slot, line}; }
  struct Waiter {
    Key key;
    std::uint32_t sectors;
    std::uint32_t load;
    Tick floor;
  };
  std::map<Key, std::uint32_t> in_flight_;  // (the switch is off in every preset: a tree is fast enough)
  std::vector<Waiter> waiters_;
};

}  // namespace gms
