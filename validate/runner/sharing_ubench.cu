// gms-sharing-ubench: what a second warp on an SM sub-partition costs the first, instruction stream by
// instruction stream (docs/sm-sharing.md). One CTA per SM (116 KiB of dynamic shared memory it does
// not use keeps a second one off), 8 warps: warps 0-3 - one per sub-partition - run the measured
// stream for a fixed number of iterations; warps 4-7 run the neighbour's stream on the same four
// sub-partitions until their measured warp is done (or exit at once: the stream "none").
//   streams  imad   8 independent chains of mad.lo.u32 (IMAD), 256 per iteration
//            alu    8 independent chains of xor.b32 and add.u32 in turn (LOP3, IADD3), 256 per iteration
//            mma1   one dependent chain of mma.sync.m16n8k16 fp16->fp32, 16 per iteration
//            mma8   8 independent accumulators, 64 mma.sync per iteration (the tensor pipe saturated)
//            mixed  the WMMA GEMM loop's shape: 128 IMAD + 128 LOP3/IADD3, then 64 mma.sync on 8 accumulators
//            ldsm   32 conflict-free ldmatrix.x4 (the MIO path), each folded into accumulators by 2 LOP3
// With --ldsm, only the pairs of five more streams, ldmatrix beside the tensor pipe (the WMMA GEMM's pads 8,
// 16 and 0 put its ldmatrix at 4, 8 and 16 wavefronts: rows 80, 96 and 64 bytes apart):
//            chase4 / chase8 / chase16   a dependent chain of ldmatrix.x4 - each address the last one's plus
//                   what it loaded (zeros), one IADD between - 16 per iteration: its latency
//            ldsm8 / ldsm16   the ldsm stream with its rows 96 / 64 bytes apart: 8 / 16 wavefronts each
//            ldsm_mma / ldsm8_mma   the ldsm / ldsm8 stream with an mma.sync (on its 8 accumulators in turn, not
//                   reading the loads) after every ldmatrix: do a warp's own HMMAs hold its ldmatrix back?
// With --wgmma (a binary built for sm_90a), only the pairs of four more streams, Hopper's warpgroup MMA beside the
// others - does wgmma hold the issue of its sub-partitions' other warps, share their tensor pipe, pass their
// ldmatrix one at a time, or take shared-memory bandwidth from their loads and stores?
//            wgmma128 / wgmma256   a warpgroup (warps 0-3 measured, 4-7 a neighbour) issuing 16 wgmma.m64nNk16
//                   fp16 -> fp32 (A and B from shared memory, 4 K slices in turn) into one accumulator set, then
//                   commit and wait: Triton's 128x128 / 64x128 (N 128) and 128x256 (N 256) tiles' instruction
//            wgmma128_rs  the same with A from registers (only B read from shared memory)
//            sts    32 conflict-free st.shared.v4 (4 wavefronts each, 512 bytes a warp) - the path cp.async fills take
// Prints one JSON object per (measured, neighbour) pair: the measured warps' SM cycles per iteration
// (median over SMs and sub-partitions, clock64), the neighbour's iterations in the same window and its
// cycles per iteration. CUDA only (inline PTX mma.sync, sm_80+; wgmma, sm_90a: wgmma_ptx.cuh).
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"
#include "wgmma_ptx.cuh"

