// Layouts, swizzles and partitions: CuTe's documented examples, round trips and bijectivity.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "common/error.h"
#include "layout/layout.h"
#include "layout/partition.h"
#include "layout/swizzle.h"

namespace gms {
namespace {

TEST(Layout, ParsesPrintsAndEvaluatesCuteExamples) {
  // CuTe's layout tutorial: (4,2):(1,4) is column-major, (4,2):(2,1) row-major.
  Layout col = parse_layout("(4,2):(1,4)");
  Layout row = parse_layout("(4,2):(2,1)");
  EXPECT_EQ(col.str(), "(4,2):(1,4)");
  EXPECT_EQ(col.size(), 8);
  EXPECT_EQ(row.cosize(), 8);
  EXPECT_EQ(col.at({3, 1}), 7);
  EXPECT_EQ(row.at({3, 1}), 7);
  EXPECT_EQ(row.at({1, 0}), 2);
  // 1-D coordinates are colexicographic: i = 5 is (1, 1).
  EXPECT_EQ(row(5), 3);
  // Hierarchical: ((2,2),2):((4,1),2) from the tutorial maps 0..7 to 0,4,1,5,2,6,3,7.
  Layout h = parse_layout("((2,2),2):((4,1),2)");
  std::vector<std::int64_t> got;
  for (std::int64_t i = 0; i < h.size(); ++i) got.push_back(h(i));
  EXPECT_EQ(got, (std::vector<std::int64_t>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(h.mode(0).str(), "(2,2):(4,1)");
  // The stride defaults to column-major; CuTe's static markers are read.
  EXPECT_EQ(parse_layout("(16,4)").str(), "(16,4):(1,16)");
  EXPECT_EQ(parse_layout("((_4,_1),_1,_4):((_1,_0),_0,_256)").str(), "((4,1),1,4):((1,0),0,256)");
  EXPECT_EQ(parse_layout("8:1").str(), "8:1");
  EXPECT_EQ(parse_layout(" ( 64 , 16 ) : ( 1 , 64 ) ").str(), "(64,16):(1,64)");
}

TEST(Layout, MalformedTextNamesTheColumn) {
  auto message = [](const std::string& text) {
    try {
      parse_layout(text, "--tensor");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("(16,4:(1,16)").find("found ':' at column 6"), std::string::npos) << message("(16,4:(1,16)");
  EXPECT_NE(message("(16,4):(1,16").find("expected ',' or ')'"), std::string::npos);
  EXPECT_NE(message("(16,4):(1,(16,2))").find("not congruent"), std::string::npos);
  EXPECT_NE(message("(0,4)").find(">= 1"), std::string::npos);
  EXPECT_NE(message("(16,4) x").find("expected ':'"), std::string::npos);
  EXPECT_NE(message("").find("expected a number"), std::string::npos);
  EXPECT_NE(message("(a,4)").find("found 'a'"), std::string::npos);
  EXPECT_NE(message("99999999999999999999").find("too large"), std::string::npos);
  EXPECT_EQ(message("(16,4):(1,16)"), "no error");
}

TEST(Layout, InjectiveAndBijective) {
  EXPECT_TRUE(parse_layout("(16,4):(1,16)").bijective());
  EXPECT_TRUE(parse_layout("(16,4):(4,1)").bijective());
  EXPECT_FALSE(parse_layout("(16,4):(1,8)").injective());   // overlaps
  EXPECT_TRUE(parse_layout("(16,4):(1,32)").injective());   // gaps: injective, not onto
  EXPECT_FALSE(parse_layout("(16,4):(1,32)").bijective());
  EXPECT_FALSE(parse_layout("(4,2):(0,1)").injective());    // broadcast
  auto inv = parse_layout("(4,2):(2,1)").inverse_table();
  for (std::int64_t k = 0; k < 8; ++k) EXPECT_EQ(parse_layout("(4,2):(2,1)")(inv[static_cast<size_t>(k)]), k);
}

// Property: random nested layouts print and parse back to themselves; compact ones are bijective
// and mode_coords inverts at().
TEST(Layout, RandomRoundTripsAndCompactBijections) {
  std::mt19937 rng(1234);
  auto random_shape = [&](auto&& self, int depth) -> IntTuple {
    if (depth == 0 || rng() % 3 == 0) return IntTuple::integer(1 + rng() % 6);
    std::vector<IntTuple> c;
    int n = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) c.push_back(self(self, depth - 1));
    return IntTuple::tuple(std::move(c));
  };
  for (int iter = 0; iter < 500; ++iter) {
    IntTuple shape = random_shape(random_shape, 3);
    if (shape.product() > 4096) continue;
    Layout compact = Layout::column_major(shape);
    EXPECT_EQ(parse_layout(compact.str()).str(), compact.str());
    ASSERT_TRUE(compact.bijective()) << compact.str();
    for (std::int64_t i = 0; i < compact.size(); ++i) EXPECT_EQ(compact.at(compact.mode_coords(i)), compact(i));
  }
}

TEST(Swizzle, MatchesCuteDefinitionAndIsAnInvolution) {
  Swizzle s = parse_swizzle("3,3,3");
  // Swizzle<3,3,3>: bits 6-8 (the row of 64 halfs) XOR into bits 3-5 (the 16-byte chunk).
  EXPECT_EQ(s(0), 0);
  EXPECT_EQ(s(64), 64 + 8);     // row 1, chunk 0 -> chunk 1
  EXPECT_EQ(s(7 * 64 + 8), 7 * 64 + 8 * (1 ^ 7));
  EXPECT_EQ(parse_swizzle("Swizzle<2,0,-2>").str(), "Swizzle<2,0,-2>");
  for (const char* t : {"3,3,3", "2,0,2", "5,0,5", "3,4,3", "2,2,-3"}) {
    Swizzle z = parse_swizzle(t);
    std::set<std::int64_t> image;
    for (std::int64_t i = 0; i < 4096; ++i) {
      EXPECT_EQ(z(z(i)), i) << t;
      image.insert(z(i));
    }
    EXPECT_EQ(image.size(), 4096u) << t;
  }
  EXPECT_TRUE(parse_swizzle("none").identity());
  EXPECT_THROW(parse_swizzle("3,3,2"), ConfigError);  // |S| < B
  EXPECT_THROW(parse_swizzle("3,3"), ConfigError);
  EXPECT_THROW(parse_swizzle("Swizzle<3,3,3"), ConfigError);
  // Found by libFuzzer (scripts/fuzz.sh): digits past int made atoi overflow into a negative shift.
  EXPECT_THROW(parse_swizzle("0999999999999999999999999999999,\n1,0234444444444444442"), ConfigError);
  EXPECT_THROW(parse_swizzle("4294967297,0,4294967297"), ConfigError);
}

TEST(Partition, SeedTiledCopyMatchesCutesPrintedLayouts) {
  // Seed 002: thr (16,4), val (4,1) over sA (64,16):(1,64) gives tAsA ((4,1),1,4):((1,0),0,256).
  Partition p = tiled_copy_partition(parse_layout("(64,16):(1,64)"), parse_layout("(16,4)"), parse_layout("(4,1)"));
  EXPECT_EQ(p.threads, 64);
  EXPECT_EQ(p.values_per_thread, 16);
  for (std::int64_t t : {0, 1, 15, 16, 63})
    for (std::int64_t r = 0; r < 4; ++r)
      for (std::int64_t v = 0; v < 4; ++v)
        EXPECT_EQ(p.offset(t, r * 4 + v), 4 * (t % 16) + 64 * (t / 16) + v + 256 * r) << t;
}

TEST(Partition, SeedLocalPartitionsOfTheCThreadLayout) {
  Layout sA = parse_layout("(64,16):(1,64)");
  Layout tC = parse_layout("(8,8)");
  // tCsA = local_partition(sA, tC, tid, Step<_1,X>) : (8,16):(8,64) starting at row tid % 8.
  Partition a = local_partition(sA, tC, {true, false});
  // tCsB = local_partition(sB, tC, tid, Step<X,_1>) : (8,16):(8,64) starting at row tid / 8.
  Partition b = local_partition(sA, tC, {false, true});
  ASSERT_EQ(a.values_per_thread, 128);
  for (std::int64_t t = 0; t < 64; ++t)
    for (std::int64_t k = 0; k < 16; ++k)
      for (std::int64_t i = 0; i < 8; ++i) {
        EXPECT_EQ(a.offset(t, k * 8 + i), t % 8 + 8 * i + 64 * k);
        EXPECT_EQ(b.offset(t, k * 8 + i), t / 8 + 8 * i + 64 * k);
      }
  EXPECT_EQ(parse_step("_1,X", 2), (std::vector<bool>{true, false}));
  EXPECT_THROW(parse_step("1,Y", 2), ConfigError);
  EXPECT_THROW(parse_step("1", 2), ConfigError);
}

TEST(Partition, RejectsWhatCuteWouldReject) {
  Layout t = parse_layout("(64,16):(1,64)");
  EXPECT_THROW(tiled_copy_partition(t, parse_layout("(16,4):(1,8)"), parse_layout("(4,1)")), ConfigError);  // threads overlap
  EXPECT_THROW(tiled_copy_partition(t, parse_layout("(16,3)"), parse_layout("(4,1)")), ConfigError);        // 16 % 3
  EXPECT_THROW(tiled_copy_partition(t, parse_layout("(16,4,2)"), parse_layout("(4,1)")), ConfigError);      // rank
}

// Property: every element of the tile is moved by exactly one (thread, value) of a TiledCopy.
TEST(Partition, TiledCopyCoversEachElementOnce) {
  for (const char* thr : {"(16,4)", "(16,4):(4,1)", "(8,8)", "(32,2)", "((4,4),4):((1,16),4)"})
    for (const char* val : {"(4,1)", "(1,4)", "(2,2)", "(1,1)"}) {
      Layout tensor = parse_layout("(128,32):(32,1)");
      Partition p = tiled_copy_partition(tensor, parse_layout(thr), parse_layout(val));
      std::multiset<std::int64_t> seen(p.offsets.begin(), p.offsets.end());
      ASSERT_EQ(seen.size(), 4096u) << thr << " " << val;
      for (std::int64_t e = 0; e < 4096; ++e) EXPECT_EQ(seen.count(e), 1u) << thr << " " << val << " element " << e;
    }
}

}  // namespace
}  // namespace gms
