// sm.wgmma_operands_use_shared_path: a wgmma's operands in shared memory take the SM's shared-memory data path,
// first come, first served with the LSU's traffic. gms-sharing-ubench --wgmma on an H200
// (validate/results/h200/sharing_wgmma): beside a warpgroup of HGMMA.64x128x16 (6 KiB of operands each) an
// ldmatrix stream that alone reads 100 bytes a cycle gets 43-61, the two together 122-124 of the path's ~128.
#include <gtest/gtest.h>

#include <string>

#include "model/engine.h"
#include "one_cta_kernel.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

constexpr int kLoadRounds = 40, kLoadsPerBlock = 32;         // ldmatrix.x4, 4 wavefronts each: 5,120 path cycles
constexpr int kWgmmaRounds = 40, kHgmmaPerBlock = 16;        // HGMMA.64x128x16: 262,144 FLOP, 48 wavefronts
constexpr double kHgmmaFlops = 2.0 * 64 * 128 * 16;

// Warps 0-3 (one per sub-partition) repeat a block of 32 ldmatrix.x4 (4 wavefronts each) and a wait on it; warps
// 4-7, a warpgroup, repeat 16 HGMMA.64x128x16 (each warp a quarter of their FLOP and operand wavefronts) and a
// wait for them, or exit at once.
class LoadsBesideWgmma final : public test::OneCtaKernel {
 public:
  explicit LoadsBesideWgmma(bool wgmma, bool loads = true)
      : OneCtaKernel("loads_beside_wgmma", 8), wgmma_(wgmma), loads_(loads) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    const bool mine = c.warp >= 4 ? wgmma_ : loads_;
    if (test::rounds_of_block_and_wait(step, mine ? (c.warp >= 4 ? kWgmmaRounds : kLoadRounds) : 0, 1, out)) return;
    if (c.warp >= 4) {
      out.op = Op::kCompute;
      out.pipe = Pipe::kTensor;
      out.async_mma = true;
      out.issue_cycles = kHgmmaPerBlock;
      out.flops = kHgmmaPerBlock * kHgmmaFlops / 4;
      out.wavefronts = kHgmmaPerBlock * 48 / 4;
      return;
    }
    test::ldmatrix_block(kLoadsPerBlock, 1, out);
  }

 private:
  bool wgmma_, loads_;
};

SimResult run(bool wgmma, bool on_path, bool loads = true) {
  return test::run_on_h100(LoadsBesideWgmma(wgmma, loads),
                           {std::string("gpu.sm.wgmma_operands_use_shared_path=") + (on_path ? "true" : "false")});
}

TEST(Engine, WgmmaOperandsShareTheSharedPathWithLdmatrix) {
  // The loads' wait on their data (short_scoreboard), per ldmatrix.
  const auto wait = [](const SimResult& r) {
    return static_cast<double>(r.stalls.total(WarpState::kShortScoreboard)) / kCycle / (4.0 * kLoadRounds * kLoadsPerBlock);
  };
  const double alone = wait(run(false, true));
  // Off, the operands cost the path nothing: the loads wait beside the wgmma as long as alone.
  EXPECT_DOUBLE_EQ(wait(run(true, false)), alone);
  // On, they pass in turn with the operands (silicon: 20.4 -> 33.6 cycles an ldmatrix beside HGMMA.64x128x16).
  EXPECT_GT(wait(run(true, true)), 1.3 * alone);
}

TEST(Engine, AWgmmaIsDoneNoSoonerThanItsOperandsPassTheSharedPath) {
  // Alone, 40 x 16 HGMMA.64x128x16 take the tensor pipe 40 x 16 x 64 = 40,960 cycles and the path 40 x 16 x 48 =
  // 30,720: the pipe binds, whether the operands are on the path or not.
  const double pipe_only = static_cast<double>(run(true, false, false).end) / kCycle;
  const double with_path = static_cast<double>(run(true, true, false).end) / kCycle;
  EXPECT_NEAR(with_path, pipe_only, 0.02 * pipe_only);
  // Beside the loads (5,120 path cycles), the path carries both: the wgmma's last group is done no sooner than
  // 30,720 + 5,120 cycles of the path allow - and later than with its operands off the path.
  const double shared = static_cast<double>(run(true, true, true).end) / kCycle;
  EXPECT_GE(shared, 30720.0 + 5120.0);
  EXPECT_GT(shared, static_cast<double>(run(true, false, true).end) / kCycle);
}

}  // namespace
}  // namespace gms
