// gms-latency-lanes-ubench: are the latencies of misses that are in flight together independent draws? The model
// (dram.latency_spread) draws each DRAM read's access time on its own, by a hash of its line and arrival. If
// silicon's slow reads come together - a channel's refresh or a row conflict delays every read there at once - a
// warp that waits for N misses waits less than the slowest of N independent draws, and CTAs that read at the same
// time are slowed together instead of being pulled apart (the model's 8192^3 column-major pad-16 WMMA record reads
// twice silicon's DRAM bytes since the draws came in).
//
// One warp of one CTA; its first N lanes each walk a chain of 128-byte-spaced elements in 1 GiB (ld.global.cg: L1
// bypassed, every load a miss) and the warp times each step with clock64: the step ends when every lane's value is
// in shared memory, so it lasts as long as the slowest lane's load. Two layouts of the chains:
//   random      lane k walks its own stretch of one random cycle of lines: N unrelated lines a step;
//   contiguous  the lanes read N adjacent lines of one 4 KiB group, the groups in random order: one DRAM row's
//               neighbourhood a step (same channel or a few).
// N = 1, 2, 4, 8, 16, 32; 4 launches x 16,384 steps per case. Printed per case: the mean and the permille
// quantiles (0..1000) of the cycles per step. validate/scripts/latency_lanes.py compares them with the slowest of
// N independent draws from the N = 1 case.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"

namespace {

constexpr int kSteps = 16384;  // per launch, in shared memory (16-bit cycles)
constexpr int kLaunches = 4;
constexpr int kWarm = 1024;
constexpr unsigned kStride = 32;  // uint32 elements in 128 bytes
constexpr unsigned kGroupLines = 32;  // lines in a contiguous group: 4 KiB

__global__ void lanes_kernel(const unsigned* __restrict__ next, const unsigned* __restrict__ starts, int lanes,
                             unsigned short* lat, unsigned* sink) {
  __shared__ unsigned short s_lat[kSteps];
  __shared__ volatile unsigned s_dep[32];
  const int lane = static_cast<int>(threadIdx.x);
  const bool on = lane < lanes;
  unsigned j = starts[lane];
  for (int i = 0; i < kWarm; ++i)
    if (on) j = gpu_load_cg(next + j);
  for (int i = 0; i < kSteps; ++i) {
    const long long t0 = clock64();
    if (on) {
      j = gpu_load_cg(next + j);
      s_dep[lane] = j;  // waits for the data
    }
    __syncwarp();
    const long long t1 = clock64();
    if (lane == 0) s_lat[i] = static_cast<unsigned short>(min(t1 - t0, 65535LL));
  }
  __syncwarp();
  for (int i = lane; i < kSteps; i += 32) lat[i] = s_lat[i];
  if (on) sink[lane] = j;
}

// next[element of order[i]] = element of order[i + 1]: one cycle through `slots` lines in order's order.
__global__ void link_lines(const unsigned* order, unsigned long long slots, unsigned* next) {
  for (unsigned long long i = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; i < slots;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
    next[static_cast<unsigned long long>(order[i]) * kStride] = order[(i + 1) % slots] * kStride;
}

// Line k of group order[i] -> line k of group order[i + 1]: kGroupLines parallel cycles through the groups.
__global__ void link_groups(const unsigned* order, unsigned long long groups, unsigned* next) {
  const unsigned long long n = groups * kGroupLines;
  for (unsigned long long t = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x; t < n;
       t += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const unsigned long long i = t / kGroupLines, k = t % kGroupLines;
    const unsigned long long from = static_cast<unsigned long long>(order[i]) * kGroupLines + k;
    const unsigned long long to = static_cast<unsigned long long>(order[(i + 1) % groups]) * kGroupLines + k;
    next[from * kStride] = static_cast<unsigned>(to * kStride);
  }
}

}  // namespace

int main() {
  return ubench_main("gms-latency-lanes-ubench", [](const gpuDeviceProp& prop) {
    const unsigned long long bytes = 1ull << 30, slots = bytes / 128, groups = slots / kGroupLines;
    unsigned *next, *order, *starts, *sink;
    unsigned short* lat;
    GPU_CHECK(gpuMalloc(&next, bytes));
    GPU_CHECK(gpuMalloc(&order, slots * sizeof(unsigned)));
    GPU_CHECK(gpuMalloc(&starts, 32 * sizeof(unsigned)));
    GPU_CHECK(gpuMalloc(&lat, kSteps * sizeof(unsigned short)));
    GPU_CHECK(gpuMalloc(&sink, 32 * sizeof(unsigned)));
    for (const std::string layout : {"random", "contiguous"}) {
      const bool contiguous = layout == "contiguous";
      const unsigned long long units = contiguous ? groups : slots;
      std::vector<unsigned> host(units);
      std::iota(host.begin(), host.end(), 0u);
      std::mt19937 rng(static_cast<unsigned>(units));
      std::shuffle(host.begin(), host.end(), rng);
      GPU_CHECK(gpuMemcpy(order, host.data(), units * sizeof(unsigned), gpuMemcpyHostToDevice));
      if (contiguous)
        link_groups<<<1024, 256>>>(order, groups, next);
      else
        link_lines<<<1024, 256>>>(order, slots, next);
      GPU_CHECK_LAUNCH();
      for (int lanes : {1, 2, 4, 8, 16, 32}) {
        if (contiguous && lanes == 1) continue;  // the same as random's one lane
        std::vector<unsigned short> all;
        for (int launch = 0; launch < kLaunches; ++launch) {
          // random's lanes start 1/32 of the cycle apart and each launch a quarter of that further on; contiguous's
          // launches a quarter of the groups apart: no walk meets another's lines (a step reads 17,408 units).
          std::vector<unsigned> first(32);
          for (unsigned k = 0; k < 32; ++k) {
            const unsigned long long at = contiguous ? (units / kLaunches) * launch
                                                     : (units / 32) * k + (units / 32 / kLaunches) * launch;
            first[k] = contiguous ? (host[at] * kGroupLines + k) * kStride : host[at] * kStride;
          }
          GPU_CHECK(gpuMemcpy(starts, first.data(), 32 * sizeof(unsigned), gpuMemcpyHostToDevice));
          lanes_kernel<<<1, 32>>>(next, starts, lanes, lat, sink);
          GPU_CHECK_LAUNCH();
          GPU_CHECK(gpuDeviceSynchronize());
          std::vector<unsigned short> part(kSteps);
          GPU_CHECK(gpuMemcpy(part.data(), lat, kSteps * sizeof(unsigned short), gpuMemcpyDeviceToHost));
          all.insert(all.end(), part.begin(), part.end());
        }
        std::sort(all.begin(), all.end());
        const double mean = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
        std::printf("{\"measure\": \"latency_lanes\", \"layout\": \"%s\", \"lanes\": %d, \"samples\": %zu, "
                    "\"mean_cycles\": %.2f, \"permille\": [",
                    layout.c_str(), lanes, all.size(), mean);
        for (int p = 0; p <= 1000; ++p)
          std::printf("%s%u", p ? ", " : "", static_cast<unsigned>(all[(all.size() - 1) * static_cast<size_t>(p) / 1000]));
        std::printf("], \"gpu\": \"%s\"}\n", prop.name);
        std::fflush(stdout);
      }
    }
    for (void* p : {static_cast<void*>(next), static_cast<void*>(order), static_cast<void*>(starts),
                    static_cast<void*>(lat), static_cast<void*>(sink)})
      GPU_CHECK(gpuFree(p));
  });
}
