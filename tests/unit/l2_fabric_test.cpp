// The fabric between the L2's partitions (issue 11): one link into each partition, each of
// l2.fabric_bytes_per_cycle per clock.l2 cycle. gms-fabric-ubench (validate/results/h200/fabric) streams
// from DRAM only lines homed in the other partition: the SMs of one partition alone carry 1.32 TB/s on
// the H200 (33 of them as much as 66), all SMs 2.58 TB/s - twice, so the two directions do not share.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "api/simulation.h"
#include "model/memory_system.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

struct Reads {
  Tick end = 0;              // when the last read is back, from their common start
  std::uint64_t far = 0;     // sectors that crossed (lts__t_sectors_srcunit_ltcfabric)
};

// SMs 0-65 are near partition 0, 66-131 near partition 1 (halves). `p0` SMs of partition 0 and `p1` of
// partition 1 each read their own 64 KB from DRAM at once; a fabric of 8 B per cycle binds.
Reads read_cold(int p0, int p1, const char* fabric = "8", const char* l2_clock = "1980MHz") {
  auto cfg = load_configs(ConfigInputs{
      test::source_path("configs/gpus/h100.yaml"), "",
      {"gpu.l2.sm_partitions=", "gpu.l2.sm_partition_map=halves", "gpu.l2.coalescer_entries=0",
       std::string("gpu.l2.fabric_bytes_per_cycle=") + fabric, std::string("gpu.clock.l2=") + l2_clock}});
  MemorySystem mem(cfg.gpu.value);
  constexpr Addr kBase = 0x7f0000000000;
  constexpr std::uint32_t kChunk = 64 * 1024;
  const Tick t = 1000 * C;
  Reads r;
  int k = 0;
  auto read = [&](int sm) {
    const Tick back = mem.load(AccessCtx{sm, t, nullptr}, Region{kBase + static_cast<Addr>(k++) * kChunk, 1, kChunk, 0}, true);
    r.end = std::max(r.end, back - t);
  };
  for (int i = 0; i < std::max(p0, p1); ++i) {
    if (i < p0) read(i);
    if (i < p1) read(66 + i);
  }
  r.far = mem.counters().l2_far_sectors;
  return r;
}

TEST(L2Fabric, EachDirectionHasALinkOfItsOwn) {
  const Reads one_way = read_cold(16, 0), both_ways = read_cold(16, 16), one_way_twice = read_cold(32, 0);
  // Twice the far data: in both directions in the time of one, in one direction in twice the time.
  EXPECT_LT(both_ways.end, one_way.end + one_way.end / 5) << both_ways.end / C << " vs " << one_way.end / C;
  EXPECT_GT(one_way_twice.end, one_way.end + one_way.end * 7 / 10) << one_way_twice.end / C << " vs " << one_way.end / C;
  EXPECT_GT(both_ways.far, one_way.far + one_way.far / 2);
}

TEST(L2Fabric, ALinkCarriesItsBytesPerL2Cycle) {
  // Bound by its one link, partition 0's far data arrives at 8 B per clock.l2 cycle: at 1,980 MHz one
  // per SM cycle (clock.sm 1,980 MHz), at 990 MHz half as fast.
  const Reads full = read_cold(32, 0, "8", "1980MHz"), half = read_cold(32, 0, "8", "990MHz");
  const double rate = static_cast<double>(full.far) * 32 / (static_cast<double>(full.end) / C);
  EXPECT_NEAR(rate, 8.0, 0.8);
  EXPECT_NEAR(static_cast<double>(half.end) / static_cast<double>(full.end), 2.0, 0.2);
  // Unlimited (0): far data crosses at no cost.
  EXPECT_LT(read_cold(32, 0, "0").end, full.end / 4);
}

