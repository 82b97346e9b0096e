#pragma once
// Tiled fp16 GEMM C[MxN] = A[MxK] . B[KxN] (all row-major, fp32 accumulation, fp16 C) with the CTA
// order a runtime parameter. Shape of the simulator's `kind: gemm` workload: tile 128x128xBK, 4 warps
// (2x2, 64x64 each), STAGES K tiles in flight through cp.async.cg (L1 bypass) on sm_80+.
// CUDA: tensor cores through WMMA 16x16x16. HIP: a portable FMA path over the same shared tiles.
// Requires M % 128 == 0, N % 128 == 0, K % BK == 0 (the runner checks).
#include "../include/gpu_port.h"
#include "cta_order.h"

#if !defined(__HIPCC__)
#include <mma.h>
#endif

namespace gmsv {

constexpr int kGemmBM = 128, kGemmBN = 128, kGemmThreads = 128;
// PAD: halves of padding per shared row of A and B (default 8: ldmatrix conflict-free, but every
// other 16-byte copy of A then lands across two 32-byte shared sectors; WMMA needs ldm % 8 == 0).
constexpr int kGemmDefaultPad = 8;

template <int BK, int STAGES, int PAD = kGemmDefaultPad>
constexpr int gemm_smem_bytes() {
  return STAGES * (kGemmBM * (BK + PAD) + BK * (kGemmBN + PAD)) * 2;
}

__device__ inline void copy16_async(void* smem, const void* gmem) {
#if !defined(__HIPCC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
#else
  *reinterpret_cast<int4*>(smem) = *reinterpret_cast<const int4*>(gmem);
#endif
}
__device__ inline void copy_commit() {
#if !defined(__HIPCC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
__device__ inline void copy_wait() {
#if !defined(__HIPCC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

// STAMP (gms-cta-times only): thread 0 of each CTA writes stamps[7 x blockIdx.x ..]: %globaltimer at
// entry and after the CTA's last store, clock64 at the same two points, %smid, and %globaltimer when
// the first K tile is in shared memory (the prologue's end) and after the last MMA (the epilogue's
// start). Off, the kernel is the one every other case set measures (the stamps pointer is never read).
template <int BK, int STAGES, int PAD = kGemmDefaultPad, bool STAMP = false>
__global__ void __launch_bounds__(kGemmThreads) gemm_fp16_kernel(const __half* __restrict__ A,
                                                                 const __half* __restrict__ B, __half* __restrict__ C,
                                                                 int M, int N, int K, CtaOrderParams order,
                                                                 unsigned long long* stamps) {
#if !defined(__HIPCC__)
  unsigned long long stamp_gt = 0, stamp_clk = 0, stamp_first_tile = 0, stamp_loop_end = 0;
  if constexpr (STAMP) {
    if (threadIdx.x == 0) {
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(stamp_gt));
      stamp_clk = clock64();
    }
  }
#endif
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __half* smem = reinterpret_cast<__half*>(smem_raw);
  constexpr int kAStage = kGemmBM * (BK + PAD), kBStage = BK * (kGemmBN + PAD);
  __half* sA = smem;                      // [STAGES][128][BK + pad]
  __half* sB = smem + STAGES * kAStage;   // [STAGES][BK][128 + pad]
  const int tiles_m = M / kGemmBM, tiles_n = N / kGemmBN;
  int tm, tn;
  cta_tile(order, static_cast<int>(blockIdx.x), tiles_m, tiles_n, &tm, &tn);
  const int tid = static_cast<int>(threadIdx.x);
  const __half* a_tile = A + static_cast<size_t>(tm) * kGemmBM * K;
  const __half* b_tile = B + static_cast<size_t>(tn) * kGemmBN;
  const int k_tiles = K / BK;

  auto load_tile = [&](int kt, int slot) {
    constexpr int a_chunks_per_row = BK / 8, a_chunks = kGemmBM * a_chunks_per_row;
    for (int c = tid; c < a_chunks; c += kGemmThreads) {
      int r = c / a_chunks_per_row, col = (c % a_chunks_per_row) * 8;
      copy16_async(sA + slot * kAStage + r * (BK + PAD) + col, a_tile + static_cast<size_t>(r) * K + kt * BK + col);
    }
    constexpr int b_chunks_per_row = kGemmBN / 8, b_chunks = BK * b_chunks_per_row;
    for (int c = tid; c < b_chunks; c += kGemmThreads) {
      int r = c / b_chunks_per_row, col = (c % b_chunks_per_row) * 8;
      copy16_async(sB + slot * kBStage + r * (kGemmBN + PAD) + col,
                   b_tile + static_cast<size_t>(kt * BK + r) * N + col);
    }
  };

  const int warp = tid / 32, warp_m = warp / 2, warp_n = warp % 2;
#if !defined(__HIPCC__)
  using namespace nvcuda;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
#else
  // Portable path: thread t owns rows (t / 16) * 16 .. +16 and columns (t % 16) * 8 .. +8 of the tile.
  float acc[16][8] = {};
  const int pr = (tid / 16) * 16, pc = (tid % 16) * 8;
#endif

  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    copy_commit();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    copy_wait<STAGES - 2>();
    __syncthreads();
#if !defined(__HIPCC__)
    if constexpr (STAMP) {
      if (kt == 0 && threadIdx.x == 0) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(stamp_first_tile));
    }
#endif
    int pre = kt + STAGES - 1;
    if (pre < k_tiles) load_tile(pre, pre % STAGES);
    copy_commit();
    const __half* a = sA + (kt % STAGES) * kAStage;
    const __half* b = sB + (kt % STAGES) * kBStage;
#if !defined(__HIPCC__)
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[4];
      for (int i = 0; i < 4; ++i)
        wmma::load_matrix_sync(fa[i], a + (warp_m * 64 + i * 16) * (BK + PAD) + kk, BK + PAD);
      for (int j = 0; j < 4; ++j)
        wmma::load_matrix_sync(fb[j], b + kk * (kGemmBN + PAD) + warp_n * 64 + j * 16, kGemmBN + PAD);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
#else
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < 16; ++i) {
        float av = __half2float(a[(pr + i) * (BK + PAD) + kk]);
        for (int j = 0; j < 8; ++j) acc[i][j] += av * __half2float(b[kk * (kGemmBN + PAD) + pc + j]);
      }
#endif
  }
  copy_wait<0>();
#if !defined(__HIPCC__)
  if constexpr (STAMP) {
    if (threadIdx.x == 0) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(stamp_loop_end));
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      wmma::fragment<wmma::accumulator, 16, 16, 16, __half> h;
      for (int e = 0; e < h.num_elements; ++e) h.x[e] = __float2half(acc[i][j].x[e]);
      __half* c = C + static_cast<size_t>(tm * kGemmBM + warp_m * 64 + i * 16) * N + tn * kGemmBN + warp_n * 64 + j * 16;
      wmma::store_matrix_sync(c, h, N, wmma::mem_row_major);
    }
  if constexpr (STAMP) {
    __syncthreads();  // the CTA ends when its last warp has stored
    if (threadIdx.x == 0) {
      unsigned long long gt, clk = clock64();
      unsigned smid;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
      asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
      unsigned long long* s = stamps + 7ull * blockIdx.x;
      s[0] = stamp_gt, s[1] = gt, s[2] = stamp_clk, s[3] = clk, s[4] = smid;
      s[5] = stamp_first_tile, s[6] = stamp_loop_end;
    }
  }
#else
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      C[static_cast<size_t>(tm * kGemmBM + pr + i) * N + tn * kGemmBN + pc + j] = __float2half(acc[i][j]);
#endif
}

}  // namespace gmsv
