// Worked examples under configs/ that state numbers in their comments: the run gives them.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"

namespace {

double time_us(const std::filesystem::path& dir) {
  return nlohmann::json::parse(slurp(dir / "stats.json"))["metrics"]["gpu__time_duration.sum"].get<double>() / 1e3;
}

// configs/workloads/triton-gemm-spill-2048.yaml: 238 us on h100, 7.3x the same tiling
// without its spills, in the 28 KiB of L1 its carve-out leaves (246 us and 7.8x with per-read latency draws, 234 us
// and 8.6x before the DRAM's latency spread).
TEST(Examples, SpillingGemmRunsAsItsCommentSays) {
  const auto dir = gms::test::temp_dir("example_spill");
  const std::string base = "run -q -g " + src("configs/gpus/h100.yaml") + " -w " +
                           src("configs/workloads/triton-gemm-spill-2048.yaml");
  auto r = run(base + " -o " + (dir / "spill").string());
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(base + " --set workload.spill_bytes_per_thread=0B -o " + (dir / "none").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const double spill = time_us(dir / "spill"), none = time_us(dir / "none");
  EXPECT_NEAR(spill, 238, 238 * 0.02);
  EXPECT_NEAR(spill / none, 7.3, 1);
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "spill" / "stats.json"))["occupancy"]["l1_bytes"], 28 * 1024);
  std::filesystem::remove_all(dir);
}

// configs/workloads/wmma-gemm-epilogue.yaml: the WMMA GEMM's first wave stores half sectors - twice the
// L2 write sectors of whole rows, and 62.8 us against 60.1 us on h100 (the rows staged through shared memory).
TEST(Examples, WmmaEpilogueRunsAsItsCommentSays) {
  const auto dir = gms::test::temp_dir("example_wmma_epilogue");
  const std::string base = "run -q -g " + src("configs/gpus/h100.yaml") + " -w " +
                           src("configs/workloads/wmma-gemm-epilogue.yaml") + " --set workload.cta_limit=264";
  auto r = run(base + " -o " + (dir / "frag").string());
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(base + " --set workload.epilogue=coalesced -o " + (dir / "rows").string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto writes = [&](const char* d) {
    return nlohmann::json::parse(slurp(dir / d / "stats.json"))["metrics"]["lts__t_sectors_op_write.sum"].get<double>();
  };
  EXPECT_EQ(writes("frag"), 810368);
  EXPECT_EQ(writes("frag"), 2 * writes("rows"));
  EXPECT_NEAR(time_us(dir / "frag"), 62.8, 62.8 * 0.02);
  EXPECT_NEAR(time_us(dir / "rows"), 60.1, 60.1 * 0.02);
  std::filesystem::remove_all(dir);
}

// configs/workloads/triton-gemv-compiled.yaml: 31.1 us on h100 and 41 % in mio_throttle, its loads waiting in the
// MIO queue and their data passing the shared-memory data path; 31.4 us and 39 % with loads entering as they issue;
// 33.0 us behind the presets' former start gate. Its loads as compiled (local_program) read silicon's 1,949,696
// global load sectors; a window of 4 loads in flight instead: 31.4 us, 2,064,384 sectors. (With per-read latency
// draws: 31.4 us, 30.8 us / 38 %, 32.3 us, 32.0 us. Before the DRAM's latency spread: 30.4 us / 43 %, 29.2 us / 42 %, 31.5 us, 29.9 us; before the H100 preset's sm.mio_entries_by_cta_age:
// 30.2 us / 42 %, 29.2 us / 41 %, 31.5 us, 30.6 us.)
TEST(Examples, CompiledTritonGemvRunsAsItsCommentSays) {
  const auto dir = gms::test::temp_dir("example_triton_gemv");
  const std::string base = "run -q -g " + src("configs/gpus/h100.yaml") + " -w " +
                           src("configs/workloads/triton-gemv-compiled.yaml");
  auto r = run(base + " -o " + (dir / "wait").string());
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(base + " --set gpu.sm.loads_wait_in_mio_queue=false -o " + (dir / "none").string());
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(base + " --set gpu.sm.mio_start_backlog=31 --set gpu.sm.loads_wait_in_mio_queue=false"
                 " --set gpu.sm.mio_starvation_period=0cycles --set gpu.sm.mio_entries_oldest_first=false"
                 " --set gpu.sm.load_data_bytes_per_cycle=0 -o " +
          (dir / "gate").string());
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(base + " --set workload.local_program= --set workload.loads_in_flight=4 -o " + (dir / "window").string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto metric = [&](const char* d, const char* name) {
    return nlohmann::json::parse(slurp(dir / d / "stats.json"))["metrics"][name].get<double>();
  };
  auto mio = [&](const char* d) { return metric(d, "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct"); };
  auto sectors = [&](const char* d) { return metric(d, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"); };
  EXPECT_NEAR(time_us(dir / "wait"), 31.1, 31.1 * 0.02);
  EXPECT_NEAR(time_us(dir / "none"), 31.4, 31.4 * 0.02);
  EXPECT_NEAR(time_us(dir / "gate"), 33.0, 33.0 * 0.02);
  EXPECT_NEAR(time_us(dir / "window"), 31.4, 31.4 * 0.02);
  EXPECT_NEAR(mio("wait"), 41.3, 1.5);
  EXPECT_NEAR(mio("none"), 38.9, 1.5);
  EXPECT_EQ(sectors("wait"), 1949696);
  EXPECT_EQ(sectors("window"), 2064384);
  std::filesystem::remove_all(dir);
}

// configs/workloads/gemv-splitk-deep.yaml: 137.1 us on h100, 1,024 programs' reductions taking turns on each
// of y's 16 lines; 74.6 us without the turns. Silicon (validate/results/h100/gemv_deep, measured after this
// prediction): 135.2 us.
TEST(Examples, DeepSplitKGemvRunsAsItsCommentSays) {
  const auto dir = gms::test::temp_dir("example_gemv_deep");
  const std::string base = "run -q -g " + src("configs/gpus/h100.yaml") + " -w " +
                           src("configs/workloads/gemv-splitk-deep.yaml");
  auto r = run(base + " -o " + (dir / "turns").string());
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(base + " --set gpu.l2.atomic_line_interval=0cycles -o " + (dir / "none").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(time_us(dir / "turns"), 137.1, 137.1 * 0.02);
  EXPECT_NEAR(time_us(dir / "none"), 74.6, 74.6 * 0.02);
  double silicon = 0;  // the median of the same program's launches on the H100
  std::istringstream lines(slurp(std::filesystem::path(src("validate/results/h100/gemv_deep/gemv_deep.jsonl"))));
  for (std::string line; std::getline(lines, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j["case"] == "gemv_1x131072x512_bn256_bk64_w4_lclc" && j["part"] == "full") silicon = j["median_ns"].get<double>() / 1e3;
  }
  EXPECT_NEAR(time_us(dir / "turns") / silicon, 1.0, 0.05) << "silicon " << silicon << " us";
  std::filesystem::remove_all(dir);
}

}  // namespace
