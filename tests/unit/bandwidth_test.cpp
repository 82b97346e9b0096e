#include <gtest/gtest.h>

#include "model/bandwidth_server.h"
#include "model/dram.h"

namespace gms {
namespace {

constexpr Tick C = kTicksPerCycle;

DramTiming one_channel(double bytes_per_cycle, std::uint64_t latency_cycles) {
  DramTiming t;
  t.channels = 1;
  t.interleave = 256;
  t.bytes_per_cycle = bytes_per_cycle;
  t.access_ticks = cycles_to_ticks(latency_cycles);
  return t;
}

TEST(Dram, UnloadedLatencyIsExact) {
  Dram d(one_channel(32, 400));
  Tick done = d.read(0x1000, 32, 100 * C);
  EXPECT_GT(done, 100 * C + 400 * C - 1);  // not at t-1...
  EXPECT_EQ(done, 100 * C + 400 * C);      // ...exactly at t
}

TEST(Dram, BackToBackRequestsQueueAtTheChannelBandwidth) {
  Dram d(one_channel(32, 400));  // 32 B per cycle: one sector per cycle
  Tick last = 0;
  for (int i = 0; i < 100; ++i) last = d.read(0x1000, 32, 0);
  // The 100th sector starts after 99 cycles of transfers ahead of it.
  EXPECT_EQ(last, 99 * C + 400 * C);
  EXPECT_NE(last, 98 * C + 400 * C);
  EXPECT_EQ(d.bytes_read(), 3200u);
}

TEST(Dram, WritesConsumeBandwidth) {
  Dram d(one_channel(32, 400));
  d.write(0x1000, 320, 0);  // 10 cycles of transfer
  EXPECT_EQ(d.read(0x1000, 32, 0), 10 * C + 400 * C);
  EXPECT_EQ(d.bytes_written(), 320u);
}

TEST(BandwidthServer, ServesByArrivalTimeNotCallOrder) {
  BandwidthServer s(static_cast<double>(C) / 32);  // 32 B per cycle
  // A request arriving late is handed over first; an earlier arrival must not queue behind it.
  EXPECT_EQ(s.serve(1000 * C, 64), 1002 * C);
  EXPECT_EQ(s.serve(10 * C, 64), 12 * C);
  // Same arrival: FCFS among them.
  EXPECT_EQ(s.serve(10 * C, 64), 14 * C);
}

TEST(BandwidthServer, SustainsItsBandwidthUnderLongQueues) {
  BandwidthServer s(static_cast<double>(C) / 16);  // 16 B per cycle
  Tick last = 0;
  for (int i = 0; i < 20000; ++i) last = s.serve(0, 128);  // 2.56 MB arriving at once
  EXPECT_EQ(last, 20000ull * 8 * C);
}

}  // namespace
}  // namespace gms
