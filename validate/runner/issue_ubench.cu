// gms-issue-ubench: how a sub-partition shares its issue slots among the CTAs of an SM when their warps
// all want to issue - the rule `sm.warp_scheduler` has to follow. Every warp runs the same FFMA loop
// (CHAINS independent chains, the same FFMA count per warp in every configuration) and stamps its SM,
// CTA and clock64 at start and end. Per SM, the CTAs are ranked by age (start time, then blockIdx) and
// each one's end is read as a fraction of the SM's span (first start to last end); the median over the
// SMs that hold exactly the configured CTAs is printed per rank, with each CTA's own warp-end spread.
//   ctas_per_sm x threads  warps per sub-partition; chains 16: one warp alone can issue every cycle,
//   chains 2 / 1: a warp issues every 2nd / 4th cycle at most (the FFMA's dependent latency), so the
//   port is only full with several warps.
// --wake: the same loop interrupted every PERIOD iterations by an event each warp waits for - a
// __syncthreads (barrier) or a dependent L2 load (long scoreboard) - to see whether a warp keeps its age's
// priority after it wakes (the ladder's synchronous K tiles wake every warp twice per tile).
// --shared: every iteration a shared load (LDS.32, one wavefront) whose value each of the CHAINS FFMAs adds - the
// seed-002 ladder's inner loop in miniature (12 loads to 32 FFMAs there) - to see whether warps that wait on the
// shared-memory path keep their age's priority.
// --rate: warps of 3 chains (an FFMA 3 cycles of every 4: two such warps want more than the port) without events,
// one and two warps a sub-partition per CTA - how the port is split between warps that each want most of it, the
// rate the model's instruction blocks hold it at.
// Prints one JSON object per configuration. CUDA only (clock64, %smid).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kFfmasPerWarp = 1 << 18;

// Every warp: its chains set, a barrier, clock64, `loop(a)`, clock64; lane 0 stores SM, warp, CTA and both stamps
// (the end zeroed if the chains' sum is a value they never take, so the loop is not optimised away).
template <int CHAINS, class Loop>
__device__ __forceinline__ void stamped(long long* stamps, Loop loop) {
  float a[CHAINS];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) a[j] = threadIdx.x + j;
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  __syncthreads();
  const long long t0 = clock64();
  loop(a);
  const long long t1 = clock64();
  float s = 0;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) s += a[j];
  if ((threadIdx.x & 31) == 0) {
    long long* o = stamps + 5 * (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
    o[0] = smid, o[1] = threadIdx.x / 32, o[2] = blockIdx.x, o[3] = t0, o[4] = s == 1.2345f ? 0 : t1;
  }
}

template <int CHAINS>
__global__ void issue_share(long long* stamps) {
  stamped<CHAINS>(stamps, [](float* a) {
    for (int i = 0; i < kFfmasPerWarp / CHAINS; ++i)
#pragma unroll
      for (int j = 0; j < CHAINS; ++j) a[j] = fmaf(a[j], 0.9999f, 0.0001f);
  });
}

enum Wake { kNone = 0, kBarrier = 1, kLoad = 2 };
const char* const kWakeNames[] = {"none", "barrier", "load"};

// The loop in blocks of `period` iterations, each followed by the wake event. The load's address depends on
// the first chain (mask 0 at run time: every warp reads the same line, an L2 hit, __ldcg skips the L1) and
// its value feeds that chain times zero, so the warp stalls on it.
template <int CHAINS, int WAKE>
__global__ void issue_share_wake(long long* stamps, int period, const float* line, int mask, float zero) {
  stamped<CHAINS>(stamps, [=](float* a) {
    for (int b = 0; b < kFfmasPerWarp / CHAINS / period; ++b) {
      for (int i = 0; i < period; ++i)
#pragma unroll
        for (int j = 0; j < CHAINS; ++j) a[j] = fmaf(a[j], 0.9999f, 0.0001f);
      if (WAKE == kBarrier) __syncthreads();
      if (WAKE == kLoad) a[0] = fmaf(__ldcg(line + ((__float_as_int(a[0]) & mask) + (threadIdx.x & 31))), zero, a[0]);
    }
  });
}

template <int CHAINS>
__global__ void issue_share_lds(long long* stamps) {
  __shared__ float tile[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) tile[i] = 1e-7f * i;
  stamped<CHAINS>(stamps, [&](float* a) {
    const int lane = threadIdx.x & 31;
    for (int i = 0; i < kFfmasPerWarp / CHAINS; ++i) {
      const float v = tile[(i * 32 + lane) & 1023];
#pragma unroll
      for (int j = 0; j < CHAINS; ++j) a[j] = fmaf(a[j], 0.9999f, v);
    }
  });
}

