// gms-fill-ubench: what a cp.async's write into shared memory costs the SM's shared-memory data path.
// The WMMA GEMM's padding records leave silicon's data path 70-84 % busy (ldmatrix wavefronts plus 4
// per LDGSTS, the 512 bytes of a warp's copy at 128 bytes a cycle) where the model keeps it 97 % busy
// and runs 9-16 % faster; if the copies' writes cost the path more than 4 cycles each, both are
// explained. Measured here directly: one 1024-thread CTA per SM, 16 reader warps and 16 copier warps
// (warps 0-3 read, 4-7 copy, 8-11 read, ...: every sub-partition has 4 of each).
//   readers  `steps` x 8 independent ldmatrix.x4 of 16 x 16 fp16 tiles with rows PITCH bytes apart
//            (64: 16 wavefronts each, the WMMA GEMM's pad 0; 80: 4, pad 8) - they keep the path busy
//   copiers  `copies` cp.async of 16 bytes per lane each (one LDGSTS: 512 contiguous bytes of global
//            memory into rows of ROW_BYTES, DST_PITCH bytes apart in shared memory: contiguous, or the
//            WMMA GEMM's padded A (64-byte rows) and B (256-byte rows) tiles), 4 groups in flight per
//            warp, from the SM's own 64 KiB window of a buffer that stays in L2 (.cg, the GEMM's
//            flavour), its own 16 KiB that stays in L1 (.ca), or its own 8 MiB that misses to DRAM
//            (.cg, "cg_dram")
//   probe    one warp's copy latency: 64 times a cp.async of 512 bytes from L2, committed and waited
//            for at once (clock64 around each), beside the 16 readers or without them. Whether a copy
//            waits to enter the LSU behind the readers' queued ldmatrix (thousands of cycles) or
//            only for its slots on the path (tens) shows here.
// Per CTA the cycles (clock64, from a barrier) until the last reader and the last copier finish;
// printed per configuration as the median over the SMs of the median of 5 runs. With the readers
// holding the path, the readers' time grows by the path cycles the copies take from them: the slope
// of reader cycles over copies per SM is the cost of one LDGSTS's write (4 if it is written at the
// path's 128 bytes per cycle).
//   gms-fill-ubench          the sweep, one JSON object per configuration
//   gms-fill-ubench --once   each kernel once at the sweep's largest point (for ncu)
//   gms-fill-ubench --probes the probe alone, beside readers on chosen sub-partitions, pitches 64 / 80 / 96
//   gms-fill-ubench --loads  global loads into registers (LDG.128 / LDG.32) beside the readers (load_mix)
//   gms-fill-ubench --probe-grid  the probe beside 1-16 readers (spread, the copier's sub-partition only,
//                            the other three only), 8 or 2 ldmatrix in flight each, pitches 64 / 96
// CUDA only (clock64, inline PTX, cp.async: sm_80 on).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/ubench_stats.h"

