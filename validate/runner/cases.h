#pragma once
// The measured cases, in named sets, and each case's workload in the simulator's own schema so that
// `gpumemsim run --record FILE` replays exactly what was measured. Host-only (tested in CI).
#include <string>
#include <vector>

namespace gmsv {

struct GemmCase {
  int m, n, k;
  int order_kind;  // OrderKind
  int group_m;
  int pad = 8;  // halves of padding per shared row (gemm_kernel.cuh's PAD; 8 unless a set varies it)
  std::string name() const;
  // Tile 128x128x32, 4 warps, 3 stages, as the kernel runs; `registers` as the compiler allocated.
  std::string workload_json(int registers) const;
};

struct GemvCase {
  int k, n;
  int bn, bk, warps;
  int order;  // GemvOrder
  std::string name() const;
  std::string workload_json(int registers) const;
};

// Sets: "gemm", "gemm_pad" (shared-row padding 0/8/16 on three cases), "gemv", "smoke" (tiny, for a quick correctness pass); unknown names throw.
std::vector<GemmCase> gemm_cases(const std::string& set);
std::vector<GemvCase> gemv_cases(const std::string& set);

}  // namespace gmsv
