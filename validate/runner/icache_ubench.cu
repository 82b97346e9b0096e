// gms-icache-ubench: what a loop larger than the instruction caches costs a warp, and how evenly. Seed 002's r3 rungs
// run ~2,800-instruction (~44 KB) unrolled loops whose profile books 7 % (two CTAs an SM) to 14 % (one) of a warp's
// time as no_instruction - the instruction fetch the model has no state for (docs/co-resident-ctas.md, "A K tile phase
// by phase"). Here: a loop of N independent FFMAs (8 chains, so that one warp a sub-partition can issue every cycle),
// N = 256 .. 8,192 (4 .. 128 KB of SASS), run ITERS times by every warp of CTAs of 4 or 8 warps, one or two CTAs an SM;
// lane 0 of every warp stores the SM's 32-bit clock after each pass, and %smid once. `held` 1: every pass begins at a
// barrier (the CTA's warps start the loop's head together); 2: with a dependent global load (an L2 hit) before it, as
// seed 002's r3 rungs wait on their copies' loads, then on a barrier, at the head of each K tile; 3: as 1, the second
// round of CTAs (the second CTA on every SM) starting half a pass late, so that an SM's two CTAs run in different
// halves of the loop, as r3_bk32's do (one loads while the other computes: docs/co-resident-ctas.md).
// Prints one JSON object per case: cycles per pass (passes after the first; mean, p10, p50, p90), the issue-bound
// pass (N x warps a sub-partition, 1 FFMA a cycle), the spread of the passes within a warp (the mean over warps of
// their passes' standard deviation over their mean) and across SMs (the SMs' mean passes: (p90 - p10) / median),
// the CTAs each SM held. CUDA only (%clock, %smid).
// `--fine`: loop sizes between the two regimes (N = 2,304 .. 2,944, ~37-47 KB: where r3_bk32's 44.9 KB and r4's 45.7 KB
// loops sit), and loops of 1, 2 or 4 chains (a warp issues at most every 4 / 2 / 1 cycles: FFMA's dependent latency)
// that fit (17 KB) and do not (45 and 49 KB) - whether the fetch stalls a warp that asks for fewer instructions than it
// delivers (r4's loop, as long as r3_bk32's, waits on shared loads where r3's runs dense: docs/co-resident-ctas.md).
// `--ages`: two CTAs an SM (4 or 8 warps each: one or two warps of each CTA a sub-partition, r3's layout the second),
// a loop that fits (1,024 FFMAs) and two that do not (2,816 and 3,072), 8 chains and 1: per SM the two CTAs ranked by
// their start (then blockIdx) and each one's end read as a fraction of the SM's span, with its mean pass - whether the
// older CTA takes more of the fetch than of a port that fits (issue_share: 0.76 of it with two warps of each CTA a
// sub-partition), which the model's per-warp fetch does not give it (docs/co-resident-ctas.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"
#include "../kernels/cta_stamp.cuh"

namespace {

constexpr int kPasses = 48;

template <int N, int HELD, int CHAINS>
__global__ void icache_loop(float b, float c, float* sink, unsigned* stamps, const float* zeros) {
  float a[CHAINS];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) a[j] = threadIdx.x + j;
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32;
  unsigned* row = stamps + (static_cast<size_t>(blockIdx.x) * warps + warp) * (kPasses + 2);
  const bool lane0 = (threadIdx.x & 31) == 0;
  if (HELD == 3 && blockIdx.x >= gridDim.x / 2) {  // half an issue-bound pass of the SM with both CTAs (4 warps a sub-partition)
    const unsigned t0 = gmsv::clock32();
    while (gmsv::clock32() - t0 < 2u * N) {
    }
  }
  if (lane0) row[0] = gmsv::sm_id(), row[1] = gmsv::clock32();
  for (int p = 0; p < kPasses; ++p) {
    if (HELD == 2) a[0] += zeros[(p * blockDim.x + threadIdx.x) & 4095];  // 16 KB of zeros: L2 hits after the first pass
    if (HELD >= 1) __syncthreads();  // 1, 2, 3
#pragma unroll
    for (int i = 0; i < N / CHAINS; ++i)
#pragma unroll
      for (int j = 0; j < CHAINS; ++j) a[j] = fmaf(a[j], b, c);
    const unsigned t = gmsv::clock32();
    if (lane0) row[2 + p] = t;
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) s += a[j];
  if (s == 12345.f) *sink = s;  // keeps the chains
}

double pick(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[static_cast<size_t>(q * (v.size() - 1))];
}

