// gms-smem-ubench: the SM data-path numbers the timing model takes from silicon.
//   shared_latency  one thread chases pointers through shared memory (LDS -> address -> LDS), clock64
//   shared_bw       one 1024-thread CTA per SM streams conflict-free LDS.128 (bytes per SM cycle, clock64)
//   ffma            sustained FFMA rate, one 1024-thread CTA per SM, 8 and 16 independent chains per thread,
//                   and 16 chains whose FFMAs read 2 or 3 registers (one before)
//   lds_rate        shared-load instructions per SM cycle (LDS.32/64/128 conflict-free and LDS.32
//                   broadcast), with 1-32 warps per SM spread over the 4 sub-partitions or all on one
//                   (warp w runs on sub-partition w % 4): the data path's instruction rate per SM and
//                   per sub-partition, which a conflict-free LDS.32 (one wavefront) does not reach
//                   through bandwidth alone
//   lds_ffma        the ladder's inner loop in miniature: 4 LDS.32 then 16 FFMA per step, 4-32 warps
//   lds_conflict    LDS.32 with n-way bank conflicts (lane i reads word i x n), 32 warps: cycles per
//                   wavefront when each instruction needs n of them
//   ldsm_pitch      ldmatrix.x4 of 16 x 16 fp16 tiles whose rows are 64, 80 or 96 bytes apart (the WMMA
//                   GEMM's pads 0, 8 and 16), 32 warps: cycles per instruction
//   ldsm_latency    one warp chases through the same ldmatrix.x4 (each address depends on what the last
//                   one loaded), clock64: its latency at 16, 4 and 8 wavefronts, plus one integer add
//   issue_order     which warp a sub-partition issues when several can: two 256-thread CTAs per SM (4
//                   warps per sub-partition), every warp the same FFMA loop that can issue each cycle;
//                   per sub-partition, when its warps finish relative to the last (greedy-then-oldest
//                   runs them one after another: 0.25, 0.5, 0.75, 1; round-robin together: ~1 each)
// Prints one JSON object per measurement. CUDA only (clock64, inline PTX).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

__global__ void smem_chase(int hops, long long* cycles, unsigned* sink) {
  __shared__ unsigned next[4096];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) next[i] = (i * 33 + 1) % 4096;  // a stride that hits every bank
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned p = 0;
  long long t0 = clock64();
  for (int i = 0; i < hops; ++i) p = next[p];
  long long t1 = clock64();
  *cycles = t1 - t0;
  *sink = p;
}

__global__ void smem_stream(int iters, long long* cycles, float* sink) {
  __shared__ __align__(16) float4 buf[2048];  // 32 KiB
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) buf[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  float4 acc = make_float4(0, 0, 0, 0);
  long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      float4 v = buf[(threadIdx.x + j * 128 + it) & 2047];  // lanes consecutive: 4 wavefronts per LDS.128
      acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
    }
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (acc.x + acc.y + acc.z + acc.w == 1.2345f) *sink = acc.x;
}

// SOURCES register operands per FFMA: 1 (a = a * const + const), 2 (a = a * m + const) or 3
// (a = a * m + k, m and k registers): whether reading more registers slows the FMA pipe's issue.
template <int CHAINS, int SOURCES = 1>
__global__ void ffma_chains(int iters, float seed, long long* cycles, float* sink) {
  float a[CHAINS], m[4], k[4];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) a[j] = seed + j;
#pragma unroll
  for (int q = 0; q < 4; ++q) m[q] = 0.9999f - 1e-7f * q * seed, k[q] = 1e-4f * (q + seed);
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i)
#pragma unroll
    for (int j = 0; j < CHAINS; ++j)
      a[j] = SOURCES == 1 ? fmaf(a[j], 0.9999f, 0.0001f)
             : SOURCES == 2 ? fmaf(a[j], m[j % 4], 0.0001f)
                            : fmaf(a[j], m[j % 4], k[(j + 1) % 4]);
  __syncthreads();
  long long t1 = clock64();
  float s = 0;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) s += a[j];
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (s == 12345.678f) *sink = s;
}


