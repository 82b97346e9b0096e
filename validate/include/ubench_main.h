#pragma once
// The opening and closing every microbenchmark's main() shares: the device's properties in, and a GPU
// error (GPU_CHECK throws) out as one line on stderr and exit status 1.
#include <cstdio>
#include <exception>

#include "gpu_port.h"

template <class Body>
int ubench_main(const char* name, Body body) {
  try {
    gpuDeviceProp prop{};
    GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
    body(prop);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}
