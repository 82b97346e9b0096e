// gms-inflight-ubench: how many line requests one SM keeps in flight to the L2 (issue 11). The
// presets' `l1.mshrs` (1,024 line requests per SM) is an estimate, and the GEMV replays showed that a
// gate on it decides where loads wait; this measures it. `ctas` CTAs (4, each on its own SM: the
// kernel records %smid), `warps` warps each; per round every warp issues `k` independent loads
// (ld.global.cg: past L1), then consumes them all. Patterns:
//   sector  lane l reads 4 B of its own 128-byte line: a warp instruction is 32 line requests of one
//           sector each
//   line    lane l reads 16 B at 16 l: a warp instruction is 4 line requests of 4 sectors (the GEMV's
//           LDG.128)
// Sources: `l2` (a 16 MiB window read again every round: L2 hits after the first) and `dram` (each
// line of a 1 GiB buffer read once, the L2 flushed before each launch by writing 256 MiB elsewhere). Lines in flight per SM = warps x k x lines per instruction; while
// the SM can keep them all in flight a round takes one latency and throughput grows with them; past
// its limit throughput stays flat and a round takes longer. One JSON line per point: the loop's SM
// cycles per round (clock64 from the CTA's start to its last warp's end: no launch in it; median over
// the CTAs of the median launch of 5 after a warm-up) and lines per SM cycle.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

#include "../include/event_timer.h"

namespace {

constexpr int kCtas = 4;
constexpr int kRounds = 64;
constexpr size_t kDramBytes = 1ull << 30;
constexpr size_t kL2Bytes = 16ull << 20;

__device__ __forceinline__ unsigned ld_cg(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned ld_cg4(const unsigned* p) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v.x ^ v.y ^ v.z ^ v.w;
}

// Each warp instruction covers a chunk of consecutive bytes (32 lines or 4 lines); instruction j of
// round r of warp w of CTA c covers chunk ((r x ctas + c) x warps + w) x K + j, wrapped at `chunks` (a
// power of two: a mask, since a 64-bit modulo compiles to a call that waits for every load in flight).
template <int K, bool kSector>
__global__ void __launch_bounds__(1024, 1) inflight(const unsigned* buf, unsigned long long chunks, int rounds, unsigned* sink, int* smids,
                         unsigned long long* cycles) {
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const int warps = static_cast<int>(blockDim.x / 32);
  constexpr unsigned kWordsPerChunk = kSector ? 32 * 32 : 128;  // 4 KB (32 lines) or 512 B (4 lines)
  __shared__ unsigned long long start;
  if (threadIdx.x == 0) {
    int smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    smids[blockIdx.x] = smid;
    start = clock64();
  }
  __syncthreads();
  unsigned acc = 0;
  for (int r = 0; r < rounds; ++r) {
    unsigned v[K];
    // + (acc >> 31): 0 at run time (the buffer's words are 0x01010101), but it makes round r + 1 wait for
    // round r's data, so the compiler cannot overlap rounds: exactly warps x K loads per SM in flight.
    const unsigned long long first =
        ((static_cast<unsigned long long>(r) * gridDim.x + blockIdx.x) * warps + warp) * K + (acc >> 31);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const unsigned* chunk = buf + ((first + j) & (chunks - 1)) * kWordsPerChunk;
      v[j] = kSector ? ld_cg(chunk + lane * 32) : ld_cg4(chunk + lane * 4);
    }
#pragma unroll
    for (int j = 0; j < K; ++j) acc ^= v[j];
  }
  if (acc == 0x9E3779B9u) sink[threadIdx.x] = acc;
  __syncthreads();  // every warp's loads consumed
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - start;
}

template <int K, bool kSector>
void launch(int warps, const unsigned* buf, unsigned long long chunks, int rounds, unsigned* sink, int* smids,
            unsigned long long* cycles) {
  inflight<K, kSector><<<kCtas, warps * 32>>>(buf, chunks, rounds, sink, smids, cycles);
  GPU_CHECK_LAUNCH();
}

using Launch = void (*)(int, const unsigned*, unsigned long long, int, unsigned*, int*, unsigned long long*);

