#include "model/dram.h"

#include <algorithm>
#include <cmath>

namespace gms {

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
  return done - ch.service_ticks(bytes) + timing_.access_ticks;
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
