#pragma once
// The L2 request coalescer (Nsight's `lrc` unit on Hopper): read requests for a line that a slice is
// already serving are merged into the open request and answered by its reply, which the crossbar
// delivers to every requester. The merged requests cost no lookup and no slice bandwidth; they are
// why `lts__t_sectors_srcunit_tex_op_read` falls below the sectors the SMs receive
// (`l1tex__m_xbar2l1tex_read_sectors`) on GEMMs whose CTAs read the same tiles at the same time.
//
// Only whole-line requests merge (gms-l2-ubench, validate/results/h100/l2_lookup/: every warp of the
// grid reading the same 64 lines, 74 % of the sectors merge as whole-line requests and 10 % as
// half-line ones); a partial request neither merges nor opens an entry.
//
// Each slice has a direct-mapped table of open requests, as bounded as the hardware's: a request
// whose slot holds another line's open request simply opens its own (the older one stops merging).
#include <cstdint>
#include <vector>

#include "common/fast_mod.h"
#include "common/types.h"

namespace gms {

class RequestCoalescer {
 public:
  // `entries_per_slice` 0 disables merging. `hold_ticks`: how long after the slice sent its reply a
  // request stays open. `full_mask`: the sectors of a whole line.
  RequestCoalescer() = default;  // disabled
  RequestCoalescer(int slices, int entries_per_slice, Tick hold_ticks, std::uint32_t full_mask = 0xF);

  bool enabled() const { return entries_ > 0; }

  // When a read of `mask` sectors of `line` arriving at `slice` at `arrive` merges into an open
  // request, returns the tick at which that request's data leaves the slice; else kNoMerge.
  static constexpr Tick kNoMerge = ~Tick{0};
  Tick merge(std::uint32_t slice, std::uint64_t line_index, std::uint32_t mask, Tick arrive) const {
    if (mask != full_mask_) return kNoMerge;
    const Open& o = table_[slot(slice, line_index)];
    if (o.line_index != line_index || arrive < o.from || arrive >= o.ready + hold_ticks_) return kNoMerge;
    return o.ready;
  }
  // Records the request a slice serves: arrived at `from`, data leaving the slice at `ready`.
  void open(std::uint32_t slice, std::uint64_t line_index, std::uint32_t mask, Tick from, Tick ready) {
    if (mask != full_mask_) return;
    table_[slot(slice, line_index)] = Open{line_index, from, ready};
  }
  // A reply merged into the open request of `line_index` leaves the slice at `until` (after the replies queued
  // before it): the request stays open, and later merges wait behind it, until then.
  void extend(std::uint32_t slice, std::uint64_t line_index, Tick until) {
    Open& o = table_[slot(slice, line_index)];
    if (o.line_index == line_index && until > o.ready) o.ready = until;
  }
  void prefetch(std::uint32_t slice, std::uint64_t line_index) const {
    if (enabled()) __builtin_prefetch(&table_[slot(slice, line_index)]);
  }
  void clear();

 private:
  struct Open {  // always a whole line
    std::uint64_t line_index = ~std::uint64_t{0};
    Tick from = 0, ready = 0;
  };
  std::size_t slot(std::uint32_t slice, std::uint64_t line_index) const {
    // Lines of one slice are spread over the slice's entries by a multiplicative hash.
    const std::uint64_t h = (line_index * 0x9E3779B97F4A7C15ull) >> 32;
    return static_cast<std::size_t>(slice) * entries_ + entry_of_(h);
  }

  std::uint32_t entries_ = 0;
  FastMod64 entry_of_;  // h % entries_
  Tick hold_ticks_ = 0;
  std::uint32_t full_mask_ = 0;
  std::vector<Open> table_;
};

}  // namespace gms
