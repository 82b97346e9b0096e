#pragma once
// Register spills of kind: gemm (issue 11). When a tile's accumulators and operands do not fit the
// GPU's registers per thread, the compiler keeps part of them in per-thread local memory and moves
// them through L1 every K tile. What the H100 compiled (validate/results/h100/triton_gemm_spill,
// Triton 128x256x32 w4: two HGMMA.64x256x16 row groups of 128 accumulators each, 255 registers):
// before each group's wgmma it stores what the group displaces and reloads the group's
// accumulators, waits, runs the group's MMAs to completion (wgmma made synchronous), then the next
// group; the whole 720-byte frame goes out and back once per K tile, and no reload hits L1.
#include <cstdint>

#include "config/gpu_config.h"
#include "config/workload_config.h"
#include "workload/mma_data_path.h"

namespace gms {

struct GemmSpillPlan {
  std::int64_t frame_bytes = 0;  // per thread, stored and reloaded every K tile (0: no spill)
  int groups = 1;                // MMA groups the frame is swapped around: its chunks (wgmma's HGMMA groups, or 1)
  bool estimated = false;        // frame_bytes from the registers (spill_bytes_per_thread -1B), not the SASS
  // Chunk i of the frame: whole 4-byte slots, every chunk non-empty; the STL (or LDL) instructions a
  // warp issues to move it (8 bytes a lane each: the compiled loop's mean is 7.9).
  struct Chunk {
    std::int64_t offset = 0, bytes = 0;
    std::uint32_t instructions = 0;
  };
  Chunk chunk(int i) const;
  // STL (or LDL) instructions a warp issues to move `bytes` of the frame per thread.
  static std::uint32_t instructions(std::int64_t bytes);
};

// The frame a tiling spills when nothing says what its compiler did: none while registers_needed
// fits the GPU's maximum; beyond it, the registers it lacks plus - for wgmma with more than one
// MMA group per warpgroup - one group's accumulators, which the compiler swaps out whole because a
// wgmma needs its group's accumulators in registers at once. On the one compiled case (128x256x32
// w4, needs 312 of 255): 57 + 128 = 185 slots, 740 B, where the SASS spills 720 B (3 stages) and
// 696 B (4 stages).
std::int64_t estimated_gemm_spill_bytes(const GemmConfig& cfg, const GpuConfig& gpu, const std::string& mma);

// The workload's spill plan for its data path (mma_sync or wgmma): spill_bytes_per_thread as given,
// or (-1B) the estimate above.
GemmSpillPlan plan_gemm_spill(const GemmConfig& cfg, const GpuConfig& gpu, const MmaPlan& mma);

}  // namespace gms
