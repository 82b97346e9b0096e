// gms-l2-ubench: what one L2 read request costs, by its shape (issue 10/11). The GEMM records show
// the project's WMMA kernel (BK 32: A rows of 64 B, half an L2 line) making ~1.35 L2 read lookups
// per sector it receives, and the Triton wgmma kernels (BK 64: whole lines) 0.6-0.9 (the L2 request
// coalescer merges requests of SMs reading the same tile). These patterns separate the two effects:
//   full          each warp instruction reads 4 whole lines (16 B per lane)
//   halves_adj    8 lines, first halves; the next instruction their second halves (BK 32's pattern)
//   halves_far    the first halves of a warp's 64 lines, then their second halves
//   sector        one 32 B sector per line (16 lines per instruction)
//   shared        every warp of the grid reads the same 64 lines (what the coalescer merges)
//   shared_halves the same, in halves_adj's half-line requests
//   cp_full, cp_halves_adj   full and halves_adj through cp.async.cg (LDGSTS), as the GEMMs load
//   cp_once_full, cp_once_halves   the same, each line read once (no repetition the L1 could serve)
// Each warp reads its own 64 lines `reps` times (16.5 MB over the grid: L2-resident after the first
// launch). Prints one JSON object per pattern: median time of 20 launches and the bytes requested;
// --profile launches each pattern twice (warm-up, then the one ncu's script keeps) and times nothing.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../include/event_timer.h"

namespace {

constexpr int kThreads = 256;
constexpr int kLinesPerWarp = 64;
constexpr int kReps = 16;
enum Pattern { kFull, kHalvesAdj, kHalvesFar, kSector, kShared, kCpFull, kCpHalvesAdj, kSharedHalves, kCpOnceFull, kCpOnceHalves, kPatterns };
const char* kNames[] = {"full", "halves_adj", "halves_far", "sector", "shared", "cp_full", "cp_halves_adj", "shared_halves",
                        "cp_once_full", "cp_once_halves"};

__device__ __forceinline__ int load_cg(const int4* p) {
  int a, b, c, d;
  asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
  return a ^ b ^ c ^ d;
}

__device__ __forceinline__ void copy_async(void* smem, const int4* p) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(p));
}

// int4 index of (line, 16-byte chunk).
__device__ __forceinline__ const int4* at(const int4* buf, long line, int chunk) { return buf + line * 8 + chunk; }

