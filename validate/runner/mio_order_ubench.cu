// gms-mio-order-ubench: in what order does the SM's shared-memory data path serve the warps that queue at it?
// Seed 001's Triton GEMV ends the programs of an SM one at a time, oldest first, ~0.7 us apart, where a path
// that serves its MIO queue first come, first served (the model's) ends them together
// (validate/results/h200/triton_gemv_cta_times). Two measurements, CUDA only (%clock64, %smid, inline PTX):
//
//   order  16 CTAs of 4 warps on every SM (one wave: 2,048 threads), each running ROUNDS rounds of a GEMV
//          reduction's traffic - 8 eight-way conflicted STS, a barrier, 8 eight-way LDS, a barrier - and stamping
//          %clock64 at entry and after its last barrier. Per SM the CTAs are ranked by their start (then blockIdx);
//          printed: per rank the median over the SMs of its end, in cycles from the SM's first start. Ends evenly
//          spaced in rank order: the oldest CTA's instructions go first; ends together: the path is shared.
//   chase  the same 16 CTAs; the one that arrives first on its SM (the oldest), or the last (the youngest), has its
//          warp 0 load along a chain of HOPS eight-way conflicted LDS (each one's address from the last one's
//          value) and time it; the 60 warps of the other 15 flood the path with independent eight-way LDS
//          until the chain is done. Cycles per hop: alone (no flood), oldest, youngest. First come, first
//          served, each hop waits for the queue ahead of it (~61 instructions of 8 wavefronts); an age
//          priority lets the oldest chain's hops pass the queue.
// Prints one JSON object per measurement.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kCtasPerSm = 16;
constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kWords = 8 * 32 + 64;  // 8 rows of 32 words, and the offsets the rounds and the chain add

__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Lane l's word of an eight-way conflicted access: lanes 8 apart share a bank (8 rows of 32 words: the
// 8 lanes l % 8 = 0..7 of each lane / 8 group hit one bank in 8 rows), 8 wavefronts.
__device__ __forceinline__ unsigned conflicted(const unsigned* base, unsigned lane, unsigned offset) {
  return static_cast<unsigned>(__cvta_generic_to_shared(base + (lane % 8) * 32 + lane / 8 + offset));
}

// out[3 * cta + {0, 1, 2}] = SM, clock64 at entry, clock64 after the last round.
__global__ void reduction_order(int rounds, long long* out, unsigned* sink) {
  __shared__ __align__(128) unsigned buf[kWords];
  long long t0;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) :: "memory");
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) buf[i] = i;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31;
  unsigned acc = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
      asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(conflicted(buf, lane, 4 * i)), "r"(acc + i) : "memory");
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      unsigned v;
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(conflicted(buf, lane, 4 * i)) : "memory");
      acc += v;
    }
    __syncthreads();
  }
  long long t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
  if (threadIdx.x == 0) {
    out[3 * blockIdx.x + 0] = smid();
    out[3 * blockIdx.x + 1] = t0;
    out[3 * blockIdx.x + 2] = t1;
  }
  if (acc == 0x12345u) *sink = acc;
}

// chaser: 0 = the first CTA to arrive on its SM chains, 1 = the last; flood: whether the others load.
// arrived[sm] counts the CTAs that have arrived (zeroed before the launch); done[sm] is set when the chain
// ends (the flood stops there). cycles[sm] = the chain's cycles.
__global__ void chase_beside_flood(int hops, int chaser, int flood, unsigned* arrived, unsigned* done,
                                   long long* cycles, unsigned* sink) {
  __shared__ __align__(128) unsigned buf[kWords];
  __shared__ unsigned rank;
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) buf[i] = i & 7;  // a chain's next offset: 0..7
  const unsigned sm = smid();
  if (threadIdx.x == 0) rank = atomicAdd(&arrived[sm], 1u);
  __syncthreads();
  const bool chases = rank == (chaser == 0 ? 0u : static_cast<unsigned>(kCtasPerSm - 1));
  const unsigned lane = threadIdx.x & 31;
  if (chases) {
    if (threadIdx.x >= 32) return;
    // Wait until every CTA of the wave is here, so the flood is on before the chain starts (at most ~5 M
    // cycles: an SM the dispatcher gave fewer CTAs must not hang the launch).
    const long long since = clock64();
    while (*reinterpret_cast<volatile unsigned*>(&arrived[sm]) < static_cast<unsigned>(kCtasPerSm) &&
           clock64() - since < 5000000) {
    }
    unsigned v = 0;
    long long t0, t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) :: "memory");
    // Each address waits for the last value (every word holds 0..7, so v >> 16 is 0: the same eight-way access).
    for (int h = 0; h < hops; ++h)
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(conflicted(buf, lane, v >> 16)) : "memory");
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
    if (lane == 0) {
      cycles[sm] = t1 - t0;
      atomicExch(&done[sm], 1u);
    }
    if (v == 0x12345u) *sink = v;
    return;
  }
  if (!flood) return;
  unsigned acc = 0;
  // Independent loads, eight at a time, until the chain is done (checked every 64 loads), ~20 M cycles at most
  // (an SM without a chain: the dispatcher gave it fewer CTAs).
  const long long since = clock64();
  while (*reinterpret_cast<volatile unsigned*>(&done[sm]) == 0u && clock64() - since < 20000000) {
    for (int k = 0; k < 8; ++k) {
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        unsigned v;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(conflicted(buf, lane, 4 * i)) : "memory");
        acc += v;
      }
    }
  }
  if (acc == 0x12345u) *sink = acc;
}