namespace {

enum Stream { kNone, kImad, kAlu, kMma1, kMma8, kMixed, kLdsm, kChase4, kChase8, kChase16, kLdsm8, kLdsm16, kLdsmMma, kLdsm8Mma,
              kSts, kWgmma128, kWgmma256, kWgmma128Rs };
const char* const kNames[] = {"none",   "imad",   "alu",     "mma1",  "mma8",  "mixed",    "ldsm",
                              "chase4", "chase8", "chase16", "ldsm8", "ldsm16", "ldsm_mma", "ldsm8_mma",
                              "sts",    "wgmma128", "wgmma256", "wgmma128_rs"};
constexpr int kChaseWindow = 32768;  // bytes of the dynamic window the chains read (zeroed)
// wgmma operands: A's 4 K slices (64 x 16 fp16, 2 KiB each) from 0, B's (up to 256 x 16, 8 KiB each) from 8 KiB -
// zeroed, so that the accumulators stay 0; sts writes from 64 KiB on, away from both and from the chains' rows.
constexpr unsigned kWgmmaA = 0, kWgmmaB = 8192, kWgmmaWindow = kWgmmaB + 4 * 8192, kStsWindow = 65536;
__host__ __device__ constexpr bool warpgroup_stream(int stream) { return stream >= kWgmma128 && stream <= kWgmma128Rs; }

struct State {
  unsigned x[8];
  unsigned r[16];     // ldsm: four register sets of an ldmatrix.x4
  unsigned base = 0;  // ldsm: this lane's row address in the shared window (ldsm8/16: rows 96/64 bytes apart)
  unsigned smem = 0;  // ldsm: the iteration's offset from it (32 KiB, 4 KiB a step)
  unsigned chase = 0;  // chase: this lane's row address (rows PITCH apart, lanes 16-31 16 bytes in)
  float d[8][4];
  float w[128];  // wgmma: the warpgroup's accumulators (64 or 128 a thread)
};

__device__ __forceinline__ void mma(float (&d)[4], unsigned a, unsigned b) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
}

template <int N>
__device__ __forceinline__ void imad(State& s, unsigned m, unsigned c) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int k = 0; k < 8; ++k) asm volatile("mad.lo.u32 %0, %0, %1, %2;\n" : "+r"(s.x[k]) : "r"(m), "r"(c));
}

// xor and add in turn: a run of adds alone would fold into one.
template <int N>
__device__ __forceinline__ void alu(State& s, unsigned m, unsigned c) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      if (i % 2 == 0) asm volatile("xor.b32 %0, %0, %1;\n" : "+r"(s.x[k]) : "r"(m));
      else asm volatile("add.u32 %0, %0, %1;\n" : "+r"(s.x[k]) : "r"(c));
    }
}

// 32 ldmatrix.x4 (conflict-free: each matrix's 8 rows of 16 bytes span the 32 banks) at 32 addresses
// that move every iteration (ptxas would merge repeated reads of one address with no store between),
// each folded into two accumulators (two LOP3: an unread load would be dropped). WITH_MMA (ldsm_mma,
// ldsm8_mma): an mma.sync after every ldmatrix, on the 8 accumulators in turn (not reading the loads).
template <bool WITH_MMA>
__device__ __forceinline__ void ldsm(State& s, unsigned a, unsigned b) {
  s.smem = (s.smem + 4096) & 0x7fff;
#pragma unroll
  for (int i = 0; i < 32; ++i) {
    unsigned d0, d1, d2, d3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(s.base + s.smem + i * 512));
    s.r[i % 16] ^= d0 ^ d1;
    s.r[(i + 8) % 16] ^= d2 ^ d3;
    if constexpr (WITH_MMA) mma(s.d[i % 8], a, b);
  }
}

// 16 dependent ldmatrix.x4: each address is the last one's plus what it loaded (zeros), so each waits
// for the last one's data (one IADD between), as smem_ubench's ldsm_chase.
__device__ __forceinline__ void chase(State& s) {
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    unsigned d0, d1, d2, d3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(s.chase)
                 : "memory");
    s.chase += d0;
    s.r[i] ^= d1 ^ d2 ^ d3;
  }
}

// 32 conflict-free st.shared.v4: each lane's 16 bytes side by side, 512 bytes a warp instruction (4 wavefronts).
__device__ __forceinline__ void sts(State& s, unsigned at) {
#pragma unroll
  for (int i = 0; i < 32; ++i)
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(at + (i % 16) * 512),
                 "r"(s.x[i % 8]), "r"(s.x[(i + 1) % 8]), "r"(s.x[(i + 2) % 8]), "r"(s.x[(i + 3) % 8])
                 : "memory");
}

// 16 wgmma into the warpgroup's accumulators, K slice i % 4 of A and B each, then one commit and a wait for all:
// the pipe drains once an iteration (16 x 64 / 128 tensor cycles against its latency).
template <int STREAM>
__device__ __forceinline__ void wgmma_iteration(State& s, unsigned window, unsigned a) {
  wgmma_fence();
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    const unsigned long long da = wgmma_desc(window + kWgmmaA + (i % 4) * 2048, 128, 256);
    const unsigned long long db = wgmma_desc(window + kWgmmaB + (i % 4) * 8192, 128, 256);
    if (STREAM == kWgmma128) wgmma_ss_n128(s.w, da, db);
    if (STREAM == kWgmma256) wgmma_ss_n256(s.w, da, db);
    if (STREAM == kWgmma128Rs) wgmma_rs_n128(s.w, a, db);
  }
  wgmma_commit_and_wait();
}