namespace {

constexpr int kWarps = 32, kReaderBytes = 16384, kCopierStages = 4, kCopyBytes = 512;
// Shared bytes one copier warp's stage spans: its 512 bytes in rows of ROW_BYTES, DST_PITCH apart.
__host__ __device__ constexpr int stage_bytes(int row_bytes, int dst_pitch) { return kCopyBytes / row_bytes * dst_pitch; }
constexpr int kWindowInt4L2 = 65536 / 16, kWindowInt4L1 = 16384 / 16;
// Where the copies read from: a 64 KiB window per SM that stays in L2 (.cg), 16 KiB in L1 (.ca), or
// 8 MiB per SM (1 GiB in all) that L2 cannot hold, so every copy misses to DRAM (.cg).
enum Source { kFromL2 = 0, kFromL1 = 1, kFromDram = 2 };
constexpr int kWindowInt4Dram = (8 << 20) / 16;
__host__ __device__ constexpr int window_int4(int source) {
  return source == kFromL1 ? kWindowInt4L1 : source == kFromDram ? kWindowInt4Dram : kWindowInt4L2;
}
__host__ __device__ constexpr const char* source_name(int source) {
  return source == kFromL1 ? "ca" : source == kFromDram ? "cg_dram" : "cg";
}

__device__ __forceinline__ bool is_reader(int warp) { return ((warp / 4) & 1) == 0; }

// A reader warp: `steps` x DEPTH independent ldmatrix.x4 of 16 x 16 fp16 tiles with rows PITCH bytes
// apart, in blocks 2 KiB apart (a multiple of the 128-byte bank period) moved by a run-time stride,
// so that ptxas cannot merge two steps' loads (as in gms-smem-ubench's ldsm_pitch).
// DEPTH (8 unless a probe asks for fewer) is how many a warp has in flight before it waits for them.
template <int PITCH, int DEPTH = 8>
__device__ __forceinline__ unsigned read_tiles(const unsigned char* rbuf, int steps, int stride, int lane) {
  unsigned acc = 0;
  for (int it = 0; it < steps; ++it) {
#pragma unroll
    for (int j = 0; j < DEPTH; ++j) {
      const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(
          rbuf + ((((it * stride + j) & 7) * 2048 + (lane % 16) * PITCH + (lane / 16) * 16) & (kReaderBytes - 1))));
      unsigned r0, r1, r2, r3;
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr) : "memory");
      acc ^= r0 ^ r1 ^ r2 ^ r3;
    }
  }
  return acc;
}

template <int PITCH, int ROW_BYTES, int DST_PITCH, int SRC>
__global__ void fill_mix(int steps, int copies, int stride, const int4* src, long long* out, unsigned* sink) {
  extern __shared__ __align__(128) unsigned char smem[];
  unsigned char* rbuf = smem;                  // the readers' 16 KiB
  unsigned char* cbuf = smem + kReaderBytes;   // per copier warp, 4 stages
  constexpr int kStage = stage_bytes(ROW_BYTES, DST_PITCH);
  for (int i = threadIdx.x; i < kReaderBytes / 4; i += blockDim.x) reinterpret_cast<unsigned*>(rbuf)[i] = i;
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const long long t0 = clock64();
  unsigned acc = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (is_reader(warp)) {
    acc = read_tiles<PITCH>(rbuf, steps, stride, lane);
  } else {
    const int cw = (warp / 8) * 4 + warp % 4;  // 0..15
    const int window = window_int4(SRC);
    const int4* base = src + static_cast<size_t>(blockIdx.x) * window;
    for (int i = 0; i < copies; ++i) {
      const int chunk = lane * 16;  // the lane's byte in the warp's 512, placed in its padded row
      const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(
          cbuf + (cw * kCopierStages + (i & (kCopierStages - 1))) * kStage + chunk / ROW_BYTES * DST_PITCH + chunk % ROW_BYTES));
      const int4* g = base + ((i * 16 + cw) * 32 + lane) % window;
      if constexpr (SRC == kFromL1)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(g) : "memory");
      else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(g) : "memory");
      asm volatile("cp.async.commit_group;\n" ::: "memory");
      asm volatile("cp.async.wait_group %0;\n" ::"n"(kCopierStages - 1) : "memory");
    }
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    acc = reinterpret_cast<const unsigned*>(cbuf)[cw * kCopierStages * kStage / 4 + lane];
  }
#endif
  const long long t1 = clock64();
  if (lane == 0) out[blockIdx.x * kWarps + warp] = t1 - t0;
  if (acc == 0x12345u) *sink = acc;
}

