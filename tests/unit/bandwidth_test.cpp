#include <gtest/gtest.h>

#include <map>
#include <random>

#include "model/bandwidth_server.h"
#include "model/dram.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

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

TEST(Dram, AReadWriteMixPaysTheMeasuredTurnaroundAndWritesAloneDoNot) {
  // H100: reads stream at 0.905 of the peak, a copy's reads + writes at 0.841
  // (validate/results/h100/ubench/dram_bandwidth.json): a write among reads costs 1 + s bus time.
  DramTiming t = one_channel(32, 400);
  t.mixed_write_surcharge = 2.0 * 0.905 / 0.841 - 2.0;
  Dram copy(t), alone(t);
  Tick copy_end = 0;
  for (int i = 0; i < 1000; ++i) {  // a copy: a read and a write of 32 B, both arriving at once
    copy_end = std::max(copy_end, copy.read(0x1000, 32, 0) - 400 * C);
    copy.write(0x2000, 32, 0);
  }
  copy_end = std::max(copy_end, copy.read(0x1000, 32, 0) - 400 * C);  // behind every write as well
  const double cycles = static_cast<double>(copy_end) / C;
  // 64 kB at 32 B a cycle is 2,000 cycles; the turnarounds make it 2,000 x 0.905 / 0.841.
  EXPECT_NEAR(cycles, 2000.0 * 0.905 / 0.841, 3.0);
  // Writes with no read near them on the channel stream at the read rate.
  for (int i = 0; i < 1000; ++i) alone.write(0x2000, 32, 0);
  EXPECT_EQ(alone.read(0x1000, 32, 0), 1000 * C + 400 * C);
  // A read more than one access time before the writes does not turn the bus for them.
  Dram later(t);
  later.read(0x1000, 32, 0);
  for (int i = 0; i < 1000; ++i) later.write(0x2000, 32, 500 * C);
  EXPECT_EQ(later.read(0x1000, 32, 500 * C), 1500 * C + 400 * C);
}

TEST(BandwidthServer, ServesByArrivalTimeNotCallOrder) {
  BandwidthServer s(static_cast<double>(C) / 32);  // 32 B per cycle
  // A request arriving late is handed over first; an earlier arrival must not queue behind it.
  EXPECT_EQ(s.serve(1000 * C, 64), 1002 * C);
  EXPECT_EQ(s.serve(10 * C, 64), 12 * C);
  // Same arrival: FCFS among them.
  EXPECT_EQ(s.serve(10 * C, 64), 14 * C);
}

TEST(BandwidthServer, CountsTheServiceItBookedWhereverItLanded) {
  BandwidthServer s(static_cast<double>(C) / 32);  // 32 B per cycle
  EXPECT_EQ(s.booked_ticks(), 0u);
  s.serve(1000 * C, 64);    // 2 cycles
  s.serve(10 * C, 64);      // 2, out of call order
  s.serve_start(10 * C, 96);  // 3, queued behind the one before
  EXPECT_EQ(s.booked_ticks(), 7 * C);
  for (int i = 0; i < 5000; ++i) s.serve(0, 128);  // a queue longer than the window: every byte still counts
  EXPECT_EQ(s.booked_ticks(), 7 * C + 5000 * 4 * C);
}

TEST(BandwidthServer, SustainsItsBandwidthUnderLongQueues) {
  BandwidthServer s(static_cast<double>(C) / 16);  // 16 B per cycle
  Tick last = 0;
  for (int i = 0; i < 20000; ++i) last = s.serve(0, 128);  // 2.56 MB arriving at once
  EXPECT_EQ(last, 20000ull * 8 * C);
}

