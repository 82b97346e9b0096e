// gms-store-copy-ubench: does a far store's copy in the near L2 partition take a resident line's place as a read's
// copy does? (issue 11; l2.far_stores_copy_near, docs/calibration.md "A far store leaves a near copy".)
// One CTA an SM (200 KiB of shared memory: one fits), every SM. Per round each CTA reads its own part of a resident
// set of R bytes (ld.global.cg.v4, 16 bytes a lane, whole lines), then streams S/SMs bytes it never touches again:
//   none   nothing (R alone: after the first round every read should hit)
//   store  st.global.v4 of fresh lines (dirty at home, and - the question - a clean copy near for far lines)
//   read   ld.global.cg.v4 of fresh lines (clean at home, and near for far lines on a replicating L2)
// Under ncu (cache control: L2 written back and emptied before each launch) a launch's DRAM reads are R (the first
// round) + what the stream pushed out of R in the later rounds (+ the stream itself for `read`): if a store's near
// copy takes a way as a read's does, `store` displaces about as much of R as `read`; if it goes in below a read's
// priority, or not at all, less. The same rounds on the model: bench/store_copies.cpp; the two side by side:
// validate/scripts/store_copies.py. One JSON line per case (the stamps' median CTA cycles per round).
//   gms-store-copy-ubench          (device_store_copies.sh runs it under ncu)
//   gms-store-copy-ubench --pace   16 MiB streams at four rates (a __nanosleep of 0-8,000 ns after each 4 KiB step):
//                                  does a store stream push out less of R when its write-backs come slower?
//   gms-store-copy-ubench --spread the 16 MiB streams from every SM, every second or every fourth (each streaming
//                                  SM at its full rate, the others' part too): the L2's load lower, an SM's rate not;
//                                  every CTA waits at a grid-wide barrier after each round (all cases of --spread)
//   gms-store-copy-ubench --sync   the default cases with that barrier: the rounds in step, as the model replays them
// CUDA only (inline PTX).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 16;
constexpr long long kMiB = 1 << 20;

