// gms-l2-mix-ubench: does an L2 miss's data take the slice's read-out path that hits saturate? (issue 11:
// the model gives every read a turn on its slice's data path, `l2.slice_bytes_per_cycle`, measured with
// hits alone; `l2.miss_data_forwarded` would let a miss's reply pass it by. Which one silicon does
// decides how late CTAs catch up on the row-major GEMMs, docs/calibration.md.)
// One CTA per SM; its first H warps stream whole-line ld.global.cg hits over a 16 MiB L2-resident
// buffer, its next M warps stream whole-line ld.global.cg misses over a 4 GiB buffer (evict-first,
// createpolicy: the stream does not displace the hit buffer). Every warp runs for a fixed time
// (%globaltimer: a warm-up, then the window) and counts the bytes of the repetitions it started in the
// window; each side's bandwidth is its bytes over the window. If a fill takes the hits' path, hits and
// misses together stay at what hits deliver alone; if not, the misses add to it.
//   gms-l2-mix-ubench [--reps N]   one JSON line per (H, M): median of N launches (default 5) after a warm one
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"

namespace {

constexpr int kLinesPerWarp = 64;                   // each warp's 8 KB window per repetition
constexpr size_t kHitBufferBytes = 16ull << 20;     // L2-resident (gms-l2-load-ubench's buffer)
constexpr size_t kMissBufferBytes = 4ull << 30;     // ~70x the L2: a line comes back long after it left
constexpr unsigned long long kWarmNs = 300000;      // the streams ramp up and the L2 settles
constexpr unsigned long long kWindowNs = 2000000;   // the measured window

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ int4 load_hit(const int4* p) {
  int4 v;
  asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

__device__ __forceinline__ int4 load_miss(const int4* p, unsigned long long policy) {
  int4 v;
  asm volatile("ld.global.cg.L2::cache_hint.v4.s32 {%0,%1,%2,%3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));
  return v;
}

// blockDim.x = 32 * (hit_warps + miss_warps). out[4 * block]: hit bytes, miss bytes, SM cycles of the
// first warp's whole run, its nanoseconds (the SM clock).
__global__ void __launch_bounds__(1024, 1) mix_stream(const int4* hits, size_t hit_windows, const int4* misses,
                                                      size_t miss_windows, int hit_warps, unsigned long long* out, int* sink) {
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  const bool hit = warp < hit_warps;
  const int role_warps = hit ? hit_warps : static_cast<int>(blockDim.x / 32) - hit_warps;
  const size_t total = static_cast<size_t>(gridDim.x) * role_warps;
  const size_t me = static_cast<size_t>(blockIdx.x) * role_warps + (hit ? warp : warp - hit_warps);
  const int4* buf = hit ? hits : misses;
  const size_t windows = hit ? hit_windows : miss_windows;
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  const unsigned long long t0 = global_ns();
  const long long c0 = clock64();
  unsigned long long counted = 0, now = 0;
  int acc = 0;
  for (size_t r = 0;; ++r) {
    now = global_ns() - t0;
    if (now >= kWarmNs + kWindowNs) break;
    // Each repetition on the next window of the grid's round: an SM reads a line again only after all
    // its role's warps swept the buffer (no L1 reuse; the misses' lines are gigabytes old by then).
    const int4* w = buf + ((me + r * total) % windows) * kLinesPerWarp * 8;
#pragma unroll
    for (int j = 0; j < kLinesPerWarp / 4; ++j) {
      const int4 v = hit ? load_hit(w + j * 32 + lane) : load_miss(w + j * 32 + lane, policy);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (now >= kWarmNs) counted += kLinesPerWarp * 128;
  }
  if (lane == 0) atomicAdd(&out[4 * blockIdx.x + (hit ? 0 : 1)], counted);
  if (threadIdx.x == 0) {
    out[4 * blockIdx.x + 2] = static_cast<unsigned long long>(clock64() - c0);
    out[4 * blockIdx.x + 3] = global_ns() - t0;
  }
  if (acc == 0x7fffffff) sink[blockIdx.x * 32 + lane] = acc;  // keeps the loads
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  if (argc == 3 && std::string(argv[1]) == "--reps") reps = std::max(1, std::atoi(argv[2]));
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  int4 *hits = nullptr, *misses = nullptr;
  unsigned long long* out = nullptr;
  int* sink = nullptr;
  GPU_CHECK(gpuMalloc(&hits, kHitBufferBytes));
  GPU_CHECK(gpuMemset(hits, 1, kHitBufferBytes));
  GPU_CHECK(gpuMalloc(&misses, kMissBufferBytes));
  GPU_CHECK(gpuMemset(misses, 2, kMissBufferBytes));
  GPU_CHECK(gpuMalloc(&out, static_cast<size_t>(sms) * 4 * sizeof(unsigned long long)));
  GPU_CHECK(gpuMalloc(&sink, static_cast<size_t>(sms) * 32 * sizeof(int)));
  const size_t hit_windows = kHitBufferBytes / (kLinesPerWarp * 128), miss_windows = kMissBufferBytes / (kLinesPerWarp * 128);
  // Hits alone (the path's ceiling), misses alone (DRAM's), then both at once.
  const std::vector<std::pair<int, int>> mixes = {{8, 0},  {16, 0}, {24, 0}, {0, 8},  {0, 16}, {0, 24},
                                                  {4, 4},  {8, 8},  {16, 8}, {8, 16}, {16, 16}, {24, 8}};
  std::vector<unsigned long long> h(static_cast<size_t>(sms) * 4);
  for (auto [hw, mw] : mixes) {
    std::vector<double> hit_tb, miss_tb, mhz;
    for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms: the hit buffer into L2
      GPU_CHECK(gpuMemset(out, 0, h.size() * sizeof(unsigned long long)));
      mix_stream<<<sms, 32 * (hw + mw)>>>(hits, hit_windows, misses, miss_windows, hw, out, sink);
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuDeviceSynchronize());
      if (rep == 0 && reps > 1) continue;
      GPU_CHECK(gpuMemcpy(h.data(), out, h.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
      double hb = 0, mb = 0;
      std::vector<double> clock;
      for (int s = 0; s < sms; ++s) {
        hb += static_cast<double>(h[4 * s]);
        mb += static_cast<double>(h[4 * s + 1]);
        clock.push_back(static_cast<double>(h[4 * s + 2]) / static_cast<double>(h[4 * s + 3]) * 1e3);
      }
      std::sort(clock.begin(), clock.end());
      hit_tb.push_back(hb / (kWindowNs * 1e-9) / 1e12);
      miss_tb.push_back(mb / (kWindowNs * 1e-9) / 1e12);
      mhz.push_back(clock[clock.size() / 2]);
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    const double hm = median(hit_tb), mm = median(miss_tb);
    std::printf("{\"measurement\": \"l2_hits_beside_misses\", \"hit_warps_per_sm\": %d, \"miss_warps_per_sm\": %d, "
                "\"sms\": %d, \"window_ns\": %llu, \"runs\": %zu, \"hit_tb_per_s\": %.3f, \"miss_tb_per_s\": %.3f, "
                "\"total_tb_per_s\": %.3f, \"hit_tb_per_s.min\": %.3f, \"hit_tb_per_s.max\": %.3f, "
                "\"miss_tb_per_s.min\": %.3f, \"miss_tb_per_s.max\": %.3f, \"sm_mhz\": %.0f}\n",
                hw, mw, sms, kWindowNs, hit_tb.size(), hm, mm, hm + mm, *std::min_element(hit_tb.begin(), hit_tb.end()),
                *std::max_element(hit_tb.begin(), hit_tb.end()), *std::min_element(miss_tb.begin(), miss_tb.end()),
                *std::max_element(miss_tb.begin(), miss_tb.end()), median(mhz));
    std::fflush(stdout);  // a later failure keeps the rows before it
  }
  GPU_CHECK(gpuFree(hits));
  GPU_CHECK(gpuFree(misses));
  GPU_CHECK(gpuFree(out));
  GPU_CHECK(gpuFree(sink));
  return 0;
}
