#pragma once
// Event timing of kernel launches (CUDA and HIP), for the runner and the single-file microbenchmarks.
#include <algorithm>
#include <vector>

#include "gpu_port.h"

namespace gmsv {

struct Timer {
  gpuEvent_t a, b;
  Timer() {
    GPU_CHECK(gpuEventCreate(&a));
    GPU_CHECK(gpuEventCreate(&b));
  }
  ~Timer() {
    (void)gpuEventDestroy(a);
    (void)gpuEventDestroy(b);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  template <class F>
  double ns(F&& launch) {
    GPU_CHECK(gpuEventRecord(a));
    launch();
    GPU_CHECK(gpuEventRecord(b));
    GPU_CHECK(gpuEventSynchronize(b));
    float ms = 0;
    GPU_CHECK(gpuEventElapsedTime(&ms, a, b));
    return ms * 1e6;
  }
  // `reps` launches timed one by one, in milliseconds, sorted (front: min, [size / 2]: median).
  template <class F>
  std::vector<double> sorted_ms(F&& launch, int reps) {
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) ms.push_back(ns(launch) * 1e-6);
    std::sort(ms.begin(), ms.end());
    return ms;
  }
};

}  // namespace gmsv
