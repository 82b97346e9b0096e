// gms-cta-times: when every CTA of the WMMA GEMM (gemm_kernel.cuh, pad 8) starts and ends, and on
// which SM - the spread of CTA durations and of their start times that the timing model's lockstep
// waves lack (docs/calibration.md: row- and column-major orders read 35-44 % more DRAM on silicon
// than in the model because silicon's CTAs drift apart; the L2 coalescer merges what lockstep CTAs
// request together). The kernel with STAMP on differs only by its epilogue's stamps; both variants
// are timed so the stamps' cost is on record.
//   gms-cta-times [--out DIR] [--ctas-per-sm 1|2] [--pad 8|0|16] [--case N]
//                               ->  DIR/cta_times.jsonl (one line per case) and
//                                   DIR/<case>_run<r>.csv: cta,sm,gt_start_ns,gt_end_ns,clk_start,clk_end,
//                                   gt_first_tile_ns (prologue's end), gt_loop_end_ns (epilogue's start)
// --ctas-per-sm 1 launches the same kernel with dynamic shared memory that lets one CTA fit an SM (the
// kernel uses only its own): one warp per sub-partition instead of two, so the K step's time without
// the other CTA's warps beside it (issue port, tensor pipe, shared path) - what the model's K step
// misses with them (docs/sm-sharing.md). --pad 0 / 16 runs the kernel with that shared-memory row pad
// (the padding records' three cases) instead of 8 (all five). --case N runs the N-th case alone (0-4 in
// the order below; a profiler then finds its first plain launch second).
// CUDA only (%globaltimer, %smid).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "../kernels/gemm_kernel.cuh"
#include "cases.h"
#include "runner_common.cuh"

