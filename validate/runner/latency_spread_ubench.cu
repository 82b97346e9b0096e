// gms-latency-spread-ubench: how far apart do single loads' latencies lie - the distribution, not only the mean the
// pointer chase of gms-validate --set ubench gives? Triton's 3-stage 128x256x32 GEMM (validate/results/h200/
// triton_stages) waits at the barrier after its copies' wait 25 % of the time on silicon: each of a CTA's 8 warps
// waits for its own copies, and the slowest sets the barrier. A model whose DRAM answers every read after the same
// latency has no slowest copy (10 %). This measures the spread a warp sees.
//
// One thread of CTA 0 walks a random cycle of 128-byte-spaced elements (ld.global.cg: L1 bypassed), timing every
// load with clock64 around it (the load's value is stored to shared memory before the second clock, so the clock
// waits for the data): 4 launches x 16,384 loads per case. Working sets: 8 MiB (every load an L2 hit once warm) and
// 1 GiB (every load a miss). Background: CTAs 1..B (256 threads each, one an SM) stream 16-byte .cg loads over 2 GiB
// of other memory until the walk is done, so the spread is seen at several DRAM loads (B = 0: unloaded).
// Printed per case: percentiles 0..100 of the cycles per load, their mean, the background's bandwidth.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"

namespace {

constexpr int kSamples = 16384;  // per launch, in shared memory (16-bit cycles)
constexpr int kLaunches = 4;
constexpr int kStreamThreads = 256;
constexpr unsigned kStride = 32;  // uint32 elements in 128 bytes

__device__ __forceinline__ int4 load_cg4(const int4* p) {
#if !defined(__HIPCC__)
  int4 v;
  asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
#else
  return *reinterpret_cast<const volatile int4*>(p);
#endif
}

__device__ __forceinline__ unsigned long long ns_now() {
#if !defined(__HIPCC__)
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return wall_clock64();
#endif
}

// CTA 0, thread 0: the timed walk; CTAs 1..: the background streams, until the walk sets *stop.
__global__ void spread_kernel(const unsigned* __restrict__ next, unsigned start, int warm, unsigned short* lat,
                              const int4* __restrict__ bg, unsigned long long bg_vecs, volatile int* stop,
                              unsigned long long* bg_bytes, unsigned long long* walk_ns, unsigned* sink) {
  if (blockIdx.x == 0) {
    if (threadIdx.x != 0) return;
    __shared__ unsigned short s_lat[kSamples];
    __shared__ volatile unsigned s_dep;
    unsigned j = start;
    for (int i = 0; i < warm; ++i) j = gpu_load_cg(next + j);
    const unsigned long long t_begin = ns_now();
    for (int i = 0; i < kSamples; ++i) {
      const long long t0 = clock64();
      j = gpu_load_cg(next + j);
      s_dep = j;  // waits for the data: the clock below reads after it
      const long long t1 = clock64();
      s_lat[i] = static_cast<unsigned short>(min(t1 - t0, 65535LL));
    }
    *walk_ns = ns_now() - t_begin;
    *stop = 1;
    __threadfence();
    for (int i = 0; i < kSamples; ++i) lat[i] = s_lat[i];
    *sink = j;
    return;
  }
  const unsigned long long threads = static_cast<unsigned long long>(gridDim.x - 1) * blockDim.x;
  unsigned long long i = static_cast<unsigned long long>(blockIdx.x - 1) * blockDim.x + threadIdx.x;
  int acc = 0;
  unsigned long long vecs = 0;
  for (int pass = 0; pass < 1000000 && *stop == 0; ++pass) {  // the cap: never spin forever
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int4 v = load_cg4(bg + (i + r * threads) % bg_vecs);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    i = (i + 4 * threads) % bg_vecs;
    vecs += 4;
  }
  atomicAdd(bg_bytes, vecs * 16);
  if (acc == 0x12345678) *sink = static_cast<unsigned>(acc);
}

__global__ void link_cycle(const unsigned* order, unsigned long long slots, unsigned* next) {
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < slots;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
    next[static_cast<unsigned long long>(order[i]) * kStride] = order[(i + 1) % slots] * kStride;
}

}  // namespace

