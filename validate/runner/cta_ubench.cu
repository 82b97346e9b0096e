// gms-cta-ubench: the fixed cost of a CTA (dispatch, launch of its warps, retire) that the timing
// model charges per CTA (issue 11: tiny GEMV blocks launch tens of thousands of programs).
//   empty      kernels whose CTAs do nothing but one predicated-off store: time per launch for grids of
//              1..512 CTAs per SM and 32..1024 threads; the slope over CTAs per SM is the per-CTA cost
//   launch     the same at grid 1: the launch overhead the slope excludes
// `--profile` launches each case 6 times and times nothing, for ncu: the duration the profiler gives
// one kernel (gpu__time_duration.sum, what the records score) of an empty grid is the fixed cost of
// a kernel that launch.kernel_overhead stands for (validate/scripts/device_launch.sh).
// `--smem` times empty CTAs of 128 threads that each hold 0..227 KiB of dynamic shared memory (the
// WMMA GEMM's CTA holds 55.5 KiB): whether a CTA's start or retire costs more with its shared memory.
// Prints one JSON object per measurement. Builds for CUDA and HIP (gpu_port.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../include/gpu_port.h"

namespace {

__global__ void empty_cta(int* sink, int never) {
  if (static_cast<int>(threadIdx.x) == never) sink[blockIdx.x] = 1;  // never taken; keeps the kernel real
}

__global__ void empty_cta_smem(int* sink, int never) {
  extern __shared__ int held[];
  if (static_cast<int>(threadIdx.x) == never) {  // never taken
    held[threadIdx.x] = 1;
    sink[blockIdx.x] = held[0];
  }
}

// Median time per launch of `launch()` over 5 x 20 back-to-back launches, after one warm-up.
template <class Launch>
double ns_per_launch_of(Launch&& launch) {
  launch();  // warm-up
  gpuEvent_t e0, e1;
  gpuEventCreate(&e0);
  gpuEventCreate(&e1);
  std::vector<double> runs;
  for (int rep = 0; rep < 5; ++rep) {
    gpuEventRecord(e0);
    for (int i = 0; i < 20; ++i) launch();
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

double ns_per_launch(int grid, int threads, int* sink) {
  return ns_per_launch_of([&] { empty_cta<<<grid, threads>>>(sink, -1); });
}

}  // namespace

// The cases: grid 1, then 1..512 CTAs per SM at 32..1024 threads.
template <class Fn>
void for_each_case(int sms, Fn&& fn) {
  fn(1, 32, 0);
  for (int threads : {32, 128, 256, 1024})
    for (int per_sm : {1, 4, 16, 64, 256, 512}) fn(per_sm * sms, threads, per_sm);
}

// --smem: empty 128-thread CTAs holding 0..the most shared memory a CTA may have, 1..256 per SM.
void time_shared_grids(const gpuDeviceProp& prop, int sms, int* sink) {
#if defined(__HIPCC__)
  const int most = static_cast<int>(prop.sharedMemPerBlock);  // gfx906: 64 KiB, no opt-in beyond it
#else
  const int most = static_cast<int>(prop.sharedMemPerBlockOptin);
#endif
  if (gpuFuncSetAttribute(empty_cta_smem, gpuFuncAttributeMaxDynamicSharedMemorySize, most) != gpuSuccess) {
    std::fprintf(stderr, "gms-cta-ubench: cannot allow %d bytes of shared memory per CTA\n", most);
    std::exit(1);
  }
  for (int bytes : {0, 16 * 1024, 48 * 1024, 56832, 100 * 1024, most}) {
    if (bytes > most) continue;
    for (int per_sm : {1, 4, 16, 64, 256}) {
      const int grid = per_sm * sms;
      const double ns = ns_per_launch_of([&] { empty_cta_smem<<<grid, 128, bytes>>>(sink, -1); });
      std::printf("{\"measurement\": \"smem\", \"threads\": 128, \"shared_bytes\": %d, \"ctas_per_sm\": %d, "
                  "\"grid\": %d, \"sms\": %d, \"ns\": %.1f}\n",
                  bytes, per_sm, grid, sms, ns);
    }
  }
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (argc > 2 || (mode != "" && mode != "--profile" && mode != "--smem")) {
    std::fprintf(stderr, "usage: gms-cta-ubench [--profile | --smem]\n");
    return 2;
  }
  const bool profile = mode == "--profile";
  gpuDeviceProp prop{};
  gpuGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount;
  int* sink = nullptr;
  gpuMalloc(&sink, sizeof(int) * 1024 * 1024);
  if (mode == "--smem") {
    time_shared_grids(prop, sms, sink);
    gpuFree(sink);
    return 0;
  }
  for_each_case(sms, [&](int grid, int threads, int per_sm) {
    if (profile) {
      // In launch order, as ncu lists them: grid, threads, 6 launches each.
      for (int i = 0; i < 6; ++i) empty_cta<<<grid, threads>>>(sink, -1);
      gpuDeviceSynchronize();
      std::printf("{\"measurement\": \"profiled\", \"grid\": %d, \"threads\": %d, \"launches\": 6}\n", grid, threads);
    } else if (per_sm == 0) {
      std::printf("{\"measurement\": \"launch\", \"grid\": 1, \"threads\": 32, \"ns\": %.1f}\n",
                  ns_per_launch(1, 32, sink));
    } else {
      double ns = ns_per_launch(grid, threads, sink);
      std::printf("{\"measurement\": \"empty\", \"threads\": %d, \"ctas_per_sm\": %d, \"grid\": %d, \"sms\": %d, "
                  "\"ns\": %.1f}\n",
                  threads, per_sm, grid, sms, ns);
    }
  });
  gpuFree(sink);
  return 0;
}
