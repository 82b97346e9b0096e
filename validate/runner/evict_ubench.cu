// gms-evict-ubench: does an evict-first load stream displace the other lines of the L2? One kernel
// writes D bytes (dirty in L2); the next streams S bytes (several times the L2) with 16-byte loads
// of one eviction flavour; Nsight's dram__bytes_write.sum of the stream is how much of the dirty
// data it evicted (all of it for plain loads, none if evict-first lines are always their set's next
// victims, as the timing model has it). A second probe reads a small normal-priority set back
// after the stream (its DRAM reads: how much of it the stream displaced).
//   gms-evict-ubench   (under ncu --cache-control none, kernels named evict_*; see device_evict.sh)
// The flavours, as PTX: plain ld.global.v4, ld.global.L1::evict_first, ld.global.L1::evict_last,
// ld.global.L2::evict_first (cache-policy register from createpolicy.fractional.L2::evict_first).
// Then evict-first streams of 16, 64 and 1024 MB (the same dirty 8 MB before each): profiled with
// ncu's default cache control too (its flush before every kernel), they tell whether the ~2 MB of
// DRAM writes the Triton GEMV records count (W loaded evict-first) grow with the stream or not.
// CUDA only (inline PTX).
#include <cstdio>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"

namespace {

__global__ void evict_dirty(int4* buf, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
    buf[i] = make_int4(static_cast<int>(i), 1, 2, 3);
}

template <int FLAVOUR>
__device__ __forceinline__ int4 load16(const int4* p) {
  int4 v;
  if constexpr (FLAVOUR == 0) {
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if constexpr (FLAVOUR == 1) {
    asm volatile("ld.global.L1::evict_first.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else if constexpr (FLAVOUR == 2) {
    asm volatile("ld.global.L1::evict_last.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  } else {
    asm volatile(
        "{\n .reg .b64 pol;\n createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n"
        " ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], pol;\n}"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  }
  return v;
}

template <int FLAVOUR>
__global__ void evict_stream(const int4* src, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const int4 v = load16<FLAVOUR>(src + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678) *sink = acc;
}

// The evict-first stream of a Triton GEMV: it also adds its partial results into y (RED, 112 KB of
// a 2 MB allocation, as PyTorch's caching allocator hands out), so that a profiler replaying it in
// several passes must save and restore y.
__global__ void evict_stream_red(const int4* src, size_t n, float* y) {
  int acc = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const int4 v = load16<1>(src + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  atomicAdd(&y[(blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) % 28672], static_cast<float>(acc & 1));
}

__global__ void evict_probe(const int4* buf, size_t n, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
    acc ^= buf[i].x;
  if (acc == 0x12345678) *sink = acc;
}

}  // namespace

int main() {
  return ubench_main("gms-evict-ubench", [](const gpuDeviceProp&) {
    const int sms = gpu_sm_count();
    constexpr size_t kDirty = 8u << 20, kStream = 256u << 20;  // 8 MB dirty, a 256 MB stream (5x the L2)
    constexpr size_t kLongest = 1024u << 20;                   // the longest evict-first stream
    int4 *dirty, *stream;
    int* sink;
    GPU_CHECK(gpuMalloc(&dirty, kDirty));
    GPU_CHECK(gpuMalloc(&stream, kLongest));
    GPU_CHECK(gpuMalloc(&sink, sizeof(int)));
    GPU_CHECK(gpuMemset(stream, 1, kLongest));
    const size_t nd = kDirty / sizeof(int4);
    const int grid = 4 * sms, block = 256;
    // Per flavour: dirty the 8 MB, stream, then read the 8 MB back (normal loads).
    auto round = [&](auto launch_stream, const char* name, size_t stream_bytes) {
      evict_dirty<<<grid, block>>>(dirty, nd);
      GPU_CHECK_LAUNCH();
      launch_stream(stream_bytes / sizeof(int4));
      GPU_CHECK_LAUNCH();
      evict_probe<<<grid, block>>>(dirty, nd, sink);
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuDeviceSynchronize());
      std::printf("{\"measure\": \"evict_round\", \"stream\": \"%s\", \"dirty_bytes\": %zu, \"stream_bytes\": %zu}\n", name, kDirty, stream_bytes);
    };
    auto flavour = [&](auto kernel) { return [&, kernel](size_t n) { kernel<<<grid, block>>>(stream, n, sink); }; };
    round(flavour(evict_stream<0>), "plain", kStream);
    round(flavour(evict_stream<1>), "L1::evict_first", kStream);
    round(flavour(evict_stream<2>), "L1::evict_last", kStream);
    round(flavour(evict_stream<3>), "L2::evict_first (cache_hint)", kStream);
    for (size_t mb : {16, 64, 1024}) round(flavour(evict_stream<1>), "L1::evict_first", mb << 20);
    float* y;
    GPU_CHECK(gpuMalloc(&y, 2u << 20));
    GPU_CHECK(gpuMemset(y, 0, 2u << 20));
    round([&](size_t n) { evict_stream_red<<<grid, block>>>(stream, n, y); }, "L1::evict_first + RED into y", kStream);
    GPU_CHECK(gpuFree(y));
    GPU_CHECK(gpuFree(dirty));
    GPU_CHECK(gpuFree(stream));
    GPU_CHECK(gpuFree(sink));
  });
}
