// gms-carveout-ubench: how much of the SM's unified L1/shared-memory array stays L1 when a kernel
// takes shared memory. One thread of a CTA that allocates S bytes of dynamic shared memory chases
// a random cycle of 128-byte-spaced words over W bytes with ld.global.ca (L1-cached); the L1's
// capacity for that S is the largest W whose chase still hits (~33 cycles a load; misses go to L2,
// ~270). The driver sizes the carve-out for the shared memory the kernel needs; the model's L1
// was a fixed size (208 KB, measured with little shared memory).
// Prints one JSON object per (S, W): cycles per load (median of 3 runs). CUDA only (inline PTX).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"
#include "../kernels/ubench_kernels.cuh"

namespace {

__global__ void carve_chase(const unsigned* __restrict__ next, int warm, int iters, unsigned long long* cycles,
                            unsigned* sink) {
  extern __shared__ unsigned smem[];
  if (threadIdx.x != 0) return;
  smem[0] = 1;  // the allocation is what matters; touch it so it is not optimised away
  unsigned j = 0;
  for (int i = 0; i < warm; ++i) j = gmsv::chase_load<false>(next + j);
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) j = gmsv::chase_load<false>(next + j);
  const long long t1 = clock64();
  *cycles = static_cast<unsigned long long>(t1 - t0);
  *sink = j + smem[0];
}

using ubench::median;

}  // namespace

int main() {
  return ubench_main("gms-carveout-ubench", [](const gpuDeviceProp& prop) {
    const int max_smem = static_cast<int>(prop.sharedMemPerBlockOptin);
    GPU_CHECK(gpuFuncSetAttribute(carve_chase, gpuFuncAttributeMaxDynamicSharedMemorySize, max_smem));
    const size_t max_bytes = 512 * 1024;
    unsigned *d_next, *sink;
    unsigned long long* cyc;
    GPU_CHECK(gpuMalloc(&d_next, max_bytes));
    GPU_CHECK(gpuMalloc(&sink, 4));
    GPU_CHECK(gpuMalloc(&cyc, 8));
    const std::vector<int> smem_kib = {0, 8, 16, 32, 48, 64, 100, 132, 164, 196, max_smem / 1024};
    for (int s_kib : smem_kib) {
      const int s = std::max(16, std::min(s_kib * 1024, max_smem));  // the thread touches word 0
      for (int w_kib = 8; w_kib <= 256; w_kib += 8) {
        const size_t slots = static_cast<size_t>(w_kib) * 1024 / 128, stride = 32;
        std::vector<unsigned> order(slots);
        std::iota(order.begin(), order.end(), 0u);
        std::mt19937 rng(static_cast<unsigned>(w_kib));
        std::shuffle(order.begin() + 1, order.end(), rng);
        std::vector<unsigned> next(slots * stride, 0);
        for (size_t i = 0; i < slots; ++i) next[order[i] * stride] = order[(i + 1) % slots] * static_cast<unsigned>(stride);
        GPU_CHECK(gpuMemcpy(d_next, next.data(), next.size() * 4, gpuMemcpyHostToDevice));
        std::vector<double> per;
        const int iters = 20000;
        for (int rep = 0; rep < 3; ++rep) {
          carve_chase<<<1, 32, s>>>(d_next, static_cast<int>(2 * slots), iters, cyc, sink);
          GPU_CHECK_LAUNCH();
          unsigned long long c = 0;
          GPU_CHECK(gpuMemcpy(&c, cyc, 8, gpuMemcpyDeviceToHost));
          per.push_back(static_cast<double>(c) / iters);
        }
        std::printf("{\"measure\": \"l1_carveout\", \"shared_bytes\": %d, \"working_set_bytes\": %d, \"cycles_per_load\": %.2f, \"gpu\": \"%s\"}\n",
                    s, w_kib * 1024, median(per), prop.name);
      }
    }
  });
}
