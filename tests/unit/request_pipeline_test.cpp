// The pipelined memory side (issue 13, item 3: one simulation on two threads). RequestPipeline times its
// entries in push order whether a worker thread does it or the SM side does, and the engine's pipelined
// runs - on one thread (Pipeline::kInline, every completion taken as late as the lag allows) and with a
// worker - equal the run timed at issue, bit for bit, on kernels that use every path a request can take:
// cp.async and TMA-free GEMM loads, SIMT loads through L1 (holds on lines still in flight), reductions,
// spill stores and their L1 write-backs, and a sampled run's snapshots.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "api/simulation.h"
#include "model/engine.h"
#include "model/request_pipeline.h"
#include "test_util.h"

namespace gms {
namespace {

struct PipelineItem {
  std::uint64_t value = 0;
  std::uint64_t timed = 0;  // the timing function's running state when it timed this one
  std::uint64_t far = 0, near = 0;  // the values of the entries it was handed as lookahead (0: none)
};

// Pushes, publishes and completes at random; returns each completed entry's timing in completion order.
std::vector<PipelineItem> drive_pipeline(bool worker, unsigned seed) {
  RequestPipeline<PipelineItem> p(6);  // 64 entries: the ring wraps many times
  std::uint64_t state = 0;
  p.set_time_fn([&state](PipelineItem& it, const PipelineItem* far, const PipelineItem* near) {
    state = state * 1000003 + it.value;  // depends on the order entries are timed in
    it.timed = state;
    it.far = far ? far->value : 0;
    it.near = near ? near->value : 0;
  });
  if (worker) p.start_worker();
  std::mt19937 rng(seed);
  std::vector<PipelineItem> out;
  std::uint64_t next = 1;
  for (int step = 0; step < 20000; ++step) {
    const unsigned r = rng() % 8;
    if (r < 4 && p.room(1)) {
      p.push() = PipelineItem{next++};
    } else if (r < 6) {
      p.publish();
    } else if (!p.empty()) {
      out.push_back(p.front());
      p.pop_front();
    }
  }
  while (!p.empty()) {
    out.push_back(p.front());
    p.pop_front();
  }
  p.stop_worker();
  return out;
}

TEST(RequestPipeline, AWorkerTimesEntriesInPushOrderAsTheCallerWould) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const std::vector<PipelineItem> inline_run = drive_pipeline(false, seed), worker_run = drive_pipeline(true, seed);
    ASSERT_EQ(inline_run.size(), worker_run.size());
    ASSERT_GT(inline_run.size(), 1000u);
    for (std::size_t i = 0; i < inline_run.size(); ++i) {
      EXPECT_EQ(inline_run[i].value, i + 1) << "completed out of push order at " << i;
      EXPECT_EQ(worker_run[i].value, i + 1);
      EXPECT_EQ(worker_run[i].timed, inline_run[i].timed) << "entry " << i << ", seed " << seed;
      // A lookahead hint is a later entry, published by then; never the entry itself.
      if (worker_run[i].far) EXPECT_EQ(worker_run[i].far, worker_run[i].value + RequestPipeline<PipelineItem>::kFarAhead);
      if (worker_run[i].near) EXPECT_EQ(worker_run[i].near, worker_run[i].value + RequestPipeline<PipelineItem>::kNearAhead);
    }
  }
}