// `--loads`: the copiers' warps issue global loads into registers instead (LDG.E.128, 512 bytes a warp, or
// LDG.E, 128 bytes a warp: VEC 4 / 1 words a lane), 4 independent ones in flight before the warp uses them, from
// the same windows (.cg from L2, .ca from L1, .cg from DRAM). Does a load's data, on its way to the registers,
// take the shared-memory data path's cycles as a cp.async's write does? The readers' slope says how many.
template <int PITCH, int SRC, int VEC>
__global__ void load_mix(int steps, int loads, int stride, const int4* src, long long* out, unsigned* sink) {
  __shared__ __align__(128) unsigned char rbuf[kReaderBytes];
  for (int i = threadIdx.x; i < kReaderBytes / 4; i += blockDim.x) reinterpret_cast<unsigned*>(rbuf)[i] = i;
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const long long t0 = clock64();
  unsigned acc = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (is_reader(warp)) {
    acc = read_tiles<PITCH>(rbuf, steps, stride, lane);
  } else {
    const int cw = (warp / 8) * 4 + warp % 4;  // 0..15
    const int window = window_int4(SRC) * 4 / VEC;  // in units of the load
    const unsigned* base = reinterpret_cast<const unsigned*>(src + static_cast<size_t>(blockIdx.x) * window_int4(SRC));
    for (int i = 0; i < loads; i += 4) {
      unsigned v[4][VEC];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        // The run-time stride (1) keeps ptxas from seeing the addresses repeat: with a literal one it hoisted the
        // 8 loads of a period out of the loop (ncu: 8 LDG a warp where 512 were meant, first call 2026-12-01).
        const unsigned* g = base + static_cast<size_t>((((i + j) * stride * 16 + cw) * 32 + lane) % window) * VEC;
        if constexpr (VEC == 4) {
          if constexpr (SRC == kFromL1)
            asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v[j][0]), "=r"(v[j][1]), "=r"(v[j][2]), "=r"(v[j][3]) : "l"(g));
          else
            asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v[j][0]), "=r"(v[j][1]), "=r"(v[j][2]), "=r"(v[j][3]) : "l"(g));
        } else {
          if constexpr (SRC == kFromL1)
            asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v[j][0]) : "l"(g));
          else
            asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v[j][0]) : "l"(g));
        }
      }
#pragma unroll
      for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int k = 0; k < VEC; ++k) acc ^= v[j][k];
    }
  }
#endif
  const long long t1 = clock64();
  if (lane == 0) out[blockIdx.x * kWarps + warp] = t1 - t0;
  if (acc == 0x12345u) *sink = acc;
}

// Readers as in fill_mix (when `steps` > 0; only the warps set in `reader_mask` of the 16 that can read);
// warp 4 (sub-partition 0) waits 20,000 cycles for them to fill the path's queue, then times `copies`
// single copies, each waited for before the next.
// With `reader_out`, each reader's cycles from its start (lane 0; its warp's slot of the CTA's 32).
// MERGED (the --probes mode and the H100's fill record, as measured then): the readers' stride is the
// literal 1, and ptxas merges the loads that repeat an address of the step before - 9 LDSM per two steps
// instead of 16 (ncu on the H200, 2026-11-29: 18,432 per SM where 32,768 were meant). Otherwise the
// stride comes at run time, as in fill_mix, and every step issues its DEPTH loads.
template <int PITCH, int DEPTH = 8, bool MERGED = true>
__global__ void fill_probe(int steps, int copies, unsigned reader_mask, const int4* src, long long* out, unsigned* sink,
                           long long* reader_out = nullptr, int stride = 1) {
  __shared__ __align__(128) unsigned char rbuf[kReaderBytes];
  __shared__ __align__(128) unsigned char cbuf[kCopyBytes];
  for (int i = threadIdx.x; i < kReaderBytes / 4; i += blockDim.x) reinterpret_cast<unsigned*>(rbuf)[i] = i;
  __syncthreads();
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  unsigned acc = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (is_reader(warp)) {
    if ((reader_mask >> warp) & 1u) {
      const long long t0 = clock64();
      acc = read_tiles<PITCH, DEPTH>(rbuf, steps, MERGED ? 1 : stride, lane);
      if (reader_out && lane == 0) reader_out[blockIdx.x * kWarps + warp] = clock64() - t0;
    }
  } else if (warp == 4) {
    const long long start = clock64();
    while (clock64() - start < 20000) {
    }
    const int4* base = src + static_cast<size_t>(blockIdx.x) * kWindowInt4L2;
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(cbuf + lane * 16));
    long long sum = 0;
    for (int i = 0; i < copies; ++i) {
      const int4* g = base + (i * 32 + lane) % kWindowInt4L2;
      const long long t0 = clock64();
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(g) : "memory");
      asm volatile("cp.async.commit_group;\n" ::: "memory");
      asm volatile("cp.async.wait_group 0;\n" ::: "memory");
      sum += clock64() - t0;
    }
    if (lane == 0) out[blockIdx.x] = sum / copies;
    acc = reinterpret_cast<const unsigned*>(cbuf)[lane];
  }
