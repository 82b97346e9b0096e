// gms-mio-ubench: how many shared-memory instructions a sub-partition holds before its warps stall
// in `mio_throttle` (the MIO instruction queue in front of the SM's shared-memory data path).
// Each timed warp issues 64 independent LDS.32 (volatile: ptxas may not merge them into LDS.128)
// whose lanes read WAYS rows of each of 32 / WAYS banks (WAYS wavefronts, WAYS path cycles each) back to back,
// reading the clock after each one; no loaded value is used until the end. While the queue has
// room an LDS issues at once and the clock read after it follows a few cycles later; once the queue
// is full each LDS waits for one to leave, so the issue times step by the path's pace. The knee is
// the queue; mio_queue.py turns the knees into instructions outstanding.
//   layout  which warps of a 256-thread CTA (one per SM) issue: "w0" (warp 0 alone), "w0,w4"
//           (two warps of one sub-partition - warp w is on sub-partition w % 4), "w0..w3" (one warp
//           on each sub-partition), "w0..w7" (two on each). A queue per sub-partition gives every
//           timed warp of "w0..w3" the knee of "w0" and the two of "w0,w4" half of it together; a
//           queue per SM divides the knee among all timed warps.
//   WAYS    32, and 16 / 8 / 4 / 2 / 1 on the four- and eight-warp layouts: a bound counted in
//           instructions stalls at the same count whatever the wavefronts, one counted in queued path
//           work later. (Until 2026-11-27 the address ignored WAYS: every variant read 32 rows of one
//           bank, so the 8- and 16-way rows of the first record were 32-way loads too.)
//   WAYS 0  warp shuffles (SHFL.BFLY) in place of the loads, "measure": "mio_queue_shfl": whether a shuffle
//           waits for the queue (ncu counts each as one shared-memory wavefront).
//   shfl_latency  one warp shuffles in a chain (each SHFL.BFLY takes the last one's result; "with_fadd": an FADD
//           of the shuffled value between them, a tree reduction's level): cycles per hop, the difference
//           of two chain lengths (the loop's own instructions overlap the waits).
//   mio_startup  does a new warp's first MIO instruction wait while other CTAs keep the shared path busy (ncu
//           puts 15-22 % of the small Triton GEMVs' samples on their first S2R, validate/results/h100/gemv_source)?
//           CTAs of 4 warps, 16 an SM, 8 waves; each warp reads the clock, issues its first MIO instruction
//           (S2R of its thread index, or a SHFL), reads the clock, a second S2R, the clock, then runs ROUNDS
//           rounds of 8 eight-way conflicted STS, a barrier, 8 LDS, a barrier (a GEMV reduction's traffic):
//           each instruction's issue delay per warp, in the first wave and in the later ones.
// Prints one JSON object per layout and timed warp: the clock (%clock) after each LDS relative to the
// first (the median over 5 runs and the SMs), and the knee: the number of LDS issued before the first gap
// of more than 16 cycles. CUDA only (%clock, inline PTX).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kLds = 64;
constexpr int kThreads = 256;

// Issues kLds conflicted loads, each followed by a clock read; the loads' values are folded in only
// after the last clock read, so no load waits for another.
template <int WAYS>
__device__ __forceinline__ void timed_loads(const unsigned* base, unsigned* t, unsigned& acc) {
  const unsigned lane = threadIdx.x & 31;
  unsigned v[kLds];
#pragma unroll
  for (int i = 0; i < kLds; ++i) {
    // Lane l reads row l % WAYS, word l / WAYS + (5 i) % 32 of it: the WAYS lanes of each group share a
    // bank (32 / WAYS banks, WAYS distinct rows each): WAYS wavefronts, every lane its own word.
    const unsigned word = (lane % WAYS) * 32 + lane / WAYS + ((i * 5) & 31);
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(base + word));
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v[i]) : "r"(addr) : "memory");
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t[i]) :: "memory");
  }
#pragma unroll
  for (int i = 0; i < kLds; ++i) acc += v[i];
}

// The same with warp shuffles (SHFL.BFLY) instead of loads: does a shuffle take an MIO entry, and what
// is its pace once the queue is full? (Triton's GEMV reductions issue 32-52 a warp beside their LDS/STS.)
__device__ __forceinline__ void timed_shuffles(unsigned* t, unsigned& acc) {
  const unsigned x = threadIdx.x * 2654435761u;
  unsigned v[kLds];
#pragma unroll
  for (int i = 0; i < kLds; ++i) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(v[i]) : "r"(x), "r"((i & 15) + 1) : "memory");
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t[i]) :: "memory");
  }
#pragma unroll
  for (int i = 0; i < kLds; ++i) acc += v[i];
}