TEST(RequestPipeline, StoppingTheWorkerKeepsWhatItTimed) {
  RequestPipeline<PipelineItem> p(4);
  int calls = 0;
  p.set_time_fn([&calls](PipelineItem& it, const PipelineItem*, const PipelineItem*) { it.timed = static_cast<std::uint64_t>(++calls); });
  p.start_worker();
  for (std::uint64_t v = 1; v <= 10; ++v) p.push() = PipelineItem{v};
  p.publish();
  p.stop_worker();  // times what was published, then ends
  for (std::uint64_t v = 11; v <= 12; ++v) p.push() = PipelineItem{v};
  std::vector<std::uint64_t> order;
  while (!p.empty()) {
    order.push_back(p.front().timed);
    p.pop_front();
  }
  EXPECT_EQ(calls, 12);  // each entry timed once: the worker's ten, then two on this thread
  EXPECT_EQ(order, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

SimResult run_pipelined(const LoadedConfigs& cfg, Pipeline pipeline, int waves = 0) {
  const auto kernel = make_kernel(cfg.workload.value, cfg.gpu.value);
  Engine engine(cfg.gpu.value, *kernel);
  engine.set_pipeline(pipeline);
  engine.set_sample_waves(waves);
  return engine.run();
}

void expect_same_run(const SimResult& a, const SimResult& b, const std::string& what) {
  EXPECT_EQ(a.end, b.end) << what;
  EXPECT_EQ(std::memcmp(&a.mem, &b.mem, sizeof(MemCounters)), 0) << what << ": memory counters differ";
  EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes) << what;
  EXPECT_EQ(a.dram_write_bytes, b.dram_write_bytes) << what;
  EXPECT_EQ(a.l2_dirty_sectors_at_end, b.l2_dirty_sectors_at_end) << what;
  EXPECT_EQ(a.warp_instructions, b.warp_instructions) << what;
  EXPECT_EQ(a.warp_ticks_resident, b.warp_ticks_resident) << what;
  EXPECT_EQ(a.sampled_ctas, b.sampled_ctas) << what;
  for (int s = 0; s < static_cast<int>(WarpState::kCount); ++s)
    EXPECT_EQ(a.stalls.total(static_cast<WarpState>(s)), b.stalls.total(static_cast<WarpState>(s))) << what << " state " << s;
  ASSERT_EQ(a.ctas.size(), b.ctas.size()) << what;
  for (std::size_t i = 0; i < a.ctas.size(); ++i) {
    const CtaRecord &x = a.ctas[i], &y = b.ctas[i];
    ASSERT_TRUE(x.sm == y.sm && x.start == y.start && x.end == y.end && x.mem.l2_hit_sectors == y.mem.l2_hit_sectors &&
                x.mem.l2_miss_sectors == y.mem.l2_miss_sectors)
        << what << ": CTA " << i << " differs";
  }
}

LoadedConfigs pipelined_case(const std::string& workload, std::vector<std::string> sets = {}) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/" + workload), std::move(sets)});
}

TEST(Pipelined, EveryRequestPathGivesTheResultTimedAtIssue) {
  const std::vector<std::pair<std::string, LoadedConfigs>> cases = {
      // cp.async copies past L1, ldmatrix, HMMA, epilogue stores (two waves, 16 K steps)
      {"WMMA GEMM", pipelined_case("gemm-8192-grouped8.yaml", {"workload.m=2048", "workload.n=2048", "workload.k=1024"})},
      // SIMT loads through L1: hits on lines whose data is still on its way
      {"seed 002 r0", pipelined_case("seed002/r0-naive.yaml", {"workload.m=512", "workload.n=512", "workload.k=512"})},
      // reductions (RED) at the slices
      {"GEMV llcc", pipelined_case("seed001-gemv-llcc.yaml")},
      // spill stores written back from L1, local loads
      {"spilling GEMM", pipelined_case("triton-gemm-spill-2048.yaml", {"workload.m=512", "workload.n=512", "workload.k=512"})},
  };
  for (const auto& [name, cfg] : cases) {
    const SimResult at_issue = run_pipelined(cfg, Pipeline::kOff);
    ASSERT_GT(at_issue.mem.l2_read_requests, 0u) << name;
    expect_same_run(at_issue, run_pipelined(cfg, Pipeline::kInline), name + ", pipelined on one thread");
    expect_same_run(at_issue, run_pipelined(cfg, Pipeline::kWorker), name + ", pipelined with a worker");
  }
}

TEST(Pipelined, ASampledRunSnapshotsWhatWasIssued) {
  const LoadedConfigs cfg = pipelined_case("gemm-8192-grouped8.yaml", {"workload.m=4096", "workload.n=4096", "workload.k=512"});
  const SimResult at_issue = run_pipelined(cfg, Pipeline::kOff, 2);
  ASSERT_GT(at_issue.sampled_ctas, 0);
  expect_same_run(at_issue, run_pipelined(cfg, Pipeline::kInline, 2), "sampled, one thread");
  expect_same_run(at_issue, run_pipelined(cfg, Pipeline::kWorker, 2), "sampled, with a worker");
}

}  // namespace
}  // namespace gms