#endif
  if (acc == 0x12345u) *sink = acc;
}

using ubench::median;

struct Ends {
  double readers, copiers;
};

// One launch: per CTA the last reader's and the last copier's cycles; the medians over the SMs.
template <class Launch>
Ends run_once(int sms, long long* out, Launch&& launch) {
  launch();
  GPU_CHECK_LAUNCH();
  std::vector<long long> c(static_cast<size_t>(sms) * kWarps);
  GPU_CHECK(gpuMemcpy(c.data(), out, sizeof(long long) * c.size(), gpuMemcpyDeviceToHost));
  std::vector<double> r, w;
  for (int b = 0; b < sms; ++b) {
    long long rm = 0, cm = 0;
    for (int k = 0; k < kWarps; ++k) {
      const long long v = c[static_cast<size_t>(b) * kWarps + k];
      if (((k / 4) & 1) == 0) rm = std::max(rm, v);
      else cm = std::max(cm, v);
    }
    r.push_back(static_cast<double>(rm));
    w.push_back(static_cast<double>(cm));
  }
  return {median(r), median(w)};
}

// Reader steps that keep the path busy ~525 K cycles (16 readers x 8 ldmatrix x wavefronts each),
// longer than the copiers need for 8192 LDGSTS per SM alone (~137 K cycles from L2).
constexpr int reader_steps(int pitch) { return pitch == 64 ? 256 : pitch == 96 ? 512 : 1024; }

template <int PITCH, int ROW_BYTES, int DST_PITCH, int SRC>
void sweep(int sms, bool once, const int4* src, long long* out, unsigned* sink, const char* gpu) {
  const int steps = reader_steps(PITCH);
  const std::vector<int> copy_counts = once ? std::vector<int>{512} : std::vector<int>{0, 256, 512};
  const int shared = kReaderBytes + kWarps / 2 * kCopierStages * stage_bytes(ROW_BYTES, DST_PITCH);
  auto* kernel = fill_mix<PITCH, ROW_BYTES, DST_PITCH, SRC>;
  GPU_CHECK(gpuFuncSetAttribute(kernel, gpuFuncAttributeMaxDynamicSharedMemorySize, shared));
  for (int readers_on = 1; readers_on >= 0; --readers_on) {
    for (int copies : copy_counts) {
      if (!readers_on && copies == 0) continue;
      const int s = readers_on ? steps : 0;
      auto launch = [&] { kernel<<<sms, kWarps * 32, shared>>>(s, copies, 1, src, out, sink); };
      std::vector<double> rs, cs;
      for (int rep = 0; rep < (once ? 1 : 5); ++rep) {
        const Ends e = run_once(sms, out, launch);
        rs.push_back(e.readers);
        cs.push_back(e.copiers);
      }
      std::printf(
          "{\"measure\": \"fill_mix\", \"pitch\": %d, \"copy\": \"%s\", \"copy_rows\": %d, \"copy_pitch\": %d, "
          "\"ldmatrix_per_sm\": %d, \"ldgsts_per_sm\": %d, \"reader_cycles\": %.0f, \"copier_cycles\": %.0f, \"gpu\": \"%s\"}\n",
          PITCH, source_name(SRC), ROW_BYTES, DST_PITCH, s * 8 * (kWarps / 2), copies * (kWarps / 2), median(rs), median(cs), gpu);
    }
  }
}

