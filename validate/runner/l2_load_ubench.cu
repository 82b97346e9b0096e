// gms-l2-load-ubench: how long an L2 hit takes while the L2 is busy (issues 10/11). The padded WMMA
// GEMM looks up 6.4 TB/s of L2 sectors (85 % of gms-l2-ubench's 7.55 TB/s) and its warps barely wait
// on global data; the model's slices queue at that load. This measures the curve the model must
// follow: one CTA per SM, warp 0 a dependent chase of ld.global.cg hits (cycles per hop, clock64),
// warps 1..W streaming whole-line ld.global.cg reads of an L2-resident buffer (the load). For W = 0
// .. 31 it prints the achieved L2 read bandwidth (bytes the load warps read / kernel time) and the
// chase's cycles per hop (median and 90th percentile over the SMs).
// `gms-l2-load-ubench dram`: the same for DRAM (issue 11: GEMVs with fewer warps in flight draw less
// bandwidth on silicon than in the model) - a 4 GiB load buffer, and each probe a ring of 1,024 lines
// at random places in its SM's own 16 MiB, each visited once per measurement, so every hop misses L2.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../include/event_timer.h"

namespace {

constexpr int kLinesPerWarp = 64;       // each load warp's own 8 KB window
constexpr int kChaseLines = 64;         // each probe's ring of lines
constexpr int kChaseHops = 512;         // measured hops, after kChaseWarmHops
constexpr int kChaseWarmHops = 64;      // the load warps ramp up meanwhile
constexpr long long kLoadBytesPerSm = 48ll << 20;  // load per SM per launch (the load outlasts the chase)
constexpr size_t kLoadBufferBytes = 16ull << 20;   // L2-resident (near partition on the H100: ~25 MB)
constexpr size_t kDramLoadBufferBytes = 4ull << 30;  // dram mode: 80x the L2
constexpr int kDramChaseLines = 1024;                // dram mode: more lines than hops, none revisited
constexpr size_t kDramRingWords = (16ull << 20) / 4; // dram mode: each probe's own 16 MiB

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
                               size_t ring_words, long long* hop_cycles, int* sink) {
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  if (warp == 0) {
    if (lane != 0) return;
    // The ring of this SM's probe: ring_words words, its next-pointers word offsets within it.
    const unsigned* ring = chase + static_cast<size_t>(blockIdx.x) * ring_words;
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

// dram mode: writes each SM's ring, ring[pos[k]] = pos[k + 1], from the host's random line positions.
__global__ void write_rings(unsigned* chase, size_t ring_words, const unsigned* pos, int lines) {
  const int sm = static_cast<int>(blockIdx.x);
  for (int k = static_cast<int>(threadIdx.x); k < lines; k += static_cast<int>(blockDim.x))
    chase[static_cast<size_t>(sm) * ring_words + pos[sm * lines + k]] = pos[sm * lines + (k + 1) % lines];
}

}  // namespace

int main(int argc, char** argv) {
  const bool dram = argc > 1 && std::string(argv[1]) == "dram";
  const size_t load_buffer_bytes = dram ? kDramLoadBufferBytes : kLoadBufferBytes;
  const int chase_lines = dram ? kDramChaseLines : kChaseLines;
  const size_t ring_words = dram ? kDramRingWords : static_cast<size_t>(kChaseLines) * 32;
  cudaDeviceProp prop{};
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  int4* buf = nullptr;
  unsigned* chase = nullptr;
  long long* hops = nullptr;
  int* sink = nullptr;
  GPU_CHECK(cudaMalloc(&buf, load_buffer_bytes));
  GPU_CHECK(cudaMemset(buf, 1, load_buffer_bytes));
  const size_t chase_words = static_cast<size_t>(sms) * ring_words;
  GPU_CHECK(cudaMalloc(&chase, chase_words * sizeof(unsigned)));
  GPU_CHECK(cudaMemset(chase, 0, chase_words * sizeof(unsigned)));
  GPU_CHECK(cudaMalloc(&hops, sms * sizeof(long long)));
  GPU_CHECK(cudaMalloc(&sink, sms * 32 * 32 * sizeof(int)));
  // Each probe's ring: its lines in a random order, at word offsets within the SM's ring: the L2 mode
  // uses every line of a 64-line ring, the dram mode 1,024 random lines of 16 MiB.
  std::vector<unsigned> pos(static_cast<size_t>(sms) * chase_lines);
  std::mt19937 rng(42);
  for (int s = 0; s < sms; ++s) {
    std::vector<unsigned> lines(ring_words / 32);
    std::iota(lines.begin(), lines.end(), 0u);
    std::shuffle(lines.begin() + 1, lines.end(), rng);  // line 0 starts the ring
    for (int k = 0; k < chase_lines; ++k) pos[static_cast<size_t>(s) * chase_lines + k] = lines[static_cast<size_t>(k)] * 32;
  }
  unsigned* dpos = nullptr;
  GPU_CHECK(cudaMalloc(&dpos, pos.size() * sizeof(unsigned)));
  GPU_CHECK(cudaMemcpy(dpos, pos.data(), pos.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  write_rings<<<sms, 256>>>(chase, ring_words, dpos, chase_lines);
  GPU_CHECK_LAUNCH();
  GPU_CHECK(cudaDeviceSynchronize());
  GPU_CHECK(cudaFree(dpos));
  gmsv::Timer timer;
  for (int load_warps : {0, 1, 2, 4, 8, 12, 16, 24, 31}) {
    const long long bytes_per_warp_rep = kLinesPerWarp * 128;
    const long long reps = load_warps ? std::max(1ll, kLoadBytesPerSm / load_warps / bytes_per_warp_rep) : 0;
    auto launch = [&] {
      load_and_probe<<<sms, 32 * (1 + load_warps)>>>(buf, load_buffer_bytes / 128, reps, chase, ring_words, hops, sink);
      GPU_CHECK_LAUNCH();
    };
    launch();  // warm: buffer and rings in L2
    GPU_CHECK(cudaDeviceSynchronize());
    std::vector<double> ms = {0.0};
    if (dram && load_warps == 0) {
      // Nothing streams: write 512 MiB over the L2 first, or the probe hits the lines the warm-up left.
      GPU_CHECK(cudaMemset(buf, 2, 512ull << 20));
      launch();
      GPU_CHECK(cudaDeviceSynchronize());
    } else {
      ms = timer.sorted_ms(launch, 7);
    }
    std::vector<long long> h(sms);
    GPU_CHECK(cudaMemcpy(h.data(), hops, sms * sizeof(long long), cudaMemcpyDeviceToHost));  // the last launch
    std::sort(h.begin(), h.end());
    const double med = ms[ms.size() / 2];
    const double bytes = static_cast<double>(sms) * load_warps * reps * bytes_per_warp_rep;
    std::printf("{\"measurement\": \"%s\", \"load_warps_per_sm\": %d, \"sms\": %d, "
                "\"load_bytes\": %.0f, \"ms.median\": %.4f, \"%s\": %.3f, "
                "\"probe_cycles_per_hop.median\": %.1f, \"probe_cycles_per_hop.p90\": %.1f, "
                "\"probe_cycles_per_hop.min\": %.1f}\n",
                dram ? "dram_latency_under_load" : "l2_hit_latency_under_load", load_warps, sms, bytes, med,
                dram ? "dram_read_tb_per_s" : "l2_read_tb_per_s", load_warps ? bytes / (med * 1e-3) / 1e12 : 0.0,
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
