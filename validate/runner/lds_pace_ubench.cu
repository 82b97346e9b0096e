// gms-lds-pace-ubench: the pace at which the SM's shared-memory data path serves one warp's independent shared loads,
// by instruction kind, beside none, one or more other warps doing the same.
// Why: gms-mio-ubench found a lone warp's 32-way conflicted LDS.32 served every 63.3 cycles - half the path's rate (two
// warps of different sub-partitions: 31.5 each for the SM) - and the model's path serves any warp's wavefronts one a
// cycle. Is a lone warp's half rate a property of bank-conflict replays, or of every multi-wavefront instruction
// (LDS.64 / LDS.128, ldmatrix.x4, conflict-free but 2-4 wavefronts)? The model's SIMT GEMMs (seed 002) issue LDS.128
// from a few warps a sub-partition, the tensor-core GEMMs ldmatrix.x4.
// Each flooding warp of a 256-thread CTA (one per SM: 160 KB of dynamic shared memory keeps two apart) issues rounds of
// 64 registers' worth of independent loads of one kind (64 LDS.32, 32 LDS.64, 16 LDS.128 or ldmatrix.x4), two register
// sets alternating so that folding one round's values never waits on the loads in flight: the warp's loads stream
// without a bubble. Kinds (wavefronts a load): lds32_wN - LDS.32 whose lanes read N rows of each of 32 / N banks (N =
// 1, 2, 4, 8, 16, 32); lds64, lds128 - conflict-free vectors (2, 4); lds128_2way - 16-byte lanes at a 32-byte stride
// (8); ldsm_x4 - ldmatrix.x4 of 16-byte rows packed (4); ldsm_x4_2way - rows at a 32-byte stride (8). ldmatrix has no
// volatile form and ptxas merges ldmatrix of equal addresses (the first run, 2026-12-03: ncu counted 9 and 5 of 16 a
// round), so each ldmatrix of each round adds a multiple of `salt` - a kernel argument, 0 at run time - to its address:
// equal in fact, distinct to the compiler.
// Layouts: the flooding warps - "w0" alone, "w0,w4" (one sub-partition: warp w is on w % 4), "w0,w1" (two
// sub-partitions), "w0..w3" (one on each), "w0..w7" (two on each).
// Prints one JSON object per kind and layout: each flooding warp's cycles per load over its last three quarters of
// rounds (%clock64, first to last; the median over 5 launches x the SMs, and the slowest and fastest warp's medians),
// and the SM's cycles per load (a warp's over the warps). With --ncu-once: each kind once, warp 0 alone, one round
// (for ncu's instruction and wavefront counts). CUDA only (%clock64, inline PTX).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kThreads = 256;
constexpr int kRegs = 64;                 // registers a round's loads write
constexpr int kSoloBytes = 160 * 1024;    // dynamic shared memory beside the static buffer: one CTA an SM
constexpr int kBufWords = 72 * 32;        // the loads' buffer: 9 KB

enum Kind { kW1, kW2, kW4, kW8, kW16, kW32, kLds64, kLds128, kLds128TwoWay, kLdsmX4, kLdsmX4TwoWay, kKinds };
const char* kKindName[kKinds] = {"lds32_w1", "lds32_w2",  "lds32_w4",    "lds32_w8", "lds32_w16",   "lds32_w32",
                                 "lds64",    "lds128",    "lds128_2way", "ldsm_x4",  "ldsm_x4_2way"};
constexpr int kWavefronts[kKinds] = {1, 2, 4, 8, 16, 32, 2, 4, 8, 4, 8};
constexpr int kRegsPerLoad[kKinds] = {1, 1, 1, 1, 1, 1, 2, 4, 4, 4, 4};

__host__ __device__ constexpr int ways_of(int kind) { return 1 << kind; }  // kW1 .. kW32

