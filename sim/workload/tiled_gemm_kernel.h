#pragma once
// Seed 002's CuTe-style SIMT GEMM (kind: tiled_gemm): one CTA per BM x BN tile, its threads copying
// A and B tiles GMEM -> SMEM (LDG + STS, or cp.async), then, per K step, reading their rows of A and
// columns of B from shared memory and running FFMAs. Every shared-memory instruction's wavefronts
// come from the access analyser (sim/access, validated lane by lane on silicon), so padding,
// swizzles, thread layouts and vector widths change time through the data path they change.
#include <memory>
#include <vector>

#include "config/gpu_config.h"
#include "config/workload_config.h"
#include "workload/cta_order.h"
#include "workload/program.h"

namespace gms {

class TiledGemmKernel final : public Kernel {
 public:
  // Per warp and K tile: what the data path sees (wavefronts include bank conflicts).
  struct WarpPlan {
    std::uint32_t copy_instructions = 0;       // LDG (or LDGSTS) warp instructions, A + B
    std::uint32_t store_wavefronts = 0, store_conflicts = 0;  // STS (or LDGSTS's shared side), A + B
    std::uint32_t store_wavefronts_a = 0, store_conflicts_a = 0;  // of them, the A tile's
    std::uint32_t read_instructions = 0;       // LDS over the K tile
    std::uint32_t read_wavefronts = 0, read_conflicts = 0;
    std::vector<std::uint32_t> chunk_reads, chunk_wavefronts, chunk_conflicts;  // per compute chunk
  };

  TiledGemmKernel(const TiledGemmConfig& cfg, const GpuConfig& gpu, const std::string& base_dir);

  std::string name() const override { return "tiled_gemm"; }
  LaunchShape shape() const override { return shape_; }
  TileCoord tile_of(std::int64_t launch_index) const override { return order_->tile(launch_index); }
  void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const override;
  void next(WarpCursor& c, Instr& out) const override;
  double compulsory_bytes() const override;
  double flops() const override;

  const WarpPlan& plan(int warp) const { return plans_[static_cast<size_t>(warp)]; }
  std::uint32_t ffma_per_k_tile() const { return ffma_per_chunk_ * static_cast<std::uint32_t>(chunks_); }
  static int estimate_registers(const TiledGemmConfig& cfg);
  // Warp instructions per K tile the data path issues itself: FFMAs, copies, shared reads, barriers.
  std::uint32_t modelled_per_k_tile() const;
  // How nvcc runs a copy loop of `total` iterations unrolled by `unroll`: the total % unroll
  // remainder first (one iteration, then the rest), then groups of `unroll` (SASS of the ladder).
  static std::vector<std::uint32_t> copy_batches(std::uint32_t total, std::uint32_t unroll);

 private:
  enum class Micro : std::uint8_t { kCopyA, kCopyB, kWaitCopy, kStore, kBarrier, kRead, kWaitRead, kMath };
  struct Step {
    Micro op;
    int chunk = 0;  // compute chunk, or copy batch
    bool b = false; // copy steps: operand B (else A)
  };
  Region a_tile(const WarpCursor& c, std::int64_t kt) const;
  Region b_tile(const WarpCursor& c, std::int64_t kt) const;
  Region warp_share(Region whole, int warp) const;
  Region operand_tile(Addr base, std::int64_t extent_total, int extent, bool extent_major, std::int64_t e0,
                      std::int64_t kt, int warp) const;
  void plan_data_path(const GpuConfig& gpu);
  // Writes the instruction of step s for K tile kt; false when the step has nothing to do.
  bool emit(const WarpCursor& c, const Step& s, std::int64_t kt, Instr& out) const;

  TiledGemmConfig cfg_;
  int threads_ = 0, warps_ = 0, tm_ = 0, tn_ = 0, lda_ = 0, ldb_ = 0, chunks_ = 1;
  std::int64_t k_tiles_ = 0;
  Addr a_base_ = 0, b_base_ = 0, c_base_ = 0;
  std::uint32_t ffma_per_chunk_ = 0, other_per_k_tile_ = 0, copy_a_ = 0, copy_b_ = 0;
  IssueHold issue_hold_;  // the issue profile per instruction (issue.*)
  // LDG + STS: per operand, the first copy instruction of each batch, and one past the last.
  std::vector<std::uint32_t> batch_starts_[2];
  std::vector<WarpPlan> plans_;
  std::vector<Step> prologue_, body_;
  LaunchShape shape_;
  std::unique_ptr<CtaOrder> order_;
};

}  // namespace gms