__host__ __device__ constexpr int chase_pitch(int stream) {
  return stream == kChase4 ? 80 : stream == kChase8 || stream == kLdsm8 || stream == kLdsm8Mma ? 96 : 64;
}

template <int STREAM>
__device__ __forceinline__ void iteration(State& s, unsigned m, unsigned c, unsigned a, unsigned b) {
  if (STREAM == kImad) imad<32>(s, m, c);
  if (STREAM == kSts) sts(s, s.smem);
  if (warpgroup_stream(STREAM)) wgmma_iteration<STREAM>(s, s.chase, a);
  if (STREAM == kLdsm || STREAM == kLdsm8 || STREAM == kLdsm16) ldsm<false>(s, a, b);
  if (STREAM == kLdsmMma || STREAM == kLdsm8Mma) ldsm<true>(s, a, b);
  if (STREAM == kChase4 || STREAM == kChase8 || STREAM == kChase16) chase(s);
  if (STREAM == kAlu) alu<32>(s, m, c);
  if (STREAM == kMma1) {
#pragma unroll
    for (int i = 0; i < 16; ++i) mma(s.d[0], a, b);
  }
  if (STREAM == kMma8 || STREAM == kMixed) {
    if (STREAM == kMixed) {
      imad<16>(s, m, c);
      alu<16>(s, m, c);
    }
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int k = 0; k < 8; ++k) mma(s.d[k], a, b);
  }
}

template <int STREAM>
__device__ long long run(State& s, long long iters, volatile int* stop, unsigned m, unsigned c, unsigned a, unsigned b) {
  long long i = 0;
  if (stop == nullptr) {
    for (; i < iters; ++i) iteration<STREAM>(s, m, c, a, b);
  } else {
    for (; *stop == 0; ++i) iteration<STREAM>(s, m, c, a, b);
  }
  return i;
}

// A warpgroup's wgmma stream: `iters` iterations (the measured warps), or (iters 0, the neighbour) until the
// iteration in which every measured warp was done - its four warps must issue the same wgmma, so they stop
// together: warp 4 reads the flags, a named barrier before and after. One loop for both, so that a kernel whose
// two warpgroups run the same stream has its wgmma once (ptxas serializes two copies' wgmma: too few registers).
template <int STREAM>
__device__ long long run_warpgroup(State& s, long long iters, const volatile int* stop, volatile int* go, unsigned a) {
  long long i = 0;
  for (;;) {
    wgmma_iteration<STREAM>(s, s.chase, a);
    ++i;
    if (iters > 0) {
      if (i >= iters) return i;
      continue;
    }
    asm volatile("bar.sync 1, 128;\n" ::: "memory");
    if (threadIdx.x == 128) *go = !(stop[0] && stop[1] && stop[2] && stop[3]);
    asm volatile("bar.sync 1, 128;\n" ::: "memory");
    if (!*go) return i;
  }
}

struct Out {
  long long cycles, neighbour_cycles, neighbour_iters;
};