// --ages: per SM its CTAs by start (then blockIdx); per rank the median over SMs of its end as a fraction of the SM's
// span (first start to last end) and of its warps' mean pass. Written into the case's line as "ranks".
std::string rank_fractions(const std::vector<unsigned>& h, int blocks, int warps) {
  struct Cta { unsigned start, end; double pass; int block; };
  std::map<unsigned, std::vector<Cta>> by_sm;
  for (int b = 0; b < blocks; ++b) {
    Cta c{~0u, 0, 0, b};
    unsigned sm = 0;
    for (int w = 0; w < warps; ++w) {
      const unsigned* s = &h[(static_cast<size_t>(b) * warps + w) * (kPasses + 2)];
      sm = s[0];
      c.start = std::min(c.start, s[1]);
      c.end = std::max(c.end, s[kPasses + 1]);
      c.pass += static_cast<double>(s[kPasses + 1] - s[2]) / (kPasses - 1) / warps;
    }
    by_sm[sm].push_back(c);
  }
  std::vector<std::vector<double>> ends, passes;
  for (auto& [sm, v] : by_sm) {
    std::sort(v.begin(), v.end(), [](const Cta& a, const Cta& b) { return a.start != b.start ? a.start < b.start : a.block < b.block; });
    unsigned first = ~0u, last = 0;
    for (const Cta& c : v) first = std::min(first, c.start), last = std::max(last, c.end);
    for (size_t r = 0; r < v.size(); ++r) {
      if (ends.size() <= r) ends.resize(r + 1), passes.resize(r + 1);
      ends[r].push_back(static_cast<double>(v[r].end - first) / std::max(1u, last - first));
      passes[r].push_back(v[r].pass);
    }
  }
  std::string out = ", \"ranks\": [";
  for (size_t r = 0; r < ends.size(); ++r) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s{\"rank\": %zu, \"sms\": %zu, \"end_fraction\": %.3f, \"pass_cycles\": %.0f}", r ? ", " : "", r,
                  ends[r].size(), pick(ends[r], 0.5), pick(passes[r], 0.5));
    out += buf;
  }
  return out + "]";
}

template <int N, int HELD, int CHAINS = 8>
void run_case(int sms, int warps, int ctas_per_sm, const float* zeros, bool ages = false) {
  const int blocks = sms * ctas_per_sm, threads = 32 * warps;
  const size_t rows = static_cast<size_t>(blocks) * warps, count = rows * (kPasses + 2);
  unsigned* stamps;
  float* sink;
  GPU_CHECK(gpuMalloc(&stamps, count * sizeof(unsigned)));
  GPU_CHECK(gpuMalloc(&sink, sizeof(float)));
  icache_loop<N, HELD, CHAINS><<<blocks, threads>>>(1.0001f, 0.5f, sink, stamps, zeros);  // warm-up
  GPU_CHECK_LAUNCH();
  icache_loop<N, HELD, CHAINS><<<blocks, threads>>>(1.0001f, 0.5f, sink, stamps, zeros);
  GPU_CHECK_LAUNCH();
  GPU_CHECK(gpuDeviceSynchronize());
  std::vector<unsigned> h(count);
  GPU_CHECK(gpuMemcpy(h.data(), stamps, count * sizeof(unsigned), gpuMemcpyDeviceToHost));
  std::vector<double> passes, within;
  std::map<unsigned, std::vector<double>> by_sm;
  std::map<unsigned, int> ctas_on;
  for (size_t r = 0; r < rows; ++r) {
    const unsigned* s = &h[r * (kPasses + 2)];
    if (r % warps == 0) ++ctas_on[s[0]];
    std::vector<double> mine;
    for (int p = 1; p < kPasses; ++p) mine.push_back(static_cast<double>(s[2 + p] - s[1 + p]));  // the first pass apart
    double mean = 0, var = 0;
    for (double x : mine) mean += x;
    mean /= mine.size();
    for (double x : mine) var += (x - mean) * (x - mean);
    within.push_back(std::sqrt(var / mine.size()) / mean);
    by_sm[s[0]].push_back(mean);
    passes.insert(passes.end(), mine.begin(), mine.end());
  }
  std::vector<double> sm_means;
  for (auto& [sm, v] : by_sm) {
    double m = 0;
    for (double x : v) m += x;
    sm_means.push_back(m / v.size());
  }
  int fewest = 1 << 30, most = 0;
  for (auto& [sm, n] : ctas_on) fewest = std::min(fewest, n), most = std::max(most, n);
  double mean = 0;
  for (double x : passes) mean += x;
  mean /= passes.size();
  double within_mean = 0;
  for (double x : within) within_mean += x;
  within_mean /= within.size();
  const double per_sub = warps * ctas_per_sm / 4.0;  // warps a sub-partition
  std::printf("{\"ffma_per_pass\": %d, \"held\": %d, \"chains\": %d, \"sass_kb\": %d, \"warps_per_cta\": %d, \"ctas_per_sm\": %d, \"sms_used\": %zu, "
              "\"ctas_on_an_sm\": [%d, %d], \"cycles_per_pass\": {\"mean\": %.1f, \"p10\": %.0f, \"p50\": %.0f, \"p90\": %.0f}, "
              "\"issue_bound_pass\": %.0f, \"within_warp_cv\": %.4f, \"across_sms_p10_p90_over_median\": %.4f%s}\n",
              N, HELD, CHAINS, N * 16 / 1024, warps, ctas_per_sm, by_sm.size(), fewest, most, mean, pick(passes, 0.1), pick(passes, 0.5),
              pick(passes, 0.9), N * per_sub, within_mean,
              (pick(sm_means, 0.9) - pick(sm_means, 0.1)) / pick(sm_means, 0.5),
              ages ? rank_fractions(h, blocks, warps).c_str() : "");
  std::fflush(stdout);
  GPU_CHECK(gpuFree(stamps));
  GPU_CHECK(gpuFree(sink));
}