// The end of a timed kernel: the CTA's clock64 cycles since t0, after every warp is done.
__device__ void stop_clock(long long t0, long long* cycles) {
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

// Keeps eight accumulators (and the loads feeding them) alive: a store no run takes.
__device__ void keep(const float (&acc)[8], float* sink) {
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += acc[j];
  if (s == 1.2345f) *sink = s;
}

// Eight independent shared loads per step, each lane its own word (or all lanes one word), then one
// add per load: half the instructions are loads. Warps with warp % active_mod != 0 skip the loop, so
// active_mod 4, 8, 16, 32 put 8, 4, 2, 1 warps on sub-partition 0 alone.
template <class V, bool BROADCAST>
__global__ void lds_rate(int iters, int active_mod, long long* cycles, float* sink) {
  constexpr int kVecs = 32768 / sizeof(V);
  __shared__ __align__(16) V buf[kVecs];
  float* f = reinterpret_cast<float*>(buf);
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) f[i] = static_cast<float>(i & 255);
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  float acc[8] = {};  // eight chains: the adds never bound the loads
  long long t0 = clock64();
  if (warp % active_mod == 0) {
    for (int it = 0; it < iters; ++it) {
      V v[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) v[j] = buf[((BROADCAST ? 0 : lane) + 32 * j + 256 * (it & 7)) & (kVecs - 1)];
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[j] += reinterpret_cast<const float*>(&v[j])[sizeof(V) / 4 - 1];
    }
  }
  stop_clock(t0, cycles);
  keep(acc, sink);
}

// Per step 4 LDS.32 and 16 dependent-on-them FFMAs over 4 accumulators: the 1:4 mix of the ladder's
// 128x128 rungs, loads issued a step ahead of their use.
__global__ void lds_ffma(int iters, long long* cycles, float* sink) {
  __shared__ float buf[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) buf[i] = static_cast<float>(i & 255) * 1e-3f;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  float a[4] = {0, 1, 2, 3}, v[4], next[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) v[j] = buf[lane + 32 * j];
  long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 4; ++j) next[j] = buf[(lane + 32 * j + 128 * (it & 31) + 128) & 8191];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 4; ++c) a[c] = fmaf(v[r], a[c], v[c]);
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = next[j];
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (a[0] + a[1] + a[2] + a[3] == 1.2345f) *sink = a[0];
}

// n-way conflicts: lane i reads word i * WAYS (banks (i * WAYS) % 32), eight loads a step.
template <int WAYS>
__global__ void lds_conflict(int iters, long long* cycles, float* sink) {
  __shared__ float buf[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) buf[i] = static_cast<float>(i & 255);
  __syncthreads();
  const volatile float* vb = buf;  // volatile: the loop-invariant loads are not hoisted or merged
  const int lane = threadIdx.x & 31;
  float acc[8] = {};
  long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
    float v[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) v[j] = vb[(lane * WAYS + 1024 * j) & 8191];
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[j] += v[j];
  }
  stop_clock(t0, cycles);
  keep(acc, sink);
}

// ldmatrix.x4 of a 16 x 16 fp16 tile (four 8 x 8 matrices) whose rows lie PITCH bytes apart: lane l
// gives the row l % 16 and the column half l / 16, as a WMMA/mma.sync fragment load does.
template <int PITCH>
__global__ void ldsm_pitch(int iters, int stride, long long* cycles, float* sink) {
  __shared__ __align__(128) unsigned char buf[32768];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) reinterpret_cast<unsigned*>(buf)[i] = i;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned acc = 0;
  long long t0 = clock64();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      // The block moves by a stride only known at run time (1), so that ptxas cannot prove two
      // steps read the same addresses and merge their loads (it did with a period of two steps);
      // blocks are 4 KiB apart, a multiple of the 128-byte bank period, wrapped in 32 KiB.
      const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(
          buf + ((((it * stride) & 7) * 4096 + j * 16 * PITCH + (lane % 16) * PITCH + (lane / 16) * 16) & 32767)));
      unsigned r0, r1, r2, r3;
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr) : "memory");
      acc ^= r0 ^ r1 ^ r2 ^ r3;
    }
  }
#endif
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (acc == 12345u) *sink = static_cast<float>(acc);
}

// One warp, a dependent chain of ldmatrix.x4 with rows PITCH bytes apart: the buffer holds zeros, and
// each step adds what it loaded to its address, so the next step waits for the data (one IADD between).
template <int PITCH>
__global__ void ldsm_chase(int hops, long long* cycles, unsigned* sink) {
  __shared__ __align__(128) unsigned char buf[32768];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) reinterpret_cast<unsigned*>(buf)[i] = 0;
  __syncthreads();
  if (threadIdx.x >= 32) return;
  const int lane = threadIdx.x;
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + (lane % 16) * PITCH + (lane / 16) * 16));
  unsigned acc = 0;
  long long t0 = clock64();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  for (int i = 0; i < hops; ++i) {
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr) : "memory");
    addr += r0;
    acc ^= r1 ^ r2 ^ r3;
  }
