#pragma once
// Pieces shared by the runner's translation units: options, environment, event timer, buffers.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../include/event_timer.h"
#include "../include/gpu_port.h"
#include "../kernels/ubench_kernels.cuh"
#include "record.h"

namespace gmsv {

#if defined(__HIPCC__)
constexpr int kWarp = 64;
#else
constexpr int kWarp = 32;
#endif

struct Options {
  std::vector<std::string> sets;
  std::string out = ".";
  bool profile = false;
  int reps = 20;
  // --rounds N: the case sets are timed N times over, case after case, so that each case's rounds
  // are spread over the call (drift in clocks or temperature shows as spread, not as a ranking).
  // With --profile each round runs each case once more (repeated ncu profiles).
  // Results are checked in round 0 only; every round writes its own record with "round" in measured.
  int rounds = 1;
  int round = 0;
  std::string command_line;
};

struct Env {
  gpuDeviceProp prop{};
  std::string json;
};

inline Env environment(const Options& o) {
  Env e;
  GPU_CHECK(gpuGetDeviceProperties(&e.prop, 0));
  int driver = 0, runtime = 0;
  GPU_CHECK(gpuDriverGetVersion(&driver));
  GPU_CHECK(gpuRuntimeGetVersion(&runtime));
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "{\"gpu\": \"%s\", \"platform\": \"%s\", \"sms\": %d, \"l2_bytes\": %d, \"shared_per_sm\": %zu, "
                "\"driver_version\": %d, \"runtime_version\": %d, \"command\": \"%s\"}",
                json_escape(e.prop.name).c_str(), GPU_PLATFORM, e.prop.multiProcessorCount, e.prop.l2CacheSize,
                static_cast<size_t>(GPU_SHARED_PER_SM(e.prop)), driver, runtime,
                json_escape(o.command_line).c_str());
  e.json = buf;
  return e;
}

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) { GPU_CHECK(gpuMalloc(&p, count * sizeof(T))); }
  ~DeviceBuffer() { (void)gpuFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Registers the compiler gave a kernel (what the simulator's occupancy needs).
struct cudaFuncAttributes_compat {
  int regs = 0;
  size_t local_bytes = 0;
};
template <class K>
cudaFuncAttributes_compat func_attributes(K kernel) {
#if defined(__HIPCC__)
  hipFuncAttributes a{};
  GPU_CHECK(hipFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel)));
#else
  cudaFuncAttributes a{};
  GPU_CHECK(cudaFuncGetAttributes(&a, kernel));
#endif
  return {a.numRegs, a.localSizeBytes};
}

inline void fill_random(__half* p, size_t n, unsigned long long seed) {
  fill_random_half<<<1024, 256>>>(p, n, seed);
  GPU_CHECK_LAUNCH();
}

inline std::vector<double> to_host_half(const __half* p, size_t n) {
  std::vector<std::uint16_t> bits(n);
  GPU_CHECK(gpuMemcpy(bits.data(), p, n * 2, gpuMemcpyDeviceToHost));
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = half_bits_to_float(bits[i]);
  return out;
}


}  // namespace gmsv
