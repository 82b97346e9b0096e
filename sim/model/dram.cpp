#include "model/dram.h"

#include <algorithm>
#include <cmath>

namespace gms {

Dram::Dram(const DramTiming& t) : timing_(t), map_(t.channels, t.interleave) {
  double ticks_per_byte = static_cast<double>(kTicksPerCycle) * t.channels / t.bytes_per_cycle;
  channels_.assign(t.channels, BandwidthServer(ticks_per_byte));
}

Tick Dram::read(Addr addr, std::uint32_t bytes, Tick arrive) {
  bytes_read_ += bytes;
  BandwidthServer& ch = channels_[map_.channel(addr)];
  Tick done = ch.serve(arrive, bytes);
  // The transfer is part of the access latency; only waiting for the channel adds to it.
  return done - ch.service_ticks(bytes) + timing_.access_ticks;
}

void Dram::write(Addr addr, std::uint32_t bytes, Tick arrive) {
  bytes_written_ += bytes;
  channels_[map_.channel(addr)].serve(arrive, bytes);
}

}  // namespace gms
