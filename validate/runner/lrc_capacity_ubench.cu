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

struct Case {
  int groups, stagger;
};

}  // namespace

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
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
    for (const Case& c : cases) {
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