// Load i of a round into r[..]: its address from the lane and i (the i term moves each load to other words of the
// same banks, so that volatile loads of one address are not what is measured). round_salt, salt: 0 at run time (above).
template <int KIND>
__device__ __forceinline__ void load(unsigned* r, const unsigned* buf, unsigned lane, int i, unsigned round_salt,
                                     unsigned salt) {
  if constexpr (KIND <= kW32) {
    constexpr int w = ways_of(KIND);
    // Lane l reads row l % w, word l / w + (5 i) % 32 of it: the w lanes of a group share one bank (w wavefronts).
    const unsigned word = (lane % w) * 32 + lane / w + ((i * 5) & 31);
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf + word));
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
  } else if constexpr (KIND == kLds64) {  // 8 bytes a lane, 256 contiguous bytes: 2 wavefronts
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf + (i % 8) * 64 + lane * 2));
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
  } else if constexpr (KIND == kLds128 || KIND == kLds128TwoWay) {  // 16 bytes a lane, at a 16- or 32-byte stride
    const unsigned word = KIND == kLds128 ? (i % 8) * 128 + lane * 4 : (i % 4) * 4 + lane * 8;
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf + word));
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
  } else {  // ldmatrix.x4: lane l gives row l % 8 of matrix l / 8, 16-byte rows packed or at a 32-byte stride
    const unsigned word = KIND == kLdsmX4 ? (i % 8) * 128 + lane * 4 + (i / 8) * salt
                                          : (i % 4) * 4 + lane * 8 + (i / 4) * salt;
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(buf + word + round_salt));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a) : "memory");
  }
}

template <int KIND>
__device__ __forceinline__ void issue_round(unsigned (&r)[kRegs], const unsigned* buf, unsigned lane, int round,
                                            unsigned salt) {
  constexpr int per = kRegsPerLoad[KIND] == 1 ? 1 : kRegsPerLoad[KIND];
  const unsigned round_salt = salt * 4u * static_cast<unsigned>(round);  // (i / 4) * salt < 4 * salt: all distinct
#pragma unroll
  for (int i = 0; i < kRegs / per; ++i) load<KIND>(r + i * per, buf, lane, i, round_salt, salt);
}

__device__ __forceinline__ unsigned fold(const unsigned (&r)[kRegs]) {
  unsigned acc = 0;
#pragma unroll
  for (int i = 0; i < kRegs; ++i) acc ^= r[i];
  return acc;
}

// out[CTA * 9 + w]: warp w's cycles over its timed rounds (0 if it did not flood); [8]: the SM.
template <int KIND>
__global__ void __launch_bounds__(kThreads) lds_pace(unsigned mask, int rounds, unsigned salt, long long* out,
                                                     unsigned* sink) {
  __shared__ __align__(128) unsigned buf[kBufWords];
  for (int i = threadIdx.x; i < kBufWords; i += blockDim.x) buf[i] = i * 2654435761u;
  __syncthreads();
  const int warp = threadIdx.x / 32;
  const unsigned lane = threadIdx.x & 31;
  unsigned acc = 0;
  long long first = 0, last = 0;
  if ((mask >> warp) & 1u) {
    unsigned a[kRegs], b[kRegs];
    issue_round<KIND>(a, buf, lane, 0, salt);
    for (int r = 1; r < rounds; r += 2) {  // rounds is odd: a, then pairs (b, a)
      if (r == rounds / 4 * 2 + 1) first = clock64();
      issue_round<KIND>(b, buf, lane, r, salt);
      acc += fold(a);
      issue_round<KIND>(a, buf, lane, r + 1, salt);
      acc += fold(b);
    }
    acc += fold(a);
    last = clock64();
  }
  if (lane == 0) out[blockIdx.x * 9 + warp] = (mask >> warp) & 1u ? last - first : 0;
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    out[blockIdx.x * 9 + 8] = sm;
  }
  if (acc == 0x12345u) *sink = acc;
}

struct Layout {
  const char* name;
  unsigned mask;
};
const Layout kLayouts[] = {{"w0", 0x1u}, {"w0,w4", 0x11u}, {"w0,w1", 0x3u}, {"w0..w3", 0xfu}, {"w0..w7", 0xffu}};

