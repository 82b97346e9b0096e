// gms-ldgsts-ubench: what a cp.async (LDGSTS) costs at L2 when its shared-memory destination is not
// aligned to 32 bytes the way its global source is (issue 10). The project's WMMA GEMM pads its
// shared rows by 16 bytes (A rows 80 B apart, B rows 272 B apart), so every other row lands 16 bytes
// off a 32-byte shared sector; on the H100 it receives 1.5x the sectors its LDGSTS ask for and counts
// 1.19x of them in the L1's t-stage, while Triton's swizzled (16-byte-granular XOR, which keeps both
// halves of a sector together) kernels receive exactly what they ask for. Each pattern: one warp
// instruction = 32 lanes x 16 bytes; `dest` gives the shared byte offset of each row.
//   full_aligned      4 whole lines per instruction, shared rows 128 B apart (sector-aligned)
//   full_shift16      the same, every shared row 16 B later (each global sector spans 2 shared ones)
//   halves_aligned    first halves of 8 lines (64 B rows, BK 32 fp16), shared rows 64 B apart
//   halves_pad80      the same, shared rows 80 B apart (the WMMA GEMM's A tile: odd rows off by 16)
//   rows256_aligned   2 rows of 256 B (2 lines each), shared rows 256 B apart
//   rows256_pad272    the same, shared rows 272 B apart (the WMMA GEMM's B tile)
//   full_shift16_ca   full_shift16 through cp.async.ca (L1-allocating): does the L1 serve the repeat?
// Every copy of one repetition has its own destination (copies to one shared address in flight
// together are not all fetched: the first version of gms-l2-ubench lost 92 % of its bytes that way);
// the copies complete (wait_all) before the next repetition. The buffer (17.3 MB) stays in L2.
// Prints one JSON object per pattern (median of 20 launches); --profile launches each twice, untimed.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../include/event_timer.h"

namespace {

constexpr int kThreads = 128;
constexpr int kInstr = 16;  // copies per warp and repetition
constexpr int kReps = 8;
constexpr int kLinesPerWarp = 128;  // global lines a warp owns (16 KB): no line is read twice per repetition

struct Pattern {
  const char* name;
  int row_bytes;    // bytes of one global row one instruction copies (128, 64 or 256)
  int dest_pitch;   // shared bytes between consecutive rows
  int dest_shift;   // shared offset of row 0
  bool ca;          // cp.async.ca instead of .cg
};
constexpr Pattern kPatterns[] = {
    {"full_aligned", 128, 128, 0, false},    {"full_shift16", 128, 128, 16, false},
    {"halves_aligned", 64, 64, 0, false},    {"halves_pad80", 64, 80, 0, false},
    {"rows256_aligned", 256, 256, 0, false}, {"rows256_pad272", 256, 272, 0, false},
    {"full_shift16_ca", 128, 128, 16, true},
};

// Shared bytes per warp: kInstr instructions of 512 B rows at the widest pitch (80/64 of 512).
constexpr int kWarpSmem = kInstr * 640 + 32;

template <bool CA>
__device__ __forceinline__ void copy_async(unsigned smem, const char* p) {
  if (CA) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(p));
  else asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(p));
}

// Instruction i of a warp copies rows i*R .. i*R+R-1 (R = 512 / row_bytes) of its own lines: row j is
// the first row_bytes of global line j (64 B rows: the first half; 256 B rows: two lines).
template <bool CA>
__global__ void __launch_bounds__(kThreads) ldgsts(const char* __restrict__ buf, int row_bytes, int dest_pitch,
                                                   int dest_shift, int* sink) {
  extern __shared__ __align__(128) unsigned char smem[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long gwarp = static_cast<long>(blockIdx.x) * (kThreads / 32) + warp;
  const int rows_per_instr = 512 / row_bytes, lanes_per_row = row_bytes / 16;
  const int row_in = lane / lanes_per_row, chunk = lane % lanes_per_row;
  const long lines_per_row = row_bytes > 128 ? row_bytes / 128 : 1;
  const char* base = buf + gwarp * kLinesPerWarp * 128;
  const unsigned s0 = static_cast<unsigned>(__cvta_generic_to_shared(smem + warp * kWarpSmem + dest_shift));
  for (int r = 0; r < kReps; ++r) {
    for (int i = 0; i < kInstr; ++i) {
      const int row = i * rows_per_instr + row_in;                   // 0 .. kInstr * rows_per_instr
      const long line = row * lines_per_row;                        // < kLinesPerWarp
      copy_async<CA>(s0 + row * dest_pitch + chunk * 16, base + line * 128 + chunk * 16);
    }
    asm volatile("cp.async.wait_all;" ::);
  }
  __syncwarp();
  const int v = smem[warp * kWarpSmem + dest_shift + lane * 16];
  if (v == 0x7f) sink[gwarp] = v;  // never (the buffer holds 1s); keeps the copies
}

}  // namespace

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int grid = 2 * prop.multiProcessorCount;  // 17.3 MB: stays in L2 with far lines replicated
  const long warps = static_cast<long>(grid) * (kThreads / 32);
  const size_t bytes = static_cast<size_t>(warps) * kLinesPerWarp * 128;
  const int smem = (kThreads / 32) * kWarpSmem;
  char* buf = nullptr;
  int* sink = nullptr;
  cudaMalloc(&buf, bytes);
  cudaMalloc(&sink, warps * sizeof(int));
  cudaMemset(buf, 1, bytes);
  cudaFuncSetAttribute(ldgsts<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(ldgsts<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  gmsv::Timer timer;
  for (const Pattern& p : kPatterns) {
    auto launch = [&] {
      if (p.ca) ldgsts<true><<<grid, kThreads, smem>>>(buf, p.row_bytes, p.dest_pitch, p.dest_shift, sink);
      else ldgsts<false><<<grid, kThreads, smem>>>(buf, p.row_bytes, p.dest_pitch, p.dest_shift, sink);
    };
    if (profile) {
      for (int i = 0; i < 2; ++i) launch();
      cudaDeviceSynchronize();
      continue;
    }
    launch();  // warm: the buffer in L2
    const std::vector<double> ms = timer.sorted_ms(launch, 20);
    const double med = ms[ms.size() / 2];
    const double requested = static_cast<double>(warps) * kReps * kInstr * 512;
    std::printf("{\"measurement\": \"ldgsts\", \"pattern\": \"%s\", \"row_bytes\": %d, \"dest_pitch\": %d, "
                "\"dest_shift\": %d, \"cache\": \"%s\", \"grid\": %d, \"threads\": %d, \"ldgsts\": %.0f, "
                "\"requested_sectors\": %.0f, \"ms.median\": %.5f, \"ms.min\": %.5f, \"requested_tb_per_s\": %.3f}\n",
                p.name, p.row_bytes, p.dest_pitch, p.dest_shift, p.ca ? "ca" : "cg", grid, kThreads,
                static_cast<double>(warps) * kReps * kInstr, requested / 32, med, ms.front(),
                requested / (med * 1e-3) / 1e12);
  }
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "gms-ldgsts-ubench: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