int main() {
  return ubench_main("gms-latency-spread-ubench", [](const gpuDeviceProp& prop) {
    const unsigned long long max_bytes = 1ull << 30, bg_total = 2ull << 30;
    unsigned *next, *order, *sink;
    unsigned short* lat;
    int4* bg;
    int* stop;
    unsigned long long *bg_bytes, *walk_ns;
    GPU_CHECK(gpuMalloc(&next, max_bytes));
    GPU_CHECK(gpuMalloc(&order, max_bytes / 128 * sizeof(unsigned)));
    GPU_CHECK(gpuMalloc(&lat, kSamples * sizeof(unsigned short)));
    GPU_CHECK(gpuMalloc(&bg, bg_total));
    GPU_CHECK(gpuMalloc(&stop, sizeof(int)));
    GPU_CHECK(gpuMalloc(&bg_bytes, sizeof(unsigned long long)));
    GPU_CHECK(gpuMalloc(&walk_ns, sizeof(unsigned long long)));
    GPU_CHECK(gpuMalloc(&sink, sizeof(unsigned)));
    GPU_CHECK(gpuMemset(bg, 1, bg_total));
    const int sms = prop.multiProcessorCount;
    for (unsigned long long bytes : {8ull << 20, max_bytes}) {
      const unsigned long long slots = bytes / 128;
      std::vector<unsigned> host(slots);
      std::iota(host.begin(), host.end(), 0u);
      std::mt19937 rng(static_cast<unsigned>(slots));
      std::shuffle(host.begin() + 1, host.end(), rng);
      GPU_CHECK(gpuMemcpy(order, host.data(), slots * sizeof(unsigned), gpuMemcpyHostToDevice));
      link_cycle<<<1024, 256>>>(order, slots, next);
      GPU_CHECK_LAUNCH();
      // L2 hits: the whole cycle walked once first; misses: a short warm-up (the cycle is far larger than the L2).
      const int warm = bytes <= (8ull << 20) ? static_cast<int>(slots) : 1024;
      for (int background : {0, 16, sms / 2, sms - 1}) {
        std::vector<unsigned short> all;
        unsigned long long moved = 0, ns = 0;
        for (int launch = 0; launch < kLaunches; ++launch) {
          GPU_CHECK(gpuMemset(stop, 0, sizeof(int)));
          GPU_CHECK(gpuMemset(bg_bytes, 0, sizeof(unsigned long long)));
          const unsigned start = host[(slots / kLaunches) * launch] * kStride;
          spread_kernel<<<1 + background, kStreamThreads>>>(next, start, warm, lat, bg, bg_total / 16, stop, bg_bytes,
                                                             walk_ns, sink);
          GPU_CHECK_LAUNCH();
          GPU_CHECK(gpuDeviceSynchronize());
          std::vector<unsigned short> part(kSamples);
          unsigned long long b = 0, t = 0;
          GPU_CHECK(gpuMemcpy(part.data(), lat, kSamples * sizeof(unsigned short), gpuMemcpyDeviceToHost));
          GPU_CHECK(gpuMemcpy(&b, bg_bytes, sizeof(b), gpuMemcpyDeviceToHost));
          GPU_CHECK(gpuMemcpy(&t, walk_ns, sizeof(t), gpuMemcpyDeviceToHost));
          all.insert(all.end(), part.begin(), part.end());
          moved += b;
          ns += t;
        }
        std::sort(all.begin(), all.end());
        const double mean = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
        std::printf("{\"measure\": \"latency_spread\", \"working_set_bytes\": %llu, \"background_ctas\": %d, "
                    "\"samples\": %zu, \"mean_cycles\": %.2f, \"background_tb_per_s\": %.3f, \"percentiles\": [",
                    bytes, background, all.size(), mean, ns > 0 ? static_cast<double>(moved) / ns / 1e3 : 0.0);
        for (int p = 0; p <= 100; ++p) {
          const size_t at = std::min(all.size() - 1, (all.size() - 1) * static_cast<size_t>(p) / 100);
          std::printf("%s%u", p ? ", " : "", static_cast<unsigned>(all[at]));
        }
        const size_t p999 = (all.size() - 1) * 999 / 1000;
        std::printf("], \"p99_9\": %u, \"gpu\": \"%s\"}\n", static_cast<unsigned>(all[p999]), prop.name);
        std::fflush(stdout);
      }
    }
    for (void* p : {static_cast<void*>(next), static_cast<void*>(order), static_cast<void*>(lat), static_cast<void*>(bg),
                    static_cast<void*>(stop), static_cast<void*>(bg_bytes), static_cast<void*>(walk_ns),
                    static_cast<void*>(sink)})
      GPU_CHECK(gpuFree(p));
  });
}