template <int KIND>
void measure(int sms, long long* dev, unsigned* sink, const char* gpu, bool ncu_once) {
  GPU_CHECK(gpuFuncSetAttribute(lds_pace<KIND>, gpuFuncAttributeMaxDynamicSharedMemorySize, kSoloBytes));
  if (ncu_once) {  // one launch, warp 0 alone, one round: ncu's counts of one kind
    lds_pace<KIND><<<sms, kThreads, kSoloBytes>>>(0x1u, 1, 0u, dev, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuDeviceSynchronize());
    std::printf("{\"measure\": \"lds_pace_ncu\", \"kind\": \"%s\", \"loads\": %d, \"gpu\": \"%s\"}\n", kKindName[KIND],
                kRegs / kRegsPerLoad[KIND], gpu);
    return;
  }
  const int loads_per_round = kRegs / kRegsPerLoad[KIND];
  // ~64k path cycles a warp at one wavefront a cycle, at least 17 rounds; odd (issue_round's pairs).
  int rounds = std::max(17, 65536 / (loads_per_round * kWavefronts[KIND]));
  rounds |= 1;
  const int timed_loads = (rounds - (rounds / 4 * 2 + 1)) * loads_per_round;
  std::vector<long long> host(static_cast<size_t>(sms) * 9);
  for (const Layout& l : kLayouts) {
    std::vector<std::vector<double>> per_warp(8);
    for (int rep = 0; rep < 5; ++rep) {
      lds_pace<KIND><<<sms, kThreads, kSoloBytes>>>(l.mask, rounds, 0u, dev, sink);
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuMemcpy(host.data(), dev, sizeof(long long) * host.size(), gpuMemcpyDeviceToHost));
      for (int b = 0; b < sms; ++b)
        for (int w = 0; w < 8; ++w)
          if ((l.mask >> w) & 1u) per_warp[w].push_back(static_cast<double>(host[b * 9 + w]) / timed_loads);
    }
    std::vector<double> all, medians;
    for (const auto& v : per_warp) {
      if (v.empty()) continue;
      all.insert(all.end(), v.begin(), v.end());
      medians.push_back(ubench::median(v));
    }
    const double warp = ubench::median(all);
    std::printf("{\"measure\": \"lds_pace\", \"kind\": \"%s\", \"wavefronts\": %d, \"layout\": \"%s\", \"warps\": %zu, "
                "\"warp_cycles_per_load\": %.2f, \"slowest_warp\": %.2f, \"fastest_warp\": %.2f, "
                "\"sm_cycles_per_load\": %.2f, \"rounds\": %d, \"loads_per_round\": %d, \"samples\": %zu, \"gpu\": \"%s\"}\n",
                kKindName[KIND], kWavefronts[KIND], l.name, medians.size(), warp,
                *std::max_element(medians.begin(), medians.end()), *std::min_element(medians.begin(), medians.end()),
                warp / static_cast<double>(medians.size()), rounds, loads_per_round, all.size(), gpu);
  }
}

template <int... K>
void measure_all(int sms, long long* dev, unsigned* sink, const char* gpu, bool ncu_once,
                 std::integer_sequence<int, K...>) {
  (measure<K>(sms, dev, sink, gpu, ncu_once), ...);
}

}  // namespace

int main(int argc, char** argv) {
  const bool ncu_once = argc > 1 && std::strcmp(argv[1], "--ncu-once") == 0;
  return ubench_main("gms-lds-pace-ubench", [&](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    long long* dev;
    unsigned* sink;
    GPU_CHECK(gpuMalloc(&dev, sizeof(long long) * sms * 9));
    GPU_CHECK(gpuMalloc(&sink, 4));
    measure_all(sms, dev, sink, prop.name, ncu_once, std::make_integer_sequence<int, kKinds>{});
    GPU_CHECK(gpuFree(dev));
    GPU_CHECK(gpuFree(sink));
  });
}
