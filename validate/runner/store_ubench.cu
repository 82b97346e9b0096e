// gms-store-ubench: how fast an SM stores a GEMM's C tile in the shapes a kernel's epilogue uses (issue
// 11). The project's WMMA GEMM stores its accumulators with wmma::store_matrix_sync: 64 STG.E per warp,
// each writing 8 rows x 16 bytes (half a sector a row; validate/results/h100/issue), and its L2 counts
// 1.9x the write sectors of whole rows. Does a half sector leave the SM as fast as two of them, or
// does each take a sector's slot? The model charges a sector (icnt.sm_write_bytes_per_cycle per sector,
// measured on whole sectors by gms-local-ubench). Each warp stores its own 64-row tile of a row-major C
// whose rows are 32 KiB apart (N = 16384 halves), `rounds` times:
//   frag16  STG.E     lane l: 4 bytes of row l / 4 at byte 4 (l % 4): 8 rows x 16 B an instruction,
//                     64 instructions a tile of 64 x 128 B (the WMMA kernel's fp16 C)
//   frag32  STG.E.64  8 bytes a lane: 8 rows x 32 B (whole sectors), 64 instructions of 64 x 256 B (fp32 C)
//   rows    STG.E.128 16 bytes a lane: 4 rows x 128 B (whole lines), 16 instructions of 64 x 128 B
//                     (Triton's epilogue after its shared-memory staging)
// and two that tell a half sector's cost from a 32-bit store's:
//   half64  STG.E.64  2 lanes a row: 16 rows x 16 B (half sectors, 64-bit stores), 32 instructions of 64 x 128 B
//   full32  STG.E     8 lanes a row: 4 rows x 32 B (whole sectors, 32-bit stores), 64 instructions of 64 x 128 B
// CTAs of 4 warps: one CTA (one SM), one per SM on every SM, two per SM on every SM (shared memory caps
// the count; a grid of 2 CTAs would take 2 SMs, so there is no 2-per-SM case on one SM). Every warp's tile is
// its own (1,056 tiles of 64 rows: 8.6 MiB for frag16, L2-resident: the stores are hits). Thread 0 stamps
// clock64 around the rounds; one JSON line per case: sectors written per SM cycle (32-byte sectors
// touched, a half sector counted as one), instructions per SM cycle, bytes per SM cycle, elapsed ms.
// `gms-store-ubench 1`: one launch per case, for a profiler. CUDA only (inline PTX).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "../include/event_timer.h"
#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kWarps = 4;
constexpr long long kPitch = 16384 * 2;  // bytes between C rows (N = 16384 halves)
constexpr int kTileRows = 64;
constexpr int kTilesPerRowBlock = 64;  // tiles side by side along a row block (frag32's 256 B x 64 = 16 KiB)