template <bool kSector>
Launch launcher(int k) {
  switch (k) {
    case 1: return launch<1, kSector>;
    case 2: return launch<2, kSector>;
    case 4: return launch<4, kSector>;
    case 8: return launch<8, kSector>;
    default: return launch<16, kSector>;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  unsigned* buf = nullptr;
  unsigned* sink = nullptr;
  int* smids = nullptr;
  unsigned long long* cycles = nullptr;
  GPU_CHECK(gpuMalloc(&cycles, kCtas * sizeof(unsigned long long)));
  GPU_CHECK(gpuMalloc(&buf, kDramBytes));
  GPU_CHECK(gpuMalloc(&sink, 4096 * sizeof(unsigned)));
  GPU_CHECK(gpuMalloc(&smids, kCtas * sizeof(int)));
  GPU_CHECK(gpuMemset(buf, 1, kDramBytes));
  unsigned char* flush = nullptr;  // written before each DRAM launch: the L2 holds none of buf then
  const size_t flush_bytes = 256ull << 20;
  GPU_CHECK(gpuMalloc(&flush, flush_bytes));
  gmsv::Timer timer;
  for (bool sector : {true, false})
    for (const char* source : {"l2", "dram"})
      for (int warps : {1, 2, 4, 8, 16, 32})
        for (int k : {1, 2, 4, 8, 16}) {
          const unsigned long long chunk_bytes = sector ? 4096 : 512;
          const bool dram = source[0] == 'd';
          const unsigned long long chunks = (dram ? kDramBytes : kL2Bytes) / chunk_bytes;
          // DRAM: every line once (the rounds shrink where the buffer would wrap); L2: the window again and again.
          const unsigned long long per_round = static_cast<unsigned long long>(kCtas) * warps * k;
          const int rounds = dram ? static_cast<int>(std::min<unsigned long long>(kRounds, chunks / per_round)) : kRounds;
          const Launch run = sector ? launcher<true>(k) : launcher<false>(k);
          std::vector<double> ns, cyc;
          for (int rep = -1; rep < reps; ++rep) {
            if (dram) GPU_CHECK(gpuMemset(flush, rep & 0xff, flush_bytes));
            const double t = timer.ns([&] { run(warps, buf, chunks, rounds, sink, smids, cycles); });
            unsigned long long c[kCtas];
            GPU_CHECK(gpuMemcpy(c, cycles, sizeof(c), gpuMemcpyDeviceToHost));
            std::sort(c, c + kCtas);
            if (rep >= 0) ns.push_back(t), cyc.push_back(static_cast<double>(c[kCtas / 2]));
          }
          std::sort(ns.begin(), ns.end());
          std::sort(cyc.begin(), cyc.end());
          int host_smids[kCtas];
          GPU_CHECK(gpuMemcpy(host_smids, smids, sizeof(host_smids), gpuMemcpyDeviceToHost));
          const std::set<int> distinct(host_smids, host_smids + kCtas);
          const double med = ns[ns.size() / 2], med_cycles = cyc[cyc.size() / 2];
          const int lines_per_instr = sector ? 32 : 4;
          const double lines = static_cast<double>(per_round) * lines_per_instr * rounds / kCtas;  // per SM
          std::printf(
              "{\"gpu\": \"%s\", \"pattern\": \"%s\", \"source\": \"%s\", \"ctas\": %d, \"distinct_sms\": %zu, "
              "\"warps\": %d, \"loads_per_warp\": %d, \"lines_in_flight_per_sm\": %d, \"rounds\": %d, "
              "\"launch_ns\": %.0f, \"loop_cycles\": %.0f, \"cycles_per_round\": %.1f, \"lines_per_cycle_per_sm\": %.3f}\n",
              prop.name, sector ? "sector" : "line", source, kCtas, distinct.size(), warps, k,
              warps * k * lines_per_instr, rounds, med, med_cycles, med_cycles / rounds, lines / med_cycles);
          std::fflush(stdout);
        }
  (void)gpuFree(buf);
  (void)gpuFree(sink);
  (void)gpuFree(smids);
  (void)gpuFree(cycles);
  (void)gpuFree(flush);
  return 0;
}