// The loads' sweep (`--loads`): 0, 256 and 512 loads per loader warp beside the readers, and alone.
template <int PITCH, int SRC, int VEC>
void load_sweep(int sms, const int4* src, long long* out, unsigned* sink, const char* gpu) {
  const int steps = reader_steps(PITCH);
  auto* kernel = load_mix<PITCH, SRC, VEC>;
  for (int readers_on = 1; readers_on >= 0; --readers_on) {
    for (int loads : {0, 256, 512}) {
      if (!readers_on && loads == 0) continue;
      const int s = readers_on ? steps : 0;
      auto launch = [&] { kernel<<<sms, kWarps * 32>>>(s, loads, 1, src, out, sink); };
      std::vector<double> rs, cs;
      for (int rep = 0; rep < 5; ++rep) {
        const Ends e = run_once(sms, out, launch);
        rs.push_back(e.readers);
        cs.push_back(e.copiers);
      }
      std::printf(
          "{\"measure\": \"load_mix\", \"pitch\": %d, \"load\": \"%s\", \"bytes_per_lane\": %d, \"ldmatrix_per_sm\": %d, "
          "\"ldg_per_sm\": %d, \"reader_cycles\": %.0f, \"loader_cycles\": %.0f, \"gpu\": \"%s\"}\n",
          PITCH, source_name(SRC), VEC * 4, s * 8 * (kWarps / 2), loads * (kWarps / 2), median(rs), median(cs), gpu);
    }
  }
}

// Five launches of the probe: the copy's latency (median over the SMs of each, then over the launches)
// and, with `reader_out`, the slowest reader's cycles the same way (0 without).
struct ProbeRun {
  double copy, readers;
};
template <int PITCH, int DEPTH, bool MERGED>
ProbeRun probe_run(int sms, int steps, unsigned mask, const int4* src, long long* out, unsigned* sink, long long* reader_out) {
  std::vector<double> copy_runs, reader_runs;
  for (int rep = 0; rep < 5; ++rep) {
    if (reader_out) GPU_CHECK(gpuMemset(reader_out, 0, sizeof(long long) * sms * kWarps));
    fill_probe<PITCH, DEPTH, MERGED><<<sms, kWarps * 32>>>(steps, 64, mask, src, out, sink, reader_out, 1);
    GPU_CHECK_LAUNCH();
    std::vector<long long> c(static_cast<size_t>(sms));
    GPU_CHECK(gpuMemcpy(c.data(), out, sizeof(long long) * sms, gpuMemcpyDeviceToHost));
    std::vector<double> per(c.begin(), c.end());
    copy_runs.push_back(median(per));
    if (!reader_out) continue;
    std::vector<long long> r(static_cast<size_t>(sms) * kWarps);
    GPU_CHECK(gpuMemcpy(r.data(), reader_out, sizeof(long long) * sms * kWarps, gpuMemcpyDeviceToHost));
    std::vector<double> slowest;
    for (int b = 0; b < sms; ++b)
      slowest.push_back(static_cast<double>(*std::max_element(r.begin() + b * kWarps, r.begin() + (b + 1) * kWarps)));
    reader_runs.push_back(median(slowest));
  }
  return {median(copy_runs), reader_out ? median(reader_runs) : 0.0};
}

// One copy's latency with the reader warps of `mask` (the readers' loads merged, as measured then).
template <int PITCH>
double probe_cycles(int sms, unsigned mask, const int4* src, long long* out, unsigned* sink) {
  return probe_run<PITCH, 8, true>(sms, mask ? reader_steps(PITCH) : 0, mask, src, out, sink, nullptr).copy;
}

constexpr unsigned kAllReaders = 0x0F0F0F0Fu;  // warps 0-3, 8-11, 16-19, 24-27

template <int PITCH>
void probe(int sms, const int4* src, long long* out, unsigned* sink, const char* gpu) {
  for (int readers_on = 0; readers_on <= 1; ++readers_on)
    std::printf("{\"measure\": \"fill_probe\", \"pitch\": %d, \"readers\": %d, \"copy_latency_cycles\": %.0f, \"gpu\": \"%s\"}\n",
                PITCH, readers_on ? 16 : 0, probe_cycles<PITCH>(sms, readers_on ? kAllReaders : 0u, src, out, sink), gpu);
}

