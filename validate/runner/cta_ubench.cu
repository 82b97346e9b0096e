// gms-cta-ubench: the fixed cost of a CTA (dispatch, launch of its warps, retire) that the timing
// model charges per CTA (issue 11: tiny GEMV blocks launch tens of thousands of programs).
//   empty      kernels whose CTAs do nothing but one predicated-off store: time per launch for grids of
//              1..512 CTAs per SM and 32..1024 threads; the slope over CTAs per SM is the per-CTA cost
//   launch     the same at grid 1: the launch overhead the slope excludes
// Prints one JSON object per measurement. Builds for CUDA and HIP (gpu_port.h).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"

namespace {

__global__ void empty_cta(int* sink, int never) {
  if (static_cast<int>(threadIdx.x) == never) sink[blockIdx.x] = 1;  // never taken; keeps the kernel real
}

double ns_per_launch(int grid, int threads, int* sink) {
  empty_cta<<<grid, threads>>>(sink, -1);  // warm-up
  gpuEvent_t e0, e1;
  gpuEventCreate(&e0);
  gpuEventCreate(&e1);
  std::vector<double> runs;
  for (int rep = 0; rep < 5; ++rep) {
    gpuEventRecord(e0);
    for (int i = 0; i < 20; ++i) empty_cta<<<grid, threads>>>(sink, -1);
    gpuEventRecord(e1);
    gpuEventSynchronize(e1);
    float ms = 0;
    gpuEventElapsedTime(&ms, e0, e1);
    runs.push_back(ms * 1e6 / 20);
  }
  gpuEventDestroy(e0);
  gpuEventDestroy(e1);
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

}  // namespace

int main() {
  gpuDeviceProp prop{};
  gpuGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount;
  int* sink = nullptr;
  gpuMalloc(&sink, sizeof(int) * 1024 * 1024);
  std::printf("{\"measurement\": \"launch\", \"grid\": 1, \"threads\": 32, \"ns\": %.1f}\n", ns_per_launch(1, 32, sink));
  for (int threads : {32, 128, 256, 1024})
    for (int per_sm : {1, 4, 16, 64, 256, 512}) {
      int grid = per_sm * sms;
      double ns = ns_per_launch(grid, threads, sink);
      std::printf("{\"measurement\": \"empty\", \"threads\": %d, \"ctas_per_sm\": %d, \"grid\": %d, \"sms\": %d, "
                  "\"ns\": %.1f}\n",
                  threads, per_sm, grid, sms, ns);
    }
  gpuFree(sink);
  return 0;
}
