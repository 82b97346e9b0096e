// gms-local-ubench: how fast an SM moves register spills (local memory) that miss L1 - what bounds
// Triton's spilling GEMM tilings (validate/results/h100/triton_gemm_spill: ~0.75-1.0 local sectors
// per SM cycle with Nsight's lg_throttle at 47-55 %).
// Each thread keeps a 90-double frame in local memory (st.local.f64 / ld.local.f64 in inline PTX:
// STL.64 / LDL.64 at fixed offsets from the frame) and, per round, stores all of it and then loads all of it back (mode swap, the spilling
// loop's pattern), only loads it (mode load, after one store) or only stores it (mode store), or
// stores the same bytes to global memory, laid out as local memory lays them (mode gstore). The
// CTA allocates `shared` bytes of dynamic shared memory, which sets the carve-out and so the L1 left
// beside it: 200 KiB leaves 28 KiB (the frames miss, as the GEMM's do), 0 leaves ~220 KiB (they hit).
// Thread 0 of each CTA stamps clock64 around the rounds; prints one JSON object per case: local
// sectors per SM cycle (32-byte sectors stored + loaded / the median CTA's cycles) and the elapsed
// time. CUDA only (inline PTX). `--writeback` runs only the store and fstore cases on 16..all SMs instead,
// `--reload` fload, fswap and swap (device_local_writeback.sh: what of the frames reaches DRAM, from ncu).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../include/event_timer.h"
#include "../include/gpu_port.h"
#include "../include/ubench_main.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kFrame = 90;  // doubles: the 128x256x32 GEMM's 720-byte frame

__device__ __forceinline__ void st_local(unsigned long long at, double v) {
  asm volatile("st.local.f64 [%0], %1;" ::"l"(at), "d"(v) : "memory");
}
__device__ __forceinline__ double ld_local(unsigned long long at) {
  double v;
  asm volatile("ld.local.f64 %0, [%1];" : "=d"(v) : "l"(at) : "memory");
  return v;
}

__device__ __forceinline__ void st_global(double* at, double v) {
  asm volatile("st.global.f64 [%0], %1;" ::"l"(at), "d"(v) : "memory");
}
__device__ __forceinline__ double ld_global_cg(const double* at) {  // cached in L2 only, as the frames miss L1
  double v;
  asm volatile("ld.global.cg.f64 %0, [%1];" : "=d"(v) : "l"(at) : "memory");
  return v;
}

template <int Mode>  // 0 swap, 1 load, 2 store, 3 the same stores to global memory (gstore), 4 global stores laid
                     // out frame by frame as local memory lays them (fstore: each warp's frames one block), 5 the
                     // same frames loaded (fload, ld.global.cg), 6 stored and loaded back (fswap)
__global__ void local_rounds(int rounds, long long* cycles, double* sink, double* global_frames) {
  extern __shared__ double smem[];
  double frame[kFrame];  // its address goes to the PTX below: it stays in local memory
  unsigned long long base;
  asm("cvta.to.local.u64 %0, %1;" : "=l"(base) : "l"(reinterpret_cast<unsigned long long>(frame)));
  double acc = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kFrame; ++i) st_local(base + 8 * i, acc + i);
  __syncthreads();
  const long long t0 = clock64();
  // gstore: slot i of every thread of the grid side by side, as local memory lays a warp's out.
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  double* mine = global_frames + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  // fstore: warp w's frames at w x 32 x kFrame doubles, slot i of its 32 lanes side by side (256 bytes).
  double* frame_slot0 = global_frames + (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x / 32 * 32) * kFrame +
                        threadIdx.x % 32;
  for (int r = 0; r < rounds; ++r) {
    unsigned long long zero;  // opaque to the compiler: the loads cannot leave the loop
    asm volatile("mov.u64 %0, 0;" : "=l"(zero));
    if (Mode == 0 || Mode == 2) {
#pragma unroll
      for (int i = 0; i < kFrame; ++i) st_local(base + zero + 8 * i, acc + i);
    }
    if (Mode == 3) {  // one address register walked along (unrolled, 90 of them would spill)
      double* at = mine + zero;
#pragma unroll 10
      for (int i = 0; i < kFrame; ++i, at += threads) st_global(at, acc + i);
    }
    if (Mode == 4 || Mode == 6) {
      double* at = frame_slot0 + zero;
#pragma unroll 10
      for (int i = 0; i < kFrame; ++i, at += 32) st_global(at, acc + i);
    }
    if (Mode == 5 || Mode == 6) {
      const double* at = frame_slot0 + zero;
#pragma unroll 10
      for (int i = 0; i < kFrame; ++i, at += 32) acc += ld_global_cg(at);
    }
    if (Mode == 0 || Mode == 1) {
#pragma unroll
      for (int i = 0; i < kFrame; ++i) acc += ld_local(base + zero + 8 * i);
    }
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) {
    cycles[blockIdx.x] = t1 - t0;
    smem[0] = acc;
  }
  if (acc == -1.0) *sink = acc + smem[0];  // never: keeps the loads
}

