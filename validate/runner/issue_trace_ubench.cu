// gms-issue-trace-ubench: which warp a sub-partition issues from, at a grain of ~17 instructions. gms-issue-ubench
// reads only where each CTA's warps end (validate/results/h100/issue_share: two warps that could each issue every cycle
// split the port 0.5 / 0.5; of three or four the two oldest take 0.38 each and a third 0.24), and gms-icache-ubench
// --ages where the older of two CTAs ends (0.832 of the span, its warps 0.61 of the port). Neither says HOW the port is
// split - a steady share every few cycles, or whole stretches that alternate - which is what decides whether the
// model's instruction-level pick (oldest first) or its block-level share (issue_share_beside_*) is the rule to follow
// (docs/co-resident-ctas.md). Here every warp runs a straight-line stretch (no branch) of SEGMENTS x ROUNDS x CHAINS
// independent FFMAs (CHAINS chains: 16 or 8 issue every cycle, 3 at most 3 cycles of 4, FFMA's dependent latency being
// 4), twice (the first pass fills the instruction cache), reading the SM's 32-bit clock into a register after each
// segment (~16 FFMAs); lane 0 stores %smid, %warpid, the CTA, the second pass's start (after a barrier) and its segment
// stamps at the end, so nothing but the clock reads (and a LOP3 that pins them) interrupts the FFMAs. One CTA of
// 128-512 threads an SM (1-4 warps a sub-partition, one CTA's ages) or 2-4 CTAs of 128 or 256 (two CTAs' ages). Prints
// one JSON line per case with, for up to kSmsKept SMs holding exactly that many CTAs, every warp's stamps relative to
// the SM's first start; validate/scripts/issue_trace.py reads them. CUDA only (%clock, %warpid).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../kernels/cta_stamp.cuh"

namespace {

constexpr int kSegments = 64;
constexpr int kFields = 5;  // smid, warpid, CTA, warp in the CTA, start
constexpr int kSmsKept = 8;

__device__ __forceinline__ unsigned warp_slot() {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}

// Volatile so that ptxas keeps each FFMA between the clock reads that bracket its segment.
__device__ __forceinline__ void ffma(float& a, float b, float c) {
  asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(a) : "f"(b), "f"(c));
}

// `zero` is 0 at run time: each segment's FFMAs take their addend through the clock read two segments back (a LOP3 of
// the clock masked by zero with the addend's bits), so that ptxas can sink no clock read past the FFMAs it should
// bracket (without a consumer it sinks them all to the stores at the end), yet nothing waits on the read: the first
// build's consumer in the very next segment gave each read a 4-cycle stall and a yield flag, which a warp's FFMA loop
// does not have. Two passes over the same straight-line code, each begun at a barrier, the stamps kept of the second:
// the first fills the instruction cache (~18 KB; a cold pass fetches every line, ~0.4 instructions a cycle).
// WAIT (--waits): each segment's addend comes instead through a load whose address depends on its clock read - a
// shared load (kShared: a short-scoreboard wait of ~30 cycles before the next segment) or a global one that hits in L2
// (kGlobal, ld.global.cg: a long-scoreboard wait of ~300) - so that every warp waits once a segment, as a kernel's
// warps wait on their operands: which waits give a younger warp an older one's place.
enum Wait { kNone = 0, kShared = 1, kGlobal = 2 };
const char* const kWaitNames[] = {"none", "shared", "global"};

template <int CHAINS, int WAIT>
__global__ void issue_trace(unsigned* out, float b, float c, unsigned zero, const unsigned* line) {
  __shared__ unsigned tile[64];
  if (threadIdx.x < 64) tile[threadIdx.x] = 0;
  constexpr int kRounds = CHAINS >= 16 ? 1 : 16 / CHAINS;  // ~16 FFMAs a segment
  float a[CHAINS];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) a[j] = threadIdx.x + j;
  unsigned stamp[kSegments];
  unsigned start = 0;
  const unsigned cbits = __float_as_int(c);
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    __syncthreads();
    start = gmsv::clock32();
    unsigned back2 = start, back1 = start;
#pragma unroll
    for (int s = 0; s < kSegments; ++s) {
      unsigned through = back2;
      if (WAIT == kShared) through = tile[(back1 & zero) + (threadIdx.x & 31)];
      if (WAIT == kGlobal) through = __ldcg(line + (back1 & zero) + (threadIdx.x & 31));
      const float addend = __int_as_float(cbits | (through & zero));
#pragma unroll
      for (int r = 0; r < kRounds; ++r)
#pragma unroll
        for (int j = 0; j < CHAINS; ++j) ffma(a[j], b, addend);
      stamp[s] = gmsv::clock32();
      back2 = back1, back1 = stamp[s];
    }
  }
  float sum = 0;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) sum += a[j];
  if ((threadIdx.x & 31) == 0) {
    const int warps = blockDim.x / 32, warp = threadIdx.x / 32;
    unsigned* row = out + (static_cast<size_t>(blockIdx.x) * warps + warp) * (kFields + kSegments);
    row[0] = gmsv::sm_id(), row[1] = warp_slot(), row[2] = blockIdx.x, row[3] = warp;
    row[4] = sum == 1.2345f ? 0u : start;  // a value the chains never sum to: the FFMAs are not dead code
#pragma unroll
    for (int s = 0; s < kSegments; ++s) row[kFields + s] = stamp[s];
  }
}

