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
      ring_mask_(2 * window_buckets - 1),
      word_mask_(2 * window_buckets / 64 - 1) {
  SIM_ASSERT(std::has_single_bit(bucket_ticks_) && std::has_single_bit(window_) && window_ >= 64,
             "bucket of " << bucket_cycles << " cycles, window of " << window_buckets
                          << " buckets: powers of two only, at least 64 buckets");
  SIM_ASSERT(bucket_ticks_ <= 0xffff, "bucket of " << bucket_cycles << " cycles: its busy ticks must fit 16 bits");
  busy_.assign(2 * window_, 0);
  full_.assign(2 * window_ / 64, 0);
  word_id_.resize(full_.size());
  for (std::uint32_t i = 0; i < word_id_.size(); ++i) word_id_[i] = i;
}

inline std::uint32_t BandwidthServer::word(std::uint32_t id) {
  const std::uint32_t w = id >> 6;
  const std::uint32_t k = w & word_mask_;
  if (word_id_[k] != w) {
    word_id_[k] = w;
    full_[k] = 0;
    std::fill_n(&busy_[static_cast<std::size_t>(k) << 6], 64, std::uint16_t{0});
  }
  return k;
}

inline std::uint32_t BandwidthServer::first_open(std::uint32_t id) {
  while (true) {
    const std::uint32_t k = word(id);
    const std::uint64_t open = ~full_[k] & (~std::uint64_t{0} << (id & 63));
    if (open) return (id & ~63u) | static_cast<std::uint32_t>(std::countr_zero(open));
    id = (id | 63u) + 1;
  }
}

void BandwidthServer::fill_bucket(std::uint32_t id) {
  busy_[id & ring_mask_] = static_cast<std::uint16_t>(bucket_ticks_);
  full_[(id >> 6) & word_mask_] |= std::uint64_t{1} << (id & 63);
  if (id == run_end_) {
    ++run_end_;
  } else if (id + 1 == run_start_) {
    --run_start_;
  } else if (id > run_end_) {  // a new run past an idle gap: later arrivals come to it
    run_start_ = id;
    run_end_ = id + 1;
  }
}

Tick BandwidthServer::book(Tick arrive, Tick need) {
  SIM_ASSERT((arrive >> bucket_shift_) < 0xffffffffull, "time beyond the bandwidth server's range: " << arrive);
  booked_ += need;
  std::uint32_t id = static_cast<std::uint32_t>(arrive >> bucket_shift_);
  Tick offset = arrive & (bucket_ticks_ - 1);  // a power of two
  if (id < floor_) {
    id = floor_;
    offset = 0;
  }
  if (id >= run_start_ && id < run_end_) {  // every bucket from id to run_end_ is full
    id = run_end_;
    offset = 0;
  }
  while (true) {
    const std::uint32_t open = first_open(id);
    if (open != id) offset = 0;
    id = open;
    if (id >= floor_ + window_) floor_ = id - window_ + 1;
    std::uint16_t& busy = busy_[id & ring_mask_];
    const Tick start = std::max<Tick>(offset, busy);
    if (start + need < bucket_ticks_) {
      busy = static_cast<std::uint16_t>(start + need);
      return static_cast<Tick>(id) * bucket_ticks_ + start + need;
    }
    // The request takes the rest of this bucket (an idle gap before `offset` is given up) and, if
    // it needs more, goes on in the next one that has room.
    fill_bucket(id);
    if (start + need == bucket_ticks_) return static_cast<Tick>(id) * bucket_ticks_ + bucket_ticks_;
    if (start < bucket_ticks_) need -= bucket_ticks_ - start;
    ++id;
    offset = 0;
  }
}

}  // namespace gms