#endif
  long long t1 = clock64();
  if (lane == 0) *cycles = t1 - t0;
  if (acc == 12345u) *sink = acc;
}

// Every warp 16 independent FFMA chains (one warp alone can issue each cycle); lane 0 stamps its
// SM, its warp and CTA, and clock64 at start and end.
__global__ void issue_order(int iters, long long* stamps) {
  float a[16];
#pragma unroll
  for (int j = 0; j < 16; ++j) a[j] = threadIdx.x + j;
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  __syncthreads();
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i)
#pragma unroll
    for (int j = 0; j < 16; ++j) a[j] = fmaf(a[j], 0.9999f, 0.0001f);
  const long long t1 = clock64();
  float s = 0;
#pragma unroll
  for (int j = 0; j < 16; ++j) s += a[j];
  if ((threadIdx.x & 31) == 0) {
    long long* o = stamps + 5 * (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
    o[0] = smid, o[1] = threadIdx.x / 32, o[2] = blockIdx.x, o[3] = t0, o[4] = s == 1.2345f ? 0 : t1;
  }
}

using ubench::median;

// Runs `launch` (one CTA per SM, each writing its clock64 cycles to cycles[blockIdx.x]) five times;
// per run the median over the SMs of value(cycles), and the median of the runs.
template <class Launch, class Value>
double median_of_runs(int sms, long long* cycles, Launch&& launch, Value&& value) {
  std::vector<double> runs;
  for (int rep = 0; rep < 5; ++rep) {
    launch();
    GPU_CHECK_LAUNCH();
    std::vector<long long> c(sms);
    GPU_CHECK(gpuMemcpy(c.data(), cycles, sizeof(long long) * sms, gpuMemcpyDeviceToHost));
    std::vector<double> per;
    for (auto x : c) per.push_back(value(static_cast<double>(x)));
    runs.push_back(median(per));
  }
  return median(runs);
}

}  // namespace

