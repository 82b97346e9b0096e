// dram.latency_spread: the DRAM's own spread of a read's latency (gms-latency-spread-ubench), drawn per read.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "config/gpu_config.h"
#include "model/dram.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

TEST(DramSpread, ParsesQuantilesInCyclesAndRejectsMalformedOnes) {
  std::string why;
  EXPECT_EQ(*parse_latency_spread("", &why), std::vector<double>{});
  EXPECT_EQ(*parse_latency_spread("-10cycles, 5cycles,100cycles", &why), (std::vector<double>{-10, 5, 100}));
  EXPECT_FALSE(parse_latency_spread("5cycles, 4cycles", &why));
  EXPECT_NE(why.find("must not fall"), std::string::npos) << why;
  EXPECT_FALSE(parse_latency_spread("5GB, 6cycles", &why));  // a latency's unit only
  EXPECT_NE(why.find("unknown unit"), std::string::npos) << why;
  EXPECT_FALSE(parse_latency_spread("5cycles", &why));  // one point is no spread
  EXPECT_NE(why.find("at least two"), std::string::npos) << why;
  EXPECT_FALSE(parse_latency_spread("1cycles, 2cycles,, 3cycles", &why));
}

TEST(DramSpread, TicksAreTheQuantileFunctionLessItsMean) {
  const std::vector<std::int64_t> t = dram_spread_ticks({0, 100});  // uniform over 0..100 cycles
  ASSERT_EQ(t.size(), static_cast<size_t>(DramTiming::kSpreadPoints));
  EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
  EXPECT_NEAR(static_cast<double>(std::accumulate(t.begin(), t.end(), std::int64_t{0})) / t.size(), 0.0, 1.0);
  EXPECT_NEAR(static_cast<double>(t.front()) / C, -50.0, 0.1);
  EXPECT_NEAR(static_cast<double>(t.back()) / C, 50.0, 0.1);
  // A tail: three points 0, 0, 300 put a quarter of the draws above 150 cycles over the low end.
  const std::vector<std::int64_t> tail = dram_spread_ticks({0, 0, 300});
  const double mean_above_low = 75.0;  // the quantile function's mean: (0 + 0) / 2 / 2 + (0 + 300) / 2 / 2
  const auto above = std::count_if(tail.begin(), tail.end(), [&](std::int64_t v) {
    return static_cast<double>(v) / C + mean_above_low > 150.0;
  });
  EXPECT_NEAR(static_cast<double>(above) / tail.size(), 0.25, 0.01);
  EXPECT_TRUE(dram_spread_ticks({}).empty());
}

// Reads on an idle channel: the latencies keep the preset's mean and spread as the table says, and the same
// reads at the same times draw the same.
TEST(DramSpread, ReadsDrawTheSpreadAboutTheMeanLatency) {
  DramTiming t;
  t.channels = 1;
  t.bytes_per_cycle = 1e6;  // no queueing
  t.access_ticks = 400 * C;
  t.spread_ticks = dram_spread_ticks({-100, -20, 0, 20, 400});
  Dram a(t), b(t);
  std::vector<double> lat;
  for (int i = 0; i < 40000; ++i) {
    const Addr line = static_cast<Addr>(i) * 128;
    const Tick arrive = static_cast<Tick>(i) * 1000 * C;
    const Tick done = a.read(line, 32, arrive);
    ASSERT_EQ(done, b.read(line, 32, arrive));
    lat.push_back(static_cast<double>(done - arrive) / C);
  }
  std::sort(lat.begin(), lat.end());
  const double mean = std::accumulate(lat.begin(), lat.end(), 0.0) / lat.size();
  EXPECT_NEAR(mean, 400.0, 2.0);
  // The table's mean is 37.5 cycles (four trapezoids of 25 % each), so its points sit 37.5 below.
  EXPECT_NEAR(lat.front(), 400.0 - 100 - 37.5, 2.0);
  EXPECT_NEAR(lat.back(), 400.0 + 400 - 37.5, 2.0);
  EXPECT_NEAR(lat[lat.size() / 2], 400.0 - 37.5, 3.0);          // the median: the table's 0
  EXPECT_NEAR(lat[lat.size() * 7 / 8], 400.0 + 210 - 37.5, 6.0);  // halfway up the tail's segment
  // Without a spread every read takes the mean.
  t.spread_ticks.clear();
  Dram flat(t);
  EXPECT_EQ(flat.read(0x80, 32, 5 * C), 5 * C + 400 * C);
}

