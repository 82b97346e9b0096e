// run --threads: one simulation on more threads gives the same files (issue 13's determinism check).
#include <gtest/gtest.h>

#include "cli_util.h"

namespace {

// Issue 13: one simulation on 1, 2 and 4 threads gives the same stats.json and ctas.csv (a trace replay,
// whose thread blocks a second thread reads ahead).
TEST(Cli, ThreadCountsGiveIdenticalResults) {
  const std::string trace = std::string(GPUMEMSIM_SHARED_TRACES) + "/rodinia-b+tree-128-1000";
  if (!std::filesystem::exists(trace)) GTEST_SKIP() << "no public traces at " << trace;
  auto dir = gms::test::temp_dir("cli_threads");
  std::ofstream(dir / "w.yaml") << "kind: trace\npath: " << trace << "\n";
  for (int t : {1, 2, 4}) {
    auto r = run("run -q -g " + src("configs/gpus/h100.yaml") + " -w " + (dir / "w.yaml").string() + " --threads " +
                 std::to_string(t) + " -o " + (dir / ("t" + std::to_string(t))).string());
    ASSERT_EQ(r.code, 0) << r.out;
  }
  for (const char* f : {"stats.json", "ctas.csv"})
    for (const char* t : {"t2", "t4"}) EXPECT_EQ(slurp(dir / "t1" / f), slurp(dir / t / f)) << f << " " << t;
  EXPECT_EQ(run("run -q -g " + src("configs/gpus/h100.yaml") + " -w " + (dir / "w.yaml").string() + " --threads 0").code, 2);
}

// A GEMM whose memory side runs on a worker thread with --threads 2+ (Pipeline::kWorker): the bench's GEMM
// at 2048 x 2048 x 1024, and a seed-002 rung whose SIMT loads go through L1.
TEST(Cli, ThreadCountsGiveIdenticalResultsWithTheMemorySidePipelined) {
  auto dir = gms::test::temp_dir("cli_threads_pipelined");
  const std::string runs[] = {
      "-w " + src("configs/workloads/gemm-8192-grouped8.yaml") + " --set workload.m=2048 --set workload.n=2048 --set workload.k=1024",
      "-w " + src("configs/workloads/seed002/r0-naive.yaml") + " --set workload.m=1024 --set workload.n=1024",
  };
  for (std::size_t i = 0; i < std::size(runs); ++i) {
    for (int t : {1, 2, 4}) {
      auto r = run("run -q -g " + src("configs/gpus/h100.yaml") + " " + runs[i] + " --threads " + std::to_string(t) +
                   " -o " + (dir / (std::to_string(i) + "t" + std::to_string(t))).string());
      ASSERT_EQ(r.code, 0) << r.out;
    }
    for (const char* f : {"stats.json", "ctas.csv"})
      for (const char* t : {"t2", "t4"})
        EXPECT_EQ(slurp(dir / (std::to_string(i) + "t1") / f), slurp(dir / (std::to_string(i) + t) / f)) << runs[i] << " " << f << " " << t;
  }
}

}  // namespace