template <int MEASURED, int NEIGHBOUR>
__global__ void sharing(long long iters, unsigned m, unsigned c, Out* out, float* sink) {
  __shared__ int stop[4];
  __shared__ int go;
  const int warp = threadIdx.x / 32, sp = warp % 4;
  if (threadIdx.x < 4) stop[threadIdx.x] = 0;
  extern __shared__ __align__(16) unsigned char window[];
  State s;
  const int lane = threadIdx.x % 32;
  s.base = static_cast<unsigned>(__cvta_generic_to_shared(window + (lane / 8) * 128 + (lane % 8) * 16));
  constexpr bool chases = (MEASURED >= kChase4 && MEASURED <= kChase16) || (NEIGHBOUR >= kChase4 && NEIGHBOUR <= kChase16);
  constexpr bool wgmma = warpgroup_stream(MEASURED) || warpgroup_stream(NEIGHBOUR);
  constexpr unsigned zeroed = wgmma ? kWgmmaWindow : chases ? kChaseWindow : 0;
  // the chains add what they load, the wgmma accumulate what they read: zeros keep them on their rows and finite
  if constexpr (zeroed > 0)
    for (unsigned i = threadIdx.x; i < zeroed / 4; i += blockDim.x) reinterpret_cast<unsigned*>(window)[i] = 0;
  {
    const int stream = warp < 4 ? MEASURED : NEIGHBOUR;
    const int pitch = chase_pitch(stream);
    s.chase = static_cast<unsigned>(__cvta_generic_to_shared(window + (lane % 16) * pitch + (lane / 16) * 16));
    if (stream == kLdsm8 || stream == kLdsm16 || stream == kLdsm8Mma) s.base = s.chase;
    // the wgmma's descriptors start at the window, the stores at this lane's 16 bytes past kStsWindow
    if (warpgroup_stream(stream)) s.chase = static_cast<unsigned>(__cvta_generic_to_shared(window));
    if (stream == kSts) s.smem = static_cast<unsigned>(__cvta_generic_to_shared(window + kStsWindow + lane * 16));
  }
#pragma unroll
  for (int k = 0; k < 16; ++k) s.r[k] = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    s.x[k] = threadIdx.x + k;
#pragma unroll
    for (int e = 0; e < 4; ++e) s.d[k][e] = 0.f;
  }
#pragma unroll
  for (int k = 0; k < 128; ++k) s.w[k] = 0.f;
  // fp16 pairs of ~0.004: the accumulators stay finite.
  const unsigned a = 0x1c001c00u + threadIdx.x % 2, b = 0x1c001c00u;
  __syncthreads();
  const long long t0 = clock64();
  long long n = 0;
  if constexpr (warpgroup_stream(MEASURED) && MEASURED == NEIGHBOUR) {
    n = run_warpgroup<MEASURED>(s, warp < 4 ? iters : 0, stop, &go, a);
  } else if (warp < 4) {
    if constexpr (warpgroup_stream(MEASURED)) n = run_warpgroup<MEASURED>(s, iters, stop, &go, a);
    else n = run<MEASURED>(s, iters, nullptr, m, c, a, b);
  } else if constexpr (warpgroup_stream(NEIGHBOUR)) {
    n = run_warpgroup<NEIGHBOUR>(s, 0, stop, &go, a);
  } else if (NEIGHBOUR != kNone) {
    n = run<NEIGHBOUR>(s, 0, &stop[sp], m, c, a, b);
  }
  const long long t1 = clock64();
  if (warp < 4 && threadIdx.x % 32 == 0) stop[sp] = 1;
  float v = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) v += s.d[k][0] + s.d[k][3] + static_cast<float>(s.x[k] ^ s.r[k] ^ s.r[k + 8]);
  if (wgmma)
#pragma unroll
    for (int k = 0; k < 128; k += 9) v += s.w[k];
  if (v == 1.2345f) *sink = v;  // keeps every chain live
  if (threadIdx.x % 32 == 0) {
    Out& o = out[blockIdx.x * 4 + sp];
    if (warp < 4) o.cycles = t1 - t0;
    else {
      o.neighbour_cycles = t1 - t0;
      o.neighbour_iters = n;
    }
  }
}

using Kernel = void (*)(long long, unsigned, unsigned, Out*, float*);

template <int MEASURED>
Kernel pick(int neighbour) {
  switch (neighbour) {
    case kImad: return sharing<MEASURED, kImad>;
    case kAlu: return sharing<MEASURED, kAlu>;
    case kMma1: return sharing<MEASURED, kMma1>;
    case kMma8: return sharing<MEASURED, kMma8>;
    case kMixed: return sharing<MEASURED, kMixed>;
    case kLdsm: return sharing<MEASURED, kLdsm>;
    default: return sharing<MEASURED, kNone>;
  }
}

// The mma and mixed streams beside a chain or ldsm8 / ldsm16 stream (--ldsm).
template <int CHASE>
Kernel pick_beside_chain(int measured) {
  switch (measured) {
    case kMma1: return sharing<kMma1, CHASE>;
    case kMma8: return sharing<kMma8, CHASE>;
    default: return sharing<kMixed, CHASE>;
  }
}

