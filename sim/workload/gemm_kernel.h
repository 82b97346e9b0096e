#pragma once
// Tiled GEMM C[MxN] = A[MxK] . B[KxN] as Triton/CUTLASS-style kernels run it: one CTA per output
// tile, `stages` K tiles in flight, each warp loading its share of the A and B tiles and running
// its share of the tile's MMAs.
#include <memory>

#include "config/gpu_config.h"
#include "config/workload_config.h"
#include "workload/cta_order.h"
#include "workload/gemm_epilogue.h"
#include "workload/gemm_spill.h"
#include "workload/mma_data_path.h"
#include "workload/order_pattern.h"
#include "workload/program.h"

namespace gms {

// fp16/bf16/fp8 always run on tensor cores; fp32 does where the GPU has a TF32 rate.
bool gemm_uses_tensor_cores(const GemmConfig& cfg, const GpuConfig& gpu);

class GemmKernel final : public Kernel {
 public:
  GemmKernel(const GemmConfig& cfg, const GpuConfig& gpu, const std::string& base_dir);

  std::string name() const override { return "gemm"; }
  LaunchShape shape() const override { return shape_; }
  TileCoord tile_of(std::int64_t launch_index) const override { return order_->tile(launch_index); }
  void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const override;
  void next(WarpCursor& c, Instr& out) const override;
  double compulsory_bytes() const override;
  double flops() const override;

  // Registers per thread the estimate gives for a tile (accumulators + operands + addressing).
  static int estimate_registers(const GemmConfig& cfg);
  // The same without the hardware's cap: above the GPU's maximum the compiler spills (gemm_spill.h).
  static int registers_needed(const GemmConfig& cfg);

 private:
  Region a_tile(const WarpCursor& c, std::int64_t kt) const;  // the whole CTA's tile
  Region b_tile(const WarpCursor& c, std::int64_t kt) const;
  Region a_region(const WarpCursor& c, std::int64_t kt) const;  // the warp's share
  Region b_region(const WarpCursor& c, std::int64_t kt) const;
  Region copy_region(const WarpCursor& c, bool a, std::int64_t kt, int slot) const;
  Region c_region(const WarpCursor& c) const;
  Region warp_share(Region whole, int warp) const;
  Instr load(const Region& r, int slot) const;

  GemmConfig cfg_;
  int warp_size_;
  int ea_, ec_;  // element bytes of A/B and of C
  GemmEpilogue epilogue_;
  std::int64_t k_tiles_;
  Addr a_base_, b_base_, c_base_;
  Pipe pipe_;
  double warp_flops_;
  LaunchShape shape_;
  std::unique_ptr<CtaOrder> order_;
  std::vector<OrderToken> body_;  // empty: the "auto" pipeline
  int body_steps_ = 1;
  void next_patterned(WarpCursor& c, Instr& out) const;
  // The tensor-core data path (mma: mma_sync | wgmma): one K tile's steps, see gemm_kernel.cpp.
  // Spilled (gemm_spill.h), before MMA group g = k_step: kSpillStore stores frame chunk g - 1 (what
  // the group displaces), kSpillLoad reloads chunk g, kWaitSpill waits for it; the group's kMma is
  // then followed by kWaitMmaNow (its own completion: the registers are stored next).
  enum class Micro : std::uint8_t { kWaitCopy, kBarrier, kCopyA, kCopyB, kRead, kWaitRead, kMma, kWaitMma, kSpillStore,
                                    kSpillLoad, kWaitSpill, kWaitMmaNow, kIntegerRun };
  struct Step {
    Micro op;
    int k_step = 0;  // kRead / kWaitRead / kMma (mma_sync): the 32-byte K step; spilled wgmma: the MMA group
  };
  bool spill_step(const WarpCursor& c, const Step& s, std::int64_t kt, Instr& out) const;
  // A store or reload of `bytes` per thread at `offset` of the warp's spill frame.
  Instr frame_access(const WarpCursor& c, std::int64_t offset, std::int64_t bytes, bool store) const;
  GemmSpillPlan spill_;
  int mma_parts_ = 1;  // wgmma steps a K tile's MMAs are issued in: the spilled loop's groups, else 1
  Addr local_base_ = 0;
  void next_data_path(WarpCursor& c, Instr& out) const;
  bool emit(const WarpCursor& c, const Step& s, std::int64_t kt, Instr& out) const;
  Instr copy(const Region& r, std::uint32_t instructions, std::uint32_t wavefronts, int slot) const;
  bool tile_copy(const WarpCursor& c, bool a, std::int64_t kt, int slot, Instr& out) const;
  bool data_path_ = false;  // mma_sync or wgmma (plan_.wgmma says which)
  MmaPlan plan_;
  std::vector<Step> tile_steps_;
  // The loop's issue profile (workload issue.*): other instructions per MMA step, and the ticks
  // each instruction holds its warp (0 = off); `fetch_cycles` per instruction past the instruction cache.
  void plan_issue(const std::vector<Step>& steps, double shared_latency_cycles, double special_latency_cycles,
                  double mma_interval_cycles, double fetch_cycles);
  std::vector<std::uint32_t> other_per_mma_;
  std::uint32_t integer_run_ = 0;  // mma.sync: the loop's other instructions, one block per K tile
  IssueHold issue_hold_;  // the issue profile per instruction (issue.*)
  IssueHold mma_hold_;    // mma.sync with its integer run: the MMA blocks' (their pacing is the pipe's; floor 0 = unused)
};

}  // namespace gms
