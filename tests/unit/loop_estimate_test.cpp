// workload/loop_estimate.h: what a compiled Triton wgmma loop issues beyond the model's data path, estimated
// for recommend's candidates, against the profiles the records read from their own SASS.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"
#include "workload/loop_estimate.h"

namespace gms {
namespace {

// recommend's estimate of a compiled Triton loop's own instructions (workload/loop_estimate.h) against the profiles
// `gpumemsim issue` reads from the SASS of every cp.async wgmma tiling the records carry: the instruction count
// within 3, the stall cycles within 25 % (the fit's residuals; left out one at a time, within 2 and 10-35 %).
TEST(LoopEstimate, FollowsTheCompiledLoopsOfEveryRecordedTiling) {
  std::map<std::string, std::pair<int, int>> seen;  // tiling -> the records' profile
  for (const char* dir : {"validate/results/h100/triton_gemm", "validate/results/h200/triton_stages"})
    for (const auto& e : std::filesystem::directory_iterator(test::source_path(dir))) {
      if (e.path().extension() != ".json") continue;
      std::ifstream f(e.path());
      const auto r = nlohmann::json::parse(f);
      const auto& w = r["workload"];
      if (!w.contains("issue")) continue;
      GemmConfig c;
      c.tile = {w["tile"]["m"].get<int>(), w["tile"]["n"].get<int>(), w["tile"]["k"].get<int>()};
      c.warps = w["warps"].get<int>();
      c.stages = w["stages"].get<int>();
      c.dtype = w["dtype"].get<std::string>();
      c.mma = "wgmma";
      const auto est = estimated_triton_loop_issue(c);
      ASSERT_TRUE(est) << e.path();
      const int instructions = w["issue"]["instructions"].get<int>();
      const int stall = std::stoi(w["issue"]["stall_cycles"].get<std::string>());
      EXPECT_NEAR(est->instructions, instructions, 3) << e.path();
      EXPECT_NEAR(est->stall_cycles, stall, 0.25 * stall) << e.path();
      const std::string tiling = std::to_string(c.tile.m) + "x" + std::to_string(c.tile.n) + "x" + std::to_string(c.tile.k);
      seen[tiling] = {instructions, stall};
    }
  EXPECT_GE(seen.size(), 4u) << "64x128x32, 128x128x64, 128x256x64 and 128x256x32";
  GemmConfig other;  // loops the estimate was not taken from: none
  other.tile = {128, 128, 64};
  other.warps = 4;
  other.mma = "mma_sync";
  EXPECT_FALSE(estimated_triton_loop_issue(other));
  other.mma = "wgmma";
  other.copy = "tma";
  EXPECT_FALSE(estimated_triton_loop_issue(other));
}

}  // namespace
}  // namespace gms
