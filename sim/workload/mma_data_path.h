#pragma once
// The tensor-core data path of kind: gemm, per warp and K tile: how many cp.async (LDGSTS) copies a
// warp issues and how many shared-memory wavefronts their stores take; for mma.sync, the ldmatrix.x4
// loads of each 32-byte K step (wavefronts from the bank model, validated on silicon) and the HMMAs
// that consume them; for wgmma, the warpgroup MMAs that read the tiles from shared memory directly.
// Instruction counts follow the SASS of the validate kernels (HMMA.16816, LDSM.x4, HGMMA.64xNx16).
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "config/workload_config.h"

namespace gms {

// `auto` resolved: mma_sync for tensor-core dtypes, none for fp32 and under an order pattern.
std::string resolved_gemm_mma(const GemmConfig& cfg);

// The tensor-core class Triton's compiler gives a dot of this tile and warp count on this GPU
// (lib/Analysis/Utility.cpp, supportMMA for version 3): the warpgroup MMA (wgmma) where the GPU has
// one (sm.wgmma_fraction > 0), the warps are a multiple of 4, tile.m of 64 and tile.n of 8; else
// mma.sync (MMA v2) - the tutorial's 32x64 and 64x32 tiles with 2 warps compile to HMMA on Hopper.
// fp32 tiles: none (no tensor-core class in kind: gemm).
std::string compiler_mma_class(const GemmConfig& cfg, const GpuConfig& gpu);

// How a CTA tile is split: mma_sync over warps (warp tiles), wgmma over warpgroups of 4 warps.
// tile_m == 0 when the tile cannot be split into MMA-sized pieces.
struct WarpGrid {
  int parts_m = 0, parts_n = 0;  // warps (mma_sync) or warpgroups (wgmma) along M and N
  int tile_m = 0, tile_n = 0;    // each part's share of the CTA tile
};
WarpGrid gemm_warp_grid(const GemmConfig& cfg);
// wgmma: the HGMMA.64xNx16 a warpgroup issues per K step - its 64-row blocks x N chunks of at most
// 256 - each with its own accumulators.
int wgmma_groups(const WarpGrid& grid);

struct MmaPlan {
  bool wgmma = false;
  int k_steps = 0;                     // 32-byte K steps per K tile (16 for fp16)
  int k_per_step = 0;                  // elements of K per step
  // Per warp and K step:
  std::vector<std::uint32_t> ldsm, ldsm_wavefronts, ldsm_conflicts;  // mma_sync only (per step)
  std::uint32_t mma_instructions = 0;  // HMMA.16816 per warp, or HGMMA per warpgroup (issued by each warp)
  double flops = 0;                    // this warp's share
  // wgmma: the 128-byte wavefronts of shared memory its HGMMAs read per K step (each reads its 64-row A block
  // and its B chunk), this warp's quarter of the warpgroup's.
  std::uint32_t wgmma_operand_wavefronts = 0;
  // Per warp and K tile: the LDGSTS copies of its share of the A and B tiles.
  std::uint32_t copy_instructions_a = 0, copy_instructions_b = 0;
  std::uint32_t copy_wavefronts_a = 0, copy_wavefronts_b = 0;
  // copy: tma - one thread of warp 0 copies each whole tile as `tma_boxes_*` bulk tensor copies (the
  // copy_instructions above are then warp 0's UTMALDG per tile, the other warps issue none; no
  // wavefronts through the LSU), and every warp waits on the tile's mbarrier.
  bool tma = false;
  std::uint32_t tma_boxes_a = 0, tma_boxes_b = 0;
  std::int64_t shared_bytes_per_stage = 0;  // A + B tile, padding included
  // Where the copies land (the validate kernel's layout: every stage of A, then every stage of B):
  // bytes between shared rows, and of one stage of each operand.
  std::uint32_t shared_pitch_a = 0, shared_pitch_b = 0;
  std::int64_t shared_stage_a = 0, shared_stage_b = 0;
};

// Throws ConfigError when the GPU lacks the class (wgmma without sm.wgmma_fraction) or the copy
// engine (copy: tma without sm.tma_box_cycles).
MmaPlan plan_mma(const GemmConfig& cfg, const GpuConfig& gpu, const std::string& mma);

// FLOP/cycle/SM of the class at the workload's dtype (tensor rate x the class's share).
double mma_class_rate(const GpuConfig& gpu, const std::string& dtype, const std::string& mma);

}  // namespace gms