using ubench::median;

template <int Mode>
void run_case(const char* mode, int ctas, int threads, int shared, const gpuDeviceProp& prop, long long* d_cycles,
              double* sink, double* frames) {
  const int rounds = 200;
  GPU_CHECK(gpuFuncSetAttribute(local_rounds<Mode>, gpuFuncAttributeMaxDynamicSharedMemorySize, std::max(shared, 16)));
  local_rounds<Mode><<<ctas, threads, std::max(shared, 16)>>>(2, d_cycles, sink, frames);  // warm: frames allocated
  GPU_CHECK_LAUNCH();
  gmsv::Timer timer;
  std::vector<double> per_cycle, ms;
  for (int rep = 0; rep < 3; ++rep) {
    ms.push_back(1e-6 * timer.ns([&] {
      local_rounds<Mode><<<ctas, threads, std::max(shared, 16)>>>(rounds, d_cycles, sink, frames);
      GPU_CHECK_LAUNCH();
    }));
    std::vector<long long> c(ctas);
    GPU_CHECK(gpuMemcpy(c.data(), d_cycles, sizeof(long long) * ctas, gpuMemcpyDeviceToHost));
    std::vector<double> cyc(c.begin(), c.end());
    const double bytes_per_cta = static_cast<double>(threads) * rounds * kFrame * 8 * (Mode == 0 || Mode == 6 ? 2 : 1);
    per_cycle.push_back(bytes_per_cta / 32 / median(cyc));
  }
  std::printf("{\"measure\": \"local_sectors\", \"mode\": \"%s\", \"ctas\": %d, \"threads\": %d, \"shared_bytes\": %d, "
              "\"frame_bytes_per_thread\": %d, \"rounds\": %d, \"local_sectors_per_sm_cycle\": %.4f, \"ms\": %.4f, "
              "\"gpu\": \"%s\"}\n",
              mode, ctas, threads, shared, kFrame * 8, rounds, median(per_cycle), median(ms), prop.name);
  std::fflush(stdout);
}

}  // namespace

// --writeback: which stored frames reach DRAM though they fit L2 (README: all SMs storing 12 MB of frames write
// 72 MB to DRAM). Store-only rounds at 4 and 8 warps a CTA on 16..all SMs, to local memory and to global memory
// laid out the same way (fstore), frames missing L1: dram__bytes_write under ncu against the dirty bytes held.
// --reload: the same frames loaded only (fload: do clean lines of that footprint stay in L2?), stored and loaded
// back to global (fswap) and to local memory (swap): DRAM reads and writes.
void writeback_cases(const gpuDeviceProp& prop, long long* d_cycles, double* sink, double* frames, bool reload) {
  const int sms = prop.multiProcessorCount;
  // 200 KiB on an H100/H200 (L1 28 KiB); a GPU that grants a CTA less takes all it grants (A100 163 KiB: L1 28 KiB).
  const int big = std::min<int>(200 * 1024, static_cast<int>(prop.sharedMemPerBlockOptin));
  for (int threads : {128, 256})
    for (int ctas : {16, 32, 48, 64, 96, sms}) {
      if (reload) {
        run_case<5>("fload", ctas, threads, big, prop, d_cycles, sink, frames);
        run_case<6>("fswap", ctas, threads, big, prop, d_cycles, sink, frames);
        run_case<0>("swap", ctas, threads, big, prop, d_cycles, sink, frames);
      } else {
        run_case<2>("store", ctas, threads, big, prop, d_cycles, sink, frames);
        run_case<4>("fstore", ctas, threads, big, prop, d_cycles, sink, frames);
      }
    }
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool writeback = mode == "--writeback" || mode == "--reload";
  return ubench_main("gms-local-ubench", [writeback, mode](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    long long* d_cycles;
    double* sink;
    GPU_CHECK(gpuMalloc(&d_cycles, sizeof(long long) * 4 * sms));
    GPU_CHECK(gpuMalloc(&sink, sizeof(double)));
    double* frames;  // gstore's frames: every thread of the largest grid
    GPU_CHECK(gpuMalloc(&frames, sizeof(double) * kFrame * 256 * sms));
    if (writeback) {
      writeback_cases(prop, d_cycles, sink, frames, mode == "--reload");
      return;
    }
    const int big = 200 * 1024;  // one CTA an SM, L1 28 KiB: the frames miss
    for (int shared : {big, 0})
      for (int threads : {128, 256})
        for (int ctas : {1, 32, sms}) {
          run_case<0>("swap", ctas, threads, shared, prop, d_cycles, sink, frames);
          run_case<1>("load", ctas, threads, shared, prop, d_cycles, sink, frames);
          run_case<2>("store", ctas, threads, shared, prop, d_cycles, sink, frames);
          run_case<3>("gstore", ctas, threads, shared, prop, d_cycles, sink, frames);
        }
  });
}