using ubench::median;

struct Cta {
  long long start = -1, end = 0, first_end = -1;
  int block = 0;
};

// Runs `launch(ctas, threads, stamps)` and prints the configuration's line (`extra`: more JSON fields).
template <class Launch>
void measure_with(int sms, int ctas_per_sm, int threads, int chains, const char* extra, Launch launch) {
  const int ctas = ctas_per_sm * sms, warps_per_cta = threads / 32, warps = ctas * warps_per_cta;
  long long* stamps;
  GPU_CHECK(gpuMalloc(&stamps, sizeof(long long) * 5 * warps));
  launch(ctas, threads, stamps);
  GPU_CHECK_LAUNCH();
  std::vector<long long> h(5 * static_cast<size_t>(warps));
  GPU_CHECK(gpuMemcpy(h.data(), stamps, sizeof(long long) * h.size(), gpuMemcpyDeviceToHost));
  GPU_CHECK(gpuFree(stamps));
  std::map<int, std::map<int, Cta>> by_sm;  // sm -> blockIdx -> its warps' first start, ends
  for (int w = 0; w < warps; ++w) {
    const long long* o = &h[5 * static_cast<size_t>(w)];
    Cta& c = by_sm[static_cast<int>(o[0])][static_cast<int>(o[2])];
    c.block = static_cast<int>(o[2]);
    c.start = c.start < 0 ? o[3] : std::min(c.start, o[3]);
    c.end = std::max(c.end, o[4]);
    c.first_end = c.first_end < 0 ? o[4] : std::min(c.first_end, o[4]);
  }
  std::vector<std::vector<double>> end_frac(ctas_per_sm), start_frac(ctas_per_sm), spread(ctas_per_sm);
  std::vector<double> spans;
  int used = 0;
  for (auto& [sm, m] : by_sm) {
    if (static_cast<int>(m.size()) != ctas_per_sm) continue;
    std::vector<Cta> v;
    for (auto& [b, c] : m) v.push_back(c);
    std::sort(v.begin(), v.end(), [](const Cta& x, const Cta& y) { return x.start != y.start ? x.start < y.start : x.block < y.block; });
    long long lo = v[0].start, hi = 0;
    for (const Cta& c : v) hi = std::max(hi, c.end);
    if (hi <= lo) continue;
    ++used;
    const double span = static_cast<double>(hi - lo);
    spans.push_back(span);
    for (int r = 0; r < ctas_per_sm; ++r) {
      end_frac[r].push_back((v[r].end - lo) / span);
      start_frac[r].push_back((v[r].start - lo) / span);
      spread[r].push_back((v[r].end - v[r].first_end) / span);
    }
  }
  auto list = [&](const std::vector<std::vector<double>>& x) {
    std::printf("[");
    for (int r = 0; r < ctas_per_sm; ++r) std::printf("%s%.3f", r ? ", " : "", median(x[r]));
    std::printf("]");
  };
  std::printf("{\"measure\": \"issue_share\", %s\"ctas_per_sm\": %d, \"threads\": %d, \"chains\": %d, \"sms_used\": %d, "
              "\"span_cycles\": %.0f, \"end_fraction_by_age\": ", extra, ctas_per_sm, threads, chains, used, median(spans));
  list(end_frac);
  std::printf(", \"start_fraction_by_age\": ");
  list(start_frac);
  std::printf(", \"warp_end_spread_by_age\": ");
  list(spread);
  std::printf("}\n");
}

template <int CHAINS>
void measure(int sms, int ctas_per_sm, int threads) {
  measure_with(sms, ctas_per_sm, threads, CHAINS, "", [](int ctas, int thr, long long* st) { issue_share<CHAINS><<<ctas, thr>>>(st); });
}

template <int CHAINS, int WAKE>
void measure_wake(int sms, int ctas_per_sm, int threads, int period, const float* line) {
  char extra[96];
  std::snprintf(extra, sizeof extra, "\"wake\": \"%s\", \"period\": %d, ", kWakeNames[WAKE], period);
  measure_with(sms, ctas_per_sm, threads, CHAINS, extra, [&](int ctas, int thr, long long* st) {
    issue_share_wake<CHAINS, WAKE><<<ctas, thr>>>(st, period, line, 0, 0.0f);
  });
}

