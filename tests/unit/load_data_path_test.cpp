// sm.load_data_bytes_per_cycle: a global load's data passes the SM's shared-memory data path on its way into the
// registers, one cycle a 128 bytes, beside the shared instructions (gms-fill-ubench --loads,
// validate/results/h200/load_fill: an LDG.128 takes 4.0 cycles of ldmatrix readers' path, from L1, L2 or DRAM).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/simulation.h"
#include "model/engine.h"
#include "one_cta_kernel.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

// The microbenchmark in miniature: warp 0 keeps the path busy with 2,000 shared loads of 32 wavefronts (64,000
// cycles); warp 1 issues 64 loads of 512 bytes (LDG.128), one after the other, each waited for - all done long
// before the readers are (their loads enter as they issue: in the MIO queue each would wait behind the readers' booked
// path, and the loader would end last).
class LoadsBesideReaders final : public test::OneCtaKernel {
 public:
  static constexpr int kReads = 2000, kLoads = 64;
  LoadsBesideReaders() : OneCtaKernel("loads_beside_readers", 2) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (c.warp == 0) {
      if (test::wait_then_exit(step, kReads, 1, out)) return;
      out.op = Op::kSharedLoad;
      out.wavefronts = 32;
      out.conflicts = 31;
      out.issue_cycles = 1;
      out.slot = 1;
      return;
    }
    if (step >= 2 * kLoads) {
      out.op = Op::kExit;
      return;
    }
    out.slot = 2;
    if (step % 2 == 1) {
      out.op = Op::kWait;
      return;
    }
    out.op = Op::kLoad;
    out.bypass_l1 = true;
    out.issue_cycles = 1;
    out.region = Region{0x7f0000000000ull + static_cast<Addr>(step / 2) * 512, 4, 128, 128, -1, 0};
  }
  double compulsory_bytes() const override { return 512.0 * kLoads; }
  double flops() const override { return 0; }
};

double end_cycles(const char* rate) {
  return static_cast<double>(ticks_to_cycles(
      test::run_on_h100(LoadsBesideReaders(), {std::string("gpu.sm.load_data_bytes_per_cycle=") + rate,
                                               "gpu.sm.loads_wait_in_mio_queue=false",
                                               "gpu.dram.latency_spread="}).end));  // the path's cycles alone
}

TEST(LoadDataPath, AGlobalLoadsDataTakesThePathsCyclesAtItsRate) {
  const double none = end_cycles("0"), at128 = end_cycles("128"), at64 = end_cycles("64");
  EXPECT_GT(none, 64000);  // the readers' path work bounds the kernel
  EXPECT_NEAR(at128 - none, 4.0 * LoadsBesideReaders::kLoads, 0.1 * 4.0 * LoadsBesideReaders::kLoads);
  EXPECT_NEAR(at64 - none, 8.0 * LoadsBesideReaders::kLoads, 0.1 * 8.0 * LoadsBesideReaders::kLoads);
}

}  // namespace
}  // namespace gms
