#pragma once
// DRAM as independent channels, each a FCFS server with a bandwidth and an access latency: fixed, or
// drawn per read from a measured spread (gms-latency-spread-ubench: row state, refresh and bank timing the
// model does not have one by one). Requests reserve their channel's time; queueing delay appears when a
// channel is busy.
#include <cstdint>
#include <vector>

#include "common/types.h"
#include "model/address_map.h"
#include "model/bandwidth_server.h"

namespace gms {

struct DramTiming {
  std::uint32_t channels = 1;
  std::uint64_t interleave = 256;
  double bytes_per_cycle = 1;  // all channels together, already derated by efficiency
  Tick access_ticks = 0;       // request at the channel -> data back at L2, unloaded (the mean)
  // A read's access time about access_ticks: kSpreadPoints equally likely offsets (mean 0), drawn by a
  // hash of the read's address and arrival, or of its block / channel and time window (spread_scope); empty = none.
  std::vector<std::int64_t> spread_ticks;
  // Reads that share one draw (dram.latency_spread_scope): each its own, or those of one spread_block-byte block /
  // one channel / any channel within one spread_window (fixed windows from tick 0).
  enum class SpreadScope : std::uint8_t { kRead, kBlock, kChannel, kDevice };
  SpreadScope spread_scope = SpreadScope::kRead;
  Tick spread_window = 1;
  std::uint64_t spread_block = 4096;
  static constexpr int kSpreadBits = 10;
  static constexpr int kSpreadPoints = 1 << kSpreadBits;
  // Bus time a write costs beyond its bytes' when reads share its channel (dram.copy_efficiency):
  // the read/write turnarounds a controller's write batches pay, spread over the written bytes.
  double mixed_write_surcharge = 0;
};

// dram.latency_spread's quantiles (cycles at evenly spaced probabilities) as DramTiming::spread_ticks:
// the quantile function at the midpoints of kSpreadPoints equal steps, less their mean.
std::vector<std::int64_t> dram_spread_ticks(const std::vector<double>& quantile_cycles);

class Dram {
 public:
  explicit Dram(const DramTiming& t);
  // Reads `bytes` at `addr`, arriving at the channel at `arrive`; returns when the data is at L2.
  Tick read(Addr addr, std::uint32_t bytes, Tick arrive);
  // Writes consume bandwidth; nothing waits for them.
  void write(Addr addr, std::uint32_t bytes, Tick arrive);

  std::uint64_t bytes_read() const { return bytes_read_; }
  std::uint64_t bytes_written() const { return bytes_written_; }
  void reset_counts() { bytes_read_ = bytes_written_ = 0; }
  std::uint32_t channel_of(Addr addr) const { return map_.channel(addr); }

 private:
  DramTiming timing_;
  ChannelMap map_;
  std::vector<BandwidthServer> channels_;
  std::vector<Tick> last_read_;  // per channel: the latest arrival of a read + 1 (0: none yet)
  std::vector<double> surcharge_carry_;  // per channel: the fraction of a byte of surcharge owed
  std::uint64_t bytes_read_ = 0;
  std::uint64_t bytes_written_ = 0;
};

}  // namespace gms
