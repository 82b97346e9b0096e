#pragma once
// The engine's pending events, earliest first: (tick, index) pairs in a 4-ary min-heap. A pop
// touches half the levels of a binary heap, and the four children of a node share a host cache
// line. Pairs are totally ordered (tick, then index), so the pop order is the same as any other
// min-heap's - the simulated result does not depend on the heap.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/types.h"

namespace gms {

class EventQueue {
 public:
  using Event = std::pair<Tick, std::uint32_t>;

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }

  void emplace(Tick t, std::uint32_t index) {
    heap_.emplace_back(t, index);
    std::size_t i = heap_.size() - 1;
    const Event e = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / 4;
      if (!(e < heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  void pop() {
    const Event last = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return;
    sift_down(last);
  }
  // pop() then emplace(t, index), in one pass down the heap.
  void replace_top(Tick t, std::uint32_t index) { sift_down(Event{t, index}); }

 private:
  // Places `last` from the root down (the root's slot is free).
  void sift_down(const Event last) {
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    while (true) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t end = first + 4 < n ? first + 4 : n;
      for (std::size_t c = first + 1; c < end; ++c)
        if (heap_[c] < heap_[best]) best = c;
      if (!(heap_[best] < last)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = last;
  }

  std::vector<Event> heap_;
};

}  // namespace gms
