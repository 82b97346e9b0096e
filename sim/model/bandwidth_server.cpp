#include "model/bandwidth_server.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "common/error.h"

namespace gms {

BandwidthServer::BandwidthServer(double ticks_per_byte, std::uint32_t bucket_cycles, std::uint32_t window_buckets)
    : ticks_per_byte_(ticks_per_byte),
      bucket_ticks_(cycles_to_ticks(bucket_cycles)),
      bucket_shift_(std::countr_zero(bucket_ticks_)),
      window_(window_buckets),
      window_mask_(window_buckets - 1) {
  SIM_ASSERT(std::has_single_bit(bucket_ticks_) && std::has_single_bit(window_),
             "bucket of " << bucket_cycles << " cycles, window of " << window_buckets << " buckets: powers of two only");
  SIM_ASSERT(bucket_ticks_ <= 0xffff, "bucket of " << bucket_cycles << " cycles: its busy ticks must fit 16 bits");
  buckets_.resize(window_);
  for (std::uint32_t i = 0; i < window_; ++i) buckets_[i] = Bucket{i, 0, 0};
}

// A slot holding another bucket number is stale (its time has long passed): it is reset on use.
BandwidthServer::Bucket& BandwidthServer::slot(std::uint32_t id) {
  Bucket& b = buckets_[id & window_mask_];
  if (b.id != id) b = Bucket{id, 0, 0};
  return b;
}

std::uint32_t BandwidthServer::first_open(std::uint32_t id) {
  std::uint32_t root = id;
  while (true) {
    Bucket& b = slot(root);
    if (b.skip == 0) break;
    root = next_of(b);
  }
  while (id != root) {  // path compression
    Bucket& b = slot(id);
    const std::uint32_t n = next_of(b);
    link(b, root);
    id = n;
  }
  return root;
}

void BandwidthServer::filled(std::uint32_t id) {
  if (id == run_end_) {
    ++run_end_;
  } else if (id + 1 == run_start_) {
    --run_start_;
  } else if (id > run_end_) {  // a new run past an idle gap: later arrivals come to it
    run_start_ = id;
    run_end_ = id + 1;
  }
}

Tick BandwidthServer::serve(Tick arrive, std::uint32_t bytes) {
  Tick need = service_ticks(bytes);
  SIM_ASSERT((arrive >> bucket_shift_) < 0xffffffffull, "time beyond the bandwidth server's range: " << arrive);
  std::uint32_t id = static_cast<std::uint32_t>(arrive >> bucket_shift_);
  Tick offset = arrive - static_cast<Tick>(id) * bucket_ticks_;
  if (id < floor_) {
    id = floor_;
    offset = 0;
  }
  if (id >= run_start_ && id < run_end_) {  // every bucket from id to run_end_ is full
    id = run_end_;
    offset = 0;
  }
  while (true) {
    std::uint32_t open = first_open(id);
    if (open != id) offset = 0;
    id = open;
    if (id >= floor_ + window_) floor_ = id - window_ + 1;
    Bucket& b = slot(id);
    Tick start = std::max<Tick>(offset, b.busy);
    if (start + need <= bucket_ticks_) {
      b.busy = static_cast<std::uint16_t>(start + need);
      if (b.busy == bucket_ticks_) {
        b.skip = 1;
        filled(id);
      }
      return static_cast<Tick>(id) * bucket_ticks_ + start + need;
    }
    // The request takes the rest of this bucket; an idle gap before `offset` is given up.
    if (start < bucket_ticks_) need -= bucket_ticks_ - start;
    b.busy = static_cast<std::uint16_t>(bucket_ticks_);
    b.skip = 1;
    filled(id);
    ++id;
    offset = 0;
  }
}

}  // namespace gms
