// sm.ldmatrix_one_at_a_time_beside_mma: while another warp's mma.sync is in its sub-partition's tensor pipe, a
// warp's ldmatrix pass one at a time, each when the last one's data is back. gms-sharing-ubench --ldsm on an H200
// (validate/results/h200/sharing_ldsm): 32 independent ldmatrix.x4 of 4 wavefronts take 20.4 cycles each alone and
// 36.6 / 39.0 beside a neighbour's dependent / saturating HMMAs, a dependent chain's hop 34.7 -> 37.0 / 39.5.
#include <gtest/gtest.h>

#include <string>

#include "model/engine.h"
#include "one_cta_kernel.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

constexpr int kRounds = 10;

// Warps 0-3 (one per sub-partition) repeat a block of `per_block` independent ldmatrix.x4 of 4 wavefronts and a
// wait for them, kLoads in all; warps 4-7 (on the same sub-partitions) issue blocks of 4,096 HMMAs that
// keep the tensor pipe busy past them (mma.sync, or wgmma: asynchronous), or exit at once.
enum class Neighbour { kNone, kMmaSync, kWgmma };
class LdsmBesideMma final : public test::OneCtaKernel {
 public:
  LdsmBesideMma(int per_block, Neighbour n) : OneCtaKernel("ldsm_beside_mma", 8), per_block_(per_block), mma_(n) {}
  static constexpr int kLoads = 32 * kRounds;
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (c.warp >= 4) {
      if (mma_ == Neighbour::kNone || step >= 4) {  // 16,384 HMMAs: ~100,000 cycles of the pipe, past the loads
        out.op = Op::kExit;
        return;
      }
      out.op = Op::kCompute;
      out.pipe = Pipe::kTensor;
      out.flops = 4096 * 4096.0;
      out.issue_cycles = 4096;
      out.async_mma = mma_ == Neighbour::kWgmma;
      out.slot = 2;
      return;
    }
    if (!test::rounds_of_block_and_wait(step, kLoads / per_block_, 1, out))
      test::ldmatrix_block(static_cast<std::uint32_t>(per_block_), 1, out);
  }

 private:
  int per_block_;
  Neighbour mma_;
};

// The load warps' wait on their ldmatrix (short_scoreboard), per ldmatrix, in cycles.
double wait_per_ldmatrix(int per_block, Neighbour with_mma, bool rule) {
  const SimResult r =
      test::run_on_h100(LdsmBesideMma(per_block, with_mma),
                        {std::string("gpu.sm.ldmatrix_one_at_a_time_beside_mma=") + (rule ? "true" : "false")});
  return static_cast<double>(r.stalls.total(WarpState::kShortScoreboard)) / kCycle / (4.0 * LdsmBesideMma::kLoads);
}

TEST(Engine, IndependentLdmatrixPassOneAtATimeBesideAnotherWarpsMmas) {
  // Beside the HMMAs, 32 independent ldmatrix wait about one latency each (silicon: 36.6-39.0 cycles a load in all).
  const double serial = wait_per_ldmatrix(32, Neighbour::kMmaSync, true);
  EXPECT_GT(serial, 25.0);
  EXPECT_LT(serial, 45.0);
  // Without the rule they pass at the path's rate (four sub-partitions x 4 wavefronts: ~16 cycles a load).
  const double free = wait_per_ldmatrix(32, Neighbour::kMmaSync, false);
  EXPECT_LT(free, 0.6 * serial);
  // Alone (no MMAs) the rule changes nothing.
  EXPECT_DOUBLE_EQ(wait_per_ldmatrix(32, Neighbour::kNone, true), wait_per_ldmatrix(32, Neighbour::kNone, false));
  // Nor beside wgmma (gms-sharing-ubench --wgmma: there a chain's hop grows by half an HGMMA's operand read, the path
  // shared with its operands - sm.wgmma_operands_use_shared_path, tests/unit/wgmma_shared_path_test.cpp).
  EXPECT_DOUBLE_EQ(wait_per_ldmatrix(32, Neighbour::kWgmma, true), wait_per_ldmatrix(32, Neighbour::kWgmma, false));
}

TEST(Engine, AnLdmatrixChainKeepsItsLatencyBesideAnotherWarpsMmas) {
  // One ldmatrix at a time already: the rule adds nothing (silicon: a chain's hop 34.7 -> 37.0-39.5 cycles,
  // what the dispatch hold gives).
  EXPECT_DOUBLE_EQ(wait_per_ldmatrix(1, Neighbour::kMmaSync, true), wait_per_ldmatrix(1, Neighbour::kMmaSync, false));
}

}  // namespace
}  // namespace gms