__device__ __forceinline__ void st32(char* p, unsigned v) { asm volatile("st.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ void st64(char* p, unsigned v) {
  asm volatile("st.global.v2.b32 [%0], {%1, %1};" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st128(char* p, unsigned v) {
  asm volatile("st.global.v4.b32 [%0], {%1, %1, %1, %1};" ::"l"(p), "r"(v) : "memory");
}

// One round of a frag16 tile at `base`: 64 STG.E of 8 rows x 16 B, lane l 4 bytes of row l / 4 (the WMMA epilogue).
__device__ __forceinline__ void frag16_round(char* base, int lane, unsigned v) {
#pragma unroll
  for (int g = 0; g < kTileRows / 8; ++g)
#pragma unroll
    for (int s = 0; s < 8; ++s) st32(base + (8 * g + lane / 4) * kPitch + s * 16 + 4 * (lane % 4), v);
}

// Mode: 0 frag16, 1 frag32, 2 rows, 3 half64, 4 full32. Tile t = the warp's index in the grid.
template <int Mode>
__global__ void __launch_bounds__(kWarps * 32) store_tiles(char* c, int rounds, long long* cycles) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const long long tile = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.x / 32;
  constexpr int tile_bytes = Mode == 1 ? 256 : 128;  // a tile's row
  char* base = c + (tile / kTilesPerRowBlock) * kTileRows * kPitch + (tile % kTilesPerRowBlock) * tile_bytes;
  unsigned v = threadIdx.x;
  __syncthreads();
  const long long t0 = clock64();
  for (int r = 0; r < rounds; ++r) {
    if (Mode == 2) {  // 4 rows of 128 B an instruction: lane l writes 16 B of row l / 8
#pragma unroll
      for (int i = 0; i < kTileRows / 4; ++i) st128(base + (4 * i + lane / 8) * kPitch + 16 * (lane % 8), v + r);
    } else if (Mode == 3) {  // 16 rows of 16 B: lane l writes 8 B of row l / 2
#pragma unroll
      for (int g = 0; g < kTileRows / 16; ++g)
#pragma unroll
        for (int s = 0; s < 8; ++s) st64(base + (16 * g + lane / 2) * kPitch + 16 * s + 8 * (lane % 2), v + r);
    } else if (Mode == 4) {  // 4 rows of 32 B: lane l writes 4 B of row l / 8
#pragma unroll
      for (int g = 0; g < kTileRows / 4; ++g)
#pragma unroll
        for (int s = 0; s < 4; ++s) st32(base + (4 * g + lane / 8) * kPitch + 32 * s + 4 * (lane % 8), v + r);
    } else if (Mode == 0) {
      frag16_round(base, lane, v + r);
    } else {  // frag32: 8 rows of 32 B, lane l 8 bytes of row l / 4
#pragma unroll
      for (int g = 0; g < kTileRows / 8; ++g)
#pragma unroll
        for (int s = 0; s < tile_bytes / 32; ++s) st64(base + (8 * g + lane / 4) * kPitch + s * 32 + 8 * (lane % 4), v + r);
    }
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

// `gms-store-ubench mix`: one CTA of 32 warps on one SM - warps 0-3 store frag16 tiles as above (the WMMA
// epilogue), warps 4-31 load L2-resident lines with ld.global.cg (16 bytes a lane, 4 lines an instruction, 4
// instructions in flight; the first `loaders` of them), either alone or both at once (the loaders stop when the
// storers are done). Do an SM's
// line requests for loads take the same way out as its store data? (The model sends both through
// icnt.sm_write_bytes_per_cycle, a request one cycle of it: a GEMM CTA's epilogue then shares the way with the
// other CTA's copies.) out[w]: warp w's cycles; loads[w]: its load instructions.
constexpr int kMixWarps = 32, kStoreWarps = 4, kLinesPerLoader = 2048;
__global__ void __launch_bounds__(kMixWarps * 32) store_load_mix(char* c, const int4* src, int rounds, int mode, int loaders,
                                                                 long long* out, long long* loads, int* sink) {
  __shared__ int stores_done;
  if (threadIdx.x == 0) stores_done = 0;
  __syncthreads();
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  const long long t0 = clock64();
  if (warp < kStoreWarps) {
    if (!(mode & 1)) return;
    char* base = c + (warp % kTilesPerRowBlock) * 128;
    const unsigned v = threadIdx.x;
    for (int r = 0; r < rounds; ++r) frag16_round(base, lane, v + r);
    const long long t1 = clock64();
    if (lane == 0) {
      out[warp] = t1 - t0;
      atomicAdd(&stores_done, 1);
    }
    return;
  }
  if (!(mode & 2) || warp - kStoreWarps >= loaders) return;
  const int4* lines = src + static_cast<size_t>(warp - kStoreWarps) * kLinesPerLoader * 8;
  int acc = 0;
  long long n = 0;
  const long long cap = static_cast<long long>(rounds) * 64;  // loads alone: about as long as the stores
  for (int i = 0;; i = (i + 16) % kLinesPerLoader, ++n) {
    if ((mode & 1) ? *static_cast<volatile int*>(&stores_done) == kStoreWarps : n == cap) break;
    int4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u)
      asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(v[u].x), "=r"(v[u].y), "=r"(v[u].z), "=r"(v[u].w)
                   : "l"(lines + static_cast<size_t>(i + 4 * u + lane / 8) * 8 + lane % 8));
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].w;
  }
  const long long t1 = clock64();
  if (acc == 0x12345678) *sink = acc;
  if (lane == 0) out[warp] = t1 - t0, loads[warp] = 4 * n;
}

using ubench::median;

struct Shape {
  const char* name;
  int instructions;      // per warp and round
  int sectors;           // 32-byte sectors touched per warp and round
  int bytes;             // per warp and round
};

template <int Mode>
void run_case(const Shape& s, int ctas, int per_sm, int rounds, int reps, char* c, long long* d_cycles,
              const gpuDeviceProp& prop) {
  // Shared memory that lets exactly `per_sm` CTAs share an SM.
  const int shared = static_cast<int>(prop.sharedMemPerMultiprocessor / per_sm) - 2048;
  GPU_CHECK(gpuFuncSetAttribute(store_tiles<Mode>, gpuFuncAttributeMaxDynamicSharedMemorySize, shared));
  store_tiles<Mode><<<ctas, kWarps * 32, shared>>>(c, 2, d_cycles);  // warm: the tiles in L2
  GPU_CHECK_LAUNCH();
  gmsv::Timer timer;
  std::vector<double> cyc_med, ms;
  for (int rep = 0; rep < reps; ++rep) {
    ms.push_back(1e-6 * timer.ns([&] {
      store_tiles<Mode><<<ctas, kWarps * 32, shared>>>(c, rounds, d_cycles);
      GPU_CHECK_LAUNCH();
    }));
    std::vector<long long> cy(ctas);
    GPU_CHECK(gpuMemcpy(cy.data(), d_cycles, sizeof(long long) * ctas, gpuMemcpyDeviceToHost));
    cyc_med.push_back(median(std::vector<double>(cy.begin(), cy.end())));
  }
  const double cycles = median(cyc_med), per_sm_round = static_cast<double>(kWarps) * per_sm * rounds;
  std::printf("{\"measure\": \"store_shape\", \"mode\": \"%s\", \"ctas\": %d, \"ctas_per_sm\": %d, \"warps\": %d, "
              "\"rounds\": %d, \"sectors_per_sm_cycle\": %.4f, \"instructions_per_sm_cycle\": %.4f, "
              "\"bytes_per_sm_cycle\": %.2f, \"cta_cycles\": %.0f, \"ms\": %.4f, \"gpu\": \"%s\"}\n",
              s.name, ctas, per_sm, kWarps, rounds, s.sectors * per_sm_round / cycles,
              s.instructions * per_sm_round / cycles, s.bytes * per_sm_round / cycles, cycles, median(ms), prop.name);
  std::fflush(stdout);
}

}  // namespace

