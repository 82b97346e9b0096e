// gpumemsim recommend (issue 14): ranks a GEMM/GEMV space by simulated time, leaves out what cannot
// run (and says why), names a limiter for every ranked configuration, is deterministic for any
// thread count, and refuses bad requests with exit code 2.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cli_util.h"

namespace {

const char* kSmallGemm =
    "recommend -g h100 --gemm 1024,1024,512 --tiles 64x128x64,128x128x64,128x256x64 --warps 4,8 --stages 3,12 ";

TEST(Recommend, RanksTheGemmSpaceAndExplainsWhatItLeftOut) {
  const auto dir = std::filesystem::temp_directory_path() / "gms_recommend_test";
  std::filesystem::remove_all(dir);
  auto r = run(std::string(kSmallGemm) + "-j 2 --top 3 --json " + (dir / "one.json").string() + " --report " +
               (dir / "rep").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("12 configurations"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| 1 | "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| 4 | "), std::string::npos) << "--top 3 prints three rows\n" << r.out;
  const auto j = nlohmann::json::parse(slurp(dir / "one.json"));
  const auto& ranked = j["ranked"];
  ASSERT_GE(ranked.size(), 4u);
  for (std::size_t i = 1; i < ranked.size(); ++i)
    EXPECT_LE(ranked[i - 1]["gpu__time_duration.sum"].get<double>(), ranked[i]["gpu__time_duration.sum"].get<double>());
  bool spill = false;
  for (const auto& c : ranked) {
    EXPECT_FALSE(c["limiter"].get<std::string>().empty()) << c.dump();
    EXPECT_GT(c["gpu__time_duration.sum"].get<double>(), 0);
    // 128x256 with 4 warps holds 256 fp32 accumulators per thread: ranked as the spilling tiling it
    // is - its estimated frame swapped every K tile - and slower than every tiling that fits.
    if (c["config"] == "128x256x64 w4 s3 g8") {
      spill = true;
      EXPECT_EQ(c["limiter"], "register spills") << c.dump();
      EXPECT_EQ(c["registers"].get<int>(), 312);
      EXPECT_GT(c["spill_bytes_per_thread"].get<int>(), 0);
      EXPECT_EQ(c, ranked.back()) << "the spilling tiling is the slowest";
    } else {
      EXPECT_LE(c["registers"].get<int>(), 255);
      EXPECT_FALSE(c.contains("spill_bytes_per_thread"));
    }
  }
  EXPECT_TRUE(spill) << ranked.dump(1);
  // 12 stages of any of these tiles exceed the shared memory: left out as not fitting, with the reason.
  bool fit = false;
  for (const auto& c : j["excluded"]) fit |= c["excluded"].get<std::string>().rfind("does not fit", 0) == 0;
  EXPECT_TRUE(fit) << j["excluded"].dump(1);
  EXPECT_EQ(ranked.size() + j["excluded"].size(), 12u);
  EXPECT_TRUE(std::filesystem::exists(dir / "rep" / "recommend.md"));
  EXPECT_TRUE(std::filesystem::exists(dir / "rep" / "recommend.csv"));
  // The pictures: the space, and the first pick beside its other CTA order (both runs kept).
  for (const char* f : {"space.png", "space.svg", "heatmaps/compare_tiles.png", "heatmaps/report.html",
                        "runs/first_pick/stats.json", "runs/first_pick_row_major/ctas.csv"})
    EXPECT_TRUE(std::filesystem::exists(dir / "rep" / f)) << f;
  const auto first = nlohmann::json::parse(slurp(dir / "rep" / "runs" / "first_pick" / "stats.json"));
  const auto other = nlohmann::json::parse(slurp(dir / "rep" / "runs" / "first_pick_row_major" / "stats.json"));
  EXPECT_EQ(first["metrics"]["gpu__time_duration.sum"], ranked[0]["gpu__time_duration.sum"])
      << "the report's first run is the first pick";
  EXPECT_NE(first["config"]["workload"]["cta_order"]["kind"], other["config"]["workload"]["cta_order"]["kind"]);
  // Same ranking with one thread.
  r = run(std::string(kSmallGemm) + "-j 1 --json " + (dir / "two.json").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(slurp(dir / "one.json"), slurp(dir / "two.json"));
  std::filesystem::remove_all(dir);
}

// Triton compiles a tile to wgmma only for whole warpgroups and 64-row blocks (its tutorial's two-warp
// tiles run mma.sync on Hopper, validate/results/h200/recommend): auto gives each candidate that class,
// and --mma wgmma leaves the others out with the reason.
TEST(Recommend, EachCandidateTakesTheTensorCoreClassTritonCompilesItTo) {
  const auto dir = std::filesystem::temp_directory_path() / "gms_recommend_mma_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string space =
      "recommend -g h200 --gemm 512,512,512 --tiles 32x64x32,128x128x64 --warps 2,4 --stages 3 -j 2 ";
  auto r = run(space + "--json " + (dir / "auto.json").string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(slurp(dir / "auto.json"));
  ASSERT_EQ(j["ranked"].size(), 4u) << j.dump(1);
  for (const auto& c : j["ranked"]) {
    const bool warpgroups = c["config"] == "128x128x64 w4 s3 g8";
    EXPECT_EQ(c["mma"], warpgroups ? "wgmma" : "mma_sync") << c.dump();
    const auto& set = c["set"];
    EXPECT_EQ(std::find(set.begin(), set.end(), "workload.mma=mma_sync") != set.end(), !warpgroups) << c.dump();
    // A wgmma loop issues its own instructions between copies and MMAs (estimated: workload/loop_estimate.h);
    // 128x128x64 w4 copies 16 chunks a thread and K tile.
    EXPECT_EQ(c.value("loop_instructions", 0), warpgroups ? 131 : 0) << c.dump();
    const bool issued = std::find(set.begin(), set.end(), "workload.issue.instructions=131") != set.end();
    EXPECT_EQ(issued, warpgroups) << c.dump();
  }
  r = run(space + "--no-loop-estimate --json " + (dir / "bare.json").string());
  ASSERT_EQ(r.code, 0) << r.out;
  for (const auto& c : nlohmann::json::parse(slurp(dir / "bare.json"))["ranked"])
    EXPECT_FALSE(c.contains("loop_instructions")) << c.dump();
  r = run(space + "--mma wgmma --json " + (dir / "wgmma.json").string());
  ASSERT_EQ(r.code, 0) << r.out;
  j = nlohmann::json::parse(slurp(dir / "wgmma.json"));
  ASSERT_EQ(j["ranked"].size(), 1u) << j.dump(1);
  for (const auto& c : j["excluded"])
    EXPECT_NE(c["excluded"].get<std::string>().find("wgmma cannot split"), std::string::npos) << c.dump();
  std::filesystem::remove_all(dir);
}

TEST(Recommend, GemvSpace) {
  auto r = run("recommend -g h100 --gemv 4096,7168 --block-n 128,256 --block-k 64 --warps 2,4 -j 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("GEMV 1x4096x7168"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("8 configurations, 8 simulated"), std::string::npos) << r.out;
}

// Approximate candidates (--sample-waves) say so above the table and rank the same space.
TEST(Recommend, SampledCandidatesSayTheyAreApproximate) {
  auto r = run("recommend -g h100 --gemv 4096,7168 --block-n 128,256 --block-k 64 --warps 2,4 -j 2 --sample-waves 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("approximate: each candidate simulated 2 waves"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("8 configurations, 8 simulated"), std::string::npos) << r.out;
}

TEST(Recommend, BadRequestsAreExitCode2) {
  for (const char* args : {"recommend -g h100", "recommend -g h100 --gemm 1,2", "recommend -g h100 --gemm 1,2,x",
                           "recommend -g h100 --gemm 64,64,64 --gemv 64,64", "recommend -g h10 --gemm 64,64,64",
                           "recommend -g h100 --gemm 64,64,64 --tiles 64x64", "recommend -g h100 --gemm 64,64,64 --set workload.warps=4",
                           "recommend -g h100 --gemv 4096,7168 --sample-waves 1",
                           "recommend -g h100 --gemm 64,64,64 --allow-spills"}) {
    auto r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("error"), std::string::npos) << args << "\n" << r.out;
  }
}

}  // namespace
