// gms-copy-issue-ubench: does a warp wait longer on its cp.async copies when some of them miss to DRAM,
// though its work hides their latency? (docs/sm-sharing.md: the WMMA GEMM's warps wait on their copies
// 3.4-4.5 % of their time on silicon, more the more its CTA order reads from DRAM.) Each iteration a warp
// waits until at most 2 older copy groups are in flight (3 stages), issues its cp.async.cg copies of 16
// bytes a lane (4 lines each), then `work` integer instructions (IMAD and LOP3 chains, like the WMMA loop's
// address arithmetic). `misses` of every 8 copies read a line of a streaming region no other copy reads (a
// DRAM miss); the others read a 16 MiB window that stays in L2. Modes:
//   free   one CTA of 8 warps per SM, 4 copies (2 KiB) a warp, work 0 or 256, no barrier
//   burst  two CTAs of 4 warps per SM, a barrier before each iteration's 8 copies (4 KiB) a warp, work 512:
//          the WMMA GEMM's K step (its CTAs' copies issued together, 16 KiB a CTA)
// Prints one JSON object per (mode, work, misses): SM cycles per iteration (clock64, median over warps) and
// the kernel's time (events); device_copy_issue.sh adds Nsight's warp states and DRAM bytes.
#include <algorithm>
#include <cstdio>
#include <string_view>
#include <vector>

#include "../include/gpu_port.h"

namespace {

constexpr int kStages = 3;
constexpr long long kWindowBytes = 16ll << 20;

// WARPS warps a CTA, COPIES copies a warp and iteration; SYNC: a barrier before each iteration's copies,
// so that the CTA's warps issue them together (the WMMA GEMM's K step).
template <int WORK, int WARPS, int COPIES, bool SYNC>
__global__ void copy_issue(const char* window, const char* stream, int misses, int iters, long long* cycles, unsigned* sink) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  constexpr int kWarps = WARPS, kCopies = COPIES;
  unsigned x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = threadIdx.x + k;
  const long long my_stream = (static_cast<long long>(blockIdx.x) * kWarps + warp) * iters * kCopies;
  __syncthreads();
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kStages - 1));
    if (SYNC) __syncthreads();
#pragma unroll
    for (int k = 0; k < kCopies; ++k) {
      const int n = i * kCopies + k;
      const bool miss = (n + warp * 3 + blockIdx.x) % 8 < misses;
      const char* src = miss ? stream + (my_stream + n) * 512
                             : window + ((static_cast<long long>(n) * kWarps + warp) * 512 + blockIdx.x * 4096ll) % kWindowBytes;
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(
          smem + ((i % kStages) * kWarps * kCopies + warp * kCopies + k) * 512 + lane * 16));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src + lane * 16));
    }
    asm volatile("cp.async.commit_group;\n" ::);
#pragma unroll
    for (int j = 0; j < WORK / 16; ++j)
#pragma unroll
      for (int k = 0; k < 8; ++k) {
        asm volatile("mad.lo.u32 %0, %0, %1, %2;\n" : "+r"(x[k]) : "r"(3u), "r"(static_cast<unsigned>(i)));
        asm volatile("xor.b32 %0, %0, %1;\n" : "+r"(x[k]) : "r"(static_cast<unsigned>(j)));
      }
  }
  asm volatile("cp.async.wait_all;\n" ::);
  const long long t1 = clock64();
  unsigned v = smem[threadIdx.x * 4];
#pragma unroll
  for (int k = 0; k < 8; ++k) v ^= x[k];
  if (v == 0x12345678u) *sink = v;
  if (lane == 0) cycles[blockIdx.x * kWarps + warp] = t1 - t0;
}

using Kernel = void (*)(const char*, const char*, int, int, long long*, unsigned*);

struct Mode {
  const char* name;
  Kernel kernel;
  int warps, copies, ctas_per_sm, work;
};

}  // namespace

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::string_view(argv[1]) == "--profile";
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount, iters = 2000;
  // free: one CTA of 8 warps per SM (116 KiB keeps a second off), each warp on its own; burst: two CTAs
  // of 4 warps per SM (100 KiB each), 4 KiB of copies a warp after a barrier, 512 integer instructions.
  const Mode modes[] = {{"free", copy_issue<0, 8, 4, false>, 8, 4, 1, 0},
                        {"free", copy_issue<256, 8, 4, false>, 8, 4, 1, 256},
                        {"burst", copy_issue<512, 4, 8, true>, 4, 8, 2, 512}};
  long long stream_bytes = 0;
  for (const Mode& m : modes)
    stream_bytes = std::max(stream_bytes, static_cast<long long>(sms) * m.ctas_per_sm * m.warps * iters * m.copies * 512);
  char *window = nullptr, *stream = nullptr;
  long long* d_cycles = nullptr;
  unsigned* d_sink = nullptr;
  cudaMalloc(&window, kWindowBytes);
  cudaMalloc(&stream, stream_bytes);
  cudaMemset(window, 1, kWindowBytes);
  cudaMemset(stream, 1, stream_bytes);
  cudaMalloc(&d_cycles, sizeof(long long) * sms * 8);
  cudaMalloc(&d_sink, sizeof(unsigned));
  std::vector<long long> h(static_cast<size_t>(sms) * 8);
  for (const Mode& m : modes)
    for (int misses : {0, 1, 2, 4}) {
      const int smem = m.ctas_per_sm == 1 ? 116 * 1024 : 100 * 1024, grid = sms * m.ctas_per_sm;
      Kernel k = m.kernel;
      cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      k<<<grid, m.warps * 32, smem>>>(window, stream, 0, 50, d_cycles, d_sink);  // warm: the window into L2
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      cudaEventRecord(e0);
      k<<<grid, m.warps * 32, smem>>>(window, stream, misses, iters, d_cycles, d_sink);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      cudaError_t err = cudaGetLastError();
      if (err != cudaSuccess) {
        std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));
        return 1;
      }
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      const size_t warps = static_cast<size_t>(grid) * m.warps;
      cudaMemcpy(h.data(), d_cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost);
      std::vector<long long> s(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(warps));
      std::sort(s.begin(), s.end());
      const double per_iteration = static_cast<double>(s[s.size() / 2]) / iters;
      if (!profile)
        std::printf("{\"measure\": \"copy_issue\", \"mode\": \"%s\", \"work\": %d, \"misses_per_8\": %d, \"iterations\": %d, "
                    "\"cycles_per_iteration\": %.1f, \"ms\": %.3f, \"l2_to_sm_bytes_per_cycle_per_sm\": %.1f}\n",
                    m.name, m.work, misses, iters, per_iteration, ms, m.ctas_per_sm * m.warps * m.copies * 512.0 / per_iteration);
      std::fflush(stdout);
      cudaEventDestroy(e0);
      cudaEventDestroy(e1);
    }
  return 0;
}
