#include "model/dram.h"

#include <algorithm>
#include <cmath>

namespace gms {

std::vector<std::int64_t> dram_spread_ticks(const std::vector<double>& q) {
  std::vector<std::int64_t> out;
  if (q.size() < 2) return out;
  constexpr int n = DramTiming::kSpreadPoints;
  std::vector<double> at(n);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double x = (i + 0.5) / n * static_cast<double>(q.size() - 1);
    const auto k = std::min(q.size() - 2, static_cast<size_t>(x));
    at[static_cast<size_t>(i)] = q[k] + (q[k + 1] - q[k]) * (x - static_cast<double>(k));
    sum += at[static_cast<size_t>(i)];
  }
  const double mean = sum / n;
  out.reserve(n);
  for (double v : at) out.push_back(static_cast<std::int64_t>(std::llround((v - mean) * kTicksPerCycle)));
  return out;
}

Dram::Dram(const DramTiming& t) : timing_(t), map_(t.channels, t.interleave) {
  double ticks_per_byte = static_cast<double>(kTicksPerCycle) * t.channels / t.bytes_per_cycle;
  channels_.assign(t.channels, BandwidthServer(ticks_per_byte));
  last_read_.assign(t.channels, 0);
  surcharge_carry_.assign(t.channels, 0.0);
}

Tick Dram::read(Addr addr, std::uint32_t bytes, Tick arrive) {
  bytes_read_ += bytes;
  const std::uint32_t c = map_.channel(addr);
  last_read_[c] = std::max(last_read_[c], arrive + 1);
  BandwidthServer& ch = channels_[c];
  Tick done = ch.serve(arrive, bytes);
  // The transfer is part of the access latency; only waiting for the channel adds to it.
  Tick access = timing_.access_ticks;
  if (!timing_.spread_ticks.empty()) {
    // The same read at the same time always draws the same (deterministic runs); a shared draw keys on its
    // block, its channel or nothing, and on its window instead of its tick.
    std::uint64_t key = addr >> 5, when = static_cast<std::uint64_t>(arrive);
    switch (timing_.spread_scope) {
      case DramTiming::SpreadScope::kRead: break;
      case DramTiming::SpreadScope::kBlock: key = addr / timing_.spread_block; break;
      case DramTiming::SpreadScope::kChannel: key = c + 1; break;
      case DramTiming::SpreadScope::kDevice: key = 0; break;
    }
    if (timing_.spread_scope != DramTiming::SpreadScope::kRead) when /= static_cast<std::uint64_t>(timing_.spread_window);
    std::uint64_t h = key * 0x9E3779B97F4A7C15ull ^ when * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    const std::int64_t off = timing_.spread_ticks[h >> (64 - DramTiming::kSpreadBits)];
    // The schema keeps access_ticks + the lowest offset above zero (dram.latency_spread); the clamp guards rounding.
    access = static_cast<Tick>(std::max<std::int64_t>(0, static_cast<std::int64_t>(access) + off));
  }
  return done - ch.service_ticks(bytes) + access;
}

void Dram::write(Addr addr, std::uint32_t bytes, Tick arrive) {
  bytes_written_ += bytes;
  const std::uint32_t c = map_.channel(addr);
  // Reads at this channel around the write (requests reach the model out of time order: a read
  // arriving later counts as well): the bus turns round for it.
  std::uint32_t extra = 0;
  if (timing_.mixed_write_surcharge > 0 && last_read_[c] > 0 && last_read_[c] - 1 + timing_.access_ticks >= arrive) {
    // Whole bytes of surcharge; the fraction carries to the channel's next write.
    const double owed = bytes * timing_.mixed_write_surcharge + surcharge_carry_[c];
    extra = static_cast<std::uint32_t>(owed);
    surcharge_carry_[c] = owed - extra;
  }
  channels_[c].serve(arrive, bytes + extra);
}

}  // namespace gms