// --wake: each layout without an event, then with barriers and with loads every `period` iterations.
void measure_wakes(int sms) {
  float* line;
  GPU_CHECK(gpuMalloc(&line, 64 * sizeof(float)));
  GPU_CHECK(gpuMemset(line, 0, 64 * sizeof(float)));
  for (const auto& [ctas, threads] : {std::pair{4, 128}, std::pair{2, 256}}) {
    measure_wake<2, kNone>(sms, ctas, threads, 512, line);
    for (int period : {64, 512, 4096}) {
      measure_wake<2, kBarrier>(sms, ctas, threads, period, line);
      measure_wake<2, kLoad>(sms, ctas, threads, period, line);
    }
  }
  for (int period : {128, 256}) measure_wake<2, kBarrier>(sms, 4, 128, period, line);  // where the order goes
  // What a barrier costs a CTA alone on its SM: one warp (no one to wait for) and one per sub-partition.
  for (int threads : {32, 128}) {
    measure_wake<2, kNone>(sms, 1, threads, 512, line);
    measure_wake<2, kBarrier>(sms, 1, threads, 64, line);
    measure_wake<2, kBarrier>(sms, 1, threads, 512, line);
  }
  measure_wake<16, kBarrier>(sms, 2, 256, 64, line);  // warps that could issue every cycle
  measure_wake<16, kLoad>(sms, 2, 256, 64, line);
  measure_wake<1, kBarrier>(sms, 8, 128, 512, line);  // every 4th cycle, two warps a sub-partition apart in age
  measure_wake<1, kLoad>(sms, 8, 128, 512, line);
  GPU_CHECK(gpuFree(line));
}

// --rate: 3 chains, 2 and 4 CTAs of 128 threads (one warp of each a sub-partition) and 2 of 256 (two); no events, so
// the wake kernel's line is never loaded. And a lone CTA's 2-chain loop in blocks of 64 without an event: what a block
// costs beside the barrier that --wake's `barrier 64` puts after each.
void measure_rates(int sms) {
  float* line;
  GPU_CHECK(gpuMalloc(&line, 64 * sizeof(float)));
  for (const auto& [ctas, threads] : {std::pair{2, 128}, std::pair{4, 128}, std::pair{2, 256}})
    measure_wake<3, kNone>(sms, ctas, threads, 512, line);
  for (int threads : {32, 128}) measure_wake<2, kNone>(sms, 1, threads, 64, line);
  GPU_CHECK(gpuFree(line));
}

template <int CHAINS>
void measure_lds(int sms, int ctas_per_sm, int threads) {
  measure_with(sms, ctas_per_sm, threads, CHAINS, "\"wake\": \"lds\", \"period\": 1, ",
               [](int ctas, int thr, long long* st) { issue_share_lds<CHAINS><<<ctas, thr>>>(st); });
}

// --shared: one warp of each CTA per sub-partition (4 and 7 CTAs of 128 threads: r2_threads128 runs 7), two per
// sub-partition (2 x 256), and a CTA alone; a shared load to every 4 or 8 FFMAs.
void measure_ldss(int sms) {
  for (const auto& [ctas, threads] : {std::pair{1, 128}, std::pair{4, 128}, std::pair{7, 128}, std::pair{2, 256}}) {
    measure_lds<4>(sms, ctas, threads);
    measure_lds<8>(sms, ctas, threads);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int sms = gpu_sm_count();
    const std::pair<const char*, void (*)(int)> modes[] = {{"--shared", measure_ldss}, {"--rate", measure_rates}, {"--wake", measure_wakes}};
    for (const auto& [flag, measure_mode] : modes)
      if (argc > 1 && std::string(argv[1]) == flag) {
        measure_mode(sms);
        GPU_CHECK(gpuDeviceSynchronize());
        return 0;
      }
    for (int k : {2, 3, 4, 8}) measure<16>(sms, k, 128);  // one warp of each CTA per sub-partition
    measure<16>(sms, 2, 256);                              // the smem ubench's issue_order case
    measure<16>(sms, 4, 256);
    for (int k : {2, 4, 8}) measure<2>(sms, k, 128);       // a warp issues every 2nd cycle at most
    for (int k : {4, 8}) measure<1>(sms, k, 128);          // every 4th
    GPU_CHECK(gpuDeviceSynchronize());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms-issue-ubench: %s\n", e.what());
    return 1;
  }
}
