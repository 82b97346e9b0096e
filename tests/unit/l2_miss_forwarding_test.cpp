// l2.miss_data_forwarded: a read's tags decide before its data is read, so a miss leaves for DRAM at its tag
// lookup instead of after the hits queued ahead of it on the slice's data path, and its reply takes the data path
// when the fill lands. Off in the presets (docs/calibration.md, "A late CTA catches up in the model": the H200's
// Triton GEMM records with it, time MAPE 7.0 -> 8.4 %).
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "model/memory_system.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

GpuConfig one_slice(bool forwarded) {
  // One slice, no partitions and no coalescer: every line queues on the same data path, every read looks up; no
  // DRAM latency spread, so the two runs' misses take the same access time and differ by the queue alone.
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                   {"gpu.l2.partition_mode=none", "gpu.l2.partitions=1", "gpu.l2.slices=1", "gpu.l2.coalescer_entries=0",
                                    "gpu.dram.latency_spread=",
                                    std::string("gpu.l2.miss_data_forwarded=") + (forwarded ? "true" : "false")}})
      .gpu.value;
}

struct Burst {
  Tick first_hit = 0, last_hit = 0;  // when the first and the last of the queued hits are back at their SMs
  Tick miss = 0;      // when the miss issued beside them is
};

// 64 SMs read one resident line at `t` (64 turns on the slice's data path) while SM 64 reads a line not in L2.
Burst hits_beside_a_miss(bool forwarded) {
  MemorySystem mem(one_slice(forwarded));
  const Region hot{0x40000, 1, 128, 0}, cold{0x900000, 1, 128, 0};
  mem.load(AccessCtx{0, 0, nullptr}, hot, true);  // resident long before the burst
  const Tick t = 20000 * C;
  Burst b;
  b.first_hit = kNever;
  for (int sm = 0; sm < 64; ++sm) {
    const Tick done = mem.load(AccessCtx{sm, t, nullptr}, hot, true);
    b.first_hit = std::min(b.first_hit, done);
    b.last_hit = std::max(b.last_hit, done);
  }
  b.miss = mem.load(AccessCtx{64, t, nullptr}, cold, true);
  return b;
}

TEST(L2MissForwarding, OffInThePresets) {
  for (const char* preset : {"configs/gpus/h100.yaml", "configs/gpus/h200.yaml"})
    EXPECT_FALSE(load_configs(ConfigInputs{test::source_path(preset), "", {}}).gpu.value.l2.miss_data_forwarded) << preset;
}

TEST(L2MissForwarding, AMissDoesNotWaitForTheHitsQueuedAheadOfIt) {
  const Burst queued = hits_beside_a_miss(false), forwarded = hits_beside_a_miss(true);
  // The hits are served as before: they were first on the data path either way.
  EXPECT_EQ(forwarded.first_hit, queued.first_hit);
  EXPECT_EQ(forwarded.last_hit, queued.last_hit);
  // The data path is busy with them for (last - first); queued, the miss waits about that long before it goes to
  // DRAM, forwarded it does not (and its own turn, when the fill lands, finds the path free).
  const Tick busy = queued.last_hit - queued.first_hit;
  ASSERT_GT(busy, 50 * C);
  EXPECT_GT(queued.miss - forwarded.miss, busy / 2) << "queued " << queued.miss << " forwarded " << forwarded.miss;
  // ... and still pays DRAM: a forwarded miss is no faster than a DRAM read behind an empty slice.
  MemorySystem alone(one_slice(true));
  const Tick t = 20000 * C;
  EXPECT_GE(forwarded.miss - t, alone.load(AccessCtx{64, t, nullptr}, Region{0x900000, 1, 128, 0}, true) - t);
}

TEST(L2MissForwarding, AReadOfAFillInFlightWaitsForTheFillNotTheQueue) {
  MemorySystem mem(one_slice(true));
  const Region line{0x40000, 1, 128, 0};
  const Tick t = 1000 * C;
  const Tick miss = mem.load(AccessCtx{0, t, nullptr}, line, true);
  const Tick second = mem.load(AccessCtx{1, t + 10 * C, nullptr}, line, true);  // hits the fill on its way
  EXPECT_GE(second, miss);  // its data is the fill's, and its reply leaves after the fill's on the data path
  const MemCounters& c = mem.counters();
  EXPECT_EQ(c.l2_line_reads[static_cast<int>(ReadClass::kMiss)], 1u);
  EXPECT_EQ(c.l2_line_reads[static_cast<int>(ReadClass::kInFlight)], 1u);
}

}  // namespace
}  // namespace gms