int main() {
  return ubench_main("gms-smem-ubench", [](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    long long* cyc;
    unsigned* usink;
    float* fsink;
    GPU_CHECK(gpuMalloc(&cyc, sizeof(long long) * sms * 8));
    GPU_CHECK(gpuMalloc(&usink, 4));
    GPU_CHECK(gpuMalloc(&fsink, 4));
    // Latency: the median over 5 runs of the per-hop time of a dependent chain of `hops` steps, which
    // launch(hops) runs and times into cyc[0].
    auto chase_per_hop = [&](auto launch, int hops) {
      std::vector<double> per;
      for (int rep = 0; rep < 5; ++rep) {
        long long c = 0;
        launch(hops);
        GPU_CHECK_LAUNCH();
        GPU_CHECK(gpuMemcpy(&c, cyc, sizeof c, gpuMemcpyDeviceToHost));
        per.push_back(static_cast<double>(c) / hops);
      }
      return median(per);
    };
    // LDS + the address it feeds.
    const double lds_hop = chase_per_hop([&](int hops) { smem_chase<<<1, 256>>>(hops, cyc, usink); }, 1 << 16);
    std::printf("{\"measure\": \"shared_latency\", \"cycles_per_hop\": %.2f, \"hops\": 65536, \"gpu\": \"%s\"}\n", lds_hop, prop.name);
    // Bandwidth: bytes each SM's CTA read over its own clock64 cycles.
    const int iters = 1 << 12;
    const double bw = median_of_runs(sms, cyc, [&] { smem_stream<<<sms, 1024>>>(iters, cyc, fsink); },
                                     [&](double c) { return 1024.0 * iters * 8 * 16 / c; });
    std::printf("{\"measure\": \"shared_bandwidth\", \"bytes_per_cycle_per_sm\": %.2f, \"threads_per_sm\": 1024, \"access\": \"LDS.128 conflict-free\"}\n", bw);
    // FFMA: one 32-warp CTA per SM; `sources` registers read per FFMA (1: the 8- and 16-chain rows).
    auto ffma = [&](auto kernel, int chains, int sources) {
      const int fit = 1 << 14;
      const double flops = median_of_runs(sms, cyc, [&] { kernel<<<sms, 1024>>>(fit, 1.0f, cyc, fsink); },
                                          [&](double c) { return 2.0 * chains * fit * 1024 / c; });
      if (sources == 1)
        std::printf("{\"measure\": \"ffma\", \"chains\": %d, \"flops_per_cycle_per_sm\": %.1f, \"warps_per_sm\": 32}\n", chains, flops);
      else
        std::printf("{\"measure\": \"ffma\", \"chains\": %d, \"register_sources\": %d, \"flops_per_cycle_per_sm\": %.1f, "
                    "\"warps_per_sm\": 32}\n", chains, sources, flops);
    };
    ffma(ffma_chains<8>, 8, 1);
    ffma(ffma_chains<16>, 16, 1);
    ffma(ffma_chains<16, 2>, 16, 2);  // the same 16 chains reading two and three registers per FFMA
    ffma(ffma_chains<16, 3>, 16, 3);
    // Shared-load instruction rate: instructions per SM cycle over the CTA's clock64 cycles.
    auto lds = [&](auto kernel, const char* access, int width, bool broadcast) {
      const int shapes[][2] = {{1024, 1}, {512, 1}, {256, 1}, {128, 1}, {1024, 4}, {1024, 8}, {1024, 16}, {1024, 32}};
      for (const auto& sh : shapes) {
        const int threads = sh[0], mod = sh[1], warps = threads / 32 / mod, iters = 1 << 12;
        const double rate = median_of_runs(sms, cyc, [&] { kernel<<<sms, threads>>>(iters, mod, cyc, fsink); },
                                           [&](double c) { return 8.0 * iters * warps / c; });
        std::printf("{\"measure\": \"lds_rate\", \"access\": \"%s\", \"bytes_per_lane\": %d, \"broadcast\": %s, "
                    "\"warps_per_sm\": %d, \"subpartitions\": %d, \"lds_per_cycle_per_sm\": %.3f}\n",
                    access, width, broadcast ? "true" : "false", warps, mod == 1 ? std::min(4, threads / 32) : 1, rate);
      }
    };
    lds(lds_rate<float, false>, "LDS.32", 4, false);
    lds(lds_rate<float, true>, "LDS.32", 4, true);
    lds(lds_rate<float2, false>, "LDS.64", 8, false);
    lds(lds_rate<float4, false>, "LDS.128", 16, false);
    for (int threads : {128, 256, 512, 1024}) {
      const int iters = 1 << 12;
      const double rate = median_of_runs(sms, cyc, [&] { lds_ffma<<<sms, threads>>>(iters, cyc, fsink); },
                                         [&](double c) { return 20.0 * iters * (threads / 32) / c; });
      std::printf("{\"measure\": \"lds_ffma\", \"lds_per_step\": 4, \"ffma_per_step\": 16, \"warps_per_sm\": %d, "
                  "\"instructions_per_cycle_per_sm\": %.3f}\n", threads / 32, rate);
    }
    // Conflicted shared loads, 32 warps per SM: cycles per instruction over the CTA's clock64.
    auto per_instruction = [&](auto launch, int per_iter, const char* json) {
      const int iters = 1 << 11;
      const double cycles = median_of_runs(sms, cyc, [&] { launch(iters); },
                                           [&](double c) { return c / (32.0 * per_iter * iters); });
      std::printf("%s, \"warps_per_sm\": 32, \"sm_cycles_per_instruction\": %.3f}\n", json, cycles);
    };
    auto conflict = [&](auto kernel) { return [&, kernel](int iters) { kernel<<<sms, 1024>>>(iters, cyc, fsink); }; };
    auto ldsm = [&](auto kernel) { return [&, kernel](int iters) { kernel<<<sms, 1024>>>(iters, 1, cyc, fsink); }; };
    per_instruction(conflict(lds_conflict<1>), 8, "{\"measure\": \"lds_conflict\", \"ways\": 1");
    per_instruction(conflict(lds_conflict<2>), 8, "{\"measure\": \"lds_conflict\", \"ways\": 2");
    per_instruction(conflict(lds_conflict<4>), 8, "{\"measure\": \"lds_conflict\", \"ways\": 4");
    per_instruction(conflict(lds_conflict<8>), 8, "{\"measure\": \"lds_conflict\", \"ways\": 8");
    per_instruction(conflict(lds_conflict<16>), 8, "{\"measure\": \"lds_conflict\", \"ways\": 16");
    per_instruction(conflict(lds_conflict<32>), 8, "{\"measure\": \"lds_conflict\", \"ways\": 32");
    per_instruction(ldsm(ldsm_pitch<64>), 4, "{\"measure\": \"ldsm_pitch\", \"pitch_bytes\": 64");
    per_instruction(ldsm(ldsm_pitch<80>), 4, "{\"measure\": \"ldsm_pitch\", \"pitch_bytes\": 80");
    per_instruction(ldsm(ldsm_pitch<96>), 4, "{\"measure\": \"ldsm_pitch\", \"pitch_bytes\": 96");
    // ldmatrix latency: the per-step time of one warp's dependent chain (ldmatrix.x4 + the add).
    auto ldsm_latency = [&](auto kernel, int pitch, int wavefronts) {
      const double hop = chase_per_hop([&](int hops) { kernel<<<1, 32>>>(hops, cyc, usink); }, 1 << 14);
      std::printf("{\"measure\": \"ldsm_latency\", \"pitch_bytes\": %d, \"wavefronts\": %d, \"cycles_per_hop\": %.2f, "
                  "\"hops\": 16384}\n", pitch, wavefronts, hop);
    };
    ldsm_latency(ldsm_chase<64>, 64, 16);
    ldsm_latency(ldsm_chase<80>, 80, 4);
    ldsm_latency(ldsm_chase<96>, 96, 8);
    // Issue order: per sub-partition (SM, warp % 4) the end of each of its warps, as a fraction of
    // the span from the first start to the last end, sorted; the median over sub-partitions.
    {
      const int ctas = 2 * sms, threads = 256, warps = ctas * threads / 32;
      long long* stamps;
      GPU_CHECK(gpuMalloc(&stamps, sizeof(long long) * 5 * warps));
      issue_order<<<ctas, threads>>>(1 << 14, stamps);
      GPU_CHECK_LAUNCH();
      std::vector<long long> h(5 * static_cast<size_t>(warps));
      GPU_CHECK(gpuMemcpy(h.data(), stamps, sizeof(long long) * h.size(), gpuMemcpyDeviceToHost));
      std::vector<std::vector<double>> rank(4);
      long long span = 0;
      std::vector<double> same_cta_first, late_start;  // the later CTA's start, as a fraction of the span
      for (int sm = 0; sm < sms; ++sm)
        for (int sp = 0; sp < 4; ++sp) {
          std::vector<std::pair<long long, long long>> ends;  // (end, cta)
          long long lo = -1, hi = 0, last_start = 0;
          for (int w = 0; w < warps; ++w) {
            const long long* o = &h[5 * static_cast<size_t>(w)];
            if (o[0] != sm || o[1] % 4 != sp) continue;
            lo = lo < 0 ? o[3] : std::min(lo, o[3]);
            hi = std::max(hi, o[4]);
            last_start = std::max(last_start, o[3]);
            ends.push_back({o[4], o[2]});
          }
          if (ends.size() != 4 || hi <= lo) continue;
          late_start.push_back(static_cast<double>(last_start - lo) / static_cast<double>(hi - lo));
          if (span == 0) span = hi - lo;
          std::sort(ends.begin(), ends.end());
          for (int r = 0; r < 4; ++r) rank[r].push_back(static_cast<double>(ends[r].first - lo) / static_cast<double>(hi - lo));
          same_cta_first.push_back(ends[0].second == ends[1].second ? 1.0 : 0.0);
        }
      double same = 0;
      for (double v : same_cta_first) same += v;
      std::printf("{\"measure\": \"issue_order\", \"warps_per_subpartition\": 4, \"ctas_per_sm\": 2, \"subpartitions\": %zu, "
                  "\"end_fraction_by_rank\": [%.3f, %.3f, %.3f, %.3f], \"first_two_from_one_cta\": %.3f, "
                  "\"last_start_fraction\": %.4f, \"span_cycles\": %lld}\n",
                  rank[0].size(), rank[0].empty() ? 0 : median(rank[0]), rank[1].empty() ? 0 : median(rank[1]),
                  rank[2].empty() ? 0 : median(rank[2]), rank[3].empty() ? 0 : median(rank[3]),
                  same_cta_first.empty() ? 0 : same / same_cta_first.size(), late_start.empty() ? 0 : median(late_start),
                  span);
      GPU_CHECK(gpuFree(stamps));
    }
    GPU_CHECK(gpuDeviceSynchronize());
  });
}
