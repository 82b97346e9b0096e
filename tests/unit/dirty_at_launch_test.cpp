// l2.dirty_at_launch: the L2 holds other data dirty when a kernel starts (what Nsight Compute's
// replay and the harness leave: 2.3-2.6 MB of DRAM writes in every H100/H200 GEMV record, whose own
// output stays in L2), and the kernel writes it to DRAM as it evicts it - all of it once the kernel
// reads more than the L2 holds, none of it while the L2 has room - with evict-first loads too (the
// Triton GEMVs' 1.9-2.1 MB; validate/results/h100/evict: the data are their sets' first victims).
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "common/error.h"
#include "model/memory_system.h"
#include "test_util.h"

namespace gms {
namespace {

GpuConfig h100_with(std::vector<std::string> sets) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", std::move(sets)}).gpu.value;
}

// Streams `bytes` of whole-line reads (from every SM in turn, 32 lines a load) through L2; returns
// the bytes the DRAM wrote meanwhile.
std::uint64_t written_while_reading(MemorySystem& mem, const GpuConfig& gpu, std::uint64_t bytes, Tick t,
                                    EvictHint hint = EvictHint::kNormal) {
  const std::uint64_t before = mem.dram().bytes_written();
  for (std::uint64_t off = 0, i = 0; off < bytes; off += 32 * 128, ++i)
    mem.load(AccessCtx{static_cast<int>(i % gpu.sm.count), t + cycles_to_ticks(static_cast<double>(i)), nullptr},
             Region{0x7f0000000000ull + off, 1, 32 * 128, 0}, true, hint);
  return mem.dram().bytes_written() - before;
}

TEST(DirtyAtLaunch, AKernelThatReadsPastTheL2WritesAllOfIt) {
  const GpuConfig gpu = h100_with({"gpu.l2.dirty_at_launch=2MiB"});
  MemorySystem mem(gpu);
  EXPECT_EQ(written_while_reading(mem, gpu, 4 * static_cast<std::uint64_t>(gpu.l2.size), 0), 2u << 20);
  MemorySystem clean(h100_with({"gpu.l2.dirty_at_launch=0B"}));
  EXPECT_EQ(written_while_reading(clean, gpu, 4 * static_cast<std::uint64_t>(gpu.l2.size), 0), 0u);
}

TEST(DirtyAtLaunch, AKernelThatFitsBesideItWritesNone) {
  const GpuConfig gpu = h100_with({"gpu.l2.dirty_at_launch=2MiB"});
  MemorySystem mem(gpu);
  EXPECT_EQ(written_while_reading(mem, gpu, 8u << 20, 0), 0u);
}

TEST(DirtyAtLaunch, AnEvictFirstStreamDisplacesItToo) {
  const GpuConfig gpu = h100_with({"gpu.l2.dirty_at_launch=2MiB"});
  MemorySystem past(gpu), beside(gpu);
  // Most of it: a set's evict-first victim is the first such way, so where two of the data share a
  // set the stream displaces one, then its own line in that way (1.55 of 2 MB here; silicon's
  // evict-first streams write 1.88 MB where plain ones write 2.33).
  const std::uint64_t written = written_while_reading(past, gpu, 2 * static_cast<std::uint64_t>(gpu.l2.size), 0, EvictHint::kFirst);
  EXPECT_GT(written, 7u * (2u << 20) / 10);
  EXPECT_LT(written, 2u << 20);
  EXPECT_EQ(written_while_reading(beside, gpu, 8u << 20, 0, EvictHint::kFirst), 0u);
}

TEST(DirtyAtLaunch, ComesBackWithEveryClearedL2NotWithAKeptOne) {
  const GpuConfig gpu = h100_with({"gpu.l2.dirty_at_launch=1MiB"});
  const std::uint64_t past = 4 * static_cast<std::uint64_t>(gpu.l2.size);
  MemorySystem mem(gpu);
  Tick t = 0;
  EXPECT_EQ(written_while_reading(mem, gpu, past, t), 1u << 20);
  t += cycles_to_ticks(1e7);
  mem.begin_kernel(false, t);  // a profiler's flush: cleared, then the other data again
  EXPECT_EQ(written_while_reading(mem, gpu, past, t), 1u << 20);
  t += cycles_to_ticks(1e7);
  mem.begin_kernel(true, t);  // kept: only what this kernel's reads left, all clean
  EXPECT_EQ(written_while_reading(mem, gpu, past, t), 0u);
}

TEST(DirtyAtLaunch, AnL2SmallerThanItHoldsWhatFits) {
  // A what-if of l2.size below the preset's dirty data: the L2 starts full of it, no error.
  const GpuConfig gpu = h100_with({"gpu.l2.size=2080KiB"});
  ASSERT_GT(gpu.l2.dirty_at_launch, gpu.l2.size);
  MemorySystem mem(gpu);
  const std::uint64_t written = written_while_reading(mem, gpu, 16u << 20, 0);
  EXPECT_LE(written, static_cast<std::uint64_t>(gpu.l2.size));
  EXPECT_GE(written, static_cast<std::uint64_t>(0.8 * static_cast<double>(gpu.l2.size)));  // the hash fills most sets
  EXPECT_EQ(mem.dram().bytes_written(), written) << "what the sets pushed out before the kernel is not counted";
}

}  // namespace
}  // namespace gms