// When the SMs of partition 0 have handed their stores to L2 (the latest `taken`), with or without the
// SMs of partition 1 storing at the same time: half of partition 1's lines are homed in partition 0 and
// arrive there over the fabric.
Tick p0_stores_taken(bool p1_stores_too) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                       {"gpu.l2.sm_partitions=", "gpu.l2.sm_partition_map=halves", "gpu.l2.coalescer_entries=0"}});
  MemorySystem mem(cfg.gpu.value);
  constexpr Addr kBase = 0x7f0000000000;
  constexpr std::uint32_t kChunk = 64 * 1024;
  const Tick t = 1000 * C;
  if (p1_stores_too)
    for (int sm = 66; sm < 132; ++sm) mem.store(AccessCtx{sm, t, nullptr}, Region{kBase + static_cast<Addr>(sm) * kChunk, 1, kChunk, 0});
  Tick taken = 0;
  for (int sm = 0; sm < 66; ++sm)
    taken = std::max(taken, mem.store(AccessCtx{sm, t, nullptr}, Region{kBase + static_cast<Addr>(sm) * kChunk, 1, kChunk, 0}).taken);
  return taken;
}

TEST(L2Fabric, StoresThatCameOverTheFabricLeaveTheHomeSlicesCrossbarInputsAlone) {
  // gms-fabric-ubench stores (validate/results/h100/fabric_stores): a far store costs its home slice's
  // crossbar input nothing (lts__xbar2lts 1.02 cycles per stored sector, near or far) - it enters from
  // the fabric. So partition 1's far stores do not delay partition 0's own at its slices' inputs.
  EXPECT_EQ(p0_stores_taken(true), p0_stores_taken(false));
}

// When the last of partition 0's SMs' stores has been taken: each stores its own 64 KB, whole sectors or only the
// first 16 bytes of each (half sectors, the fp16 WMMA epilogue's); only the fabric (8 B per cycle) binds.
Tick p0_half_or_whole_stores_taken(bool half, const char* input_slots = "1") {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                       {"gpu.l2.sm_partitions=", "gpu.l2.sm_partition_map=halves", "gpu.l2.coalescer_entries=0",
                                        "gpu.l2.fabric_bytes_per_cycle=8", "gpu.icnt.sm_write_bytes_per_cycle=0", "gpu.icnt.sm_requests_per_cycle=0",
                                        "gpu.l2.input_bytes_per_cycle=0", "gpu.icnt.partial_sector_write_slots=2",
                                        std::string("gpu.l2.partial_sector_input_slots=") + input_slots}});
  MemorySystem mem(cfg.gpu.value);
  constexpr Addr kBase = 0x7f0000000000;
  constexpr std::uint32_t kChunk = 64 * 1024;
  const Tick t = 1000 * C;
  Tick taken = 0;
  for (int sm = 0; sm < 16; ++sm) {
    const Addr base = kBase + static_cast<Addr>(sm) * kChunk;
    const Region r = half ? Region{base, kChunk / 32, 16, 32} : Region{base, 1, kChunk, 0};
    taken = std::max(taken, mem.store(AccessCtx{sm, t, nullptr}, r).taken - t);
  }
  return taken;
}

TEST(L2Fabric, AHalfWrittenSectorCrossesAsAWholeOne) {
  // gms-fabric-ubench halfstores (validate/results/h200/fabric_halfstores): L2-resident far half sectors cross at
  // the link's rate of whole ones (1,237 against 1,250 GB/s of 32-byte sectors; 1.00 far sectors each), though
  // they leave an SM at half the rate (icnt.partial_sector_write_slots 2) - which does not bind here.
  const Tick half = p0_half_or_whole_stores_taken(true), whole = p0_half_or_whole_stores_taken(false);
  EXPECT_NEAR(static_cast<double>(half) / static_cast<double>(whole), 1.0, 0.05) << half / C << " vs " << whole / C;
  // Nor do the slices' inputs (unlimited here), whatever a half sector costs them.
  EXPECT_EQ(p0_half_or_whole_stores_taken(true, "2"), half);
}

}  // namespace
}  // namespace gms