// dram.latency_spread_scope: reads that share one draw. Channel scope: every read reaching one channel within one
// window waits the same, whatever its line; the next window, or another channel, draws afresh - and over many
// windows the draws keep the table's mean. Block scope: the lines of one aligned block. Read scope draws per line.
TEST(DramSpread, SharedScopesDrawOncePerBlockChannelOrDeviceAndWindow) {
  DramTiming t;
  t.channels = 4;
  t.interleave = 256;
  t.bytes_per_cycle = 1e6;
  t.access_ticks = 400 * C;
  t.spread_ticks = dram_spread_ticks({-100, -20, 0, 20, 400});
  t.spread_window = 600 * C;
  const auto latency = [](Dram& d, Addr line, Tick arrive) { return d.read(line, 32, arrive) - arrive; };
  t.spread_scope = DramTiming::SpreadScope::kChannel;
  Dram channel(t);
  // Two lines of one channel and one of another, whatever the channel hash.
  const Addr channel0_a = 0;
  Addr channel0_b = 256, channel1 = 256;
  while (channel.channel_of(channel0_b) != channel.channel_of(channel0_a)) channel0_b += 256;
  while (channel.channel_of(channel1) == channel.channel_of(channel0_a)) channel1 += 256;
  int windows_differing = 0, channels_differing = 0;
  double sum = 0;
  const int windows = 20000;
  for (int w = 0; w < windows; ++w) {
    const Tick start = static_cast<Tick>(w) * 600 * C;
    const Tick l = latency(channel, channel0_a, start + 10 * C);
    ASSERT_EQ(l, latency(channel, channel0_b, start + 500 * C)) << "window " << w;  // same channel and window
    sum += static_cast<double>(l) / C;
    channels_differing += l != latency(channel, channel1, start + 10 * C);
    if (w > 0) windows_differing += l != latency(channel, channel0_a, start - 10 * C);
  }
  EXPECT_GT(windows_differing, windows * 9 / 10);
  EXPECT_GT(channels_differing, windows * 9 / 10);
  EXPECT_NEAR(sum / windows, 400.0, 3.0);

  t.spread_scope = DramTiming::SpreadScope::kDevice;
  Dram device(t);
  for (int w = 0; w < 100; ++w) {
    const Tick start = static_cast<Tick>(w) * 600 * C;
    ASSERT_EQ(latency(device, channel0_a, start), latency(device, channel1, start + 599 * C)) << "window " << w;
  }

  // Block scope: the lines of one 4 KiB block share a window's draw whatever their channels; other blocks draw afresh.
  t.spread_scope = DramTiming::SpreadScope::kBlock;
  t.spread_block = 4096;
  Dram block(t);
  int blocks_differing = 0;
  for (int w = 0; w < 1000; ++w) {
    const Tick start = static_cast<Tick>(w) * 600 * C;
    const Addr first = static_cast<Addr>(w) * 4096;
    ASSERT_EQ(latency(block, first, start), latency(block, first + 4096 - 128, start + 300 * C)) << "window " << w;
    blocks_differing += latency(block, first, start) != latency(block, first + 4096, start);
  }
  EXPECT_GT(blocks_differing, 900);

  t.spread_scope = DramTiming::SpreadScope::kRead;
  Dram read(t);
  int lines_differing = 0;
  for (int i = 0; i < 1000; ++i) {
    const Tick at = static_cast<Tick>(i) * 1000 * C;
    lines_differing += latency(read, channel0_a, at) != latency(read, channel0_b, at);
  }
  EXPECT_GT(lines_differing, 900);
}

}  // namespace
}  // namespace gms
