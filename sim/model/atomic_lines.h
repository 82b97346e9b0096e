#pragma once
// The L2's reductions to one line take turns: a slice starts a line's next read-modify-write no
// sooner than l2.atomic_line_interval after the previous one, however idle the rest of the slice is.
// gms-red-ubench hot (validate/results/h100/red_hot, h200/red_hot): every warp of the GPU adding to the
// same 8 lines retires one RED request per line every 11.1 ns on both GPUs, and 12.6 ns over 64 lines -
// a per-line interval, not a slice's rate (0.8 sectors a cycle over 16 MiB of lines). A reduction that
// waits for its turn holds nothing else: the slice serves other lines meanwhile.
//
// Turns go in the order the engine times the reductions (their issue order; one line's reductions
// reach its home slice by the same path, so that is their order of arrival too).
//
// A direct-mapped table of the lines reduced lately and when each may start its next one: a line
// whose entry another line took has waited long enough (the table holds thousands of lines; a
// reduction stream over more lines than that spreads too thin to queue on one).
#include <cstdint>
#include <vector>

#include "common/types.h"

namespace gms {

class AtomicLines {
 public:
  // `interval` ticks between two read-modify-writes of one line; 0: no turns (every call returns `at`).
  explicit AtomicLines(Tick interval = 0, std::size_t entries = 4096) : interval_(interval), table_(interval ? entries : 0) {}

  // The tick the read-modify-write of `line_index` that could start at `at` starts; books its turn.
  Tick start(std::uint64_t line_index, Tick at) {
    if (interval_ == 0) return at;
    Entry& e = table_[(line_index * 0x9E3779B97F4A7C15ull >> 40) % table_.size()];
    const Tick s = e.line == line_index + 1 && e.next > at ? e.next : at;
    e = Entry{line_index + 1, s + interval_};
    return s;
  }

 private:
  struct Entry {
    std::uint64_t line = 0;  // line index + 1 (0: empty)
    Tick next = 0;           // the earliest start of the line's next read-modify-write
  };
  Tick interval_;
  std::vector<Entry> table_;
};

}  // namespace gms
