#pragma once
// Microbenchmarks for the GPU presets: pointer-chase latency, streaming DRAM bandwidth, L2 bandwidth
// and capacity (all SMs re-reading a buffer), and launch overhead.
#include "../include/gpu_port.h"

#if !defined(__HIPCC__)
#include <mma.h>
#endif

namespace gmsv {

// One dependent load; .cg caches in L2 only, .ca in L1 and L2 (CUDA); HIP uses plain loads.
template <bool kBypassL1>
__device__ inline unsigned chase_load(const unsigned* p) {
#if !defined(__HIPCC__)
  unsigned v;
  if (kBypassL1)
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
#else
  return *reinterpret_cast<const volatile unsigned*>(p);
#endif
}

// next[j] holds the index of the next element of a random cycle; one thread walks it.
template <bool kBypassL1>
static __global__ void chase_kernel(const unsigned* __restrict__ next, int warm, int iters, unsigned long long* cycles,
                             unsigned* sink) {
  unsigned j = 0;
  for (int i = 0; i < warm; ++i) j = chase_load<kBypassL1>(next + j);
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) j = chase_load<kBypassL1>(next + j);
  long long t1 = clock64();
  *cycles = static_cast<unsigned long long>(t1 - t0);
  *sink = j;
}

static __global__ void stream_read_kernel(const int4* __restrict__ src, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    int4 v = src[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;  // never true for our data; keeps the loads alive
}

static __global__ void stream_write_kernel(int4* __restrict__ dst, size_t n, int value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    dst[i] = make_int4(value, value, value, static_cast<int>(i));
}

static __global__ void stream_copy_kernel(const int4* __restrict__ src, int4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

// Every block re-reads the whole buffer `reps` times, starting at a block-dependent offset so that
// blocks do not march in lockstep: the bandwidth L2 gives when all SMs read the same data. Each
// thread keeps kL2Unroll independent 16-byte loads in flight. On the H100 this (and the split
// variant below) reaches only 3.3-3.9 TB/s, half the reference probe's L2 figure: something in
// these kernels still limits them (validate/README.md).
constexpr int kL2Unroll = 8;

__device__ inline int4 load_l2_only(const int4* p) {
#if !defined(__HIPCC__)
  return __ldcg(p);
#else
  return *p;
#endif
}

// kL2Unroll independent loads at buf[index(0..kL2Unroll-1)], all issued before any is used.
template <class Index>
__device__ inline int xor_of_loads(const int4* __restrict__ buf, Index index) {
  int4 v[kL2Unroll];
#pragma unroll
  for (int u = 0; u < kL2Unroll; ++u) v[u] = load_l2_only(buf + index(u));
  int acc = 0;
#pragma unroll
  for (int u = 0; u < kL2Unroll; ++u) acc ^= v[u].x ^ v[u].w;
  return acc;
}

static __global__ void l2_read_kernel(const int4* __restrict__ buf, size_t n, int reps, int* sink) {
  int acc = 0;
  const size_t start = (static_cast<size_t>(blockIdx.x) * 7919 * kL2Unroll) % n;
  const size_t step = static_cast<size_t>(blockDim.x) * kL2Unroll;
  for (int r = 0; r < reps; ++r)
    for (size_t i = threadIdx.x; i < n; i += step)
      acc ^= xor_of_loads(buf, [&](int u) {
        size_t k = start + i + static_cast<size_t>(u) * blockDim.x;
        while (k >= n) k -= n;
        return k;
      });
  if (acc == 0x7fffffff) *sink = acc;
}

// Each block re-reads only its own 1/gridDim share of the buffer: all SMs together sweep the buffer
// once per pass, so small buffers measure the L2's aggregate bandwidth and the drop to DRAM speed
// shows the capacity the whole GPU sees.
static __global__ void l2_read_disjoint_kernel(const int4* __restrict__ buf, size_t n, int reps, int* sink) {
  int acc = 0;
  const size_t chunk = (n + gridDim.x - 1) / gridDim.x;
  const size_t lo = static_cast<size_t>(blockIdx.x) * chunk, hi = lo + chunk < n ? lo + chunk : n;
  const size_t step = static_cast<size_t>(blockDim.x) * kL2Unroll;
  for (int r = 0; r < reps; ++r)
    for (size_t i = lo + threadIdx.x; i < hi; i += step)
      acc ^= xor_of_loads(buf, [&](int u) {
        size_t k = i + static_cast<size_t>(u) * blockDim.x;
        return k < hi ? k : i;
      });
  if (acc == 0x7fffffff) *sink = acc;
}

static __global__ void empty_kernel() {}

// Math throughput: every warp runs `iters` rounds of independent FMAs (8 chains per thread) or, on
// CUDA, of WMMA 16x16x16 fp16 MMAs into 4 independent accumulators, all in registers.
static __global__ void ffma_kernel(int iters, float seed, float* sink) {
  float a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) a[j] = seed + j;
  for (int i = 0; i < iters; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) a[j] = a[j] * 0.9999f + 0.0001f;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += a[j];
  if (s == 12345.678f) *sink = s;
}

#if !defined(__HIPCC__)
static __global__ void wmma_kernel(int iters, float* sink) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
  wmma::fill_fragment(fa, __float2half(0.001f));
  wmma::fill_fragment(fb, __float2half(0.001f));
  for (int k = 0; k < 4; ++k) wmma::fill_fragment(acc[k], 0.0f);
  for (int i = 0; i < iters; ++i)
#pragma unroll
    for (int k = 0; k < 4; ++k) wmma::mma_sync(acc[k], fa, fb, acc[k]);
  // Every accumulator element feeds the sink test, so no MMA can be dropped as dead code.
  float s = 0;
  for (int k = 0; k < 4; ++k)
    for (int e = 0; e < acc[k].num_elements; ++e) s += acc[k].x[e];
  if (s == 12345.678f) *sink = s;
}
#endif

// Fresh pseudo-random fp16 values in [-1, 1) from a seed (inputs are never zeros).
static __global__ void fill_random_half(__half* p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    p[i] = __float2half(static_cast<float>(z >> 40) / static_cast<float>(1ull << 23) - 1.0f);
  }
}

static __global__ void fill_half(__half* p, size_t n, unsigned short bits) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    reinterpret_cast<unsigned short*>(p)[i] = bits;
}

}  // namespace gmsv
