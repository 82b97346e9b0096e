// gms-tma-ubench: what the Tensor Memory Accelerator (TMA) moves into one SM's shared memory per cycle
// (issue 10). Hopper GEMMs copy their tiles with bulk tensor copies (cp.async.bulk.tensor, SASS
// UTMALDG) that one thread issues and an mbarrier completes, not with per-thread cp.async (LDGSTS),
// whose path gms-inflight-ubench measured (one line request per SM cycle, 0.82 four-sector lines per
// cycle from L2). This measures the TMA's, point by point:
//   `ctas` CTAs of one warp, each on its own SM (the kernel records %smid): 4 (what one SM's path
//   takes) and one per SM (what the L2 gives them all);
//   per round thread 0 arms one mbarrier with the round's bytes and issues `k` copies of a box of
//   `rows` x 128 B (64 fp16 wide, 128-byte swizzle as Triton's tiles), then the warp waits for the
//   barrier's phase: rounds do not overlap, so k x rows lines are in flight per SM;
//   sources: `l2` (a 16 MiB window read again and again: L2 hits after the first round) and `dram`
//   (each line of a 1 GiB tensor once, the L2 flushed before each launch by writing 256 MiB elsewhere).
// One JSON line per point: SM cycles per round (clock64 around the loop; median over the CTAs of the
// median launch of 5 after a warm-up), bytes and lines per SM cycle. sm_90 only (no TMA before Hopper;
// no HIP build).
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

#include "../include/event_timer.h"

namespace {

constexpr int kRounds = 64;
constexpr size_t kDramBytes = 1ull << 30;
constexpr size_t kL2Bytes = 16ull << 20;
constexpr unsigned kRowBytes = 128;  // the box's inner extent: 64 fp16
constexpr unsigned kMaxInFlight = 192u << 10;  // shared bytes one CTA copies into per round

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Copies of `rows` x 128 B boxes; box j of round r of CTA c starts at row ((r x ctas + c) x k + j) x rows,
// wrapped at `total_rows` (a power of two).
__global__ void __launch_bounds__(32, 1) tma_rounds(const __grid_constant__ CUtensorMap map, unsigned rows, int k,
                                                    unsigned total_rows, int rounds, int* smids,
                                                    unsigned long long* cycles) {
  extern __shared__ unsigned char raw[];
  // 128-byte swizzled boxes need 1024-byte aligned destinations; the barrier sits after the buffer.
  unsigned char* buf = raw + ((1024u - (smem_addr(raw) & 1023u)) & 1023u);
  const unsigned box_bytes = rows * kRowBytes;
  unsigned long long* bar = reinterpret_cast<unsigned long long*>(buf + static_cast<size_t>(k) * box_bytes);
  const unsigned bar_addr = smem_addr(bar);
  if (threadIdx.x == 0) {
    int smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    smids[blockIdx.x] = smid;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
  const unsigned long long start = clock64();
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(k * box_bytes)
                   : "memory");
      for (int j = 0; j < k; ++j) {
        const unsigned long long box = (static_cast<unsigned long long>(r) * gridDim.x + blockIdx.x) * k + j;
        const int y = static_cast<int>((box * rows) & (total_rows - 1));
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                smem_addr(buf + static_cast<size_t>(j) * box_bytes)),
            "l"(reinterpret_cast<unsigned long long>(&map)), "r"(0), "r"(y), "r"(bar_addr)
            : "memory");
      }
    }
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
          : "=r"(done)
          : "r"(bar_addr), "r"(static_cast<unsigned>(r & 1))
          : "memory");
  }
  __syncwarp();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - start;
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// A 2-D fp16 tensor of `total_rows` rows of 64 elements (128 B), read in boxes of 64 x `rows`.
CUtensorMap tensor_map(EncodeTiled encode, void* base, unsigned total_rows, unsigned rows) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {64, total_rows};
  const cuuint64_t strides[1] = {kRowBytes};
  const cuuint32_t box[2] = {64, rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult rc = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, dims, strides, box, elem_strides,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (rc != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed (%d) for box rows %u\n", static_cast<int>(rc), rows);
    std::exit(1);
  }
  return map;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
  GPU_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
#else  // toolkits before 12.5 have only the unversioned lookup
  GPU_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &found));
