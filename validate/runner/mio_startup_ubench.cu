// gms-mio-startup-ubench: behind which shared-memory traffic does a new warp's first S2R wait?
// gms-mio-ubench's mio_startup (validate/results/h100/mio) found a new warp's first S2R waiting ~20,000 cycles
// behind older CTAs' rounds of conflicted STS and LDS in the later waves, whatever the rounds (so not until the
// older CTAs are done), while most warps of the first wave did not wait. The model, taking MIO entries oldest
// first, starves the first wave too (validate/scripts/mio_startup.py). This benchmark separates the traffic:
//
//   CTAs of 4 warps, 16 an SM, 8 waves. Each warp reads the clock, its thread index (S2R: its first MIO
//   instruction), the clock, then runs ROUNDS rounds of two phases, each 8 eight-way conflicted shared accesses
//   and a barrier. TRAFFIC: "none" (no rounds), "sts" (both phases stores), "lds" (both loads, summed),
//   "sts_lds" (stores, then loads: gms-mio-ubench's mio_startup), "sts_warps012" (warps 0-2 of each CTA store, each
//   phase closed by __syncwarp, warp 3 - sub-partition 3 - only reads its index: does the S2R of a warp whose
//   sub-partition holds none of the traffic wait while the SM's queue is full of the others'? later_waves_by_warp).
//   Printed per TRAFFIC: the S2R's issue delay (cycles between the clock reads) - median / p90 / mean over the
//   first wave's warps and over the later waves' - and per placement rank on its SM in the first wave (the CTAs
//   of an SM ranked by their clock64 at entry), the median over the SMs of the rank's entry (cycles after the
//   SM's first) and of its warps' delays: do only the CTAs placed after the traffic began wait? And where in a
//   2^15-cycle period of the SM's clock64 the starved S2Rs issue (a periodic release, or each warp's own bound?).
// CUDA only (%clock, %clock64, %smid, inline PTX).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kCtasPerSm = 16;
constexpr int kWaves = 8;
constexpr int kWarps = 4;
constexpr int kWords = 8 * 32 + 64;
enum Traffic { kNone = 0, kSts = 1, kLds = 2, kStsLds = 3, kStsNotWarp3 = 4 };
const char* traffic_name(int t) {
  return t == kNone ? "none" : t == kSts ? "sts" : t == kLds ? "lds" : t == kStsLds ? "sts_lds" : "sts_warps012";
}

// Lane l's word of an eight-way conflicted access: lanes 8 apart share a bank, 8 wavefronts.
__device__ __forceinline__ unsigned conflicted(const unsigned* base, unsigned lane, unsigned offset) {
  return static_cast<unsigned>(__cvta_generic_to_shared(base + (lane % 8) * 32 + lane / 8 + offset));
}

__device__ __forceinline__ void phase(bool loads, unsigned* buf, unsigned lane, unsigned& acc, bool cta_wide = true) {
  if (loads) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      unsigned v;
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(conflicted(buf, lane, 4 * i)) : "memory");
      acc += v;
    }
  } else {
#pragma unroll
    for (int i = 0; i < 8; ++i)
      asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(conflicted(buf, lane, 4 * i)), "r"(acc + i) : "memory");
  }
  if (cta_wide)
    __syncthreads();
  else
    __syncwarp();
}

// out[3 * (CTA x 4 + warp) + {0, 1, 2}] = SM, clock64 at entry, the S2R's issue delay.
__global__ void startup_beside(int traffic, int rounds, long long* out, unsigned* sink) {
  __shared__ __align__(128) unsigned buf[kWords];
  long long entry;
  unsigned t0, tid, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(entry) :: "memory");
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t0) :: "memory");
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid) :: "memory");
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t1) :: "memory");
  const unsigned lane = tid & 31;
  unsigned acc = tid;
  if (traffic != kNone)
    for (int r = 0; r < rounds; ++r) {
      if (traffic == kStsNotWarp3) {  // warps 0-2 store, no barrier; warp 3 (sub-partition 3) only reads its index
        if (tid / 32 % 4 == 3) break;
        phase(false, buf, lane, acc, false);
        phase(false, buf, lane, acc, false);
        continue;
      }
      phase(traffic == kLds, buf, lane, acc);
      phase(traffic != kSts, buf, lane, acc);
    }
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (lane == 0) {
    long long* o = out + 3 * (blockIdx.x * kWarps + tid / 32);
    o[0] = sm;
    o[1] = entry;
    o[2] = t1 - t0;
  }
  if (acc == 0x12345u) *sink = acc;
}

using ubench::median;

std::string stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  char b[160];
  std::snprintf(b, sizeof b, "{\"median\": %.0f, \"p90\": %.0f, \"mean\": %.1f}", median(v),
                v.empty() ? 0.0 : v[static_cast<size_t>(0.9 * (v.size() - 1))],
                v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size());
  return b;
}

