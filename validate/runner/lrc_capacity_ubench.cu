// gms-lrc-ubench: how many lines the L2 request coalescer can merge at once (issue 11). The model's
// coalescer (sim/model/request_coalescer.h) bounds merging by its entries per slice; which structure
// silicon has decides whether merging survives a grid whose CTAs drift apart (docs/tensor-cores.md,
// "The GPCs"). Here the grid's warps fall into G groups, each reading its own 64 lines (whole lines,
// ld.global.cg, 16 B per lane, 4 lines per instruction) 16 times: the warps of one group ask for the
// same lines at about the same time, G groups keep G x that many distinct lines in flight. With S > 0
// the warps of a group start their walk S lines apart in turn (warp j of the group at line j x S mod
// 64), spreading the requests for one line over time. Nsight's lts__t_sectors_srcunit_tex_op_read over
// l1tex__m_xbar2l1tex_read_sectors is the share of sectors that still needed a lookup.
// Prints one JSON object per (G, S): median time of 20 launches; --profile launches each twice (warm-up,
// then the one the script keeps) and times nothing. 264 CTAs x 256 threads on an H100 (2 per SM).
// --latency: the same walk with each load's latency read by clock64 (the clock before the load, and after
// an instruction that needs its value), lane 0 of every warp: per (G, S) the mean latency in SM cycles and
// its histogram over the grid's loads - does a request merged into another come back sooner than a lookup?
#include <cstdio>
#include <cstring>
#include <vector>

#include "../include/event_timer.h"
#include "../include/ubench_main.h"

