// The home slice's lookup of a far line the near partition missed (issue 11): with
// l2.far_fills_take_slice_bandwidth false it comes over the fabric and leaves the slice's crossbar
// bandwidth to the SMs' own requests, as the Triton GEMM records show (their SM-sourced lookups top
// out at the all-SM hit rate gms-tma-ubench measured, while the far fills add up to 1.8 TB/s more).
#include <gtest/gtest.h>

#include <algorithm>

#include "api/simulation.h"
#include "model/memory_system.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

struct Partition1Reads {
  Tick end = 0;             // when the last of partition 1's reads is back
  std::uint64_t lookups = 0;  // lts__t_sectors_op_read
  std::uint64_t far = 0;      // sectors forwarded to a home slice (lts__t_sectors_srcunit_ltcfabric)
};

// SMs 0-65 are near partition 0, 66-131 near partition 1 (halves). A 2 MiB buffer is made resident
// from partition 1's side; then 32 SMs of each partition read all of it at once, each its own part.
// Partition 0's reads of lines homed in partition 1 miss their near copies and are looked up at home,
// in the slices that partition 1's SMs read from.
Partition1Reads read_together(bool far_fills_take_bandwidth, bool partition0_reads, const char* tag_rate = "0") {
  auto cfg = load_configs(ConfigInputs{
      test::source_path("configs/gpus/h100.yaml"), "",
      {"gpu.l2.sm_partitions=", "gpu.l2.sm_partition_map=halves", "gpu.l2.coalescer_entries=0",
       std::string("gpu.l2.tag_requests_per_cycle=") + tag_rate,
       std::string("gpu.l2.far_fills_take_slice_bandwidth=") + (far_fills_take_bandwidth ? "true" : "false")}});
  MemorySystem mem(cfg.gpu.value);
  constexpr Addr kBase = 0x7f0000000000;
  constexpr std::uint32_t kChunk = 64 * 1024;  // per SM: 512 lines
  constexpr int kSms = 32;
  for (int i = 0; i < kSms; ++i) mem.load(AccessCtx{66 + i, 0, nullptr}, Region{kBase + i * kChunk, 1, kChunk, 0}, true);
  const MemCounters warm = mem.counters();
  const Tick t = 2'000'000 * C;
  Partition1Reads r;
  for (int i = 0; i < kSms; ++i) {
    if (partition0_reads) mem.load(AccessCtx{i, t, nullptr}, Region{kBase + i * kChunk, 1, kChunk, 0}, true);
    const Tick back = mem.load(AccessCtx{66 + i, t, nullptr}, Region{kBase + ((i + 1) % kSms) * kChunk, 1, kChunk, 0}, true);
    r.end = std::max(r.end, back);
  }
  r.end -= t;
  r.lookups = mem.counters().l2_read_sectors - warm.l2_read_sectors;
  r.far = mem.counters().l2_far_sectors - warm.l2_far_sectors;
  return r;
}

TEST(L2FarFills, ComeOverTheFabricWithoutTakingTheSlicesBandwidth) {
  // The data path alone (no tag stage): partition 1's slices serve their own SMs as if alone.
  const Partition1Reads alone = read_together(false, false);
  const Partition1Reads shared = read_together(true, true);
  const Partition1Reads fabric = read_together(false, true);
  // The same lookups are counted either way; about half of partition 0's lines are far fills.
  EXPECT_EQ(shared.lookups, fabric.lookups);
  EXPECT_EQ(shared.far, fabric.far);
  EXPECT_GT(fabric.far, 0u);
  EXPECT_GT(fabric.lookups, alone.lookups + fabric.far);
  // Partition 1's SMs saturate their slices: the far fills slow them only when they share the bandwidth.
  EXPECT_EQ(fabric.end, alone.end);
  EXPECT_GT(shared.end, alone.end + alone.end / 10) << "shared " << shared.end / C << " alone " << alone.end / C;
}

TEST(L2FarFills, StillPassTheHomeSlicesTagStage) {
  // A tag stage slower than the data path (0.2 lookups a cycle against 51 B = 1.6 sectors): every
  // lookup passes it, the far fills' home lookups too, so they slow partition 1 even off the data path;
  // without partition 0's reads the same stage sets partition 1's pace alone.
  const Partition1Reads alone = read_together(false, false, "0.2");
  const Partition1Reads fabric = read_together(false, true, "0.2");
  const Partition1Reads no_stage = read_together(false, false, "0");
  EXPECT_GT(alone.end, no_stage.end + no_stage.end / 2);  // the stage binds
  EXPECT_GT(fabric.end, alone.end + alone.end / 10) << "fabric " << fabric.end / C << " alone " << alone.end / C;
  EXPECT_EQ(fabric.lookups, read_together(true, true, "0.2").lookups);
}

}  // namespace
}  // namespace gms