// mask: bit w set = warp w is timed. Warps not timed do nothing after the fill. WAYS 0: shuffles.
template <int WAYS>
__global__ void mio_queue(unsigned mask, long long* out, unsigned* sink) {
  __shared__ __align__(128) unsigned buf[34 * 32];  // row 31, word 31 + 31 at most
  for (int i = threadIdx.x; i < 34 * 32; i += blockDim.x) buf[i] = i;
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  if (!((mask >> warp) & 1u)) return;
  unsigned t[kLds];
  unsigned acc = 0;
  if constexpr (WAYS == 0)
    timed_shuffles(t, acc);
  else
    timed_loads<WAYS>(buf, t, acc);
  if (lane == 0) {
    long long* o = out + (static_cast<long long>(blockIdx.x) * (kThreads / 32) + warp) * kLds;
    for (int i = 0; i < kLds; ++i) o[i] = static_cast<long long>(t[i] - t[0]);
  }
  if (acc == 0x12345u) *sink = acc;
}

// One warp: `hops` shuffles, each of the last one's result; WITH_FADD adds the shuffled value to the
// running sum first (FADD, then SHFL of the sum), as a reduction level does.
template <bool WITH_FADD>
__global__ void shfl_chain(int hops, long long* cycles, unsigned* sink) {
  unsigned v = threadIdx.x * 2654435761u;
  float f = static_cast<float>(threadIdx.x);
  const long long t0 = clock64();
  for (int i = 0; i < hops; i += 16) {
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      if constexpr (WITH_FADD) {
        float o;
        asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(o) : "f"(f));
        f += o;
      } else {
        asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(v) : "r"(v));
      }
    }
  }
  const long long t1 = clock64();
  if (threadIdx.x == 0) *cycles = t1 - t0;
  if (v == 0x12345u || f == 1234.5f) *sink = v;
}

// A new warp times its first MIO instruction's issue (clock, the instruction, clock: no dependency between
// them) and then a second S2R's, then keeps the shared path busy as a GEMV reduction does. FIRST 0: the
// first is S2R SR_TID.X; 1: a SHFL.BFLY (of a value no MIO instruction produced). out[4 * (CTA x 4 + warp)
// + {0, 1, 2, 3}] = its first clock, the first instruction's issue delay in cycles, the second S2R's, its SM.
constexpr int kStartupWarps = 4;
template <int FIRST>
__global__ void mio_startup(int rounds, unsigned* out, unsigned* sink) {
  unsigned t0, first, t1, cta, t2;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t0) :: "memory");
  if constexpr (FIRST == 0)
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(first) :: "memory");
  else
    asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(first) : "r"(t0) : "memory");
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t1) :: "memory");
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(cta) :: "memory");
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t2) :: "memory");
  unsigned tid;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid) :: "memory");
  __shared__ __align__(128) unsigned buf[8 * 32 + 64];
  const unsigned lane = tid & 31;
  unsigned acc = tid + first;
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {  // lanes 8 apart share a bank: 8 rows of 32 words, 8 wavefronts a store
      const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + (lane % 8) * 32 + lane / 8 + 4 * i));
      asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(addr), "r"(acc + i) : "memory");
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      unsigned v;
      const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + (lane % 8) * 32 + lane / 8 + 4 * i));
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
      acc += v;
    }
    __syncthreads();
  }
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (lane == 0) {
    unsigned* o = out + 4 * (cta * kStartupWarps + tid / 32);
    o[0] = t0;
    o[1] = t1 - t0;
    o[2] = t2 - t1;
    o[3] = sm;
  }
  if (acc == 0x12345u) *sink = acc;
}

using ubench::median;

template <int FIRST>
void mio_startup_run(int sms, int rounds, unsigned* sink, const char* gpu) {
  const int ctas = sms * 16 * 8;  // 8 waves of 16 CTAs an SM
  unsigned* dev;
  GPU_CHECK(gpuMalloc(&dev, sizeof(unsigned) * 4 * ctas * kStartupWarps));
  std::vector<unsigned> host(static_cast<size_t>(4) * ctas * kStartupWarps);
  std::vector<double> first[2], later[2];  // [0]: the first instruction, [1]: the second S2R
  for (int rep = 0; rep < 3; ++rep) {
    mio_startup<FIRST><<<ctas, 32 * kStartupWarps>>>(rounds, dev, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuMemcpy(host.data(), dev, sizeof(unsigned) * host.size(), gpuMemcpyDeviceToHost));
    for (int c = 0; c < ctas; ++c)
      for (int w = 0; w < kStartupWarps; ++w)
        for (int k = 0; k < 2; ++k)
          (c < sms * 16 ? first : later)[k].push_back(static_cast<double>(host[4 * (static_cast<size_t>(c) * kStartupWarps + w) + 1 + k]));
  }
  auto pct = [](std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(q * (v.size() - 1))];
  };
  auto stats = [&](const std::vector<double>& v) {
    char b[160];
    std::snprintf(b, sizeof b, "{\"median\": %.0f, \"p90\": %.0f, \"mean\": %.1f}", median(v), pct(v, 0.9),
                  std::accumulate(v.begin(), v.end(), 0.0) / v.size());
    return std::string(b);
  };
  std::printf("{\"measure\": \"mio_startup\", \"first\": \"%s\", \"rounds\": %d, \"ctas\": %d, \"first_wave\": %s, "
              "\"later_waves\": %s, \"second_s2r_first_wave\": %s, \"second_s2r_later_waves\": %s, \"gpu\": \"%s\"}\n",
              FIRST == 0 ? "S2R" : "SHFL", rounds, ctas, stats(first[0]).c_str(), stats(later[0]).c_str(),
              stats(first[1]).c_str(), stats(later[1]).c_str(), gpu);
  GPU_CHECK(gpuFree(dev));
}

