// gms-ldg-backlog-ubench: does a global load wait behind the shared-memory instructions queued ahead of it on its SM?
// The presets say yes (sm.loads_wait_in_mio_queue: an LDG takes an MIO entry and its requests leave only when the
// shared-memory data path has served what was booked before it), which on seed 002's r3_bk32 holds each warp's loads
// ~300 cycles behind the other CTA's LDS traffic (docs/cta-share.md). Measured here directly:
//   one CTA of 256 threads per SM; a flood warp keeps the MIO queue full of 32-way conflicted LDS.32 (32 wavefronts,
//   32 path cycles each; rounds of 64 independent loads) while a timed warp chases a pointer through 8 lines of its
//   own - each hop's address is the last hop's data - and reads %clock64 around the 8 hops.
//   chase    "ldg_l2": ld.global.cg (L1 bypassed, an L2 hit: the lines were read once before the timing),
//            "ldg_l1": ld.global.ca (an L1 hit, read twice before), "lds": ld.shared (the reference: a shared
//            load queues behind the flood by definition).
//   flood    "none", "same" (warp 0, the timed warp 4's sub-partition), "other" (warp 1, sub-partition 1) - one warp's
//            32-way LDS.32, which silicon serves at half the path's rate (64 cycles each; gms-mio-ubench "w0") - and
//            "same128" / "all128": conflict-free LDS.128 (4 wavefronts, as a tiled GEMM's compute reads) from warp 0, or
//            from warps 0-3 and 5-7 (every sub-partition, two on the others), which keep the path busy throughout.
// Prints one JSON object per chase and flood: cycles per hop, the median over 5 launches x the SMs (each SM's own
// lines), and the flood's own pace (path cycles per LDS once its queue is full) from its first and last clock.
// CUDA only (%clock64, inline PTX).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kThreads = 256;
constexpr int kHops = 8;           // lines in a chase, each its own 128 B line
constexpr int kFloodLds = 64;      // independent LDS a flood round issues before it folds them
constexpr int kFloodRounds = 32;   // ~66k path cycles: longer than the timed chases after the warm-up
constexpr int kTimedWarp = 4;      // sub-partition 0
constexpr int kChases = 4;         // timed chases of kHops, one after another, inside the flood
constexpr unsigned kStartDelay = 2000;  // cycles the timed warp waits for the flood's queue to fill
// Dynamic shared memory each CTA asks for beside its own buffers, so that no two CTAs share an SM (228 KB an SM).
constexpr int kSoloBytes = 160 * 1024;

enum Chase { kLdgL2 = 0, kLdgL1 = 1, kLds = 2 };

template <int CHASE>
__device__ __forceinline__ unsigned hop(const unsigned* global_line0, const unsigned* shared_line0, unsigned p) {
  unsigned v;
  if constexpr (CHASE == kLdgL2) {
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(global_line0 + p * 32) : "memory");
  } else if constexpr (CHASE == kLdgL1) {
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(global_line0 + p * 32) : "memory");
  } else {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(shared_line0 + p * 32));
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  }
  return v;
}

// chain: per CTA kHops lines of 32 words, word 0 of line i = (i + 1) % kHops. flood_mask: the warps that flood (bit w).
// out[CTA * (kChases + 2) + {0..kChases-1}]: cycles of each timed chase; [kChases]: the first flooding warp's cycles per
// LDS in its last rounds; [kChases + 1]: the SM.
// One flood round of kFloodLds independent loads: VEC false, 32-way conflicted LDS.32 (lane l reads row l, word (5 i) % 32:
// all 32 lanes in one bank); VEC true, conflict-free LDS.128 (lane l reads words 4 l .. 4 l + 3 of 512-byte block i % 8).
template <bool VEC>
__device__ __forceinline__ unsigned flood_round(const unsigned* buf, unsigned lane) {
  unsigned acc = 0;
  if constexpr (VEC) {
    uint4 v[kFloodLds / 4];
#pragma unroll
    for (int i = 0; i < kFloodLds / 4; ++i) {
      const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + (i % 8) * 128 + lane * 4));
      asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[i].x), "=r"(v[i].y), "=r"(v[i].z), "=r"(v[i].w) : "r"(addr) : "memory");
    }
#pragma unroll
    for (int i = 0; i < kFloodLds / 4; ++i) acc += v[i].x ^ v[i].w;
  } else {
    unsigned v[kFloodLds];
#pragma unroll
    for (int i = 0; i < kFloodLds; ++i) {
      const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + lane * 32 + ((i * 5) & 31)));
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v[i]) : "r"(addr) : "memory");
    }
#pragma unroll
    for (int i = 0; i < kFloodLds; ++i) acc += v[i];
  }
  return acc;
}

