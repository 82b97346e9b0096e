// gms-l2-load-ubench: how long an L2 hit takes while the L2 is busy (issues 10/11). The padded WMMA
// GEMM looks up 6.4 TB/s of L2 sectors (85 % of gms-l2-ubench's 7.55 TB/s) and its warps barely wait
// on global data; the model's slices queue at that load. This measures the curve the model must
// follow: one CTA per SM, warp 0 a dependent chase of ld.global.cg hits (cycles per hop, clock64),
// warps 1..W streaming whole-line ld.global.cg reads of an L2-resident buffer (the load). For W = 0
// .. 31 it prints the achieved L2 read bandwidth (bytes the load warps read / kernel time) and the
// chase's cycles per hop (median and 90th percentile over the SMs).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "../include/event_timer.h"

namespace {

constexpr int kLinesPerWarp = 64;       // each load warp's own 8 KB window
constexpr int kChaseLines = 64;         // each probe's ring of lines
constexpr int kChaseHops = 512;         // measured hops, after kChaseWarmHops
constexpr int kChaseWarmHops = 64;      // the load warps ramp up meanwhile
constexpr long long kLoadBytesPerSm = 48ll << 20;  // load per SM per launch (the load outlasts the chase)
constexpr size_t kLoadBufferBytes = 16ull << 20;   // L2-resident (near partition on the H100: ~25 MB)

__device__ __forceinline__ int4 load_cg(const int4* p) {
  int4 v;
  asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

__device__ __forceinline__ unsigned load_cg_u32(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

// blockDim.x = 32 * (1 + load_warps). Warp 0: the probe. Others: the load.
__global__ void __launch_bounds__(1024, 1) load_and_probe(const int4* buf, size_t buf_lines, long long reps, const unsigned* chase,
                               long long* hop_cycles, int* sink) {
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  if (warp == 0) {
    if (lane != 0) return;
    // The ring of this SM's probe: kChaseLines entries, one per line (32 words apart).
    const unsigned* ring = chase + static_cast<size_t>(blockIdx.x) * kChaseLines * 32;
    unsigned i = 0;
    for (int h = 0; h < kChaseWarmHops; ++h) i = load_cg_u32(ring + i);
    const long long t0 = clock64();
    for (int h = 0; h < kChaseHops; ++h) i = load_cg_u32(ring + i);
    const long long t1 = clock64();
    hop_cycles[blockIdx.x] = t1 - t0;
    sink[blockIdx.x * 32] = static_cast<int>(i);
    return;
  }
  // A warp instruction reads 4 whole lines (16 B per lane); 16 instructions cover a 64-line window.
  // Each repetition moves the warp to the next window of the grid's round (all warps together sweep
  // the buffer), so an SM reads a line again only megabytes later: no L1 reuse, even for .cg (the
  // H100's L1 serves repeated .cg reads of a small window: gms-l2-ubench's cp_once patterns).
  const size_t load_warps = blockDim.x / 32 - 1, total = static_cast<size_t>(gridDim.x) * load_warps;
  const size_t global_warp = static_cast<size_t>(blockIdx.x) * load_warps + (warp - 1);
  const size_t windows = buf_lines / kLinesPerWarp;
  int acc = 0;
  for (long long r = 0; r < reps; ++r) {
    const int4* w = buf + ((global_warp + static_cast<size_t>(r) * total) % windows) * kLinesPerWarp * 8;
#pragma unroll
    for (int j = 0; j < kLinesPerWarp / 4; ++j) {
      const int4 v = load_cg(w + j * 32 + lane);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  if (acc == 0x7fffffff) sink[blockIdx.x * 32 + lane] = acc;  // keeps the loads
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  int4* buf = nullptr;
  unsigned* chase = nullptr;
  long long* hops = nullptr;
  int* sink = nullptr;
  GPU_CHECK(cudaMalloc(&buf, kLoadBufferBytes));
  GPU_CHECK(cudaMemset(buf, 1, kLoadBufferBytes));
  const size_t chase_words = static_cast<size_t>(sms) * kChaseLines * 32;
  GPU_CHECK(cudaMalloc(&chase, chase_words * sizeof(unsigned)));
  GPU_CHECK(cudaMalloc(&hops, sms * sizeof(long long)));
  GPU_CHECK(cudaMalloc(&sink, sms * 32 * 32 * sizeof(int)));
  // Each probe's ring: its 64 lines in a random order (word offsets within the SM's ring).
  std::vector<unsigned> host(chase_words, 0);
  std::mt19937 rng(42);
  for (int s = 0; s < sms; ++s) {
    std::vector<unsigned> order(kChaseLines);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (int k = 0; k < kChaseLines; ++k)
      host[static_cast<size_t>(s) * kChaseLines * 32 + order[k] * 32] = order[(k + 1) % kChaseLines] * 32;
  }
  GPU_CHECK(cudaMemcpy(chase, host.data(), chase_words * sizeof(unsigned), cudaMemcpyHostToDevice));
  gmsv::Timer timer;
  for (int load_warps : {0, 1, 2, 4, 8, 12, 16, 24, 31}) {
    const long long bytes_per_warp_rep = kLinesPerWarp * 128;
    const long long reps = load_warps ? std::max(1ll, kLoadBytesPerSm / load_warps / bytes_per_warp_rep) : 0;
    auto launch = [&] {
      load_and_probe<<<sms, 32 * (1 + load_warps)>>>(buf, kLoadBufferBytes / 128, reps, chase, hops, sink);
      GPU_CHECK_LAUNCH();
    };
    launch();  // warm: buffer and rings in L2
    GPU_CHECK(cudaDeviceSynchronize());
    const std::vector<double> ms = timer.sorted_ms(launch, 7);
    std::vector<long long> h(sms);
    GPU_CHECK(cudaMemcpy(h.data(), hops, sms * sizeof(long long), cudaMemcpyDeviceToHost));  // the last launch
    std::sort(h.begin(), h.end());
    const double med = ms[ms.size() / 2];
    const double bytes = static_cast<double>(sms) * load_warps * reps * bytes_per_warp_rep;
    std::printf("{\"measurement\": \"l2_hit_latency_under_load\", \"load_warps_per_sm\": %d, \"sms\": %d, "
                "\"load_bytes\": %.0f, \"ms.median\": %.4f, \"l2_read_tb_per_s\": %.3f, "
                "\"probe_cycles_per_hop.median\": %.1f, \"probe_cycles_per_hop.p90\": %.1f, "
                "\"probe_cycles_per_hop.min\": %.1f}\n",
                load_warps, sms, bytes, med, load_warps ? bytes / (med * 1e-3) / 1e12 : 0.0,
                static_cast<double>(h[h.size() / 2]) / kChaseHops, static_cast<double>(h[h.size() * 9 / 10]) / kChaseHops,
                static_cast<double>(h.front()) / kChaseHops);
    std::fflush(stdout);  // a later failure keeps the rows before it
  }
  GPU_CHECK(cudaFree(buf));
  GPU_CHECK(cudaFree(chase));
  GPU_CHECK(cudaFree(hops));
  GPU_CHECK(cudaFree(sink));
  return 0;
}