template <bool WITH_FADD>
void shfl_latency(long long* dev, unsigned* sink, const char* gpu) {
  auto cycles = [&](int hops) {
    std::vector<double> runs;
    for (int rep = 0; rep < 7; ++rep) {
      shfl_chain<WITH_FADD><<<1, 32>>>(hops, dev, sink);
      GPU_CHECK_LAUNCH();
      long long c = 0;
      GPU_CHECK(gpuMemcpy(&c, dev, sizeof c, gpuMemcpyDeviceToHost));
      runs.push_back(static_cast<double>(c));
    }
    return median(runs);
  };
  const double per_hop = (cycles(8192) - cycles(4096)) / 4096.0;
  std::printf("{\"measure\": \"shfl_latency\", \"with_fadd\": %s, \"cycles_per_hop\": %.2f, \"hops\": \"8192 - 4096\", \"gpu\": \"%s\"}\n",
              WITH_FADD ? "true" : "false", per_hop, gpu);
}

template <int WAYS>
void measure(const char* name, unsigned mask, int sms, long long* dev, unsigned* sink, const char* gpu) {
  const int warps = kThreads / 32;
  std::vector<std::vector<std::vector<double>>> per(warps, std::vector<std::vector<double>>(kLds));
  std::vector<long long> host(static_cast<size_t>(sms) * warps * kLds);
  for (int rep = 0; rep < 5; ++rep) {
    mio_queue<WAYS><<<sms, kThreads>>>(mask, dev, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuMemcpy(host.data(), dev, sizeof(long long) * host.size(), gpuMemcpyDeviceToHost));
    for (int sm = 0; sm < sms; ++sm)
      for (int w = 0; w < warps; ++w)
        if ((mask >> w) & 1u)
          for (int i = 0; i < kLds; ++i)
            per[w][i].push_back(static_cast<double>(host[(static_cast<size_t>(sm) * warps + w) * kLds + i]));
  }
  for (int w = 0; w < warps; ++w) {
    if (!((mask >> w) & 1u)) continue;
    std::vector<double> t(kLds);
    for (int i = 0; i < kLds; ++i) t[i] = median(per[w][i]);
    int knee = kLds;
    for (int i = 1; i < kLds; ++i)
      if (t[i] - t[i - 1] > 16) {
        knee = i;
        break;
      }
    std::string ts;
    for (int i = 0; i < kLds; ++i) ts += (i ? ", " : "") + std::to_string(static_cast<long long>(t[i]));
    std::printf("{\"measure\": \"%s\", \"conflict_ways\": %d, \"layout\": \"%s\", \"warp\": %d, \"subpartition\": %d, \"lds_before_first_gap\": %d, "
                "\"steady_cycles_per_lds\": %.2f, \"clock_after_lds\": [%s], \"gpu\": \"%s\"}\n",
                WAYS == 0 ? "mio_queue_shfl" : "mio_queue", WAYS, name, w, w % 4, knee, (t[kLds - 1] - t[kLds - 9]) / 8.0, ts.c_str(), gpu);
  }
}

}  // namespace

int main() {
  return ubench_main("gms-mio-ubench", [](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    long long* dev;
    unsigned* sink;
    GPU_CHECK(gpuMalloc(&dev, sizeof(long long) * sms * (kThreads / 32) * kLds));
    GPU_CHECK(gpuMalloc(&sink, 4));
    measure<32>("w0", 0x1u, sms, dev, sink, prop.name);
    measure<32>("w0,w4", 0x11u, sms, dev, sink, prop.name);
    measure<32>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<32>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    // Fewer wavefronts per LDS: a bound counted in instructions stalls at the same count, one
    // counted in wavefronts (the path's work queued) later.
    measure<8>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<8>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    measure<16>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<16>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    measure<4>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<4>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    measure<2>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<2>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    measure<1>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<1>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    measure<4>("w0", 0x1u, sms, dev, sink, prop.name);
    measure<4>("w0,w4", 0x11u, sms, dev, sink, prop.name);
    measure<0>("w0", 0x1u, sms, dev, sink, prop.name);
    measure<0>("w0,w4", 0x11u, sms, dev, sink, prop.name);
    measure<0>("w0..w3", 0xfu, sms, dev, sink, prop.name);
    measure<0>("w0..w7", 0xffu, sms, dev, sink, prop.name);
    shfl_latency<false>(dev, sink, prop.name);
    shfl_latency<true>(dev, sink, prop.name);
    for (int rounds : {0, 4, 16, 64}) mio_startup_run<0>(sms, rounds, sink, prop.name);
    for (int rounds : {0, 16}) mio_startup_run<1>(sms, rounds, sink, prop.name);
  });
}
