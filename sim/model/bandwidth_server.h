#pragma once
// A resource with a bandwidth (an L2 slice, a DRAM channel, an SM port) that serves requests by
// their arrival time even when the simulator hands them over out of time order: time is cut into
// buckets and each bucket remembers how far into it the resource is busy. A plain "free at" counter
// would make a request processed late but arriving early wait behind work that arrives after it.
// Full buckets are skipped through "next non-full bucket" links with path compression, so a long
// queue costs amortised O(1) per request.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/types.h"

namespace gms {

class BandwidthServer {
 public:
  // `ticks_per_byte` = kTicksPerCycle / bytes per cycle. The window (buckets x bucket cycles) must
  // cover the spread of arrival times in flight at once plus the longest queue. Both are powers of
  // two, so that finding a bucket is a shift and a mask (a division here cost a quarter of a run).
  explicit BandwidthServer(double ticks_per_byte, std::uint32_t bucket_cycles = 8,
                           std::uint32_t window_buckets = 4096);

  // Serves `bytes` arriving at `arrive`; returns the tick the last byte is done.
  Tick serve(Tick arrive, std::uint32_t bytes);
  Tick service_ticks(std::uint32_t bytes) const { return static_cast<Tick>(bytes * ticks_per_byte_ + 0.5); }
  // Host-cache prefetch of the bucket a request arriving at `arrive` starts in (no simulated effect).
  void prefetch(Tick arrive) const { __builtin_prefetch(&buckets_[(arrive >> bucket_shift_) & window_mask_]); }

 private:
  // 8 bytes: the windows of an H100's ~320 servers (10 MB at 8 bytes a bucket, 16 MB at 12) share the
  // host's last-level cache with the L2's tag arrays, and each request touches a bucket of each server
  // it passes.
  struct Bucket {
    std::uint32_t id;     // absolute bucket number this slot holds (slots are reused round the window)
    std::uint16_t skip;   // 0 while not full; else how far ahead a bucket that may have room is (saturated:
                          // the bucket that far ahead is full or open, never past an open one)
    std::uint16_t busy;   // ticks from the bucket start during which the resource is busy
  };
  static std::uint32_t next_of(const Bucket& b) { return b.id + b.skip; }
  static void link(Bucket& b, std::uint32_t to) {
    b.skip = static_cast<std::uint16_t>(std::min<std::uint32_t>(to - b.id, 0xffff));
  }
  Bucket& slot(std::uint32_t id);
  std::uint32_t first_open(std::uint32_t id);
  void filled(std::uint32_t id);  // bucket `id` has just become full

  double ticks_per_byte_;
  Tick bucket_ticks_;
  int bucket_shift_;  // log2(bucket_ticks_)
  std::uint32_t window_;
  std::uint32_t window_mask_;
  std::vector<Bucket> buckets_;
  // Buckets below `floor_` have been recycled; requests arriving earlier start at `floor_` (their
  // idle capacity is forgotten, never double-booked).
  std::uint32_t floor_ = 0;
  // A run of buckets known to be full, [run_start_, run_end_): a request arriving inside it starts at
  // run_end_ without walking the links from its own bucket. Under a queue, requests arrive behind
  // the busy frontier, and each walk touched several buckets cold in the host's cache (the links'
  // path compression keeps the walks short, not their first bucket warm). Buckets only ever fill
  // (a slot is reset only when the window has moved past it), so the run stays true.
  std::uint32_t run_start_ = 0, run_end_ = 0;
};

}  // namespace gms