using ubench::median;

void measure_order(int sms, int rounds, unsigned* sink, const char* gpu) {
  const int ctas = sms * kCtasPerSm;
  long long* dev;
  GPU_CHECK(gpuMalloc(&dev, sizeof(long long) * 3 * ctas));
  std::vector<long long> host(static_cast<size_t>(3) * ctas);
  std::vector<std::vector<double>> end_by_rank(kCtasPerSm), start_by_rank(kCtasPerSm);
  for (int rep = 0; rep < 5; ++rep) {
    reduction_order<<<ctas, kThreads>>>(rounds, dev, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuMemcpy(host.data(), dev, sizeof(long long) * host.size(), gpuMemcpyDeviceToHost));
    std::vector<std::vector<std::pair<long long, int>>> per_sm(static_cast<size_t>(sms));
    for (int c = 0; c < ctas; ++c) {
      const auto s = static_cast<size_t>(host[3 * c]);
      if (s < per_sm.size()) per_sm[s].push_back({host[3 * c + 1], c});
    }
    for (auto& v : per_sm) {
      if (static_cast<int>(v.size()) != kCtasPerSm) continue;  // not one full wave on this SM
      std::sort(v.begin(), v.end());
      const long long first = v.front().first;
      for (int k = 0; k < kCtasPerSm; ++k) {
        start_by_rank[k].push_back(static_cast<double>(v[k].first - first));
        end_by_rank[k].push_back(static_cast<double>(host[3 * v[k].second + 2] - first));
      }
    }
  }
  std::string ends, starts;
  for (int k = 0; k < kCtasPerSm; ++k) {
    ends += (k ? ", " : "") + std::to_string(static_cast<long long>(median(end_by_rank[k])));
    starts += (k ? ", " : "") + std::to_string(static_cast<long long>(median(start_by_rank[k])));
  }
  std::printf("{\"measure\": \"reduction_order\", \"rounds\": %d, \"ctas_per_sm\": %d, \"sms_counted\": %zu, "
              "\"start_by_rank\": [%s], \"end_by_rank\": [%s], \"gpu\": \"%s\"}\n",
              rounds, kCtasPerSm, end_by_rank[0].size() / 5, starts.c_str(), ends.c_str(), gpu);
  GPU_CHECK(gpuFree(dev));
}

void measure_chase(int sms, int hops, int chaser, int flood, unsigned* sink, const char* gpu) {
  const int ctas = sms * kCtasPerSm;
  unsigned *arrived, *done;
  long long* cycles;
  GPU_CHECK(gpuMalloc(&arrived, sizeof(unsigned) * 1024));
  GPU_CHECK(gpuMalloc(&done, sizeof(unsigned) * 1024));
  GPU_CHECK(gpuMalloc(&cycles, sizeof(long long) * 1024));
  std::vector<long long> host(1024);
  std::vector<double> per_hop;
  for (int rep = 0; rep < 5; ++rep) {
    GPU_CHECK(gpuMemset(arrived, 0, sizeof(unsigned) * 1024));
    GPU_CHECK(gpuMemset(done, 0, sizeof(unsigned) * 1024));
    GPU_CHECK(gpuMemset(cycles, 0, sizeof(long long) * 1024));
    chase_beside_flood<<<ctas, kThreads>>>(hops, chaser, flood, arrived, done, cycles, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuMemcpy(host.data(), cycles, sizeof(long long) * host.size(), gpuMemcpyDeviceToHost));
    for (int s = 0; s < sms; ++s)
      if (host[s] > 0) per_hop.push_back(static_cast<double>(host[s]) / hops);
  }
  std::sort(per_hop.begin(), per_hop.end());
  std::printf("{\"measure\": \"chase_beside_flood\", \"chaser\": \"%s\", \"flood\": %s, \"hops\": %d, \"chains\": %zu, "
              "\"cycles_per_hop.median\": %.1f, \"cycles_per_hop.p10\": %.1f, \"cycles_per_hop.p90\": %.1f, \"gpu\": \"%s\"}\n",
              chaser == 0 ? "oldest" : "youngest", flood ? "true" : "false", hops, per_hop.size(),
              per_hop.empty() ? 0.0 : median(per_hop), per_hop.empty() ? 0.0 : per_hop[per_hop.size() / 10],
              per_hop.empty() ? 0.0 : per_hop[per_hop.size() * 9 / 10], gpu);
  GPU_CHECK(gpuFree(arrived));
  GPU_CHECK(gpuFree(done));
  GPU_CHECK(gpuFree(cycles));
}

}  // namespace

int main() {
  return ubench_main("gms-mio-order-ubench", [](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    unsigned* sink;
    GPU_CHECK(gpuMalloc(&sink, 4));
    for (int rounds : {4, 16, 64}) measure_order(sms, rounds, sink, prop.name);
    measure_chase(sms, 256, 0, 0, sink, prop.name);  // alone
    measure_chase(sms, 256, 0, 1, sink, prop.name);  // the oldest beside the flood
    measure_chase(sms, 256, 1, 1, sink, prop.name);  // the youngest beside the flood
  });
}