// The server's links, path compression and full-run shortcut are speed only: against a plain scan of
// bucket occupancy (the same rules, no links), every request must finish at the same tick - for
// arrivals in and out of order, queues longer than the window (buckets recycled) and idle gaps.
Tick reference_serve(std::map<std::uint32_t, Tick>& busy, std::uint32_t& floor, Tick bucket_ticks, std::uint32_t window,
                     double ticks_per_byte, Tick arrive, std::uint32_t bytes) {
  Tick need = static_cast<Tick>(bytes * ticks_per_byte + 0.5);
  auto id = static_cast<std::uint32_t>(arrive / bucket_ticks);
  Tick offset = arrive - id * bucket_ticks;
  if (id < floor) id = floor, offset = 0;
  while (true) {
    const std::uint32_t from = id;
    while (busy[id] == bucket_ticks) ++id;  // the first bucket with room
    if (id != from) offset = 0;
    if (id >= floor + window) {
      floor = id - window + 1;
      busy.erase(busy.begin(), busy.lower_bound(floor));  // recycled: forgotten
    }
    const Tick start = std::max(offset, busy[id]);
    if (start + need <= bucket_ticks) {
      busy[id] = start + need;
      return id * bucket_ticks + start + need;
    }
    if (start < bucket_ticks) need -= bucket_ticks - start;
    busy[id] = bucket_ticks;
    ++id;
    offset = 0;
  }
}

TEST(BandwidthServer, MatchesAPlainScanOfItsBuckets) {
  std::mt19937_64 rng(2026);
  for (const std::uint32_t window : {64u, 4096u}) {
    const double tpb = static_cast<double>(C) / 51;  // an L2 slice's rate
    BandwidthServer s(tpb, 8, window);
    std::map<std::uint32_t, Tick> busy;
    std::uint32_t floor = 0;
    Tick now = 0;
    for (int i = 0; i < 200000; ++i) {
      now += rng() % (3 * C);                     // time moves on
      Tick arrive = now + rng() % (400 * C);       // requests handed over out of order
      if (rng() % 50 == 0) arrive = now + (rng() % 20000) * C;  // a far arrival (an idle gap behind it)
      if (rng() % 100 == 0 && now > 50000 * C) arrive = now - 50000 * C;  // below the window
      if (rng() % 5000 == 0) now += 100000 * C;   // the queue drains
      const std::uint32_t bytes = 32 * (1 + static_cast<std::uint32_t>(rng() % 4));
      const Tick want = reference_serve(busy, floor, 8 * C, window, tpb, arrive, bytes);
      ASSERT_EQ(s.serve(arrive, bytes), want) << "request " << i << " (window " << window << ")";
    }
  }
}

// A full stretch longer than the server's known run and than many bitmap words (a slow resource's
// queue, a window of 2^17 buckets: once 16-bit links saturated there) must never hide an open bucket.
TEST(BandwidthServer, LongFullStretchesNeverHideAnOpenBucket) {
  std::mt19937_64 rng(7);
  const std::uint32_t window = 1u << 17;
  const double tpb = static_cast<double>(C) / 32;
  BandwidthServer s(tpb, 8, window);
  std::map<std::uint32_t, Tick> busy;
  std::uint32_t floor = 0;
  // 70,000 full buckets, one bucket (8 cycles, 256 B) a request, each arriving where the last ended
  // (the reference walks from its arrival: quadratic from tick 0); then one far request, which
  // starts a run of its own, so that an arrival at tick 0 scans the 70,000 buckets' words; then
  // arrivals everywhere inside and past the stretch.
  auto serve = [&](Tick arrive, std::uint32_t bytes) {
    return std::make_pair(s.serve(arrive, bytes), reference_serve(busy, floor, 8 * C, window, tpb, arrive, bytes));
  };
  for (int i = 0; i < 70000; ++i) {
    const auto [got, want] = serve(static_cast<Tick>(i) * 8 * C, 256);
    ASSERT_EQ(got, want) << "fill " << i;
  }
  for (const Tick arrive : {Tick{80000} * 8 * C, Tick{0}, Tick{10} * 8 * C, Tick{5000} * 8 * C}) {
    const auto [got, want] = serve(arrive, 32);
    ASSERT_EQ(got, want) << "arrival at " << arrive;
  }
  for (int i = 0; i < 300; ++i) {
    const auto [got, want] = serve((rng() % 90000) * 8 * C + rng() % (8 * C), 32 * (1 + static_cast<std::uint32_t>(rng() % 8)));
    ASSERT_EQ(got, want) << "request " << i;
  }
}

}  // namespace
}  // namespace gms
