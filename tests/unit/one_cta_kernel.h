#pragma once
// A hand-written kernel of one CTA for engine tests: the shape, tile and cursor start are the same
// for every such test; a subclass writes only the warps' instructions (next()).
#include <string>
#include <utility>
#include <vector>

#include "api/simulation.h"
#include "model/engine.h"
#include "test_util.h"
#include "workload/program.h"

namespace gms::test {

class OneCtaKernel : public Kernel {
 public:
  OneCtaKernel(std::string name, int warps) : name_(std::move(name)), warps_(warps) {}
  std::string name() const override { return name_; }
  LaunchShape shape() const override {
    LaunchShape s;
    s.ctas = s.grid_ctas = 1;
    s.warps_per_cta = warps_;
    s.registers_per_thread = 32;
    s.tiles_m = s.tiles_n = 1;
    return s;
  }
  TileCoord tile_of(std::int64_t) const override { return {}; }
  void start_warp(WarpCursor& c, std::int64_t, int warp) const override {
    c = WarpCursor{};
    c.warp = warp;
  }
  double compulsory_bytes() const override { return 0; }
  double flops() const override { return 0; }

 private:
  std::string name_;
  int warps_;
};

// The usual end of a test warp's program: at step `n` a wait on `slot`, after it the exit. False for
// the steps before `n`, which are the caller's.
inline bool wait_then_exit(int step, int n, int slot, Instr& out) {
  if (step < n) return false;
  out.op = step == n ? Op::kWait : Op::kExit;
  if (step == n) out.slot = static_cast<std::uint8_t>(slot);
  return true;
}

// Rounds of a block and a wait on `slot` for it, then the exit: false at an even step before the end, where the
// caller writes the block; the wait (odd steps) and the exit (from step 2 x rounds) are written here.
inline bool rounds_of_block_and_wait(int step, int rounds, int slot, Instr& out) {
  if (step >= 2 * rounds) {
    out.op = Op::kExit;
    return true;
  }
  out.slot = static_cast<std::uint8_t>(slot);
  if (step % 2 == 0) return false;
  out.op = Op::kWait;
  return true;
}
// An ldmatrix.x4 block of `n` conflict-free loads (4 wavefronts each) into scoreboard slot `slot`.
inline void ldmatrix_block(std::uint32_t n, int slot, Instr& out) {
  out.op = Op::kSharedLoad;
  out.ldmatrix = true;
  out.slot = static_cast<std::uint8_t>(slot);
  out.issue_cycles = n;
  out.wavefronts = 4 * n;
}

// One cp.async past L1 (LDGSTS.BYPASS) of `r` into scoreboard slot `slot`: one instruction of 4 store
// wavefronts, as the tests' copies are.
inline void copy_past_l1(const Region& r, int slot, Instr& out) {
  out.op = Op::kLoad;
  out.async_copy = true;
  out.bypass_l1 = true;
  out.region = r;
  out.wavefronts = 4;
  out.issue_cycles = 1;
  out.slot = static_cast<std::uint8_t>(slot);
}

// 50 copies of one block (a compiled loop's profiled ALU instructions: its issue cycles, floor, fetch, port and
// dispatch ticks), then the exit, for each of `warps` warps.
class RepeatedBlock final : public OneCtaKernel {
 public:
  RepeatedBlock(std::string name, int warps, const Instr& block) : OneCtaKernel(std::move(name), warps), block_(block) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = block_;
    if (c.step++ >= 50) out = Instr{};  // Op::kExit
  }

 private:
  Instr block_;
};
// A block of `n` ALU instructions (issue.*: no memory, no modelled pipe) whose floor holds its warp `floor_cycles`.
inline Instr alu_block(std::uint32_t n, std::uint64_t floor_cycles) {
  Instr b;
  b.op = Op::kCompute;
  b.pipe = Pipe::kAlu;
  b.issue_cycles = n;
  b.hold_ticks = static_cast<std::uint32_t>(cycles_to_ticks(floor_cycles));
  return b;
}

// Runs `k` on the H100 preset with `gpu_sets` ("gpu.key=value") applied.
inline SimResult run_on_h100(const Kernel& k, std::vector<std::string> gpu_sets) {
  auto cfg = load_configs(ConfigInputs{source_path("configs/gpus/h100.yaml"),
                                       source_path("configs/workloads/gemm-8192-grouped8.yaml"), std::move(gpu_sets)});
  return Engine(cfg.gpu.value, k).run();
}

}  // namespace gms::test