// `mix`: stores beside loads on one SM (store_load_mix); per case and repetition the storers' half sectors and the
// loaders' line requests per SM cycle, each over its own warps' longest span.
int run_mix(const gpuDeviceProp& prop) {
  const int rounds = 200;
  const size_t c_bytes = static_cast<size_t>(kTileRows) * kPitch,
               src_bytes = static_cast<size_t>(kMixWarps - kStoreWarps) * kLinesPerLoader * 128;
  char* c;
  int4* src;
  long long *out, *loads;
  int* sink;
  GPU_CHECK(gpuMalloc(&c, c_bytes));
  GPU_CHECK(gpuMalloc(&src, src_bytes));
  GPU_CHECK(gpuMemset(c, 0, c_bytes));
  GPU_CHECK(gpuMemset(src, 0, src_bytes));
  GPU_CHECK(gpuMalloc(&out, sizeof(long long) * kMixWarps));
  GPU_CHECK(gpuMalloc(&loads, sizeof(long long) * kMixWarps));
  GPU_CHECK(gpuMalloc(&sink, sizeof(int)));
  store_load_mix<<<1, kMixWarps * 32>>>(c, src, 2, 3, kMixWarps - kStoreWarps, out, loads, sink);  // warm: C and the loaders' lines in L2
  GPU_CHECK_LAUNCH();
  std::vector<std::pair<int, int>> cases{{1, 0}};  // (mode, loader warps): the stores alone, then loads alone and both
  for (int n : {4, 8, 16, kMixWarps - kStoreWarps}) cases.push_back({2, n}), cases.push_back({3, n});
  for (const auto& [mode, n] : cases)
    for (int rep = 0; rep < 3; ++rep) {
      const char* name = mode == 1 ? "stores" : mode == 2 ? "loads" : "stores + loads";
      GPU_CHECK(gpuMemset(out, 0, sizeof(long long) * kMixWarps));
      GPU_CHECK(gpuMemset(loads, 0, sizeof(long long) * kMixWarps));
      store_load_mix<<<1, kMixWarps * 32>>>(c, src, rounds, mode, n, out, loads, sink);
      GPU_CHECK_LAUNCH();
      std::vector<long long> o(kMixWarps), l(kMixWarps);
      GPU_CHECK(gpuMemcpy(o.data(), out, sizeof(long long) * kMixWarps, gpuMemcpyDeviceToHost));
      GPU_CHECK(gpuMemcpy(l.data(), loads, sizeof(long long) * kMixWarps, gpuMemcpyDeviceToHost));
      long long store_span = 0, load_span = 0, load_instr = 0;
      for (int w = 0; w < kMixWarps; ++w) {
        long long& span = w < kStoreWarps ? store_span : load_span;
        span = std::max(span, o[w]);
      }
      for (int w = kStoreWarps; w < kMixWarps; ++w) load_instr += l[w];
      const double half_sectors = static_cast<double>(kStoreWarps) * rounds * 64 * 8;
      std::printf("{\"measure\": \"store_load_mix\", \"case\": \"%s\", \"loaders\": %d, \"rep\": %d, \"store_half_sectors_per_cycle\": %.4f, "
                  "\"load_lines_per_cycle\": %.4f, \"store_cycles\": %lld, \"load_cycles\": %lld, \"load_instructions\": %lld, "
                  "\"gpu\": \"%s\"}\n",
                  name, n, rep, store_span ? half_sectors / static_cast<double>(store_span) : 0.0,
                  load_span ? 4.0 * static_cast<double>(load_instr) / static_cast<double>(load_span) : 0.0, store_span, load_span,
                  load_instr, prop.name);
      std::fflush(stdout);
    }
  for (void* p : {static_cast<void*>(c), static_cast<void*>(src), static_cast<void*>(out), static_cast<void*>(loads),
                  static_cast<void*>(sink)})
    GPU_CHECK(gpuFree(p));
  return 0;
}

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::atoi(argv[1]) == 1;
  if (argc > 1 && std::string(argv[1]) == "mix") return ubench_main("gms-store-ubench", [&](const gpuDeviceProp& prop) { run_mix(prop); });
  return ubench_main("gms-store-ubench", [&](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    const long long tiles = 2LL * sms * kWarps;
    const size_t bytes = static_cast<size_t>((tiles + kTilesPerRowBlock - 1) / kTilesPerRowBlock) * kTileRows * kPitch;
    char* c;
    long long* d_cycles;
    GPU_CHECK(gpuMalloc(&c, bytes));
    GPU_CHECK(gpuMemset(c, 0, bytes));
    GPU_CHECK(gpuMalloc(&d_cycles, sizeof(long long) * 2 * sms));
    const int rounds = profile ? 20 : 200, reps = profile ? 1 : 3;
    const Shape frag16{"frag16", 64, 64 * 8, 64 * 128}, frag32{"frag32", 64, 64 * 8, 64 * 256},
        rows{"rows", 16, 16 * 16, 16 * 512}, half64{"half64", 32, 32 * 16, 32 * 256},
        full32{"full32", 64, 64 * 4, 64 * 128};
    for (const auto& [ctas, per_sm] : {std::pair{1, 1}, std::pair{sms, 1}, std::pair{2 * sms, 2}}) {
      run_case<0>(frag16, ctas, per_sm, rounds, reps, c, d_cycles, prop);
      run_case<1>(frag32, ctas, per_sm, rounds, reps, c, d_cycles, prop);
      run_case<2>(rows, ctas, per_sm, rounds, reps, c, d_cycles, prop);
      run_case<3>(half64, ctas, per_sm, rounds, reps, c, d_cycles, prop);
      run_case<4>(full32, ctas, per_sm, rounds, reps, c, d_cycles, prop);
    }
  });
}
