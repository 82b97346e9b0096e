// The DRAM's share by GPC (issue 11, gms-gpc-ubench contention): once 512 lines per SM are in flight
// and the DRAM's queue is deep, the SMs of the two 12-SM GPCs get 16-17 % more of it than those of
// the 18-SM GPCs on an H100 (6-8 % on an H200), whatever the backlog beyond that; below it nobody is
// ahead. Modelled as dram.gpc_share_backlog / dram.gpc_share_ratio (sim/model/gpc_share.h).
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "config/gpu_config.h"
#include "model/gpc_layout.h"
#include "model/gpc_share.h"
#include "model/memory_system.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;

TEST(GpcShare, WaitScalesFollowTheGpcSizes) {
  const std::vector<int> h100 = {12, 12, 18, 18, 18, 18, 18, 18};
  const std::vector<int> gpc = sm_gpcs(h100, 132);
  const std::vector<double> s = gpc_wait_scales(h100, 132, 1.24);
  ASSERT_EQ(s.size(), 132u);
  for (size_t sm = 0; sm < s.size(); ++sm)
    EXPECT_NEAR(s[sm], h100[static_cast<size_t>(gpc[sm])] == 12 ? 1 / 1.24 : 1.0, 1e-12) << "SM " << sm;
  // A GPC between the two sizes lies between their factors; equal GPCs, or a ratio of 1, move nobody.
  const std::vector<double> three = gpc_wait_scales({12, 15, 18}, 45, 1.5);
  const std::vector<int> g3 = sm_gpcs({12, 15, 18}, 45);
  for (size_t sm = 0; sm < three.size(); ++sm) {
    if (g3[sm] == 1) {
      EXPECT_TRUE(three[sm] > 1 / 1.5 && three[sm] < 1.0) << three[sm];
    }
  }
  for (double v : gpc_wait_scales({18, 18}, 36, 1.5)) EXPECT_EQ(v, 1.0);
  for (double v : gpc_wait_scales(h100, 132, 1.0)) EXPECT_EQ(v, 1.0);
  EXPECT_TRUE(gpc_wait_scales({}, 132, 1.24).empty());
}

// Every SM asks for `bytes` of its own lines from DRAM at once; returns the mean time the SMs of the
// 12- and of the 18-SM GPCs wait for their last line, and the DRAM bytes read.
struct Ends {
  double small = 0, large = 0;
  std::uint64_t dram = 0;
};
Ends burst(std::uint32_t bytes, std::vector<std::string> sets, bool small_gpcs_read = true) {
  sets.push_back("gpu.icnt.gpc_sms=12,12,18,18,18,18,18,18");
  sets.push_back("gpu.launch.sm_order=");  // the GPC layout over SM ids, whatever order the preset dispatches in
  sets.push_back("gpu.l2.coalescer_entries=0");
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", sets});
  MemorySystem mem(cfg.gpu.value);
  constexpr Addr kBase = 0x7f0000000000;
  const int sms = cfg.gpu.value.sm.count;
  const std::vector<int> gpc = sm_gpcs(cfg.gpu.value);
  std::vector<Tick> end(static_cast<size_t>(sms), 0);
  constexpr std::uint32_t kPiece = 4096;  // in turns, so that no SM is served first for being asked first
  for (std::uint32_t off = 0; off < bytes; off += kPiece)
    for (int sm = 0; sm < sms; ++sm) {
      if (!small_gpcs_read && gpc[static_cast<size_t>(sm)] < 2) continue;
      const Tick back = mem.load(AccessCtx{sm, 0, nullptr}, Region{kBase + sm * Addr{bytes} + off, 1, kPiece, 0}, true);
      end[static_cast<size_t>(sm)] = std::max(end[static_cast<size_t>(sm)], back);
    }
  Ends e;
  for (int sm = 0; sm < sms; ++sm) {
    const bool small = gpc[static_cast<size_t>(sm)] < 2;
    (small ? e.small : e.large) += static_cast<double>(end[static_cast<size_t>(sm)]) / C / (small ? 24 : 108);
  }
  e.dram = mem.dram().bytes_read();
  return e;
}

TEST(GpcShare, SmallGpcsSeeTheirDataSoonerOnlyPastTheBacklog) {
  const std::vector<std::string> share = {"gpu.dram.gpc_share_backlog=5MiB", "gpu.dram.gpc_share_ratio=1.24"};
  // 132 x 256 KiB asked at once: 33 MiB, far past a 5 MiB backlog.
  const Ends fcfs = burst(256 * 1024, {}), shared = burst(256 * 1024, share);
  EXPECT_NEAR(fcfs.small / fcfs.large, 1.0, 0.01) << fcfs.small << " vs " << fcfs.large;
  EXPECT_LT(shared.small / shared.large, 0.9) << shared.small << " vs " << shared.large;
  // A share: what the small GPCs' SMs gain, the others pay; the SMs' mean wait stays within 2 %.
  EXPECT_GT(shared.large, fcfs.large);
  const double mean = (24 * shared.small + 108 * shared.large) / 132, fcfs_mean = (24 * fcfs.small + 108 * fcfs.large) / 132;
  EXPECT_NEAR(mean, fcfs_mean, 0.02 * fcfs_mean);
  EXPECT_EQ(shared.dram, fcfs.dram);  // and no more data
  // The largest GPCs' SMs alone: nobody to share with, nobody moved.
  const Ends alone = burst(256 * 1024, share, false), alone_fcfs = burst(256 * 1024, {}, false);
  EXPECT_NEAR(alone.large, alone_fcfs.large, alone_fcfs.large * 1e-9);
  // 132 x 16 KiB (2.1 MiB): the queue never reaches the backlog; nobody is ahead.
  const Ends light = burst(16 * 1024, share), light_fcfs = burst(16 * 1024, {});
  EXPECT_EQ(light.small, light_fcfs.small);
  EXPECT_EQ(light.large, light_fcfs.large);
}

TEST(GpcShare, TheBacklogNeedsTheGpcLayout) {
  const auto error_of = [](std::vector<std::string> sets) {
    return test::config_error(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", std::move(sets)});
  };
  EXPECT_NE(error_of({"gpu.dram.gpc_share_backlog=5MiB"}).find("needs icnt.gpc_sms"), std::string::npos);
  EXPECT_EQ(error_of({"gpu.dram.gpc_share_backlog=5MiB", "gpu.icnt.gpc_sms=12,12,18,18,18,18,18,18"}), "");
  EXPECT_NE(error_of({"gpu.dram.gpc_share_ratio=0.5"}).find("dram.gpc_share_ratio"), std::string::npos);
}

}  // namespace
}  // namespace gms