template <int CHASE, bool VEC>
__global__ void __launch_bounds__(kThreads) ldg_backlog(const unsigned* chain, unsigned flood_mask, long long* out, unsigned* sink) {
  __shared__ __align__(128) unsigned buf[34 * 32];
  __shared__ __align__(128) unsigned shared_chain[kHops * 32];
  for (int i = threadIdx.x; i < 34 * 32; i += blockDim.x) buf[i] = i;
  for (int i = threadIdx.x; i < kHops * 32; i += blockDim.x) shared_chain[i] = (i % 32 == 0) ? (i / 32 + 1) % kHops : 0;
  const unsigned* lines = chain + static_cast<size_t>(blockIdx.x) * kHops * 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  unsigned acc = 0;
  if (warp == kTimedWarp) {  // warm-up: the lines into L2 (and L1 for ldg_l1), twice
    unsigned p = 0;
    for (int i = 0; i < 2 * kHops; ++i) p = hop<CHASE == kLdgL2 ? kLdgL2 : kLdgL1>(lines, shared_chain, p);
    acc += p;
  }
  __syncthreads();
  const long long start = clock64();
  const int rounds = VEC ? 32 * kFloodRounds : kFloodRounds;  // an LDS.128 round is 64 wavefronts, a 32-way one 2,048
  if ((flood_mask >> warp) & 1u) {
    long long first = 0, last = 0;
    for (int r = 0; r < rounds; ++r) {
      acc += flood_round<VEC>(buf, lane);
      if (r == rounds / 2) first = clock64();
      if (r == rounds - 1) last = clock64();
    }
    const int per_round = VEC ? kFloodLds / 4 : kFloodLds;
    if (lane == 0 && warp == __ffs(flood_mask) - 1)
      out[blockIdx.x * (kChases + 2) + kChases] = (last - first) / ((rounds - 1 - rounds / 2) * per_round);
  }
  if (warp == kTimedWarp) {
    while (clock64() - start < kStartDelay) {
    }
    unsigned p = 0;
    for (int c = 0; c < kChases; ++c) {
      long long t0, t1;
      unsigned q;
      asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) :: "memory");
#pragma unroll
      for (int i = 0; i < kHops; ++i) p = hop<CHASE>(lines, shared_chain, p);
      asm volatile("add.u32 %0, %1, 1;" : "=r"(q) : "r"(p) : "memory");  // waits for the last hop's data
      asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
      acc += q;
      if (lane == 0) out[blockIdx.x * (kChases + 2) + c] = t1 - t0;
    }
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (lane == 0) out[blockIdx.x * (kChases + 2) + kChases + 1] = sm;
  }
  if (acc == 0x12345u) *sink = acc;
}

const char* kChaseName[] = {"ldg_l2", "ldg_l1", "lds"};

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[static_cast<size_t>(q * (v.size() - 1))];
}

template <int CHASE>
void measure(int sms, const unsigned* chain, long long* dev, unsigned* sink, const char* gpu) {
  const struct {
    const char* name;
    unsigned mask;
    bool vec;
  } floods[] = {{"none", 0u, false}, {"same", 0x1u, false}, {"other", 0x2u, false}, {"same128", 0x1u, true},
                {"all128", 0xefu, true}};
  std::vector<long long> host(static_cast<size_t>(sms) * (kChases + 2));
  for (const auto& f : floods) {
    std::vector<double> per_hop, pace;
    for (int rep = 0; rep < 5; ++rep) {
      if (f.vec)
        ldg_backlog<CHASE, true><<<sms, kThreads, kSoloBytes>>>(chain, f.mask, dev, sink);
      else
        ldg_backlog<CHASE, false><<<sms, kThreads, kSoloBytes>>>(chain, f.mask, dev, sink);
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuMemcpy(host.data(), dev, sizeof(long long) * host.size(), gpuMemcpyDeviceToHost));
      for (int b = 0; b < sms; ++b) {
        for (int c = 0; c < kChases; ++c) per_hop.push_back(static_cast<double>(host[b * (kChases + 2) + c]) / kHops);
        if (f.mask) pace.push_back(static_cast<double>(host[b * (kChases + 2) + kChases]));
      }
    }
    std::printf("{\"measure\": \"ldg_backlog\", \"chase\": \"%s\", \"flood\": \"%s\", \"cycles_per_hop_median\": %.1f, "
                "\"cycles_per_hop_p10\": %.1f, \"cycles_per_hop_p90\": %.1f, \"flood_cycles_per_lds\": %.1f, \"samples\": %zu, "
                "\"gpu\": \"%s\"}\n",
                kChaseName[CHASE], f.name, ubench::median(per_hop), quantile(per_hop, 0.1), quantile(per_hop, 0.9),
                pace.empty() ? 0.0 : ubench::median(pace), per_hop.size(), gpu);
  }
}

// The kernels of one chase may ask for kSoloBytes of dynamic shared memory (over the default 48 KB).
template <int CHASE>
void allow_solo_shared() {
  auto* plain = ldg_backlog<CHASE, false>;
  auto* vec = ldg_backlog<CHASE, true>;
  GPU_CHECK(gpuFuncSetAttribute(plain, gpuFuncAttributeMaxDynamicSharedMemorySize, kSoloBytes));
  GPU_CHECK(gpuFuncSetAttribute(vec, gpuFuncAttributeMaxDynamicSharedMemorySize, kSoloBytes));
}

}  // namespace

int main() {
  return ubench_main("gms-ldg-backlog-ubench", [](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    std::vector<unsigned> chain(static_cast<size_t>(sms) * kHops * 32, 0);
    for (int b = 0; b < sms; ++b)
      for (int i = 0; i < kHops; ++i) chain[(static_cast<size_t>(b) * kHops + i) * 32] = (i + 1) % kHops;
    unsigned *dev_chain, *sink;
    long long* dev;
    GPU_CHECK(gpuMalloc(&dev_chain, sizeof(unsigned) * chain.size()));
    GPU_CHECK(gpuMemcpy(dev_chain, chain.data(), sizeof(unsigned) * chain.size(), gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMalloc(&dev, sizeof(long long) * sms * (kChases + 2)));
    GPU_CHECK(gpuMalloc(&sink, 4));
    allow_solo_shared<kLdgL2>();
    allow_solo_shared<kLdgL1>();
    allow_solo_shared<kLds>();
    measure<kLdgL2>(sms, dev_chain, dev, sink, prop.name);
    measure<kLdgL1>(sms, dev_chain, dev, sink, prop.name);
    measure<kLds>(sms, dev_chain, dev, sink, prop.name);
    GPU_CHECK(gpuFree(dev_chain));
    GPU_CHECK(gpuFree(dev));
    GPU_CHECK(gpuFree(sink));
  });
}