namespace {

constexpr int kThreads = 256;
constexpr int kLinesPerGroup = 64;
constexpr int kReps = 16;

__device__ __forceinline__ int load_cg(const int4* p) {
  int a, b, c, d;
  asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
  return a ^ b ^ c ^ d;
}

__global__ void __launch_bounds__(kThreads) grouped_reads(const int4* __restrict__ buf, int* sink, int groups,
                                                          int stagger) {
  const int lane = threadIdx.x & 31;
  const long gwarp = static_cast<long>(blockIdx.x) * (kThreads / 32) + (threadIdx.x >> 5);
  const long group = gwarp % groups;
  const int start = static_cast<int>((gwarp / groups) * stagger % kLinesPerGroup) & ~3;  // whole instructions
  const int4* base = buf + group * kLinesPerGroup * 8;
  int acc = 0;
  for (int r = 0; r < kReps; ++r) {
#pragma unroll 4
    for (int i = 0; i < kLinesPerGroup; i += 4) {
      const int line = (start + i + lane / 8) % kLinesPerGroup;
      acc ^= load_cg(base + line * 8 + lane % 8);
    }
  }
  if (acc == 0x7fffffff) sink[gwarp] = acc;  // practically never; keeps the loads
}

// Latency buckets in SM cycles: [0,100), [100,150), ..., the last open-ended; bucket b starts at bucket_edge(b - 1).
constexpr int kBuckets = 9;
__host__ __device__ constexpr long long bucket_edge(int b) {
  constexpr long long edges[kBuckets - 1] = {100, 150, 200, 250, 300, 400, 600, 1000};
  return edges[b];
}
__device__ __forceinline__ int bucket_of(long long cycles) {
  int b = 0;
  while (b < kBuckets - 1 && cycles >= bucket_edge(b)) ++b;
  return b;
}

// The walk of grouped_reads, one load at a time, each timed: the next load issues after the previous one's
// value is used (grouped_reads' compiled loop keeps four in flight). The compiler issues each 16-load block's
// first load before its first clock read, so one load in 16 reads as under 100 cycles.
__global__ void __launch_bounds__(kThreads) grouped_reads_timed(const int4* __restrict__ buf, int* sink, int groups,
                                                                int stagger, unsigned long long* totals) {
  const int lane = threadIdx.x & 31;
  const long gwarp = static_cast<long>(blockIdx.x) * (kThreads / 32) + (threadIdx.x >> 5);
  const long group = gwarp % groups;
  const int start = static_cast<int>((gwarp / groups) * stagger % kLinesPerGroup) & ~3;
  const int4* base = buf + group * kLinesPerGroup * 8;
  int acc = 0;
  unsigned long long sum = 0, count[kBuckets] = {};
  for (int r = 0; r < kReps; ++r) {
    for (int i = 0; i < kLinesPerGroup; i += 4) {
      const int line = (start + i + lane / 8) % kLinesPerGroup;
      long long t0, t1;
      int used;
      asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
      const int v = load_cg(base + line * 8 + lane % 8);
      asm volatile("add.s32 %0, %1, 1;" : "=r"(used) : "r"(v));  // waits for the load's data
      asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
      acc ^= used;
      sum += static_cast<unsigned long long>(t1 - t0);
      ++count[bucket_of(t1 - t0)];
    }
  }
  if (lane == 0) {
    atomicAdd(&totals[0], sum);
    for (int b = 0; b < kBuckets; ++b) atomicAdd(&totals[1 + b], count[b]);
  }
  if (acc == 0x7fffffff) sink[gwarp] = acc;
}

struct Case {
  int groups, stagger;
};

}  // namespace

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
  const bool latency = argc > 1 && std::strcmp(argv[1], "--latency") == 0;
  return ubench_main("gms-lrc-ubench", [&](const gpuDeviceProp& prop) {
    const int grid = 2 * prop.multiProcessorCount;
    const int warps = grid * (kThreads / 32);
    std::vector<Case> cases;
    for (int g : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}) cases.push_back({g, 0});
    cases.push_back({warps, 0});  // every warp its own lines: nothing to merge
    for (int g : {1, 16, 128})
      for (int s : {4, 16}) cases.push_back({g, s});
    const size_t bytes = static_cast<size_t>(warps) * kLinesPerGroup * 128;
    int4* buf = nullptr;
    int* sink = nullptr;
    GPU_CHECK(gpuMalloc(&buf, bytes));
    GPU_CHECK(gpuMalloc(&sink, warps * sizeof(int)));
    GPU_CHECK(gpuMemset(buf, 1, bytes));
    gmsv::Timer timer;
    unsigned long long* totals = nullptr;
    GPU_CHECK(gpuMalloc(&totals, (1 + kBuckets) * sizeof(unsigned long long)));
    for (const Case& c : cases) {
      if (latency) {
        grouped_reads<<<grid, kThreads>>>(buf, sink, c.groups, c.stagger);  // warm: the lines in L2
        GPU_CHECK(gpuMemset(totals, 0, (1 + kBuckets) * sizeof(unsigned long long)));
        grouped_reads_timed<<<grid, kThreads>>>(buf, sink, c.groups, c.stagger, totals);
        unsigned long long t[1 + kBuckets];
        GPU_CHECK(gpuMemcpy(t, totals, sizeof(t), gpuMemcpyDeviceToHost));
        unsigned long long loads = 0;
        for (int b = 0; b < kBuckets; ++b) loads += t[1 + b];
        std::printf("{\"measurement\": \"lrc_latency\", \"groups\": %d, \"stagger\": %d, \"loads\": %llu, "
                    "\"mean_cycles\": %.1f, \"bucket_edges\": [",
                    c.groups, c.stagger, loads, static_cast<double>(t[0]) / static_cast<double>(loads));
        for (int b = 0; b + 1 < kBuckets; ++b) std::printf("%s%lld", b ? ", " : "", bucket_edge(b));
        std::printf("], \"share\": [");
        for (int b = 0; b < kBuckets; ++b)
          std::printf("%s%.4f", b ? ", " : "", static_cast<double>(t[1 + b]) / static_cast<double>(loads));
        std::printf("]}\n");
        continue;
      }
      if (profile) {
        for (int i = 0; i < 2; ++i) grouped_reads<<<grid, kThreads>>>(buf, sink, c.groups, c.stagger);
        GPU_CHECK(gpuDeviceSynchronize());
        continue;
      }
      grouped_reads<<<grid, kThreads>>>(buf, sink, c.groups, c.stagger);  // warm: the lines in L2
      const std::vector<double> ms =
          timer.sorted_ms([&] { grouped_reads<<<grid, kThreads>>>(buf, sink, c.groups, c.stagger); }, 20);
      const double requested = static_cast<double>(warps) * kLinesPerGroup * 128.0 * kReps;
      std::printf("{\"measurement\": \"lrc_capacity\", \"groups\": %d, \"stagger\": %d, \"grid\": %d, \"threads\": %d, "
                  "\"lines_per_group\": %d, \"requested_bytes\": %.0f, \"ms.median\": %.5f, \"ms.min\": %.5f}\n",
                  c.groups, c.stagger, grid, kThreads, kLinesPerGroup, requested, ms[ms.size() / 2], ms.front());
    }
    GPU_CHECK(gpuGetLastError());
  });
}
