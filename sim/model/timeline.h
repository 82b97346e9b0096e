#pragma once
// Memory events bucketed by SM and time, for the SM x time and bandwidth-over-time reports.
#include <cstdint>
#include <vector>

#include "common/types.h"

namespace gms {

class Timeline {
 public:
  struct Bucket {
    std::uint64_t l2_hit_sectors = 0;
    std::uint64_t l2_miss_sectors = 0;
    std::uint64_t dram_read_bytes = 0;
  };

  Timeline(int sms, std::uint64_t bucket_cycles) : sms_(sms), bucket_ticks_(bucket_cycles * kTicksPerCycle) {}

  Bucket& at(int sm, Tick t) {
    size_t b = static_cast<size_t>(t / bucket_ticks_);
    if ((b + 1) * sms_ > buckets_.size()) buckets_.resize((b + 1) * sms_ + 64 * sms_);
    return buckets_[b * sms_ + sm];
  }
  int sms() const { return sms_; }
  std::uint64_t bucket_cycles() const { return bucket_ticks_ / kTicksPerCycle; }
  size_t bucket_count(Tick end) const { return static_cast<size_t>(end / bucket_ticks_) + 1; }
  const Bucket& get(int sm, size_t b) const {
    static const Bucket empty{};
    size_t i = b * sms_ + sm;
    return i < buckets_.size() ? buckets_[i] : empty;
  }

 private:
  int sms_;
  Tick bucket_ticks_;
  std::vector<Bucket> buckets_;
};

}  // namespace gms
