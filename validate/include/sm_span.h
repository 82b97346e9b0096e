#pragma once
// Device helpers of the microbenchmarks that time whole SMs (gms-gpc-ubench, gms-fabric-ubench,
// gms-partition-ubench): which SM a CTA runs on, the GPU-wide nanosecond timer, and the end of an
// SM's timed span - a barrier, then thread 0 stores its start and end in ns and in SM cycles.
// CUDA only (%smid, %globaltimer).

__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// out[4 sm .. 4 sm + 3] = start ns, end ns, start cycle, end cycle.
__device__ __forceinline__ void end_span(unsigned long long* out, unsigned sm, unsigned long long t0,
                                         unsigned long long c0) {
  __syncthreads();
  const unsigned long long t1 = globaltimer(), c1 = clock64();
  if (threadIdx.x == 0) {
    out[4 * sm] = t0;
    out[4 * sm + 1] = t1;
    out[4 * sm + 2] = c0;
    out[4 * sm + 3] = c1;
  }
}
