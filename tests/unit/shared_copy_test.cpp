// Copies into shared memory that bypass L1: sectors split over two shared sectors are fetched twice
// (sim/model/shared_copy.h). Expected ratios are the H100's, validate/results/h100/ldgsts/.
#include <gtest/gtest.h>

#include <random>

#include "api/simulation.h"
#include "model/memory_system.h"
#include "model/shared_copy.h"
#include "stats/metrics.h"
#include "test_util.h"

namespace gms {
namespace {

constexpr Addr kLine = 0x100000;

TEST(SharedCopySectors, AlignedDestinationsFetchOnce) {
  for (std::uint64_t dest : {0ull, 32ull, 64ull, 4096ull}) {
    const SharedCopySectors s = shared_copy_sectors(kLine, kLine, kLine + 128, dest, 32);
    EXPECT_EQ(s.twice, 0u);
    EXPECT_EQ(s.written, 4u);
  }
  // A half line to an aligned row: 2 sectors, 2 shared sectors.
  const SharedCopySectors h = shared_copy_sectors(kLine, kLine + 64, kLine + 128, 0, 32);
  EXPECT_EQ(h.twice, 0u);
  EXPECT_EQ(h.written, 2u);
}

TEST(SharedCopySectors, ALineSixteenBytesOffFetchesEverySectorTwice) {
  // gms-ldgsts-ubench full_shift16: 2.0x delivered, 1.25x t-stage sectors.
  const SharedCopySectors s = shared_copy_sectors(kLine, kLine, kLine + 128, 16, 32);
  EXPECT_EQ(s.twice, 0xFu);
  EXPECT_EQ(s.written, 5u);
  // A half line 16 bytes off (halves_pad80's odd rows): 2 + 2 delivered, 3 shared sectors.
  const SharedCopySectors h = shared_copy_sectors(kLine, kLine, kLine + 64, 80, 32);
  EXPECT_EQ(h.twice, 0x3u);
  EXPECT_EQ(h.written, 3u);
}

TEST(SharedCopySectors, SectorsStartingInTheNextSharedLineAreNamed) {
  // A line written from shared byte 64: sectors 2 and 3 start at 128 and 160, in the next 128-byte line.
  EXPECT_EQ(shared_copy_sectors(kLine, kLine, kLine + 128, 64, 32).next_shared_line, 0xCu);
  // From byte 32 (the WMMA B rows' pitch of 272 B, row 2): sector 3 starts at 128; from byte 16
  // (row 1) it starts at 112 and straddles the boundary - fetched twice, not split.
  EXPECT_EQ(shared_copy_sectors(kLine, kLine, kLine + 128, 32, 32).next_shared_line, 0x8u);
  EXPECT_EQ(shared_copy_sectors(kLine, kLine, kLine + 128, 16, 32).next_shared_line, 0u);
  // Aligned, or a half line that ends before the boundary: one request.
  EXPECT_EQ(shared_copy_sectors(kLine, kLine, kLine + 128, 256, 32).next_shared_line, 0u);
  EXPECT_EQ(shared_copy_sectors(kLine, kLine, kLine + 64, 64, 32).next_shared_line, 0u);
  // Property: a split sector starts at or past the boundary; its predecessors do not.
  std::mt19937 rng(11);
  for (int i = 0; i < 1000; ++i) {
    const Addr lo = kLine + 16 * (rng() % 8), hi = lo + 16 * (1 + rng() % ((kLine + 128 - lo) / 16));
    const std::uint64_t dest = 16 * (rng() % 64);
    const std::uint32_t split = shared_copy_sectors(kLine, lo, hi, dest, 32).next_shared_line;
    for (Addr sec = (lo - kLine) / 32; sec <= (hi - 1 - kLine) / 32; ++sec) {
      const Addr start = std::max<Addr>(lo, kLine + 32 * sec);
      const bool later = (dest + (start - lo)) / 128 != dest / 128;
      EXPECT_EQ(((split >> sec) & 1u) != 0, later) << "lo " << lo - kLine << " hi " << hi - kLine << " dest " << dest;
    }
  }
}

TEST(SharedCopySectors, OnlyTheResidueOfTheOffsetMatters) {
  std::mt19937 rng(7);
  for (int i = 0; i < 1000; ++i) {
    const Addr lo = kLine + 16 * (rng() % 8), hi = lo + 16 * (1 + rng() % ((kLine + 128 - lo) / 16));
    const std::uint64_t dest = 16 * (rng() % 64);
    const SharedCopySectors a = shared_copy_sectors(kLine, lo, hi, dest, 32);
    const SharedCopySectors b = shared_copy_sectors(kLine, lo, hi, dest + 32 * (1 + rng() % 100), 32);
    EXPECT_EQ(a.twice, b.twice);
    EXPECT_EQ(a.written, b.written);
    // A twice-fetched sector is one of those read; n bytes fill ceil(n / 32) shared sectors, or one
    // more when they start off a sector boundary.
    const auto first = (lo - kLine) / 32, last = (hi - 1 - kLine) / 32;
    const std::uint32_t mask = ((1u << (last - first + 1)) - 1) << first;
    EXPECT_EQ(a.twice & ~mask, 0u);
    const auto least = static_cast<std::uint32_t>((hi - lo + 31) / 32);
    EXPECT_GE(a.written, least);
    EXPECT_LE(a.written, least + 1);
    if ((dest % 32) == 0) {
      EXPECT_EQ(a.written, least);
    }
  }
}

// A warp instruction's worth of rows through the memory system: what L2 delivers, looks up and the
// t-stage counts, per requested sector, for the ubench patterns.
struct Ratios {
  double delivered, t_stage;
};

Ratios copy_ratios(std::uint32_t row_bytes, std::uint32_t pitch, std::int64_t shift, bool bypass = true) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", {}});
  MemorySystem mem(cfg.gpu.value);
  const std::uint32_t rows = 64;
  Region r{0x7f0000000000ull, rows, row_bytes, 2 * 128 * ((row_bytes + 127) / 128), shift, pitch};
  mem.load(AccessCtx{0, 1000 * kTicksPerCycle, nullptr}, r, bypass);
  const double requested = rows * row_bytes / 32.0;
  const MemCounters& m = mem.counters();
  return {m.l2_requested_sectors / requested, m.l1_ld_sectors / requested};
}

TEST(SharedCopy, TheMemorySystemFetchesWhatTheH100Delivers) {
  const Ratios full = copy_ratios(128, 128, 0), shifted = copy_ratios(128, 128, 16);
  EXPECT_DOUBLE_EQ(full.delivered, 1.0);
  EXPECT_DOUBLE_EQ(full.t_stage, 1.0);
  EXPECT_DOUBLE_EQ(shifted.delivered, 2.0);
  EXPECT_DOUBLE_EQ(shifted.t_stage, 1.25);
  const Ratios halves = copy_ratios(64, 64, 0), pad80 = copy_ratios(64, 80, 0);
  EXPECT_DOUBLE_EQ(halves.delivered, 1.0);
  EXPECT_DOUBLE_EQ(pad80.delivered, 1.5);
  EXPECT_DOUBLE_EQ(pad80.t_stage, 1.25);
  const Ratios rows256 = copy_ratios(256, 256, 0), pad272 = copy_ratios(256, 272, 0);
  EXPECT_DOUBLE_EQ(rows256.delivered, 1.0);
  EXPECT_DOUBLE_EQ(pad272.delivered, 1.5);
  EXPECT_DOUBLE_EQ(pad272.t_stage, 1.125);
  // Through L1 (cp.async.ca) the L1 serves the second fetch.
  EXPECT_DOUBLE_EQ(copy_ratios(128, 128, 16, false).delivered, 1.0);
}

TEST(SharedCopy, TheWmmaGemmsPaddedTilesReceiveOneAndAHalfTimesTheirSectors) {
  // The validate kernel's 128x128x32 tiles with 8 halves of padding: silicon (H100, 8192^3)
  // l1tex__m_xbar2l1tex_read_sectors 8.05e8 and t-stage 6.375e8 for 5.37e8 requested.
  auto run = [](const char* pad, const char* swizzle) {
    auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                         test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                         {"workload.m=1024", "workload.n=1024", "workload.k=1024", "workload.tile.k=32",
                                          std::string("workload.smem.pad=") + pad,
                                          std::string("workload.smem.swizzle=") + swizzle}});
    RunOutput out = simulate(cfg);
    return compute_metrics(out.result, cfg.gpu.value, *out.kernel);
  };
  const auto plain = run("0", "auto"), padded = run("8", "none");
  auto value = [](const auto& m, const char* name) { return find_metric(m, name)->value; };
  const double requested = 1024.0 * 1024 * 2 * 2 * (1024 / 128) / 32;  // A and B tiles, 8 CTAs each
  EXPECT_DOUBLE_EQ(value(plain, "l1tex__m_xbar2l1tex_read_sectors.sum"), requested);
  EXPECT_DOUBLE_EQ(value(plain, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), requested);
  EXPECT_DOUBLE_EQ(value(padded, "l1tex__m_xbar2l1tex_read_sectors.sum") / requested, 1.5);
  EXPECT_DOUBLE_EQ(value(padded, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") / requested, 1.1875);
  EXPECT_GT(value(padded, "gpu__time_duration.sum"), value(plain, "gpu__time_duration.sum"));
}

}  // namespace
}  // namespace gms