void measure(int sms, int traffic, int rounds, unsigned* sink, const char* gpu) {
  const int ctas = sms * kCtasPerSm * kWaves;
  long long* dev;
  GPU_CHECK(gpuMalloc(&dev, sizeof(long long) * 3 * ctas * kWarps));
  std::vector<long long> host(static_cast<size_t>(3) * ctas * kWarps);
  std::vector<double> first, later;
  std::vector<std::vector<double>> later_by_warp(kWarps);  // warp w of a CTA sits on sub-partition w % 4
  std::vector<std::vector<double>> entry_by_rank(kCtasPerSm), delay_by_rank(kCtasPerSm);
  // Where in a 2^15-cycle period of %clock64 the starved S2Rs (delay over 5,000 cycles) issue: 16 bins of 2,048
  // cycles. A release at a periodic tick of the SM's clock puts them in one or two bins; a bound counted per warp
  // from its own wait spreads them like the warps' entries.
  std::vector<long long> phase(16, 0);
  for (int rep = 0; rep < 3; ++rep) {
    startup_beside<<<ctas, 32 * kWarps>>>(traffic, rounds, dev, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuMemcpy(host.data(), dev, sizeof(long long) * host.size(), gpuMemcpyDeviceToHost));
    std::vector<std::vector<std::pair<long long, int>>> per_sm(static_cast<size_t>(sms));  // first wave: (entry, CTA)
    for (int c = 0; c < ctas; ++c) {
      const long long* o = &host[3 * static_cast<size_t>(c) * kWarps];
      for (int w = 0; w < kWarps; ++w) {
        (c < sms * kCtasPerSm ? first : later).push_back(static_cast<double>(o[3 * w + 2]));
        if (c >= sms * kCtasPerSm) later_by_warp[static_cast<size_t>(w)].push_back(static_cast<double>(o[3 * w + 2]));
        if (o[3 * w + 2] > 5000) ++phase[static_cast<size_t>(((o[3 * w + 1] + o[3 * w + 2]) % 32768) / 2048)];
      }
      if (c < sms * kCtasPerSm && static_cast<size_t>(o[0]) < per_sm.size()) per_sm[static_cast<size_t>(o[0])].push_back({o[1], c});
    }
    for (auto& v : per_sm) {
      if (static_cast<int>(v.size()) != kCtasPerSm) continue;  // not a full first wave on this SM
      std::sort(v.begin(), v.end());
      for (int k = 0; k < kCtasPerSm; ++k) {
        entry_by_rank[k].push_back(static_cast<double>(v[k].first - v.front().first));
        const long long* o = &host[3 * static_cast<size_t>(v[k].second) * kWarps];
        std::vector<double> d;
        for (int w = 0; w < kWarps; ++w) d.push_back(static_cast<double>(o[3 * w + 2]));
        delay_by_rank[k].push_back(median(d));
      }
    }
  }
  std::string entries, delays, phases, by_warp;
  for (int w = 0; w < kWarps; ++w) by_warp += (w ? ", " : "") + stats(later_by_warp[static_cast<size_t>(w)]);
  for (size_t b = 0; b < phase.size(); ++b) phases += (b ? ", " : "") + std::to_string(phase[b]);
  for (int k = 0; k < kCtasPerSm; ++k) {
    entries += (k ? ", " : "") + std::to_string(static_cast<long long>(median(entry_by_rank[k])));
    delays += (k ? ", " : "") + std::to_string(static_cast<long long>(median(delay_by_rank[k])));
  }
  std::printf("{\"measure\": \"s2r_beside\", \"traffic\": \"%s\", \"rounds\": %d, \"ctas\": %d, \"first_wave\": %s, "
              "\"later_waves\": %s, \"first_wave_entry_by_rank\": [%s], \"first_wave_delay_by_rank\": [%s], "
              "\"starved_issue_phase_2048\": [%s], \"later_waves_by_warp\": [%s], \"sms_counted\": %zu, \"gpu\": \"%s\"}\n",
              traffic_name(traffic), rounds, ctas, stats(first).c_str(), stats(later).c_str(), entries.c_str(),
              delays.c_str(), phases.c_str(), by_warp.c_str(), entry_by_rank[0].size() / 3, gpu);
  GPU_CHECK(gpuFree(dev));
}

}  // namespace

int main() {
  return ubench_main("gms-mio-startup-ubench", [](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    unsigned* sink;
    GPU_CHECK(gpuMalloc(&sink, 4));
    measure(sms, kNone, 0, sink, prop.name);
    for (int traffic : {kSts, kLds, kStsLds})
      for (int rounds : {4, 16, 64}) measure(sms, traffic, rounds, sink, prop.name);
    for (int rounds : {16, 64}) measure(sms, kStsNotWarp3, rounds, sink, prop.name);
  });
}