__device__ __forceinline__ int4 ld_cg(const int4* p) {  // L2 only: the resident set is the L2's to keep
  int4 v;
  asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ void st_v4(int4* p, int4 v) {
  asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

template <int Mode>  // 0 none, 1 store, 2 read
__global__ void store_copy_rounds(int rounds, const int4* resident, long long resident_vecs, int4* stream,
                                  long long stream_vecs, long long stream_chunks, long long* cycles, int* sink,
                                  unsigned pause_ns, int stream_every, unsigned* rounds_done) {
  extern __shared__ int smem[];
  const int4* mine = resident + blockIdx.x * resident_vecs;
  int acc = threadIdx.x;
  __syncthreads();
  const long long t0 = clock64();
  for (int r = 0; r < rounds; ++r) {
#pragma unroll 8
    for (long long i = threadIdx.x; i < resident_vecs; i += kThreads) acc ^= ld_cg(mine + i).x;
    if (Mode != 0 && blockIdx.x % stream_every == 0) {  // a chunk of its own each round: no line touched twice a launch
      const long long streaming = gridDim.x / stream_every;
      int4* chunk = stream + ((r * streaming + blockIdx.x / stream_every) % stream_chunks) * stream_vecs;
      if (Mode == 1) {
#pragma unroll 8
        for (long long i = threadIdx.x; i < stream_vecs; i += kThreads) {
          st_v4(chunk + i, make_int4(acc, r, 0, 1));
          if (pause_ns) __nanosleep(pause_ns);  // --pace: the same lines at a lower rate
        }
      } else {
#pragma unroll 8
        for (long long i = threadIdx.x; i < stream_vecs; i += kThreads) {
          acc ^= ld_cg(chunk + i).x;
          if (pause_ns) __nanosleep(pause_ns);
        }
      }
    }
    if (rounds_done) {  // --spread: every CTA waits for the round's end (one CTA an SM: all resident, the spin is safe),
                        // so that CTAs with no stream do not run their rounds ahead of the streaming ones
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(rounds_done, 1u);
        const unsigned target = static_cast<unsigned>(r + 1) * gridDim.x;
        while (atomicAdd(rounds_done, 0u) < target) __nanosleep(100);
      }
      __syncthreads();
    }
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) {
    cycles[blockIdx.x] = t1 - t0;
    smem[0] = acc;
  }
  if (acc == 0x7fffffff) *sink = acc + smem[0];  // never: keeps the loads
}

template <int Mode>
void run_case(const char* mode, int resident_mib, int stream_mib, const gpuDeviceProp& prop, const int4* resident,
              int4* stream, long long stream_bytes, long long* d_cycles, int* sink, unsigned pause_ns = 0,
              int stream_every = 1, unsigned* rounds_done = nullptr) {
  const int ctas = prop.multiProcessorCount;
  const int shared = std::min<int>(200 * 1024, static_cast<int>(prop.sharedMemPerBlockOptin));
  // Each CTA's parts in whole 4 KiB blocks (a round of its 256 lanes' 16 bytes).
  const long long resident_vecs = resident_mib * kMiB / ctas / 4096 * 256;
  const int streaming = ctas / stream_every;  // --spread: every stream_every-th CTA streams, the others' part too
  const long long stream_vecs = std::max<long long>(256, stream_mib * kMiB / streaming / 4096 * 256);
  const long long chunks = stream_bytes / (stream_vecs * 16);
  GPU_CHECK(gpuFuncSetAttribute(store_copy_rounds<Mode>, gpuFuncAttributeMaxDynamicSharedMemorySize, shared));
  std::vector<double> per_round;
  for (int rep = 0; rep < 2; ++rep) {  // the first launch warms the clocks; ncu sees both
    if (rounds_done) GPU_CHECK(gpuMemset(rounds_done, 0, sizeof(unsigned)));
    store_copy_rounds<Mode><<<ctas, kThreads, shared>>>(kRounds, resident, resident_vecs, stream, stream_vecs, chunks,
                                                        d_cycles, sink, pause_ns, stream_every, rounds_done);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuDeviceSynchronize());
    std::vector<long long> c(ctas);
    GPU_CHECK(gpuMemcpy(c.data(), d_cycles, sizeof(long long) * ctas, gpuMemcpyDeviceToHost));
    std::vector<double> cyc(c.begin(), c.end());
    per_round.push_back(ubench::median(cyc) / kRounds);
  }
  std::printf("{\"measure\": \"store_copies\", \"mode\": \"%s\", \"ctas\": %d, \"threads\": %d, \"rounds\": %d, "
              "\"resident_bytes\": %lld, \"stream_bytes_per_round\": %lld, \"pause_ns\": %u, \"streaming_ctas\": %d, "
              "\"round_barrier\": %d, \"cycles_per_round\": %.0f, \"gpu\": \"%s\"}\n",
              mode, ctas, kThreads, kRounds, resident_vecs * 16 * ctas, Mode == 0 ? 0 : stream_vecs * 16 * streaming,
              pause_ns, stream_every > 1 ? streaming : 0, rounds_done ? 1 : 0, per_round.back(), prop.name);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const bool pace = what == "--pace", spread = what == "--spread", sync = what == "--sync";
  return ubench_main("gms-store-copy-ubench", [pace, spread, sync](const gpuDeviceProp& prop) {
    const long long stream_bytes = 1024 * kMiB;  // 16 rounds of the largest stream, never wrapped
    int4 *resident, *stream;
    long long* d_cycles;
    int* sink;
    GPU_CHECK(gpuMalloc(&resident, 32 * kMiB));
    GPU_CHECK(gpuMalloc(&stream, stream_bytes));
    GPU_CHECK(gpuMemset(resident, 1, 32 * kMiB));
    GPU_CHECK(gpuMemset(stream, 1, stream_bytes));
    GPU_CHECK(gpuMalloc(&d_cycles, sizeof(long long) * prop.multiProcessorCount));
    GPU_CHECK(gpuMalloc(&sink, sizeof(int)));
    unsigned* rounds_done;  // the round barrier of --spread and --sync
    GPU_CHECK(gpuMalloc(&rounds_done, sizeof(unsigned)));
    if (spread) {  // the same 16 MiB a round from 132, 66 or 33 SMs: each streaming SM at its full rate, the L2's load
                   // lower - is it the L2's load or an SM's own rate that makes a stream displace more?
      for (int resident_mib : {16, 24})
        for (int every : {1, 2, 4}) {
          run_case<1>("store", resident_mib, 16, prop, resident, stream, stream_bytes, d_cycles, sink, 0, every, rounds_done);
          run_case<2>("read", resident_mib, 16, prop, resident, stream, stream_bytes, d_cycles, sink, 0, every, rounds_done);
        }
      return;
    }
    if (pace) {  // does a store stream displace less at a lower rate? (the model's LRU: order only, no rate)
      for (int resident_mib : {8, 16, 24})
        for (unsigned pause : {0u, 500u, 2000u, 8000u}) {
          run_case<1>("store", resident_mib, 16, prop, resident, stream, stream_bytes, d_cycles, sink, pause);
          run_case<2>("read", resident_mib, 16, prop, resident, stream, stream_bytes, d_cycles, sink, pause);
        }
      return;
    }
    unsigned* barrier = sync ? rounds_done : nullptr;  // --sync: the default cases, every round ended at a barrier
    for (int resident_mib : {8, 16, 24}) {
      run_case<0>("none", resident_mib, 0, prop, resident, stream, stream_bytes, d_cycles, sink, 0, 1, barrier);
      for (int stream_mib : {2, 4, 8, 16, 32}) {
        run_case<1>("store", resident_mib, stream_mib, prop, resident, stream, stream_bytes, d_cycles, sink, 0, 1, barrier);
        run_case<2>("read", resident_mib, stream_mib, prop, resident, stream, stream_bytes, d_cycles, sink, 0, 1, barrier);
      }
    }
  });
}
