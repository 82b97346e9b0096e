#include "workload/loop_estimate.h"

#include <cmath>

#include "workload/mma_data_path.h"

namespace gms {
namespace {

// Per warp and K tile, from the SASS of Triton 3.6 cp.async wgmma loops (`gpumemsim issue`; the H100's executed
// counts at 64x128x32 w4, 128x128x64 w4, 128x256x64 w8 - validate/results/h100/issue - and the H200's listings of
// 128x256x32 w8 and 128x256x64 w8, validate/results/h200/triton_stages): 83 / 131 / 113 / 85 / 113 instructions and
// 129 / 238 / 217 / 174 / 217 stall cycles at 6 / 16 / 12 / 6 / 12 LDGSTS a thread. Each 16-byte copy brings its
// address, bounds predicate and offset arithmetic; the rest is the loop's fixed part. Least squares over the four
// tilings (128x256x64 w8's two listings give the same profile); left out one tiling at a time, the instructions come
// within 2 and the stall cycles within 10-35 %.
constexpr double kFixedInstructions = 55.8, kInstructionsPerCopy = 4.72;
constexpr double kFixedStallCycles = 99.2, kStallCyclesPerCopy = 9.03;
constexpr int kLdgstsBytes = 16, kLanes = 32;

}  // namespace

std::optional<LoopIssueEstimate> estimated_triton_loop_issue(const GemmConfig& cfg) {
  if (resolved_gemm_mma(cfg) != "wgmma" || (cfg.copy != "auto" && cfg.copy != "cp_async") || cfg.warps <= 0)
    return std::nullopt;
  const double tile_bytes = static_cast<double>(cfg.tile.m + cfg.tile.n) * cfg.tile.k * dtype_bytes(cfg.dtype);
  const double copies = std::ceil(tile_bytes / (static_cast<double>(cfg.warps) * kLanes * kLdgstsBytes));
  return LoopIssueEstimate{static_cast<int>(std::lround(kFixedInstructions + kInstructionsPerCopy * copies)),
                           static_cast<int>(std::lround(kFixedStallCycles + kStallCyclesPerCopy * copies))};
}

}  // namespace gms
