// gms-sreg-ubench: how long a warp waits for a special-register read (S2R). Compiled loops read
// SR_TID.X, SR_LANEID and SR_CgaCtaId (the shared window of a cp.async destination on Hopper) inside
// their main loops when registers are short; S2R is a variable-latency instruction whose result a
// later instruction waits on through a scoreboard - Nsight's short_scoreboard, as for shared loads.
//   bracket   one warp, per step: CS2R t0 = clock; S2R s = SR_VIRTUALSMID (ptxas keeps it in the loop:
//             the SM id is not invariant); y = s + t0; @P(y) CS2R t1 = clock, the second clock read
//             predicated on y so that it issues only once y is known. The control step reads no
//             special register (y = t0 + 5); a second control does not wait on the clock read either
//             (y = a loop-carried sum + 5), which gives the clock read's own latency c: control -
//             second control + 1. The S2R issues a cycle after t0's clock read and the sum waits for
//             it, so its latency is (t1 - t0) - control + c - 1.
//   loaded    the same in warp 0 of a 1024-thread CTA per SM whose 31 other warps keep the
//             shared-memory data path busy with ldmatrix.x4 (4 wavefronts each, back to back)
// Prints one JSON object per measurement: cycles per step (clock64, median of 5 runs; loaded: median
// over the SMs too). CUDA only (clock64, inline PTX).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

// One bracketed step; KIND 0: no special register (control), 1: S2R SR_VIRTUALSMID, 2: the sum waits on
// nothing in the step (second control).
template <int KIND>
__device__ __forceinline__ unsigned long long step(unsigned& acc) {
  unsigned long long t0, t1 = 0;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
  unsigned y;
  if constexpr (KIND == 0) {
    y = static_cast<unsigned>(t0) + 5u;
  } else if constexpr (KIND == 2) {
    y = acc + 5u;
  } else {
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    y = static_cast<unsigned>(t0) + s;
  }
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0xffffffff; @p mov.u64 %0, %%clock64; }" : "+l"(t1) : "r"(y));
  acc += y;
  return t1 - t0;
}

template <int KIND>
__device__ unsigned long long bracket(int steps, unsigned& acc) {
  unsigned long long sum = 0;
  for (int i = 0; i < steps; ++i) sum += step<KIND>(acc);
  return sum;
}

template <int KIND>
__global__ void sreg_chase(int hops, long long* cycles, unsigned* sink) {
  unsigned acc = threadIdx.x;
  const long long c = static_cast<long long>(bracket<KIND>(hops, acc));
  if (threadIdx.x == 0) *cycles = c;
  if (acc == 0x12345u) *sink = acc;
}

// Warp 0 runs the bracketed steps; the other warps issue ldmatrix.x4 (rows 80 bytes apart: 4 wavefronts) back to back
// until warp 0 is done.
template <int KIND>
__global__ void sreg_loaded(int hops, long long* cycles, unsigned* sink) {
  __shared__ __align__(128) unsigned char buf[16384];
  __shared__ volatile int done;
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) reinterpret_cast<unsigned*>(buf)[i] = i;
  if (threadIdx.x == 0) done = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  unsigned acc = threadIdx.x;
  if (warp == 0) {
    // A head start for the readers: the chase is timed with the path busy.
    const long long start = clock64();
    while (clock64() - start < 20000) {
    }
    const long long c = static_cast<long long>(bracket<KIND>(hops, acc));
    if (lane == 0) {
      cycles[blockIdx.x] = c;
      done = 1;
    }
  } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    for (int it = 0; !done; ++it) {
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const unsigned addr = static_cast<unsigned>(
            __cvta_generic_to_shared(buf + ((((it + j) & 7) * 2048 + (lane % 16) * 80 + (lane / 16) * 16) & 16383)));
        unsigned r0, r1, r2, r3;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr) : "memory");
        acc ^= r0 ^ r1 ^ r2 ^ r3;
      }
    }
#endif
  }
  if (acc == 0x12345u) *sink = acc;
}

using ubench::median;

const char* kind_name(int k) { return k == 0 ? "control" : k == 1 ? "s2r_smid" : "control_no_clock_wait"; }

template <int KIND>
void measure(int sms, long long* cyc, unsigned* sink, const char* gpu) {
  const int hops = 1 << 14;
  std::vector<double> idle, loaded;
  for (int rep = 0; rep < 5; ++rep) {
    sreg_chase<KIND><<<1, 32>>>(hops, cyc, sink);
    GPU_CHECK_LAUNCH();
    long long c = 0;
    GPU_CHECK(gpuMemcpy(&c, cyc, sizeof c, gpuMemcpyDeviceToHost));
    idle.push_back(static_cast<double>(c) / hops);
    sreg_loaded<KIND><<<sms, 1024>>>(hops, cyc, sink);
    GPU_CHECK_LAUNCH();
    std::vector<long long> per(static_cast<size_t>(sms));
    GPU_CHECK(gpuMemcpy(per.data(), cyc, sizeof(long long) * sms, gpuMemcpyDeviceToHost));
    std::vector<double> d;
    for (long long x : per) d.push_back(static_cast<double>(x) / hops);
    loaded.push_back(median(d));
  }
  std::printf("{\"measure\": \"sreg_bracket\", \"read\": \"%s\", \"cycles_per_step\": %.2f, \"loaded_cycles_per_step\": %.2f, \"steps\": %d, \"gpu\": \"%s\"}\n",
              kind_name(KIND), median(idle), median(loaded), hops, gpu);
}

}  // namespace

int main() {
  return ubench_main("gms-sreg-ubench", [](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    long long* cyc;
    unsigned* sink;
    GPU_CHECK(gpuMalloc(&cyc, sizeof(long long) * sms));
    GPU_CHECK(gpuMalloc(&sink, 4));
    measure<0>(sms, cyc, sink, prop.name);
    measure<1>(sms, cyc, sink, prop.name);
    measure<2>(sms, cyc, sink, prop.name);
  });
}
