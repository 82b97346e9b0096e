// gms-tensor-ubench: the tensor-core numbers the timing model takes from silicon (mma.sync class).
//   mma_rate     one CTA per SM, W warps, C independent m16n8k16 fp16->fp32 accumulators per warp:
//                FLOP per SM cycle (clock64), and the SM clock the run held (cycles / event time)
//   mma_latency  one warp, one dependent chain: cycles per mma.sync
//   clock_load   long runs with 1..4 warps per SM (one per sub-partition, 8 chains each): the tensor
//                pipe busy 1/4 .. 4/4 of the time; the clock the power limit leaves at each load
// Prints one JSON object per measurement. CUDA only (inline PTX mma.sync, sm_80+).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"

namespace {

template <int CHAINS>
__global__ void mma_chains(long long iters, long long* cycles, float* sink) {
  float d[CHAINS][4];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c)
#pragma unroll
    for (int e = 0; e < 4; ++e) d[c][e] = 0.f;
  // Operands: small constants so the accumulators stay finite over billions of MMAs.
  const unsigned a = 0x1c001c00u + threadIdx.x % 2, b = 0x1c001c00u;  // fp16 pairs of ~0.004
  __syncthreads();
  long long t0 = clock64();
  for (long long i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
          : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
  }
  __syncthreads();
  long long t1 = clock64();
  float s = 0;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (s == 1.2345f) *sink = s;
}

struct Run {
  double cycles_median = 0, ms = 0;
};

template <int CHAINS>
Run run_chains(int sms, int warps, long long iters, long long* d_cycles, float* d_sink) {
  mma_chains<CHAINS><<<sms, warps * 32>>>(1, d_cycles, d_sink);  // warm-up
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  mma_chains<CHAINS><<<sms, warps * 32>>>(iters, d_cycles, d_sink);
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  std::vector<long long> c(static_cast<size_t>(sms));
  cudaMemcpy(c.data(), d_cycles, sizeof(long long) * sms, cudaMemcpyDeviceToHost);
  std::sort(c.begin(), c.end());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return {static_cast<double>(c[c.size() / 2]), ms};
}

Run run(int chains, int sms, int warps, long long iters, long long* dc, float* ds) {
  switch (chains) {
    case 1: return run_chains<1>(sms, warps, iters, dc, ds);
    case 2: return run_chains<2>(sms, warps, iters, dc, ds);
    case 4: return run_chains<4>(sms, warps, iters, dc, ds);
    default: return run_chains<8>(sms, warps, iters, dc, ds);
  }
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount;
  long long* d_cycles = nullptr;
  float* d_sink = nullptr;
  cudaMalloc(&d_cycles, sizeof(long long) * sms);
  cudaMalloc(&d_sink, sizeof(float));
  const double flop_per_mma = 2.0 * 16 * 8 * 16;

  // Latency: one warp on one SM, one dependent chain.
  {
    const long long iters = 100000;
    Run r = run(1, 1, 1, iters, d_cycles, d_sink);
    std::printf("{\"measure\": \"mma_latency\", \"instruction\": \"mma.sync.m16n8k16.f32.f16\", \"cycles_per_mma\": %.3f}\n",
                r.cycles_median / iters);
  }
  // Rate: warps per SM x independent chains per warp.
  for (int warps : {4, 8, 16, 32})
    for (int chains : {1, 2, 4, 8}) {
      const long long iters = 200000 / chains;
      Run r = run(chains, sms, warps, iters, d_cycles, d_sink);
      const double flops = flop_per_mma * chains * iters * warps;  // per SM
      std::printf("{\"measure\": \"mma_rate\", \"warps_per_sm\": %d, \"chains\": %d, \"flop_per_cycle_per_sm\": %.1f, "
                  "\"sm_clock_mhz\": %.1f, \"ms\": %.3f}\n",
                  warps, chains, flops / r.cycles_median, r.cycles_median / (r.ms * 1e3), r.ms);
    }
  // Clock under load: ~0.15 s per point, 1..4 busy sub-partitions (the pipe's duty 25..100 %); a
  // warp per sub-partition runs its chains in parallel with the others, so equal iterations take
  // equal time.
  for (int warps : {1, 2, 3, 4, 8}) {
    const long long iters = warps > 4 ? 2000000LL : 4000000LL;
    Run r = run(8, sms, warps, iters, d_cycles, d_sink);
    const double flops = flop_per_mma * 8 * iters * warps;
    std::printf("{\"measure\": \"clock_load\", \"warps_per_sm\": %d, \"chains\": 8, \"flop_per_cycle_per_sm\": %.1f, "
                "\"sm_clock_mhz\": %.1f, \"ms\": %.3f}\n",
                warps, flops / r.cycles_median, r.cycles_median / (r.ms * 1e3), r.ms);
  }
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