#endif
  if (!fn || found != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "no cuTensorMapEncodeTiled in this driver\n");
    return 1;
  }
  const auto encode = reinterpret_cast<EncodeTiled>(fn);
  const int sms = prop.multiProcessorCount;
  unsigned char* buf = nullptr;
  int* smids = nullptr;
  unsigned long long* cycles = nullptr;
  GPU_CHECK(gpuMalloc(&buf, kDramBytes));
  GPU_CHECK(gpuMalloc(&smids, sms * sizeof(int)));
  GPU_CHECK(gpuMalloc(&cycles, sms * sizeof(unsigned long long)));
  GPU_CHECK(gpuMemset(buf, 1, kDramBytes));
  unsigned char* flush = nullptr;
  const size_t flush_bytes = 256ull << 20;
  GPU_CHECK(gpuMalloc(&flush, flush_bytes));
  GPU_CHECK(cudaFuncSetAttribute(tma_rounds, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxInFlight + 2048));
  gmsv::Timer timer;
  for (const char* source : {"l2", "dram"})
    for (unsigned rows : {8u, 64u, 256u})
      for (int k : {1, 2, 4, 8, 16, 32, 64}) {
        const unsigned box_bytes = rows * kRowBytes;
        if (static_cast<unsigned>(k) * box_bytes > kMaxInFlight) continue;
        const bool dram = source[0] == 'd';
        const unsigned total_rows = static_cast<unsigned>((dram ? kDramBytes : kL2Bytes) / kRowBytes);
        const CUtensorMap map = tensor_map(encode, buf, total_rows, rows);
        for (int ctas : {4, sms}) {
          // DRAM: every line once (fewer rounds where the tensor would wrap); L2: the window again and again.
          const unsigned long long per_round = static_cast<unsigned long long>(ctas) * k * rows;
          const int rounds = dram ? static_cast<int>(std::min<unsigned long long>(kRounds, total_rows / per_round)) : kRounds;
          if (rounds < 4) continue;
          const size_t smem = static_cast<size_t>(k) * box_bytes + 1024 + 64;
          std::vector<double> ns, cyc;
          for (int rep = -1; rep < reps; ++rep) {
            if (dram) GPU_CHECK(gpuMemset(flush, rep & 0xff, flush_bytes));
            const double t = timer.ns([&] {
              tma_rounds<<<ctas, 32, smem>>>(map, rows, k, total_rows, rounds, smids, cycles);
              GPU_CHECK_LAUNCH();
            });
            std::vector<unsigned long long> c(static_cast<size_t>(ctas));
            GPU_CHECK(gpuMemcpy(c.data(), cycles, c.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
            std::sort(c.begin(), c.end());
            if (rep >= 0) ns.push_back(t), cyc.push_back(static_cast<double>(c[c.size() / 2]));
          }
          std::sort(ns.begin(), ns.end());
          std::sort(cyc.begin(), cyc.end());
          std::vector<int> host_smids(static_cast<size_t>(ctas));
          GPU_CHECK(gpuMemcpy(host_smids.data(), smids, host_smids.size() * sizeof(int), gpuMemcpyDeviceToHost));
          const std::set<int> distinct(host_smids.begin(), host_smids.end());
          const double med = ns[ns.size() / 2], med_cycles = cyc[cyc.size() / 2];
          const double lines = static_cast<double>(k) * rows * rounds;  // per SM
          std::printf(
              "{\"gpu\": \"%s\", \"source\": \"%s\", \"ctas\": %d, \"distinct_sms\": %zu, \"box_rows\": %u, "
              "\"box_bytes\": %u, \"copies_per_round\": %d, \"lines_in_flight_per_sm\": %u, \"rounds\": %d, "
              "\"launch_ns\": %.0f, \"loop_cycles\": %.0f, \"cycles_per_round\": %.1f, \"lines_per_cycle_per_sm\": %.3f, "
              "\"bytes_per_cycle_per_sm\": %.1f}\n",
              prop.name, source, ctas, distinct.size(), rows, box_bytes, k, k * rows, rounds, med, med_cycles,
              med_cycles / rounds, lines / med_cycles, lines * kRowBytes / med_cycles);
          std::fflush(stdout);
        }
      }
  (void)gpuFree(buf);
  (void)gpuFree(smids);
  (void)gpuFree(cycles);
  (void)gpuFree(flush);
  return 0;
}
