#include "workload/gemm_spill.h"

#include <algorithm>

#include "common/error.h"
#include "workload/gemm_kernel.h"

namespace gms {
namespace {
constexpr int kSlotBytes = 4;         // one spilled register
constexpr int kAccessBytes = 8;       // STL.64 / LDL.64: the compiled loop's mean is 7.9 B a lane (720 B in 91)
constexpr int kWarpgroupThreads = 128;
}  // namespace

std::int64_t estimated_gemm_spill_bytes(const GemmConfig& cfg, const GpuConfig& gpu, const std::string& mma) {
  const int needed = GemmKernel::registers_needed(cfg), max = gpu.sm.max_registers_per_thread;
  if (needed <= max) return 0;
  std::int64_t slots = needed - max;
  if (mma == "wgmma") {  // one group's accumulators: its 64 x N fp32 over the warpgroup's 128 threads
    const WarpGrid grid = gemm_warp_grid(cfg);
    const int groups = wgmma_groups(grid);
    if (groups > 1) slots += static_cast<std::int64_t>(grid.tile_m) * grid.tile_n / (kWarpgroupThreads * groups);
  }
  return slots * kSlotBytes;
}

GemmSpillPlan plan_gemm_spill(const GemmConfig& cfg, const GpuConfig& gpu, const MmaPlan& mma) {
  GemmSpillPlan p;
  p.estimated = cfg.spill_bytes_per_thread < 0;
  p.frame_bytes = p.estimated ? estimated_gemm_spill_bytes(cfg, gpu, mma.wgmma ? "wgmma" : "mma_sync")
                              : cfg.spill_bytes_per_thread;
  if (p.frame_bytes <= 0) {
    p.frame_bytes = 0;
    return p;
  }
  p.frame_bytes = (p.frame_bytes + kSlotBytes - 1) / kSlotBytes * kSlotBytes;
  // wgmma: one chunk per HGMMA group of the warpgroup (swapped in before its MMAs); mma.sync: one.
  const auto groups = static_cast<std::int64_t>(mma.wgmma ? std::max<std::uint32_t>(1, mma.mma_instructions) : 1);
  p.groups = p.frame_bytes / kSlotBytes >= groups ? static_cast<int>(groups) : 1;
  return p;
}

GemmSpillPlan::Chunk GemmSpillPlan::chunk(int i) const {
  SIM_ASSERT(i >= 0 && i < groups && frame_bytes > 0, "spill chunk " << i << " of " << groups << ", frame " << frame_bytes);
  const std::int64_t slots = frame_bytes / kSlotBytes;
  Chunk c;
  c.offset = slots * i / groups * kSlotBytes;
  c.bytes = slots * (i + 1) / groups * kSlotBytes - c.offset;
  c.instructions = instructions(c.bytes);
  return c;
}

std::uint32_t GemmSpillPlan::instructions(std::int64_t bytes) {
  return static_cast<std::uint32_t>((bytes + kAccessBytes - 1) / kAccessBytes);
}

}  // namespace gms
