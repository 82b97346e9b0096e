#pragma once
// The clocks a CTA stamp reads (gms-ladder --stamps): %globaltimer in ns and the SM's id. CUDA only.
#include "../include/gpu_port.h"

namespace gmsv {

#if !defined(__HIPCC__)
__device__ __forceinline__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
#endif

}  // namespace gmsv