struct Warp {
  unsigned slot, cta, warp, start;
  std::vector<unsigned> stamps;
};

template <int CHAINS, int WAIT = kNone>
void trace_case(int sms, int ctas_per_sm, int threads, const unsigned* line = nullptr) {
  constexpr int kRounds = CHAINS >= 16 ? 1 : 16 / CHAINS;
  const int ctas = ctas_per_sm * sms, warps_per_cta = threads / 32, warps = ctas * warps_per_cta;
  const size_t words = static_cast<size_t>(warps) * (kFields + kSegments);
  unsigned* out;
  GPU_CHECK(gpuMalloc(&out, sizeof(unsigned) * words));
  GPU_CHECK(gpuMemset(out, 0, sizeof(unsigned) * words));
  issue_trace<CHAINS, WAIT><<<ctas, threads>>>(out, 0.9999f, 0.0001f, 0u, line);
  GPU_CHECK_LAUNCH();
  GPU_CHECK(gpuDeviceSynchronize());
  std::vector<unsigned> h(words);
  GPU_CHECK(gpuMemcpy(h.data(), out, sizeof(unsigned) * words, gpuMemcpyDeviceToHost));
  GPU_CHECK(gpuFree(out));
  std::map<unsigned, std::vector<Warp>> by_sm;
  std::map<unsigned, std::map<unsigned, int>> ctas_on;
  for (int w = 0; w < warps; ++w) {
    const unsigned* row = &h[static_cast<size_t>(w) * (kFields + kSegments)];
    by_sm[row[0]].push_back({row[1], row[2], row[3], row[4], std::vector<unsigned>(row + kFields, row + kFields + kSegments)});
    ++ctas_on[row[0]][row[2]];
  }
  std::printf("{\"chains\": %d, \"wait\": \"%s\", \"ffma_per_segment\": %d, \"segments\": %d, \"ctas_per_sm\": %d, "
              "\"threads\": %d, \"sms\": [",
              CHAINS, kWaitNames[WAIT], kRounds * CHAINS, kSegments, ctas_per_sm, threads);
  int kept = 0;
  for (auto& [sm, ws] : by_sm) {
    if (static_cast<int>(ctas_on[sm].size()) != ctas_per_sm || kept == kSmsKept) continue;
    unsigned first = ws[0].start;
    for (const Warp& w : ws)
      if (static_cast<int>(w.start - first) < 0) first = w.start;  // 32-bit clock: differences, not values
    std::printf("%s{\"sm\": %u, \"warps\": [", kept++ ? ", " : "", sm);
    for (size_t i = 0; i < ws.size(); ++i) {
      const Warp& w = ws[i];
      std::printf("%s{\"slot\": %u, \"cta\": %u, \"warp\": %u, \"start\": %u, \"stamps\": [", i ? ", " : "", w.slot, w.cta,
                  w.warp, w.start - first);
      for (int s = 0; s < kSegments; ++s) std::printf("%s%u", s ? "," : "", w.stamps[s] - first);
      std::printf("]}");
    }
    std::printf("]}");
  }
  std::printf("]}\n");
  std::fflush(stdout);
}

template <int CHAINS>
void trace_all(int sms) {
  for (int threads : {128, 256, 384, 512}) trace_case<CHAINS>(sms, 1, threads);  // 1-4 warps a sub-partition, one CTA
  for (const auto& [ctas, threads] : {std::pair{2, 128}, std::pair{4, 128}, std::pair{2, 256}}) trace_case<CHAINS>(sms, ctas, threads);
}

}  // namespace

// --waits: 16 chains, each segment waiting on a shared or an L2-hit global load: one CTA of four warps a sub-partition,
// four CTAs of one, two of two.
template <int WAIT>
void trace_waits(int sms, const unsigned* line) {
  for (const auto& [ctas, threads] : {std::pair{1, 512}, std::pair{4, 128}, std::pair{2, 256}})
    trace_case<16, WAIT>(sms, ctas, threads, line);
}

int main(int argc, char** argv) {
  const bool waits = argc > 1 && std::string(argv[1]) == "--waits";
  return ubench_main("gms-issue-trace-ubench", [&](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    if (waits) {
      unsigned* line;
      GPU_CHECK(gpuMalloc(&line, 64 * sizeof(unsigned)));
      GPU_CHECK(gpuMemset(line, 0, 64 * sizeof(unsigned)));
      trace_waits<kShared>(sms, line);
      trace_waits<kGlobal>(sms, line);
      GPU_CHECK(gpuFree(line));
      return;
    }
    trace_all<16>(sms);
    trace_all<8>(sms);
    trace_all<3>(sms);
  });
}
