#pragma once
// Seed 002's ladder with its main loop's phases stamped (gms-ladder --phases): lane 0 of every warp stores the
// SM's 32-bit clock at the loop's entry and, per K tile, once the tile's copies are issued, after the barrier
// behind them and after the barrier behind the compute - how long a warp waits for a tile's loads, at the
// barriers, and computing, to set beside the model's warps.csv (validate/scripts/ladder_phases.py).
// Each stamp is stored at once (nothing but the row's pointer stays in registers across the loop), and read with
// a memory clobber so that the compiler moves no load or store of the tile across it.
// r2_threads128's kernel asks for the seven CTAs an SM its plain kernel holds (72 registers; unbounded the stamps
// took 96 and five CTAs); the others compile to the plain kernels' occupancy as they are (asking the 256-thread
// rungs for two CTAs an SM made r3's kernels 120-register ones, 12 % slower than their plain 128-register ones).
// gms-ladder --phases checks the occupancy is the plain kernel's. CUDA only (%clock as the other stamps); on HIP the kernel runs the tile unstamped.
#include "cta_stamp.cuh"
#include "sgemm_ladder.cuh"

namespace gmsv {

struct WarpLoopStamps {
  unsigned* row;  // this warp's: [SM, entry, (copied, first barrier, second barrier) x K tiles]
  __device__ __forceinline__ void operator()(LoopPoint p, int kt) const {
#if !defined(__HIPCC__)
    unsigned t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t) : : "memory");
    if ((threadIdx.x & 31) == 0) row[p == LoopPoint::kEntry ? 1 : 1 + 3 * kt + static_cast<int>(p)] = t;
#else
    (void)p, (void)kt;
#endif
  }
};

// Stamps per warp (K tiles = K / BK): 2 + 3 x K tiles; warps in the order CTA (blockIdx.x + gridDim.x x blockIdx.y), then warp.
__host__ __device__ constexpr size_t loop_stamps_per_warp(size_t k_tiles) { return 2 + 3 * k_tiles; }

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
__global__ void __launch_bounds__(TCM * TCN, TCM * TCN == 128 ? 7 : 1) ladder_phase_stamps(int M, int N, int K, const float* __restrict__ A,
                                                                 const float* __restrict__ B, float* __restrict__ C,
                                                                 unsigned* stamps) {
  constexpr int kWarps = TCM * TCN / 32;
  const size_t cta = blockIdx.x + static_cast<size_t>(gridDim.x) * blockIdx.y;
  const WarpLoopStamps s{stamps + (cta * kWarps + threadIdx.x / 32) * loop_stamps_per_warp(K / BK)};
  sgemm_ladder_cta<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>(M, N, K, A, B, C, s);
#if !defined(__HIPCC__)
  // The SM (its CTAs are ranked by their entry, per SM), read at the end where no register is scarce: read at the
  // entry, it made r3_bk32's kernel a 120-register one 12 % slower than the plain 128-register one.
  if ((threadIdx.x & 31) == 0) s.row[0] = sm_id();
#endif
}

}  // namespace gmsv
