#pragma once
// The clocks a CTA stamp reads (gms-ladder --stamps): %globaltimer in ns and the SM's id; and the SM's 32-bit
// %clock the microbenchmarks stamp passes and segments with. CUDA only.
#include "../include/gpu_port.h"

namespace gmsv {

#if !defined(__HIPCC__)
__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// "memory": no load or store moves across the read (ptxas may still move arithmetic: pin it with a dependency).
__device__ __forceinline__ unsigned clock32() {
  unsigned t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t) : : "memory");
  return t;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
#endif

}  // namespace gmsv