// Which queue a copy waits in: the readers on every sub-partition (16, or one each), only on the
// copier's sub-partition 0 (warps 0, 8, 16, 24), or only on the other three (12).
template <int PITCH>
void probe_readers(int sms, const int4* src, long long* out, unsigned* sink, const char* gpu) {
  const struct {
    const char* name;
    unsigned mask;
  } sets[] = {{"none", 0u}, {"all", kAllReaders}, {"one_per_subpartition", 0x0000000Fu},
              {"copier_subpartition", 0x01010101u}, {"other_subpartitions", kAllReaders & ~0x01010101u}};
  for (const auto& set : sets)
    std::printf("{\"measure\": \"fill_probe_readers\", \"pitch\": %d, \"readers\": \"%s\", \"reader_warps\": %d, "
                "\"copy_latency_cycles\": %.0f, \"gpu\": \"%s\"}\n",
                PITCH, set.name, __builtin_popcount(set.mask), probe_cycles<PITCH>(sms, set.mask, src, out, sink), gpu);
}

// How the copy's wait grows with the readers in flight (`--probe-grid`): readers spread over all four
// sub-partitions (the first N of warps 0, 1, 2, 3, 8, 9, ...), only on the copier's sub-partition 0 (1-4 of
// warps 0, 8, 16, 24) or only on the other three (1-4 on each); each with DEPTH ldmatrix in flight before it
// waits for them (8, or 2: fewer queued per warp; none merged by ptxas). Beside the copy's latency, the readers' median (over
// the SMs) of their slowest warp's cycles and the path's busy share that gives (wavefronts / cycles). The
// copier starts after 20,000 cycles; its 64 copies take 20-70 K more, the readers at least ~260 K.
template <int PITCH, int DEPTH>
void probe_grid(int sms, const int4* src, long long* out, unsigned* sink, long long* reader_out, const char* gpu) {
  constexpr int kWavefronts = PITCH == 64 ? 16 : PITCH == 96 ? 8 : 4;
  const int order[16] = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27};
  struct Set {
    const char* layout;
    unsigned mask;
  };
  std::vector<Set> sets;
  for (int n = 2; n <= 16; n += 2) {
    unsigned m = 0;
    for (int i = 0; i < n; ++i) m |= 1u << order[i];
    sets.push_back({"spread", m});
  }
  for (int k = 1; k <= 4; ++k) {
    unsigned own = 0, others = 0;
    for (int i = 0; i < k; ++i) {
      own |= 1u << (8 * i);
      for (int sp = 1; sp < 4; ++sp) others |= 1u << (8 * i + sp);
    }
    sets.push_back({"own", own});
    sets.push_back({"others", others});
  }
  for (const Set& set : sets) {
    // The readers' steps scaled so that the path's work is the full set's whatever the readers' number:
    // a few readers then still outlast the probe's 64 copies.
    const int n = __builtin_popcount(set.mask), steps = reader_steps(PITCH) * (8 / DEPTH) * 16 / n;
    const ProbeRun run = probe_run<PITCH, DEPTH, false>(sms, steps, set.mask, src, out, sink, reader_out);
    const double reader_cycles = run.readers;
    std::printf("{\"measure\": \"fill_probe_grid\", \"pitch\": %d, \"depth\": %d, \"layout\": \"%s\", \"reader_warps\": %d, "
                "\"copy_latency_cycles\": %.0f, \"reader_cycles\": %.0f, \"path_busy\": %.3f, \"gpu\": \"%s\"}\n",
                PITCH, DEPTH, set.layout, n, run.copy, reader_cycles,
                static_cast<double>(n) * steps * DEPTH * kWavefronts / reader_cycles, gpu);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const bool once = argc > 1 && std::strcmp(argv[1], "--once") == 0;
    const bool probes_only = argc > 1 && std::strcmp(argv[1], "--probes") == 0;
    const bool probe_grid_only = argc > 1 && std::strcmp(argv[1], "--probe-grid") == 0;
    gpuDeviceProp prop{};
    GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    int4* src;
    long long* out;
    unsigned* sink;
    GPU_CHECK(gpuMalloc(&src, sizeof(int4) * kWindowInt4L2 * sms));
    GPU_CHECK(gpuMemset(src, 1, sizeof(int4) * kWindowInt4L2 * sms));
    GPU_CHECK(gpuMalloc(&out, sizeof(long long) * sms * kWarps));
    GPU_CHECK(gpuMalloc(&sink, 4));
    // A first launch brings the windows into L2 (and L1 for .ca) before anything is timed.
    fill_mix<64, 512, 512, kFromL2><<<sms, kWarps * 32, kReaderBytes + kWarps / 2 * kCopierStages * kCopyBytes>>>(0, 512, 1, src, out, sink);
    GPU_CHECK_LAUNCH();
    GPU_CHECK(gpuDeviceSynchronize());
    if (argc > 1 && std::strcmp(argv[1], "--loads") == 0) {  // global loads into registers beside the readers
      load_sweep<64, kFromL2, 4>(sms, src, out, sink, prop.name);
      load_sweep<80, kFromL2, 4>(sms, src, out, sink, prop.name);
      load_sweep<64, kFromL1, 4>(sms, src, out, sink, prop.name);
      load_sweep<64, kFromL2, 1>(sms, src, out, sink, prop.name);
      load_sweep<64, kFromL1, 1>(sms, src, out, sink, prop.name);
      int4* dram_src;
      GPU_CHECK(gpuMalloc(&dram_src, sizeof(int4) * static_cast<size_t>(kWindowInt4Dram) * sms));
      GPU_CHECK(gpuMemset(dram_src, 1, sizeof(int4) * static_cast<size_t>(kWindowInt4Dram) * sms));
      load_sweep<64, kFromDram, 4>(sms, dram_src, out, sink, prop.name);
      return 0;
    }
    if (probes_only) {  // one copy's latency beside readers of 16, 4 and 8 wavefronts on chosen sub-partitions
      probe_readers<64>(sms, src, out, sink, prop.name);
      probe_readers<80>(sms, src, out, sink, prop.name);
      probe_readers<96>(sms, src, out, sink, prop.name);
      return 0;
    }
    if (probe_grid_only) {  // the copy's wait against the readers' number, place and depth in flight
      long long* reader_out;
      GPU_CHECK(gpuMalloc(&reader_out, sizeof(long long) * sms * kWarps));
      probe_grid<64, 8>(sms, src, out, sink, reader_out, prop.name);
      probe_grid<64, 2>(sms, src, out, sink, reader_out, prop.name);
      probe_grid<96, 8>(sms, src, out, sink, reader_out, prop.name);
      probe_grid<96, 2>(sms, src, out, sink, reader_out, prop.name);
      return 0;
    }
    // Contiguous copies beside 16- and 4-wavefront ldmatrix, from L2 and from L1.
    sweep<64, 512, 512, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<80, 512, 512, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<64, 512, 512, kFromL1>(sms, once, src, out, sink, prop.name);
    sweep<80, 512, 512, kFromL1>(sms, once, src, out, sink, prop.name);
    // The WMMA GEMM's pads: its A copies (64-byte rows) and B copies (256-byte rows) beside its
    // ldmatrix (pad 0: rows 64 / 256 bytes apart, 16 wavefronts; pad 8: 80 / 272, 4; pad 16: 96 / 288, 8).
    sweep<64, 64, 64, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<64, 256, 256, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<80, 64, 80, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<80, 256, 272, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<96, 64, 96, kFromL2>(sms, once, src, out, sink, prop.name);
    sweep<96, 256, 288, kFromL2>(sms, once, src, out, sink, prop.name);
    // Copies that miss to DRAM beside 16- and 4-wavefront ldmatrix: does a copy whose requests wait
    // for DRAM hold the readers up beyond its 2 cycles on the path?
    int4* dram_src;
    GPU_CHECK(gpuMalloc(&dram_src, sizeof(int4) * static_cast<size_t>(kWindowInt4Dram) * sms));
    GPU_CHECK(gpuMemset(dram_src, 1, sizeof(int4) * static_cast<size_t>(kWindowInt4Dram) * sms));
    sweep<64, 512, 512, kFromDram>(sms, once, dram_src, out, sink, prop.name);
    sweep<80, 512, 512, kFromDram>(sms, once, dram_src, out, sink, prop.name);
    GPU_CHECK(gpuFree(dram_src));
    // One warp's copy latency with and without the readers.
    probe<64>(sms, src, out, sink, prop.name);
    probe<80>(sms, src, out, sink, prop.name);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms-fill-ubench: %s\n", e.what());
    return 1;
  }
  return 0;
}
