// gms-smem-ubench: the SM data-path numbers the timing model takes from silicon.
//   shared_latency  one thread chases pointers through shared memory (LDS -> address -> LDS), clock64
//   shared_bw       one 1024-thread CTA per SM streams conflict-free LDS.128 (bytes per SM cycle, clock64)
//   ffma            sustained FFMA rate, one 1024-thread CTA per SM, 8 and 16 independent chains per thread
// Prints one JSON object per measurement. CUDA only (clock64, inline PTX).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"

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

template <int CHAINS>
__global__ void ffma_chains(int iters, float seed, long long* cycles, float* sink) {
  float a[CHAINS];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) a[j] = seed + j;
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i)
#pragma unroll
    for (int j = 0; j < CHAINS; ++j) a[j] = fmaf(a[j], 0.9999f, 0.0001f);
  __syncthreads();
  long long t1 = clock64();
  float s = 0;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) s += a[j];
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  if (s == 12345.678f) *sink = s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  try {
    gpuDeviceProp prop{};
    GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    long long* cyc;
    unsigned* usink;
    float* fsink;
    GPU_CHECK(gpuMalloc(&cyc, sizeof(long long) * sms * 8));
    GPU_CHECK(gpuMalloc(&usink, 4));
    GPU_CHECK(gpuMalloc(&fsink, 4));
    // Latency: the per-hop time of a dependent chain (LDS + the address it feeds).
    std::vector<double> lat;
    for (int rep = 0; rep < 5; ++rep) {
      long long c = 0;
      smem_chase<<<1, 256>>>(1 << 16, cyc, usink);
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuMemcpy(&c, cyc, sizeof c, gpuMemcpyDeviceToHost));
      lat.push_back(static_cast<double>(c) / (1 << 16));
    }
    std::printf("{\"measure\": \"shared_latency\", \"cycles_per_hop\": %.2f, \"hops\": 65536, \"gpu\": \"%s\"}\n", median(lat), prop.name);
    // Bandwidth: bytes each SM's CTA read over its own clock64 cycles.
    const int iters = 1 << 12;
    std::vector<double> bw;
    for (int rep = 0; rep < 5; ++rep) {
      smem_stream<<<sms, 1024>>>(iters, cyc, fsink);
      GPU_CHECK_LAUNCH();
      std::vector<long long> c(sms);
      GPU_CHECK(gpuMemcpy(c.data(), cyc, sizeof(long long) * sms, gpuMemcpyDeviceToHost));
      double bytes = 1024.0 * iters * 8 * 16;
      std::vector<double> per;
      for (auto x : c) per.push_back(bytes / static_cast<double>(x));
      bw.push_back(median(per));
    }
    std::printf("{\"measure\": \"shared_bandwidth\", \"bytes_per_cycle_per_sm\": %.2f, \"threads_per_sm\": 1024, \"access\": \"LDS.128 conflict-free\"}\n", median(bw));
      auto ffma = [&](auto kernel, int chains) {
      std::vector<double> r;
      for (int rep = 0; rep < 5; ++rep) {
        const int fit = 1 << 14;
        kernel<<<sms, 1024>>>(fit, 1.0f, cyc, fsink);  // one 32-warp CTA per SM
        GPU_CHECK_LAUNCH();
        std::vector<long long> c(sms);
        GPU_CHECK(gpuMemcpy(c.data(), cyc, sizeof(long long) * sms, gpuMemcpyDeviceToHost));
        std::vector<double> per;
        for (auto x : c) per.push_back(2.0 * chains * fit * 1024 / static_cast<double>(x));
        r.push_back(median(per));
      }
      std::printf("{\"measure\": \"ffma\", \"chains\": %d, \"flops_per_cycle_per_sm\": %.1f, \"warps_per_sm\": 32}\n", chains, median(r));
    };
    ffma(ffma_chains<8>, 8);
    ffma(ffma_chains<16>, 16);
    GPU_CHECK(gpuDeviceSynchronize());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms-smem-ubench: %s\n", e.what());
    return 1;
  }
}