// Every measured stream beside the first six neighbour streams (pick<M>), and the --ldsm pairs whose neighbour is
// one of the later streams.
Kernel pick(int measured, int neighbour) {
  switch (neighbour) {
    case kChase4: return pick_beside_chain<kChase4>(measured);
    case kChase8: return pick_beside_chain<kChase8>(measured);
    case kChase16: return pick_beside_chain<kChase16>(measured);
    case kLdsm8: return pick_beside_chain<kLdsm8>(measured);
    case kLdsm16: return pick_beside_chain<kLdsm16>(measured);
    default: break;
  }
  switch (measured) {
    case kImad: return pick<kImad>(neighbour);
    case kAlu: return pick<kAlu>(neighbour);
    case kMma1: return pick<kMma1>(neighbour);
    case kMma8: return pick<kMma8>(neighbour);
    case kMixed: return pick<kMixed>(neighbour);
    case kChase4: return pick<kChase4>(neighbour);
    case kChase8: return pick<kChase8>(neighbour);
    case kChase16: return pick<kChase16>(neighbour);
    case kLdsm8: return pick<kLdsm8>(neighbour);
    case kLdsm16: return pick<kLdsm16>(neighbour);
    case kLdsmMma: return pick<kLdsmMma>(neighbour);
    case kLdsm8Mma: return pick<kLdsm8Mma>(neighbour);
    default: return pick<kLdsm>(neighbour);
  }
}

// The --wgmma pairs (measured, neighbour): each stream alone, wgmma beside the others, the others beside wgmma.
struct Pair {
  int measured, neighbour;
  Kernel kernel;
};
#define GMS_PAIR(m, n) Pair{m, n, sharing<m, n>}
const Pair kWgmmaPairs[] = {
    GMS_PAIR(kWgmma128, kNone),   GMS_PAIR(kWgmma256, kNone),     GMS_PAIR(kWgmma128Rs, kNone), GMS_PAIR(kSts, kNone),
    GMS_PAIR(kLdsm, kNone),       GMS_PAIR(kLdsm8, kNone),        GMS_PAIR(kChase4, kNone),     GMS_PAIR(kChase8, kNone),
    GMS_PAIR(kImad, kNone),       GMS_PAIR(kMma8, kNone),         GMS_PAIR(kAlu, kNone),
    // wgmma beside another warpgroup's, mma.sync, ldmatrix, stores, integer work
    GMS_PAIR(kWgmma128, kWgmma128), GMS_PAIR(kWgmma256, kWgmma256), GMS_PAIR(kWgmma128, kMma8),
    GMS_PAIR(kWgmma128, kLdsm),   GMS_PAIR(kWgmma128, kLdsm16),   GMS_PAIR(kWgmma256, kLdsm),   GMS_PAIR(kWgmma128Rs, kLdsm),
    GMS_PAIR(kWgmma128, kSts),    GMS_PAIR(kWgmma256, kSts),      GMS_PAIR(kWgmma128Rs, kSts),  GMS_PAIR(kWgmma128, kImad),
    // the others beside a wgmma warpgroup
    GMS_PAIR(kImad, kWgmma128),   GMS_PAIR(kImad, kWgmma256),     GMS_PAIR(kImad, kWgmma128Rs), GMS_PAIR(kAlu, kWgmma128),
    GMS_PAIR(kAlu, kWgmma256),    GMS_PAIR(kAlu, kWgmma128Rs),    GMS_PAIR(kMma8, kWgmma128),   GMS_PAIR(kLdsm, kWgmma128),
    GMS_PAIR(kLdsm8, kWgmma128),  GMS_PAIR(kLdsm, kWgmma256),     GMS_PAIR(kLdsm, kWgmma128Rs), GMS_PAIR(kChase4, kWgmma128),
    GMS_PAIR(kChase8, kWgmma128), GMS_PAIR(kChase4, kWgmma128Rs), GMS_PAIR(kSts, kWgmma128),    GMS_PAIR(kSts, kWgmma256),
    GMS_PAIR(kSts, kWgmma128Rs),
};
#undef GMS_PAIR

