#pragma once
// Seed 002's ladder as one SIMT fp32 GEMM template, CuTe's "NT" layout by hand (CuTe itself is not
// available offline): A (M,K) m-major, B (N,K) n-major, C (M,N) m-major. One CTA computes a BM x BN
// tile; its TCM x TCN threads each own TM = BM/TCM rows strided by TCM and TN = BN/TCN columns
// strided by TCN (local_partition(sC, tC(TCM,TCN), tid)), or, with RV = 4, rows in contiguous
// chunks of 4 (explicit register blocking: LDS.128 reads). Copies GMEM -> SMEM move VEC floats per
// thread and instruction (1: local_partition with tA (BM, T/BM); 4: TiledCopy thr (BM/4, T*4/BM) x
// val (4,1), LDG.128 + STS.128 or cp.async.cg 16 B when ASYNC). STAGES 2 = double buffering.
// PAD floats of padding per shared column.
#include "../include/gpu_port.h"
#include "cta_stamp.cuh"

namespace gmsv {

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
struct SgemmLadder {
  static constexpr int kThreads = TCM * TCN;
  static constexpr int TM = BM / TCM, TN = BN / TCN;
  static constexpr int LDA = BM + PAD, LDB = BN + PAD;
  static constexpr size_t smem_bytes() { return sizeof(float) * STAGES * BK * (LDA + LDB); }
  static_assert(BM % TCM == 0 && BN % TCN == 0, "tile must divide among threads");
  static_assert(!ASYNC || VEC == 4, "cp.async moves 16 bytes");
  static_assert(RV == 1 || (RV == 4 && TM % 4 == 0 && TN % 4 == 0), "register blocking reads 4 floats");
};

template <int VEC, bool ASYNC>
__device__ inline void copy_vec(float* dst, const float* src) {
  if (VEC == 1) {
    *dst = *src;
  } else if (ASYNC) {
#if !defined(__HIPCC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src));
#else
    *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src);
#endif
  } else {
    *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src);
  }
}

__device__ inline void cp_async_commit() {
#if !defined(__HIPCC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;");
#endif
}
template <int N>
__device__ inline void cp_async_wait() {
#if !defined(__HIPCC__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
#endif
}

// Where the main loop's phases begin and end (gms-ladder --phases, ladder_phase_stamps.cuh): the loop's entry,
// and per K tile once its copies are issued (the STS behind the LDGs: the loads' data has come), after the barrier
// that follows them, and after the barrier behind the compute. The plain kernels' hook does nothing.
enum class LoopPoint { kEntry, kCopied, kFirstBarrier, kSecondBarrier };
struct NoLoopStamps {
  __device__ __forceinline__ void operator()(LoopPoint, int) const {}
};

// One CTA's tile: the body of every kernel below, inlined into each (the plain kernel's code is what it was
// before the stamped ones existed).
template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV,
          typename LoopStamps = NoLoopStamps>