template <int P>
__global__ void __launch_bounds__(kThreads) l2_read(const int4* __restrict__ buf, int* sink) {
  __shared__ int4 stage[kThreads / 32][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long gwarp = static_cast<long>(blockIdx.x) * (kThreads / 32) + warp;
  const long base = (P == kShared || P == kSharedHalves) ? 0 : gwarp * kLinesPerWarp;
  int acc = 0;
  const int reps = (P == kCpOnceFull || P == kCpOnceHalves) ? 1 : kReps;
  for (int r = 0; r < reps; ++r) {
    if (P == kFull || P == kShared) {
#pragma unroll 4
      for (int i = 0; i < kLinesPerWarp; i += 4) acc ^= load_cg(at(buf, base + i + lane / 8, lane % 8));
    } else if (P == kHalvesAdj || P == kSharedHalves) {
#pragma unroll 2
      for (int i = 0; i < kLinesPerWarp; i += 8) {
        acc ^= load_cg(at(buf, base + i + lane / 4, lane % 4));
        acc ^= load_cg(at(buf, base + i + lane / 4, 4 + lane % 4));
      }
    } else if (P == kHalvesFar) {
      for (int half = 0; half < 2; ++half)
#pragma unroll 4
        for (int i = 0; i < kLinesPerWarp; i += 8) acc ^= load_cg(at(buf, base + i + lane / 4, 4 * half + lane % 4));
    } else if (P == kSector) {
#pragma unroll 4
      for (int i = 0; i < kLinesPerWarp; i += 16) acc ^= load_cg(at(buf, base + i + lane / 2, lane % 2));
    } else if (P == kCpFull || P == kCpOnceFull) {
      for (int i = 0; i < kLinesPerWarp; i += 4) copy_async(&stage[warp][lane], at(buf, base + i + lane / 8, lane % 8));
    } else if (P == kCpHalvesAdj || P == kCpOnceHalves) {
      for (int i = 0; i < kLinesPerWarp; i += 8) {
        copy_async(&stage[warp][lane], at(buf, base + i + lane / 4, lane % 4));
        copy_async(&stage[warp][lane], at(buf, base + i + lane / 4, 4 + lane % 4));
      }
    }
    // One repetition's copies complete before the next is issued: a line is never requested twice
    // while in flight (the L1 would merge those before L2 sees them).
    if (P == kCpFull || P == kCpHalvesAdj || P == kCpOnceFull || P == kCpOnceHalves) asm volatile("cp.async.wait_all;" ::);
  }
  if (P == kCpFull || P == kCpHalvesAdj || P == kCpOnceFull || P == kCpOnceHalves) acc ^= stage[warp][lane].x;
  if (acc == 0x7fffffff) sink[gwarp] = acc;  // practically never; keeps the loads
}

using KernelFn = void (*)(const int4*, int*);
KernelFn kernel_of(int p) {
  switch (p) {
    case kFull: return l2_read<kFull>;
    case kHalvesAdj: return l2_read<kHalvesAdj>;
    case kHalvesFar: return l2_read<kHalvesFar>;
    case kSector: return l2_read<kSector>;
    case kShared: return l2_read<kShared>;
    case kCpFull: return l2_read<kCpFull>;
    case kSharedHalves: return l2_read<kSharedHalves>;
    case kCpOnceFull: return l2_read<kCpOnceFull>;
    case kCpOnceHalves: return l2_read<kCpOnceHalves>;
    default: return l2_read<kCpHalvesAdj>;
  }
}

// Bytes the SMs request per launch (sectors x 32).
double requested_bytes(int p, long warps) {
  const double per_warp = kLinesPerWarp * 128.0 * ((p == kCpOnceFull || p == kCpOnceHalves) ? 1 : kReps);
  return warps * (p == kSector ? per_warp / 4 : per_warp);
}

}  // namespace

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int grid = 2 * prop.multiProcessorCount;
  const long warps = static_cast<long>(grid) * (kThreads / 32);
  const size_t bytes = static_cast<size_t>(warps) * kLinesPerWarp * 128;
  int4* buf = nullptr;
  int* sink = nullptr;
  cudaMalloc(&buf, bytes);
  cudaMalloc(&sink, warps * sizeof(int));
  cudaMemset(buf, 1, bytes);
  gmsv::Timer timer;
  for (int p = 0; p < kPatterns; ++p) {
    KernelFn k = kernel_of(p);
    if (profile) {
      for (int i = 0; i < 2; ++i) k<<<grid, kThreads>>>(buf, sink);
      cudaDeviceSynchronize();
      continue;
    }
    k<<<grid, kThreads>>>(buf, sink);  // warm: the buffer in L2
    const std::vector<double> ms = timer.sorted_ms([&] { k<<<grid, kThreads>>>(buf, sink); }, 20);
    const double med = ms[ms.size() / 2];
    std::printf("{\"measurement\": \"l2_read\", \"pattern\": \"%s\", \"grid\": %d, \"threads\": %d, "
                "\"buffer_bytes\": %zu, \"requested_bytes\": %.0f, \"ms.median\": %.5f, \"ms.min\": %.5f, "
                "\"requested_tb_per_s\": %.3f}\n",
                kNames[p], grid, kThreads, bytes, requested_bytes(p, warps), med, ms.front(),
                requested_bytes(p, warps) / (med * 1e-3) / 1e12);
  }
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "gms-l2-ubench: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
