#include "workload/cta_order.h"

#include <gtest/gtest.h>

#include <set>

#include "common/error.h"
#include "test_util.h"

namespace gms {
namespace {

// Triton tutorial 03, transcribed line by line (the reference the grouped order must match).
TileCoord triton_grouped(std::int64_t pid, std::int64_t M, std::int64_t N, std::int64_t BM, std::int64_t BN,
                         std::int64_t GROUP_SIZE_M) {
  std::int64_t num_pid_m = (M + BM - 1) / BM;
  std::int64_t num_pid_n = (N + BN - 1) / BN;
  std::int64_t num_pid_in_group = GROUP_SIZE_M * num_pid_n;
  std::int64_t group_id = pid / num_pid_in_group;
  std::int64_t first_pid_m = group_id * GROUP_SIZE_M;
  std::int64_t group_size_m = std::min(num_pid_m - first_pid_m, GROUP_SIZE_M);
  std::int64_t pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  std::int64_t pid_n = (pid % num_pid_in_group) / group_size_m;
  return {pid_m, pid_n};
}

TEST(CtaOrder, GroupedMatchesTritonForManyShapes) {
  for (std::int64_t M : {128, 1000, 4096, 8192 + 64})
    for (std::int64_t N : {128, 640, 4096, 3000})
      for (std::int64_t g : {1, 2, 3, 4, 8, 16, 64, 1000}) {
        std::int64_t tm = (M + 127) / 128, tn = (N + 127) / 128;
        CtaOrderConfig cfg;
        cfg.kind = "grouped";
        cfg.group_m = static_cast<int>(g);
        auto order = make_cta_order(cfg, tm, tn, "");
        for (std::int64_t pid = 0; pid < tm * tn; ++pid) {
          TileCoord want = triton_grouped(pid, M, N, 128, 128, g);
          TileCoord got = order->tile(pid);
          ASSERT_EQ(got.m, want.m) << M << " " << N << " g" << g << " pid " << pid;
          ASSERT_EQ(got.n, want.n) << M << " " << N << " g" << g << " pid " << pid;
        }
      }
}

TEST(CtaOrder, GroupOfOneIsRowMajor) {
  CtaOrderConfig g1{"grouped", 1, 1, ""}, rm{"row_major", 8, 8, ""};
  auto a = make_cta_order(g1, 7, 5, ""), b = make_cta_order(rm, 7, 5, "");
  for (int pid = 0; pid < 35; ++pid) {
    EXPECT_EQ(a->tile(pid).m, b->tile(pid).m);
    EXPECT_EQ(a->tile(pid).n, b->tile(pid).n);
  }
}

TEST(CtaOrder, EveryOrderIsABijectionOntoTheTileGrid) {
  for (const std::string kind : {"row_major", "column_major", "grouped", "grouped_n"})
    for (int g : {1, 3, 8}) {
      CtaOrderConfig cfg{kind, g, g, ""};
      auto order = make_cta_order(cfg, 13, 9, "");
      std::set<std::pair<std::int64_t, std::int64_t>> seen;
      for (int pid = 0; pid < 13 * 9; ++pid) {
        auto t = order->tile(pid);
        ASSERT_TRUE(t.m >= 0 && t.m < 13 && t.n >= 0 && t.n < 9) << kind;
        seen.insert({t.m, t.n});
      }
      EXPECT_EQ(seen.size(), 13u * 9u) << kind << " g" << g;
    }
}

TEST(CtaOrder, CustomFileIsReadAndChecked) {
  auto dir = test::temp_dir("custom_order");
  test::write_file(dir / "ok.txt", "# tile_m tile_n\n1 2\n0,0\n\n2 1  # trailing comment\n");
  CtaOrderConfig cfg{"custom", 8, 8, "ok.txt"};
  auto order = make_cta_order(cfg, 3, 3, dir.string());
  ASSERT_EQ(order->size(), 3);
  EXPECT_EQ(order->tile(0).m, 1);
  EXPECT_EQ(order->tile(0).n, 2);
  EXPECT_EQ(order->tile(2).m, 2);
  test::write_file(dir / "dup.txt", "0 0\n0 0\n");
  test::write_file(dir / "out.txt", "0 0\n5 0\n");
  test::write_file(dir / "bad.txt", "0 x\n");
  for (auto [file, want] : {std::pair{"dup.txt", "dup.txt:2: tile (0, 0) is listed twice"},
                            std::pair{"out.txt", "out.txt:2: tile (5, 0) is outside"},
                            std::pair{"bad.txt", "bad.txt:1: expected two integers"}}) {
    cfg.file = file;
    try {
      make_cta_order(cfg, 3, 3, dir.string());
      ADD_FAILURE() << file;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gms
