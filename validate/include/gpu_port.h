#pragma once
// One source for CUDA and HIP: the runtime calls and the few intrinsics the kernels use.
#if defined(__HIPCC__)
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#define GPU_PLATFORM "hip"
#define gpuError_t hipError_t
#define gpuSuccess hipSuccess
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMemcpy hipMemcpy
#define gpuMemset hipMemset
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuEvent_t hipEvent_t
#define gpuEventCreate hipEventCreate
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuEventDestroy hipEventDestroy
#define gpuDeviceProp hipDeviceProp_t
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuDriverGetVersion hipDriverGetVersion
#define gpuRuntimeGetVersion hipRuntimeGetVersion
#define gpuFuncSetAttribute(f, a, v) hipFuncSetAttribute(reinterpret_cast<const void*>(f), a, v)
#define gpuFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor(n, f, threads, smem) \
  hipOccupancyMaxActiveBlocksPerMultiprocessor(n, reinterpret_cast<const void*>(f), threads, smem)
#define GPU_SHARED_PER_SM(prop) (prop).maxSharedMemoryPerMultiProcessor
#else
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define GPU_PLATFORM "cuda"
#define gpuError_t cudaError_t
#define gpuSuccess cudaSuccess
#define gpuGetErrorString cudaGetErrorString
#define gpuGetLastError cudaGetLastError
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemcpy cudaMemcpy
#define gpuMemset cudaMemset
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuEvent_t cudaEvent_t
#define gpuEventCreate cudaEventCreate
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuEventDestroy cudaEventDestroy
#define gpuDeviceProp cudaDeviceProp
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuDriverGetVersion cudaDriverGetVersion
#define gpuRuntimeGetVersion cudaRuntimeGetVersion
#define gpuFuncSetAttribute(f, a, v) cudaFuncSetAttribute(f, a, v)
#define gpuFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define GPU_SHARED_PER_SM(prop) (prop).sharedMemPerMultiprocessor
#endif

#include <cstdio>
#include <stdexcept>
#include <string>

// Every runtime call is checked; a failure throws with the call's text (the runner reports it).
#define GPU_CHECK(call)                                                                                   \
  do {                                                                                                    \
    gpuError_t gpu_check_err_ = (call);                                                                   \
    if (gpu_check_err_ != gpuSuccess)                                                                     \
      throw std::runtime_error(std::string(#call) + " failed: " + gpuGetErrorString(gpu_check_err_) +     \
                               " at " + __FILE__ + ":" + std::to_string(__LINE__));                      \
  } while (0)
#define GPU_CHECK_LAUNCH() GPU_CHECK(gpuGetLastError())

// The SMs of device 0: the microbenchmarks size their grids by it.
inline int gpu_sm_count() {
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  return prop.multiProcessorCount;
}

// Compiler-only fence: keeps the source order of loads and math (the orders under study).
#define GPU_ORDER_FENCE() asm volatile("" ::: "memory")

// One 32-bit load past L1 (CUDA ld.global.cg: cached in L2 only), so a chase's every hop reaches L2 or DRAM.
// HIP has no such hint in source: a volatile load there.
__device__ __forceinline__ unsigned gpu_load_cg(const unsigned* p) {
#if !defined(__HIPCC__)
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
#else
  return *reinterpret_cast<const volatile unsigned*>(p);
#endif
}
