#pragma once
// A resource with a bandwidth (an L2 slice, a DRAM channel, an SM port) that serves requests by
// their arrival time even when the simulator hands them over out of time order: time is cut into
// buckets and each bucket remembers how far into it the resource is busy. A plain "free at" counter
// would make a request processed late but arriving early wait behind work that arrives after it.
// Full buckets are found through a bitmap, 64 buckets a word: a queue costs a word per 64 buckets of
// it, in a few kilobytes per server that stay in the host's cache, and only the bucket a request is
// booked in is read from the larger array of busy ticks. (Links between full buckets, walked bucket
// by bucket, missed the host's cache on ~2 buckets a request: 17 % of a GEMM replay's time.)
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
  Tick serve(Tick arrive, std::uint32_t bytes) { return book(arrive, service_ticks(bytes)); }
  // The same booking; returns the tick its service starts (the done tick less its service time: one
  // multiplication a request, where serve() and service_ticks() apart took two).
  Tick serve_start(Tick arrive, std::uint32_t bytes) {
    const Tick need = service_ticks(bytes);
    return book(arrive, need) - need;
  }
  Tick service_ticks(std::uint32_t bytes) const { return round_ticks(bytes * ticks_per_byte_); }
  // Ticks of service booked so far (the resource's busy time: each request's `need`, wherever it landed).
  Tick booked_ticks() const { return booked_; }
  // Host-cache prefetch of the bucket a request arriving at `arrive` starts in (no simulated effect).
  void prefetch(Tick arrive) const { __builtin_prefetch(&busy_[(arrive >> bucket_shift_) & ring_mask_]); }

 private:
  Tick book(Tick arrive, Tick need);  // `need` ticks of service arriving at `arrive`: the done tick
  std::uint32_t first_open(std::uint32_t id);  // the first bucket at or after `id` that is not full
  // Makes the ring's word for bucket `id` hold id's 64 buckets (a stale word is reset: its time has
  // long passed); returns its index.
  std::uint32_t word(std::uint32_t id);
  void fill_bucket(std::uint32_t id);  // bucket `id` has just become full

  double ticks_per_byte_;
  Tick bucket_ticks_;
  int bucket_shift_;  // log2(bucket_ticks_)
  std::uint32_t window_;
  // The ring holds twice the window, so that one 64-bucket word of it never holds two live stretches
  // of time (the window [floor_, floor_ + window_) starts anywhere in a word).
  std::uint32_t ring_mask_;
  std::uint32_t word_mask_;
  std::vector<std::uint16_t> busy_;      // per bucket: ticks from its start during which the resource is busy
  std::vector<std::uint64_t> full_;      // per word: a bit per full bucket
  std::vector<std::uint32_t> word_id_;   // per word: the absolute word (bucket / 64) it holds
  // Buckets below `floor_` have been recycled; requests arriving earlier start at `floor_` (their
  // idle capacity is forgotten, never double-booked).
  std::uint32_t floor_ = 0;
  // A run of buckets known to be full, [run_start_, run_end_): a request arriving inside it starts at
  // run_end_ without scanning from its own bucket (under a queue, requests arrive behind the busy
  // frontier). Buckets only ever fill (a word is reset only when the window has moved past it), so
  // the run stays true.
  std::uint32_t run_start_ = 0, run_end_ = 0;
  Tick booked_ = 0;
};

}  // namespace gms