template <int N>
void sizes_of(int sms, const float* zeros) {
  for (int warps : {4, 8})
    for (int ctas : {1, 2}) run_case<N, 0>(sms, warps, ctas, zeros);
}

// The warps held at the loop's head, 8-warp CTAs, one and two an SM: a loop that fits and two that do not.
template <int N>
void held_of(int sms, const float* zeros) {
  for (int ctas : {1, 2}) run_case<N, 1>(sms, 8, ctas, zeros), run_case<N, 2>(sms, 8, ctas, zeros);
  run_case<N, 3>(sms, 8, 2, zeros);
}

// Fewer chains: a warp that cannot issue every cycle (1 chain: every 4th), one CTA of 4 or 8 warps an SM and two of 8.
template <int N>
void chains_of(int sms, const float* zeros) {
  run_case<N, 0, 1>(sms, 4, 1, zeros), run_case<N, 0, 1>(sms, 8, 1, zeros), run_case<N, 0, 1>(sms, 8, 2, zeros);
  run_case<N, 0, 2>(sms, 4, 1, zeros), run_case<N, 0, 2>(sms, 8, 1, zeros), run_case<N, 0, 2>(sms, 8, 2, zeros);
  run_case<N, 0, 4>(sms, 4, 1, zeros), run_case<N, 0, 4>(sms, 8, 1, zeros);
}

// Two CTAs an SM, their ends by age: 4 and 8 warps a CTA, 8 chains and 1.
template <int N>
void ages_of(int sms, const float* zeros) {
  for (int warps : {4, 8}) run_case<N, 0>(sms, warps, 2, zeros, true), run_case<N, 0, 1>(sms, warps, 2, zeros, true);
}

// Calls f with each loop size in turn, in the order given, as a compile-time constant.
template <int... N, class F>
void each_size(F f) {
  (f(std::integral_constant<int, N>{}), ...);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool fine = mode == "--fine", by_age = mode == "--ages";
  if (argc > 2 || (argc == 2 && !fine && !by_age)) {
    std::fprintf(stderr, "usage: gms-icache-ubench [--fine | --ages]\n");
    return 2;
  }
  return ubench_main("gms-icache-ubench", [fine, by_age](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    float* zeros;
    GPU_CHECK(gpuMalloc(&zeros, 4096 * sizeof(float)));
    GPU_CHECK(gpuMemset(zeros, 0, 4096 * sizeof(float)));
    if (by_age) {
      each_size<1024, 2816, 3072>([&](auto n) { ages_of<decltype(n)::value>(sms, zeros); });
    } else if (fine) {
      each_size<2304, 2560, 2688, 2816, 2944>([&](auto n) { sizes_of<decltype(n)::value>(sms, zeros); });
      each_size<1024, 2816, 3072>([&](auto n) { chains_of<decltype(n)::value>(sms, zeros); });
    } else {
      each_size<256, 1024, 2048, 3072, 4096, 8192>([&](auto n) { sizes_of<decltype(n)::value>(sms, zeros); });
      each_size<2048, 3072, 4096>([&](auto n) { held_of<decltype(n)::value>(sms, zeros); });
    }
    GPU_CHECK(gpuFree(zeros));
  });
}
