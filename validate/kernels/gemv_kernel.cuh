#pragma once
// Split-K GEMV of seed 001 (gemlite's revsplitK): y[1xN] += x[1xK] . W[KxN], fp16 in, fp32 atomics.
// Grid (N / BN, K / (2 BK)); each program does two BK-deep K steps on a BN-wide column block and adds
// its partial 1xBN result with atomicAdd. ORDER 0 = llcc (load step 1, load step 2, compute 1,
// compute 2), 1 = lclc (load 1, compute 1, load 2, compute 2); a compiler fence keeps the order.
// Thread t covers 8 columns (one 16-byte vector) and every R-th row of a step, R = threads / (BN/8).
#include "../include/gpu_port.h"

namespace gmsv {

enum GemvOrder : int { kLLCC = 0, kLCLC = 1 };

template <int BN, int BK, int THREADS>
struct GemvShape {
  static constexpr int kColGroups = BN / 8;
  static_assert(THREADS % kColGroups == 0 || kColGroups % THREADS == 0, "threads and column groups must nest");
  static constexpr int kRowGroups = THREADS >= kColGroups ? THREADS / kColGroups : 1;
  static constexpr int kGroupsPerThread = THREADS >= kColGroups ? 1 : kColGroups / THREADS;
  static constexpr int kRowsPerThread = BK / kRowGroups;  // per K step
  static_assert(BK % kRowGroups == 0, "BK must be a multiple of the row groups");
};

// What a program runs (gms-gemv-parts-ubench takes the kernel apart to find what holds its DRAM
// bandwidth under the DRAM's own limit): the whole kernel; its loads alone (each step's data folded
// by XOR where the compute would use it); loads and compute (no cross-warp reduction, no atomics);
// everything but the atomics (plain stores of the reduced sums).
// Three more take the atomics apart (what a RED costs the GEMV: its count, its sectors, the same
// sectors added to again by one warp): redspread adds each e to a 1 KB window of its own (the same
// 8 lines and 32 sectors per instruction, one element per sector, but no sector taken twice by a
// CTA; y is 8 x N there); redcoalesced lets instruction e's 32 lanes add 32 consecutive elements (one
// line, 8 elements per sector: an eighth of the requests and sector passes); redonce issues only
// e = 0 (an eighth of everything, the same pattern); redprivate adds as full does but each K block
// of programs to a y of its own (no line taken by two programs; y is K / (2 BK) x N there). Their
// sums land in the wrong columns: timing only.
enum GemvPart : int {
  kGemvFull = 0, kGemvLoads = 1, kGemvCompute = 2, kGemvStores = 3,
  kGemvRedSpread = 4, kGemvRedCoalesced = 5, kGemvRedOnce = 6, kGemvRedPrivate = 7
};

// Row groups hold partial sums of the same columns: reduce them in shared memory, then one
// atomic per column (kGemvStores: a plain store). ORDER only keeps each kernel's shared array its own.
template <int BN, int BK, int THREADS, int ORDER, int PART, int GROUPS>
__device__ __forceinline__ void gemv_add_partials(float (&acc)[GROUPS][8], float* __restrict__ y, int n0, int tid) {
  using S = GemvShape<BN, BK, THREADS>;
  const int col_group = tid % S::kColGroups, row_group = tid / S::kColGroups;
  __shared__ float red[THREADS >= S::kColGroups ? THREADS : S::kColGroups][8 * S::kGroupsPerThread];
  for (int g = 0; g < S::kGroupsPerThread; ++g)
    for (int e = 0; e < 8; ++e) red[tid][g * 8 + e] = acc[g][e];
  __syncthreads();
  if (row_group == 0) {
    for (int rg = 1; rg < S::kRowGroups; ++rg)
      for (int g = 0; g < S::kGroupsPerThread; ++g)
        for (int e = 0; e < 8; ++e) acc[g][e] += red[rg * S::kColGroups + col_group][g * 8 + e];
    for (int g = 0; g < S::kGroupsPerThread; ++g)
      for (int e = 0; e < 8; ++e) {
        const int c = col_group + g * THREADS;  // the thread's column group within the block
        float* out = y + n0 + c * 8 + e;
        if constexpr (PART == kGemvStores) {
          *out = acc[g][e];
        } else if constexpr (PART == kGemvRedSpread) {
          atomicAdd(y + 8 * n0 + e * BN + c * 8, acc[g][e]);
        } else if constexpr (PART == kGemvRedCoalesced) {
          atomicAdd(y + n0 + e * S::kColGroups + c, acc[g][e]);
        } else if constexpr (PART == kGemvRedOnce) {
          if (e == 0) atomicAdd(out, acc[g][e]);
        } else if constexpr (PART == kGemvRedPrivate) {
          atomicAdd(out + static_cast<size_t>(blockIdx.y) * gridDim.x * BN, acc[g][e]);
        } else {
          atomicAdd(out, acc[g][e]);
        }
      }
  }
}

// `compute_done` (gms-gemv-times only; null in every other kernel, which the compiler then drops): thread 0
// writes %globaltimer there once its program's loads and FMAs are done, before the reduction.
template <int BN, int BK, int THREADS, int ORDER, int PART>
__device__ __forceinline__ void gemv_body(const __half* __restrict__ x, const __half* __restrict__ W,
                                          float* __restrict__ y, int K, int N,
                                          unsigned long long* compute_done = nullptr) {
  using S = GemvShape<BN, BK, THREADS>;
  const int tid = static_cast<int>(threadIdx.x);
  const int col_group = tid % S::kColGroups, row_group = tid / S::kColGroups;
  const int n0 = static_cast<int>(blockIdx.x) * BN;
  const int k0 = static_cast<int>(blockIdx.y) * 2 * BK;
  float acc[S::kGroupsPerThread][8] = {};
  int4 w[2][S::kGroupsPerThread][S::kRowsPerThread];
  __half xv[2][S::kRowsPerThread];

  auto load = [&](int step) {
    for (int r = 0; r < S::kRowsPerThread; ++r) {
      int k = k0 + step * BK + row_group + r * S::kRowGroups;
      xv[step][r] = x[k];
      for (int g = 0; g < S::kGroupsPerThread; ++g) {
        int col = n0 + (col_group + g * THREADS) * 8;
        w[step][g][r] = *reinterpret_cast<const int4*>(W + static_cast<size_t>(k) * N + col);
      }
    }
  };
  unsigned folded = 0;  // kGemvLoads: every loaded word, so that no load is dead
  auto compute = [&](int step) {
    if constexpr (PART == kGemvLoads) {
      for (int r = 0; r < S::kRowsPerThread; ++r) {
        folded ^= static_cast<unsigned>(__half_as_ushort(xv[step][r]));
        for (int g = 0; g < S::kGroupsPerThread; ++g)
          folded ^= static_cast<unsigned>(w[step][g][r].x ^ w[step][g][r].y ^ w[step][g][r].z ^ w[step][g][r].w);
      }
    } else {
      for (int r = 0; r < S::kRowsPerThread; ++r) {
        float xf = __half2float(xv[step][r]);
        for (int g = 0; g < S::kGroupsPerThread; ++g) {
          const __half* h = reinterpret_cast<const __half*>(&w[step][g][r]);
          for (int e = 0; e < 8; ++e) acc[g][e] += xf * __half2float(h[e]);
        }
      }
    }
  };
  if (ORDER == kLLCC) {
    load(0);
    load(1);
    GPU_ORDER_FENCE();
    compute(0);
    compute(1);
  } else {
    load(0);
    GPU_ORDER_FENCE();
    compute(0);
    GPU_ORDER_FENCE();
    load(1);
    GPU_ORDER_FENCE();
    compute(1);
  }
#if !defined(__HIPCC__)  // the stamps are CUDA's (%globaltimer); gms-gemv-times has no HIP build
  if (compute_done != nullptr && tid == 0) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    *compute_done = t;
  }
#endif
  // The parts that stop here keep their result alive with a store no random input takes.
  if constexpr (PART == kGemvLoads || PART == kGemvCompute) {
    float sum = static_cast<float>(folded);
    for (int g = 0; g < S::kGroupsPerThread; ++g)
      for (int e = 0; e < 8; ++e) sum += acc[g][e];
    if (sum == 1234567.0f) y[tid % N] = sum;
  } else {
    gemv_add_partials<BN, BK, THREADS, ORDER, PART>(acc, y, n0, tid);
  }
}

template <int BN, int BK, int THREADS, int ORDER>
__global__ void __launch_bounds__(THREADS) gemv_splitk_kernel(const __half* __restrict__ x,
                                                              const __half* __restrict__ W, float* __restrict__ y,
                                                              int K, int N) {
  gemv_body<BN, BK, THREADS, ORDER, kGemvFull>(x, W, y, K, N);
}

// The same program with parts left out (GemvPart); a kernel of its own, so that the validated
// kernel's name and code stay as they are.
template <int BN, int BK, int THREADS, int ORDER, int PART>
__global__ void __launch_bounds__(THREADS) gemv_part_kernel(const __half* __restrict__ x,
                                                            const __half* __restrict__ W, float* __restrict__ y,
                                                            int K, int N) {
  gemv_body<BN, BK, THREADS, ORDER, PART>(x, W, y, K, N);
}

}  // namespace gmsv
