// A trace replay's read-ahead (run --threads 2+, workload/cta_read_ahead.h): blocks are handed out in
// launch order, an error made on the worker surfaces where the replay asks for that block, and a
// replay gives the same simulation with any number of threads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <sstream>

#include "api/simulation.h"
#include "common/error.h"
#include "model/engine.h"
#include "test_util.h"
#include "trace/isa_table.h"
#include "workload/cta_read_ahead.h"
#include "workload/trace_kernel.h"

namespace gms {
namespace {

std::unique_ptr<CtaProgram> block(std::int64_t i) {
  auto p = std::make_unique<CtaProgram>();
  p->tile = TileCoord{i, -i};
  return p;
}

TEST(CtaReadAhead, HandsOutBlocksInLaunchOrder) {
  for (int depth : {1, 2, 7, 64}) {
    CtaReadAhead ahead(block, 50, depth, 1u << 30);
    for (std::int64_t i = 0; i < 50; ++i) {
      auto p = ahead.take(i);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(p->tile.m, i);
      EXPECT_EQ(p->tile.n, -i);
    }
  }
}

TEST(CtaReadAhead, AnErrorSurfacesWhereItsBlockIsTaken) {
  int made = 0;
  CtaReadAhead ahead(
      [&made](std::int64_t i) {
        ++made;
        if (i == 5) throw ConfigError("block 5 is malformed");
        return block(i);
      },
      20, 3, 1u << 30);
  for (std::int64_t i = 0; i < 5; ++i) EXPECT_EQ(ahead.take(i)->tile.m, i);
  try {
    ahead.take(5);
    FAIL() << "block 5 did not throw";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "block 5 is malformed");
  }
  EXPECT_EQ(made, 6);  // nothing read past the bad block
}

TEST(CtaReadAhead, StopsWhenTheReplayEndsEarly) {
  // The worker waits with `depth` blocks made; the destructor must stop it, not read the rest.
  std::atomic<int> made{0};
  {
    CtaReadAhead ahead(
        [&made](std::int64_t i) {
          ++made;
          return block(i);
        },
        1'000'000, 4, 1u << 30);
    EXPECT_EQ(ahead.take(0)->tile.m, 0);
  }
  EXPECT_LE(made.load(), 6);
}

// The byte budget bounds what waits, whatever the depth; a block larger than the budget still comes.
TEST(CtaReadAhead, HoldsNoMoreThanItsByteBudgetAhead) {
  std::atomic<std::int64_t> made{0};
  auto big = [&made](std::int64_t i) {
    ++made;
    auto p = block(i);
    p->addresses.resize(1000);  // 8,000 bytes
    return p;
  };
  {
    CtaReadAhead ahead(big, 1000, 500, 20'000);  // room for three such blocks (the third one crosses it)
    EXPECT_EQ(ahead.take(0)->tile.m, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let the worker run as far as it may
    EXPECT_LE(made.load(), 5);
    for (std::int64_t i = 1; i < 1000; ++i) ASSERT_EQ(ahead.take(i)->tile.m, i);
  }
  CtaReadAhead tiny(big, 3, 500, 1);  // every block is over the budget: one at a time
  for (std::int64_t i = 0; i < 3; ++i) EXPECT_EQ(tiny.take(i)->addresses.size(), 1000u);
}

// A trace of `blocks` thread blocks (the header's grid says `grid`), each of two warps loading,
// computing and storing their own lines.
std::string blocks_trace(int blocks, int grid) {
  auto dir = test::temp_dir("read_ahead_" + std::to_string(blocks) + "_" + std::to_string(grid));
  std::ostringstream t;
  t << "-kernel name = k\n-kernel id = 1\n-grid dim = (" << grid
    << ",1,1)\n-block dim = (64,1,1)\n-shmem = 0\n-nregs = 32\n-binary version = 90\n-cuda stream id = 0\n"
       "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
       "-nvbit version = 1.7.4\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n";
  for (int b = 0; b < blocks; ++b) {
    t << "#BEGIN_TB\n\nthread block = " << b << ",0,0\n\n";
    for (int w = 0; w < 2; ++w) {
      const long base = 0x10000000L + (b * 2L + w) * 4096;
      t << "warp = " << w << "\ninsts = 4\n"
        << "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x" << std::hex << base << std::dec << " 4 0\n"
        << "0010 ffffffff 1 R3 FFMA 2 R1 R1 0 0\n"
        << "0020 ffffffff 0 STG.E 2 R2 R3 4 1 0x" << std::hex << base + 2048 << std::dec << " 4 0\n"
        << "0030 ffffffff 0 EXIT 0 0 0\n\n";
    }
    t << "#END_TB\n\n";
  }
  test::write_file(dir / "kernel-1.traceg", t.str());
  test::write_file(dir / "kernelslist.g", "kernel-1.traceg\n");
  return dir.string();
}

RunOutput replay(const std::string& trace, int threads) {
  auto dir = test::temp_dir("read_ahead_wl");
  std::string wl = test::write_file(dir / "w.yaml", "kind: trace\npath: " + trace + "\n");
  LoadedConfigs cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/seed000-9sm.yaml"), wl});
  RunOptions opt;
  opt.threads = threads;
  return simulate(cfg, opt);
}

TEST(TraceReadAhead, AnyThreadCountGivesTheSameSimulation) {
  const std::string trace = blocks_trace(300, 300);  // 300 blocks on 9 SMs: many waves, the worker far ahead
  const RunOutput one = replay(trace, 1);
  ASSERT_EQ(one.result.ctas.size(), 300u);
  for (int threads : {2, 4}) {
    const RunOutput more = replay(trace, threads);
    EXPECT_EQ(more.result.end, one.result.end);
    EXPECT_EQ(more.result.warp_instructions, one.result.warp_instructions);
    EXPECT_EQ(more.result.dram_read_bytes, one.result.dram_read_bytes);
    ASSERT_EQ(more.result.ctas.size(), one.result.ctas.size());
    for (std::size_t i = 0; i < one.result.ctas.size(); ++i) {
      EXPECT_EQ(more.result.ctas[i].launch_index, one.result.ctas[i].launch_index);
      EXPECT_EQ(more.result.ctas[i].sm, one.result.ctas[i].sm);
      EXPECT_EQ(more.result.ctas[i].start, one.result.ctas[i].start);
      EXPECT_EQ(more.result.ctas[i].end, one.result.ctas[i].end);
    }
  }
}

// The kernel itself with and without its read-ahead, at several depths: the same engine run.
TEST(TraceReadAhead, TheKernelDecodesTheSameBlocksAhead) {
  const std::string dir = blocks_trace(120, 120);
  const LoadedConfigs gpu = load_configs(ConfigInputs{test::source_path("configs/gpus/seed000-9sm.yaml")});
  const IsaTable isa = IsaTable::load(test::source_path("configs/isa/sm_90.yaml"));
  auto run = [&](int read_ahead) {
    TraceKernel k(std::make_unique<TraceKernelReader>(dir + "/kernel-1.traceg"), isa, gpu.gpu.value, 0, read_ahead);
    Engine e(gpu.gpu.value, k);
    return e.run();
  };
  const SimResult base = run(0);
  for (int depth : {1, 3, 16}) {
    const SimResult r = run(depth);
    EXPECT_EQ(r.end, base.end) << depth;
    ASSERT_EQ(r.ctas.size(), base.ctas.size());
    for (std::size_t i = 0; i < r.ctas.size(); ++i) EXPECT_EQ(r.ctas[i].end, base.ctas[i].end) << depth << " " << i;
  }
}

TEST(TraceReadAhead, ATruncatedTraceFailsAlikeWithAnyThreadCount) {
  const std::string trace = blocks_trace(40, 60);  // the grid promises 60 blocks, the file holds 40
  std::string messages[2];
  for (int threads : {1, 2}) {
    try {
      replay(trace, threads);
      ADD_FAILURE() << "a truncated trace replayed with " << threads << " threads";
    } catch (const ConfigError& e) {
      messages[threads - 1] = e.what();
    }
  }
  EXPECT_NE(messages[0].find("the trace ends after 40 thread blocks; the grid has 60"), std::string::npos) << messages[0];
  EXPECT_EQ(messages[0], messages[1]);
}

}  // namespace
}  // namespace gms