namespace gmsv {
namespace {

constexpr int kBK = 32, kStages = 3, kStampedRuns = 3;
// More than half of an H100/H200 SM's 228 KiB (less the 1 KiB each CTA reserves): two cannot share it.
constexpr int kOneCtaSmem = 116 * 1024;

template <int kPad>
void run_case(const GemmCase& c, const std::string& dir, std::ofstream& jsonl, int ctas_per_sm) {
  auto plain = gemm_fp16_kernel<kBK, kStages, kPad, false>;
  auto stamped = gemm_fp16_kernel<kBK, kStages, kPad, true>;
  const int smem = ctas_per_sm == 1 ? std::max(kOneCtaSmem, gemm_smem_bytes<kBK, kStages, kPad>())
                                    : gemm_smem_bytes<kBK, kStages, kPad>();
  GPU_CHECK(cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  GPU_CHECK(cudaFuncSetAttribute(stamped, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const size_t na = static_cast<size_t>(c.m) * c.k, nb = static_cast<size_t>(c.k) * c.n, nc = static_cast<size_t>(c.m) * c.n;
  DeviceBuffer<__half> A(na), B(nb), C(nc);
  fill_random(A.p, na, 0x1234 + c.m);
  fill_random(B.p, nb, 0x5678 + c.n);
  const int grid = (c.m / kGemmBM) * (c.n / kGemmBN);
  DeviceBuffer<unsigned long long> stamps(7ull * grid);
  const CtaOrderParams order{c.order_kind, c.group_m};
  auto launch = [&](bool stamp) {
    if (stamp)
      stamped<<<grid, kGemmThreads, smem>>>(A.p, B.p, C.p, c.m, c.n, c.k, order, stamps.p);
    else
      plain<<<grid, kGemmThreads, smem>>>(A.p, B.p, C.p, c.m, c.n, c.k, order, nullptr);
    GPU_CHECK_LAUNCH();
  };
  launch(false);  // warm-up
  GPU_CHECK(cudaDeviceSynchronize());
  Timer timer;
  const std::vector<double> plain_ms = timer.sorted_ms([&] { launch(false); }, 5);
  std::vector<double> stamped_ms;
  std::vector<unsigned long long> host(7ull * grid);
  for (int r = 0; r < kStampedRuns; ++r) {
    stamped_ms.push_back(timer.ns([&] { launch(true); }) * 1e-6);
    GPU_CHECK(cudaMemcpy(host.data(), stamps.p, host.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    const std::string file = c.name() + "_run" + std::to_string(r) + ".csv";
    std::ofstream csv(dir + "/" + file);
    csv << "cta,sm,gt_start_ns,gt_end_ns,clk_start,clk_end,gt_first_tile_ns,gt_loop_end_ns\n";
    for (int b = 0; b < grid; ++b) {
      const unsigned long long* s = &host[7ull * b];
      csv << b << ',' << s[4] << ',' << s[0] << ',' << s[1] << ',' << s[2] << ',' << s[3] << ',' << s[5] << ',' << s[6]
          << '\n';
    }
  }
  std::sort(stamped_ms.begin(), stamped_ms.end());
  const cudaFuncAttributes_compat attr = func_attributes(plain);
  int resident = 0;  // what the driver actually places per SM with this much shared memory
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, plain, kGemmThreads, smem));
  char buf[640];
  std::snprintf(buf, sizeof buf,
                "{\"case\": \"%s\", \"grid\": %d, \"plain_ms.median\": %.4f, \"stamped_ms.median\": %.4f, "
                "\"stamped_runs\": %d, \"pad\": %d, \"dynamic_smem_bytes\": %d, \"ctas_per_sm\": %d, \"workload\": ",
                c.name().c_str(), grid, plain_ms[plain_ms.size() / 2], stamped_ms[stamped_ms.size() / 2], kStampedRuns,
                kPad, smem, resident);
  jsonl << buf << c.workload_json(attr.regs) << "}\n";
  jsonl.flush();
  std::printf("%-40s %d CTA(s)/SM: plain %.3f ms, stamped %.3f ms\n", c.name().c_str(), resident,
              plain_ms[plain_ms.size() / 2], stamped_ms[stamped_ms.size() / 2]);
}

}  // namespace
}  // namespace gmsv

int main(int argc, char** argv) {
  std::string dir = ".";
  int ctas_per_sm = 2, pad = 8, only = -1;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--out") dir = argv[i + 1];
    if (std::string(argv[i]) == "--ctas-per-sm") ctas_per_sm = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--pad") pad = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--case") only = std::atoi(argv[i + 1]);  // one case: a profiler's launch count
  }
  if (pad != 0 && pad != 8 && pad != 16) {
    std::fprintf(stderr, "gms-cta-times: --pad takes 0, 8 or 16 (the padding records' pads)\n");
    return 2;
  }
  if (ctas_per_sm != 1 && ctas_per_sm != 2) {
    std::fprintf(stderr, "gms-cta-times: --ctas-per-sm takes 1 or 2 (the kernel's registers allow two)\n");
    return 2;
  }
  std::ofstream jsonl(dir + "/cta_times.jsonl");
  using gmsv::GemmCase;
  // The order pairs whose DRAM bytes the model's lockstep gets wrong (row/column-major) beside the
  // grouped orders it gets right, on the two shapes with 4,096 and 16,384 CTAs.
  const GemmCase cases[] = {{8192, 8192, 8192, gmsv::kGrouped, 8}, {8192, 8192, 8192, gmsv::kRowMajor, 1},
                            {8192, 8192, 8192, gmsv::kColumnMajor, 1}, {16384, 16384, 2048, gmsv::kGrouped, 8},
                            {16384, 16384, 2048, gmsv::kRowMajor, 1}};
  for (int i = 0; i < static_cast<int>(sizeof(cases) / sizeof(cases[0])); ++i) {
    const GemmCase& c = cases[i];
    if (only >= 0 && i != only) continue;
    if (pad == 8)
      gmsv::run_case<8>(c, dir, jsonl, ctas_per_sm);
    else if (c.order_kind != gmsv::kRowMajor)  // the padding records: 8192^3 grouped-8 and column-major, 16384x16384x2048 grouped-8
      pad == 0 ? gmsv::run_case<0>(c, dir, jsonl, ctas_per_sm) : gmsv::run_case<16>(c, dir, jsonl, ctas_per_sm);
  }
  return 0;
}
