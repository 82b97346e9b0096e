#pragma once
// Device helpers of the microbenchmarks that time whole SMs (gms-gpc-ubench, gms-fabric-ubench,
// gms-partition-ubench): which SM a CTA runs on, the GPU-wide nanosecond timer, the end of an SM's
// timed span - a barrier, then thread 0 stores its start and end in ns and in SM cycles - and the
// stream both bandwidth benchmarks time. CUDA only (%smid, %globaltimer).

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

// One CTA per SM; the SMs flagged in `active` read their own `window` bytes of `buf` (`passes` times)
// with 16-byte ld.global.cg, each thread kInFlight independent loads in flight (the window's int4
// count a multiple of kInFlight x blockDim.x), and stamp their span into `out` (end_span). The
// dynamic shared memory `pad` keeps a second CTA off the SM; `sink` takes the data's XOR so the
// loads are not dropped.
template <int kInFlight>
__global__ void window_stream(const int4* buf, size_t window, int passes, const unsigned char* active,
                              unsigned long long* out, int* sink) {
  extern __shared__ int pad[];
  const unsigned sm = smid();
  if (!active[sm]) return;
  const int4* w = buf + static_cast<size_t>(sm) * (window / sizeof(int4));
  const int elems = static_cast<int>(window / sizeof(int4));
  __syncthreads();
  const unsigned long long t0 = globaltimer(), c0 = clock64();
  int acc = 0;
  for (int p = 0; p < passes; ++p)
    for (int i = threadIdx.x; i < elems; i += kInFlight * blockDim.x) {
      int4 v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u)
        asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v[u].x), "=r"(v[u].y), "=r"(v[u].z), "=r"(v[u].w)
                     : "l"(w + i + u * blockDim.x));
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  if (acc == 0x12345678) pad[0] = acc, *sink = pad[0];
  end_span(out, sm, t0, c0);
}