__device__ __forceinline__ void sgemm_ladder_cta(int M, int N, int K, const float* __restrict__ A,
                                                 const float* __restrict__ B, float* __restrict__ C,
                                                 LoopStamps stamp = {}) {
  using P = SgemmLadder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  constexpr int T = P::kThreads, TM = P::TM, TN = P::TN, LDA = P::LDA, LDB = P::LDB;
  extern __shared__ __align__(16) float smem[];
  float* sA = smem;
  float* sB = smem + STAGES * BK * LDA;
  const int tid = threadIdx.x;
  const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
  const float* gA = A + m0;
  const float* gB = B + n0;
  auto load_tile = [&](int kt, int stage) {
    const float* a = gA + static_cast<size_t>(kt) * BK * M;
    const float* b = gB + static_cast<size_t>(kt) * BK * N;
    float* da = sA + stage * BK * LDA;
    float* db = sB + stage * BK * LDB;
#pragma unroll
    for (int i = tid; i < BM * BK / VEC; i += T) {
      const int m = (i % (BM / VEC)) * VEC, k = i / (BM / VEC);
      copy_vec<VEC, ASYNC>(da + m + k * LDA, a + m + static_cast<size_t>(k) * M);
    }
#pragma unroll
    for (int i = tid; i < BN * BK / VEC; i += T) {
      const int n = (i % (BN / VEC)) * VEC, k = i / (BN / VEC);
      copy_vec<VEC, ASYNC>(db + n + k * LDB, b + n + static_cast<size_t>(k) * N);
    }
  };
  const int tm = tid % TCM, tn = tid / TCM;
  // Row (column) of the thread's i-th value: strided by TCM, or chunks of 4 strided by 4*TCM.
  auto row = [&](int i) { return RV == 1 ? tm + i * TCM : 4 * tm + (i / 4) * 4 * TCM + i % 4; };
  auto col = [&](int j) { return RV == 1 ? tn + j * TCN : 4 * tn + (j / 4) * 4 * TCN + j % 4; };
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;
  auto compute = [&](int stage) {
    const float* a = sA + stage * BK * LDA;
    const float* b = sB + stage * BK * LDB;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float ra[TM], rb[TN];
      if (RV == 4) {
#pragma unroll
        for (int i = 0; i < TM; i += 4) *reinterpret_cast<float4*>(&ra[i]) = *reinterpret_cast<const float4*>(a + k * LDA + row(i));
#pragma unroll
        for (int j = 0; j < TN; j += 4) *reinterpret_cast<float4*>(&rb[j]) = *reinterpret_cast<const float4*>(b + k * LDB + col(j));
      } else {
#pragma unroll
        for (int i = 0; i < TM; ++i) ra[i] = a[k * LDA + row(i)];
#pragma unroll
        for (int j = 0; j < TN; ++j) rb[j] = b[k * LDB + col(j)];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
  };
  const int KT = K / BK;
  stamp(LoopPoint::kEntry, 0);
  if (STAGES == 1) {
    for (int kt = 0; kt < KT; ++kt) {
      load_tile(kt, 0);
      if (ASYNC) {
        cp_async_commit();
        cp_async_wait<0>();
      }
      stamp(LoopPoint::kCopied, kt);
      __syncthreads();
      stamp(LoopPoint::kFirstBarrier, kt);
      compute(0);
      __syncthreads();
      stamp(LoopPoint::kSecondBarrier, kt);
    }
  } else {
    load_tile(0, 0);
    cp_async_commit();
    for (int kt = 0; kt < KT; ++kt) {
      if (kt + 1 < KT) load_tile(kt + 1, (kt + 1) % 2);
      cp_async_commit();
      cp_async_wait<1>();
      stamp(LoopPoint::kCopied, kt);
      __syncthreads();
      stamp(LoopPoint::kFirstBarrier, kt);
      compute(kt % 2);
      __syncthreads();
      stamp(LoopPoint::kSecondBarrier, kt);
    }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) C[(m0 + row(i)) + static_cast<size_t>(n0 + col(j)) * M] = acc[i][j];
}

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
__global__ void __launch_bounds__(TCM * TCN) sgemm_ladder(int M, int N, int K, const float* __restrict__ A,
                                                          const float* __restrict__ B, float* __restrict__ C) {
  sgemm_ladder_cta<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>(M, N, K, A, B, C);
}

// The same CTA with its start and end stamped (gms-ladder --stamps): thread 0 writes stamps[5 x CTA ..]
// (CTA = blockIdx.x + gridDim.x * blockIdx.y, the launch order): %globaltimer at entry and once every
// thread has stored, clock64 at the same two points, %smid - when and where each CTA ran, so that the
// co-resident CTAs of one SM can be told apart by age (docs/co-resident-ctas.md).
// CUDA only (%globaltimer, %smid); on HIP it runs the tile unstamped.
template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
__global__ void __launch_bounds__(TCM * TCN) ladder_cta_stamps(int M, int N, int K, const float* __restrict__ A,
                                                               const float* __restrict__ B, float* __restrict__ C,
                                                               unsigned long long* stamps) {
#if !defined(__HIPCC__)
  // The start is stored at once, so that nothing of the stamps is kept in registers across the tile (the
  // stamped kernel allocates what the plain one does).
  unsigned long long* s = stamps + 5ull * (blockIdx.x + static_cast<size_t>(gridDim.x) * blockIdx.y);
  if (threadIdx.x == 0) s[0] = global_timer_ns(), s[2] = clock64();
#endif
  sgemm_ladder_cta<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>(M, N, K, A, B, C);
#if !defined(__HIPCC__)
  __syncthreads();  // the CTA ends when its last thread has stored
  if (threadIdx.x == 0) {
    const unsigned long long clk1 = clock64();
    s = stamps + 5ull * (blockIdx.x + static_cast<size_t>(gridDim.x) * blockIdx.y);
    s[1] = global_timer_ns(), s[3] = clk1, s[4] = sm_id();
  }
#else
  (void)stamps;
#endif
}

// The reference: one thread per output, k in the same order.
__global__ void sgemm_reference(int M, int N, int K, const float* A, const float* B, float* C) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x, n = blockIdx.y;
  if (m >= M) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc = fmaf(A[m + static_cast<size_t>(k) * M], B[n + static_cast<size_t>(k) * N], acc);
  C[m + static_cast<size_t>(n) * M] = acc;
}

}  // namespace gmsv
