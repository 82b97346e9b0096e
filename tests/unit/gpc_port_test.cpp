// The GPC level (issue 11): SMs grouped into GPCs of unequal sizes, each GPC's port for read replies
// shared by its SMs. The stamped Triton GEMMs (validate/results/h100/triton_cta_times) run the
// 64x128x32 tiling's CTAs 23-31 % faster on the 24 SMs of the two small GPCs.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "api/simulation.h"
#include "common/error.h"
#include "config/gpu_config.h"
#include "model/gpc_layout.h"
#include "model/memory_system.h"
#include "test_util.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::C;
const char* kH100Gpcs = "gpu.icnt.gpc_sms=12,12,18,18,18,18,18,18";

TEST(GpcLayout, EveryGpcGetsItsSizeAndTpcsStayWhole) {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    const int gpcs = 1 + static_cast<int>(rng() % 12);
    std::vector<int> sizes;
    for (int g = 0; g < gpcs; ++g) sizes.push_back(2 * (1 + static_cast<int>(rng() % 10)));  // whole TPCs
    const int sms = std::accumulate(sizes.begin(), sizes.end(), 0);
    const std::vector<int> of = sm_gpcs(sizes, sms);
    ASSERT_EQ(of.size(), static_cast<size_t>(sms));
    std::vector<int> count(sizes.size(), 0);
    for (int g : of) ++count[static_cast<size_t>(g)];
    EXPECT_EQ(count, sizes) << "round " << round;
    for (int sm = 0; sm + 1 < sms; sm += 2) EXPECT_EQ(of[sm], of[sm + 1]) << "TPC of SM " << sm << ", round " << round;
  }
}

TEST(GpcLayout, ConsecutiveTpcsGoToDifferentGpcsUntilTheSmallOnesAreFull) {
  const std::vector<int> of = sm_gpcs({12, 12, 18, 18, 18, 18, 18, 18}, 132);
  for (int tpc = 0; tpc < 48; ++tpc) EXPECT_EQ(of[2 * tpc], tpc % 8) << "TPC " << tpc;  // six rounds over all 8
  for (int tpc = 48; tpc < 66; ++tpc) EXPECT_EQ(of[2 * tpc], 2 + (tpc - 48) % 6) << "TPC " << tpc;
  // Odd sizes: a TPC splits only where a GPC runs out of room.
  const std::vector<int> odd = sm_gpcs({3, 4}, 7);
  EXPECT_EQ(std::count(odd.begin(), odd.end(), 0), 3);
  EXPECT_EQ(std::count(odd.begin(), odd.end(), 1), 4);
  EXPECT_TRUE(sm_gpcs({}, 132).empty());
}

TEST(GpcConfig, ParsesWhatItPrintsAndRejectsTheRestWithAReason) {
  std::mt19937 rng(11);
  const std::string alphabet = "0123456789, \t-x.e+";
  for (int round = 0; round < 5000; ++round) {
    // Well-formed lists round trip.
    std::vector<int> sizes(1 + rng() % 9);
    std::string text;
    for (int& n : sizes) {
      n = 1 + static_cast<int>(rng() % 40);
      text += (text.empty() ? "" : (rng() % 2 ? "," : ", ")) + std::to_string(n);
    }
    std::string why;
    const auto parsed = parse_gpc_sms(text, &why);
    ASSERT_TRUE(parsed) << text << ": " << why;
    EXPECT_EQ(*parsed, sizes) << text;
    // Arbitrary text: a list of whole numbers of 1 or more, or nullopt with a reason - never a crash.
    std::string junk;
    for (int i = 0, n = static_cast<int>(rng() % 12); i < n; ++i) junk += alphabet[rng() % alphabet.size()];
    why.clear();
    const auto j = parse_gpc_sms(junk, &why);
    if (j) {
      for (int n : *j) EXPECT_GE(n, 1) << junk;
    } else {
      EXPECT_FALSE(why.empty()) << junk;
    }
  }
}

std::string error_of(std::vector<std::string> sets) {
  return test::config_error(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", std::move(sets)});
}

TEST(GpcConfig, RejectsLayoutsThatAreNotTheGpusSms) {
  EXPECT_EQ(error_of({kH100Gpcs, "gpu.icnt.gpc_bytes_per_cycle=600"}), "");
  EXPECT_NE(error_of({"gpu.icnt.gpc_sms=12,12,18"}).find("add up to 42, sm.count is 132"), std::string::npos);
  EXPECT_NE(error_of({"gpu.icnt.gpc_sms=12,x"}).find("'x' is not a number of SMs"), std::string::npos);
  EXPECT_NE(error_of({"gpu.icnt.gpc_sms=0,132"}).find("'0' is not a number of SMs"), std::string::npos);
  EXPECT_NE(error_of({"gpu.icnt.gpc_bytes_per_cycle=600"}).find("needs icnt.gpc_sms"), std::string::npos);
}

// Every SM reads its own 64 KiB of L2-resident data at once; returns, per GPC size, the mean time
// its SMs' reads take.
struct Split {
  double small = 0, large = 0;  // mean end of the SMs in 12- and 18-SM GPCs, cycles
};
Split read_all(const char* port) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                       {kH100Gpcs, std::string("gpu.icnt.gpc_bytes_per_cycle=") + port,
                                        "gpu.l2.coalescer_entries=0"}});
  MemorySystem mem(cfg.gpu.value);
  constexpr Addr kBase = 0x7f0000000000;
  constexpr std::uint32_t kChunk = 64 * 1024;
  const int sms = cfg.gpu.value.sm.count;
  for (int sm = 0; sm < sms; ++sm) mem.load(AccessCtx{sm, 0, nullptr}, Region{kBase + sm * kChunk, 1, kChunk, 0}, true);
  const Tick t = 4'000'000 * C;
  const std::vector<int> gpc = sm_gpcs(cfg.gpu.value);
  // The SMs' reads interleaved, 1 KiB each in turn, so that no SM is served first for being asked first.
  std::vector<Tick> end(static_cast<size_t>(sms), t);
  constexpr std::uint32_t kPiece = 1024;
  for (std::uint32_t off = 0; off < kChunk; off += kPiece)
    for (int sm = 0; sm < sms; ++sm) {
      const Tick back = mem.load(AccessCtx{sm, t, nullptr}, Region{kBase + sm * kChunk + off, 1, kPiece, 0}, true);
      end[static_cast<size_t>(sm)] = std::max(end[static_cast<size_t>(sm)], back);
    }
  Split s;
  for (int sm = 0; sm < sms; ++sm) {
    const bool small = gpc[static_cast<size_t>(sm)] < 2;
    (small ? s.small : s.large) += static_cast<double>(end[static_cast<size_t>(sm)] - t) / C / (small ? 24 : 108);
  }
  return s;
}

TEST(GpcPort, SmsOfAFullGpcShareItsPortAndFallBehindTheSmallGpcs) {
  const Split open = read_all("0");
  const Split tight = read_all("300");
  // No port: every SM reads alike. A port that 18 SMs saturate and 12 do not: the small GPCs' SMs
  // finish well ahead (the split the stamps show), and everyone later than without it.
  EXPECT_NEAR(open.small / open.large, 1.0, 0.05) << open.small << " vs " << open.large;
  EXPECT_LT(tight.small / tight.large, 0.8) << tight.small << " vs " << tight.large;
  EXPECT_GT(tight.large, open.large * 1.2);
}

}  // namespace
}  // namespace gms