__global__ void wgmma_probe(int* built) { *built = wgmma_built() ? 1 : 0; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool ldsm_pairs = mode == "--ldsm", wgmma_pairs = mode == "--wgmma";
  if (argc > 2 || (argc == 2 && !ldsm_pairs && !wgmma_pairs)) {
    std::fprintf(stderr, "usage: gms-sharing-ubench [--ldsm | --wgmma]\n");
    return 2;
  }
  std::vector<Pair> pairs;
  const auto add = [&pairs](int measured, int neighbour) { pairs.push_back({measured, neighbour, pick(measured, neighbour)}); };
  if (wgmma_pairs) {
    int* d_built = nullptr;
    int built = 0;
    cudaMalloc(&d_built, sizeof(int));
    wgmma_probe<<<1, 1>>>(d_built);
    cudaMemcpy(&built, d_built, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_built);
    if (!built) {
      std::fprintf(stderr, "gms-sharing-ubench --wgmma: this GPU's code was built without wgmma "
                           "(needs nvcc -gencode arch=compute_90a,code=sm_90a on a Hopper GPU)\n");
      return 2;
    }
    pairs.assign(std::begin(kWgmmaPairs), std::end(kWgmmaPairs));
  } else if (!ldsm_pairs) {
    for (int measured : {kImad, kAlu, kMma1, kMma8, kMixed, kLdsm})
      for (int neighbour : {kNone, kImad, kAlu, kMma1, kMma8, kMixed, kLdsm}) add(measured, neighbour);
  } else {
    for (int chain : {kChase4, kChase8, kChase16}) {
      for (int neighbour : {kNone, kImad, kAlu, kMma1, kMma8, kMixed, kLdsm}) add(chain, neighbour);
      for (int measured : {kMma1, kMma8, kMixed}) add(measured, chain);
    }
    for (int stream : {kLdsm, kLdsm8, kLdsm16}) {
      for (int neighbour : {kNone, kImad, kMma1, kMma8, kMixed}) add(stream, neighbour);
      if (stream != kLdsm)
        for (int measured : {kMma1, kMma8, kMixed}) add(measured, stream);
    }
    for (int stream : {kLdsmMma, kLdsm8Mma})
      for (int neighbour : {kNone, kMma8}) add(stream, neighbour);
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount;
  const int unused_smem = 116 * 1024;  // more than half an SM's shared memory: one CTA per SM
  Out* d_out = nullptr;
  float* d_sink = nullptr;
  cudaMalloc(&d_out, sizeof(Out) * sms * 4);
  cudaMalloc(&d_sink, sizeof(float));
  std::vector<Out> h(static_cast<size_t>(sms) * 4);
  for (const auto& [measured, neighbour, k] : pairs) {
      cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, unused_smem);
      const long long iters = measured == kMma1 ? 2000 : measured == kMixed || warpgroup_stream(measured) ? 1000 : 4000;
      k<<<sms, 256, unused_smem>>>(10, 3u, 7u, d_out, d_sink);  // warm-up
      cudaMemset(d_out, 0, sizeof(Out) * sms * 4);
      k<<<sms, 256, unused_smem>>>(iters, 3u, 7u, d_out, d_sink);
      cudaError_t err = cudaDeviceSynchronize();
      if (err != cudaSuccess) {
        std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
        return 1;
      }
      cudaMemcpy(h.data(), d_out, sizeof(Out) * h.size(), cudaMemcpyDeviceToHost);
      std::vector<double> mine, theirs, their_iters;
      for (const Out& o : h) {
        mine.push_back(static_cast<double>(o.cycles) / iters);
        if (o.neighbour_iters > 0) {
          theirs.push_back(static_cast<double>(o.neighbour_cycles) / o.neighbour_iters);
          their_iters.push_back(static_cast<double>(o.neighbour_iters));
        }
      }
      std::printf("{\"measure\": \"sharing\", \"measured\": \"%s\", \"neighbour\": \"%s\", \"iterations\": %lld, "
                  "\"cycles_per_iteration\": %.2f, \"neighbour_iterations\": %.0f, \"neighbour_cycles_per_iteration\": %.2f, "
                  "\"subpartitions\": %zu}\n",
                  kNames[measured], kNames[neighbour], iters, median(mine), median(their_iters), median(theirs), mine.size());
      std::fflush(stdout);
    }
  return 0;
}
