#pragma once
// Split-K GEMV as gemlite's revsplitK runs it (seed 001): grid (N / BLOCK_N, K / (k_steps x BLOCK_K)),
// launched x-fastest; each program loads x and its BLOCK_K x BLOCK_N slice of W for each of k_steps
// steps, computes in the configured order, reduces across warps through shared memory (a barrier)
// and sends BLOCK_N reduction atomics to L2.
// Warp w of W takes W-tile rows w, w+W, ... of each step at full BLOCK_N width; every warp reads the
// step's x chunk (the other warps hit it in L1). Registers not held by the hardware spill (or an
// explicit spill frame, spread over the steps): a store to local memory after the step's loads and a
// load back before its compute - or, given the compiled body (workload local_program), every
// load, STL and LDL in its SASS order (gemv_program.cpp). The cross-warp reduction's shared-memory wavefronts (a compiler
// property: Triton's tl.sum costs 10x a hand-written tree) run on the SM's shared pipe around the
// barrier.
#include <vector>

#include "config/gpu_config.h"
#include "config/workload_config.h"
#include "workload/local_program.h"
#include "workload/order_pattern.h"
#include "workload/program.h"

namespace gms {

class GemvKernel final : public Kernel {
 public:
  GemvKernel(const GemvConfig& cfg, const GpuConfig& gpu);

  std::string name() const override { return "gemv"; }
  LaunchShape shape() const override { return shape_; }
  TileCoord tile_of(std::int64_t launch_index) const override;
  void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const override;
  void next(WarpCursor& c, Instr& out) const override;
  double compulsory_bytes() const override;
  double flops() const override { return 2.0 * cfg_.m * cfg_.n * cfg_.k; }

  // Registers per thread the order needs: W vectors and x values of the steps it keeps live at
  // once, the accumulators, and a fixed share for addresses and indices.
  static int estimate_registers(const GemvConfig& cfg, int warp_size, int live_steps);

  // The reduction's shared instructions per warp and the wavefronts each half spreads over them
  // (those beyond its shuffles', one each), and its shuffles in dependent levels.
  struct ReductionShape {
    std::int64_t stores = 0, loads = 0, store_wavefronts = 0, load_wavefronts = 0;
    std::int64_t shuffles = 0, shuffle_levels = 0;
  };

 private:
  // Per-warp program state: `phase` walks the order tokens (and the spill steps around them), then
  // the epilogue.
  enum Phase : int { kBody = 0, kSmemStore = 1, kSync = 2, kSmemLoad = 3, kReduce = 4, kExitPhase = 5, kWindowFill = 6,
                     kWindow = 7, kOther = 8, kProgram = 9, kShuffle = 10, kStart = 11 };
  // Scoreboard slot of the reduction's shared loads (the steps use 0 .. k_steps-1 <= 15; a compiled
  // window 0 .. loads_in_flight-1 <= 15), and of the x loads in a compiled window.
  static constexpr int kReduceSlot = 16;
  static constexpr int kWindowXSlot = 17;
  int reduction_round_start() const;  // the phase a reduction round starts in
  static EvictHint hint_of(const std::string& workload_value);  // evict.activations / evict.weights
  Instr load(Addr base, std::uint32_t rows, std::uint32_t row_bytes, std::uint64_t stride, int slot, bool bypass,
             EvictHint hint) const;
  // A compiled window (cfg.loads_in_flight > 0): this warp's W rows of K step `step`, the loads
  // ("units": the rows one 16-byte vector per lane covers) they take, and the next instruction of
  // the window's stream (false: the phase moved on, nothing emitted).
  std::int64_t window_rows(const WarpCursor& c, int step) const;
  std::int64_t window_units(const WarpCursor& c, int step) const;
  bool window_next(WarpCursor& c, Instr& out) const;
  // A compiled body (cfg.local_program): the next instruction of its steps (false: the body is done,
  // the epilogue begins, nothing emitted). gemv_program.cpp.
  bool program_next(WarpCursor& c, Instr& out) const;
  // Where the warp's v-th 16-byte-a-lane W load of the body (step-major, as the SASS issues them) falls: its K step
  // (from k0), its first row and rows in the step (rows <= 0: past the matrix' edge), its bytes of the row from lo.
  struct ProgramLoad {
    int step = 0;
    std::int64_t k0 = 0, first = 0, rows = 0, lo = 0, bytes = 0;
  };
  ProgramLoad program_load_at(const WarpCursor& c, std::int64_t v) const;
  // The start S2Rs the warp issues itself, taken out of the program's instructions before its first load.
  void take_start_reads_out_of_program(std::int64_t start_reads);
  // That W load, and (Triton loads x one W load at a time) the x elements of its rows.
  Instr program_w_load(const WarpCursor& c, std::int64_t v) const;
  Instr program_x_load(const WarpCursor& c, std::int64_t v) const;
  // The next instruction, before next() counts it.
  void next_instruction(WarpCursor& c, Instr& out) const;
  // After the body: the compiled code's other instructions (instructions_per_warp), then the
  // in-CTA reduction's rounds.
  void begin_epilogue(WarpCursor& c) const;
  // The next instruction of a reduction round; false when the phase moved on and nothing was emitted.
  bool reduction_next(WarpCursor& c, Instr& out) const;
  // A reduction round's shuffle levels, first in it: a block of shuffles, then a wait for it, per level.
  bool shuffle_next(WarpCursor& c, Instr& out) const;
  ReductionShape reduction_shape() const;  // from the workload, once (reduction_)
  // Warp instructions of the atomics for lane element e of a row of `cols` outputs (0: none).
  std::uint32_t reduce_instructions(std::int64_t cols, std::int64_t e) const;
  // Instructions the epilogue issues from the reduction on (stores, barriers, loads, atomics, EXIT).
  std::int64_t epilogue_instructions(const WarpCursor& c) const;

  GemvConfig cfg_;
  int warp_size_;
  ReductionShape reduction_;  // every warp's reduction, the same
  int e_, ey_;  // element bytes of x/W and of y
  std::int64_t grid_n_, grid_k_;
  Addr x_base_, w_base_, y_base_, local_base_;
  std::vector<OrderToken> order_;
  int spill_bytes_per_thread_ = 0;                              // frame per K step
  int spill_stored_per_step_ = 0, spill_loaded_per_step_ = 0;  // local traffic per K step and thread
  // A compiled window in the program's units: a unit is `rows_per_unit_` of the warp's W rows (one
  // 16-byte vector per lane: 2 rows of BLOCK_N 128 fp16), and `window_units_` of them are in flight
  // (loads_in_flight vectors; a row of BLOCK_N 512 takes 2 of them).
  int rows_per_unit_ = 1;
  int window_units_ = 0;
  // A compiled body: its steps, the W and x loads before each step, and the frame a warp addresses.
  LocalProgram program_;
  std::vector<std::int64_t> program_w_before_, program_x_before_;
  std::uint64_t frame_warp_bytes_ = 0;
  LaunchShape shape_;
};

}  // namespace gms
