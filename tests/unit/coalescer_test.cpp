#include "model/coalescer.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <algorithm>
#include <set>

namespace gms {
namespace {

std::vector<Addr> strided(Addr base, std::int64_t stride, int lanes = 32) {
  std::vector<Addr> a;
  for (int i = 0; i < lanes; ++i) a.push_back(base + i * stride);
  return a;
}

TEST(Coalescer, UnitStrideFloatsAreOneFullLine) {
  auto r = coalesce(strided(0x1000, 4), ~0ull, 4, 128, 32);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].line, 0x1000u);
  EXPECT_EQ(r[0].sectors, 0xFu);
}

TEST(Coalescer, SixteenByteVectorsSpanFourLines) {
  auto r = coalesce(strided(0x2000, 16), ~0ull, 16, 128, 32);
  ASSERT_EQ(r.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(r[i].line, 0x2000u + 128u * i);
    EXPECT_EQ(r[i].sectors, 0xFu);
  }
}

TEST(Coalescer, ThirtyTwoByteStrideTouchesOneSectorPerLane) {
  // The GEMV's reduction atomics: lane i adds element e of its 8-float group, lanes 32 B apart.
  auto r = coalesce(strided(0x4000, 32), ~0ull, 4, 128, 32);
  ASSERT_EQ(r.size(), 8u);
  int sectors = 0;
  for (const auto& x : r) sectors += std::popcount(x.sectors);
  EXPECT_EQ(sectors, 32);
}

TEST(Coalescer, InactiveLanesAndBroadcastsCostNothingExtra) {
  auto r = coalesce(strided(0x1000, 4), 0x1ull, 4, 128, 32);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].sectors, 0x1u);
  EXPECT_TRUE(coalesce(strided(0x1000, 4), 0, 4, 128, 32).empty());
  auto b = coalesce(std::vector<Addr>(32, 0x1040), ~0ull, 4, 128, 32);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].sectors, 0x4u);
}

TEST(Coalescer, MisalignedAccessSplitsAcrossSectorsAndLines) {
  auto r = coalesce({0x107C}, 1, 8, 128, 32);  // bytes 0x107C..0x1083 straddle a line boundary
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].line, 0x1000u);
  EXPECT_EQ(r[0].sectors, 0x8u);
  EXPECT_EQ(r[1].line, 0x1080u);
  EXPECT_EQ(r[1].sectors, 0x1u);
}

TEST(Coalescer, WavefrontsOf64Lanes) {
  auto r = coalesce(strided(0, 4, 64), ~0ull, 4, 128, 32);
  EXPECT_EQ(r.size(), 2u);
}

// Property: the sectors returned are exactly the sectors some active lane's bytes fall in, each line
// once, in first-touch order.
// Every line and sector geometry the schema allows the shapes of (powers of two; up to 32 sectors a line,
// the last bit of the mask included), against a byte-by-byte cover: the same sectors, in first-touch order.
TEST(Coalescer, PropertyExactSectorCoverOnRandomPatterns) {
  std::mt19937_64 rng(7);
  for (auto [line, sector] : {std::pair<Addr, Addr>{128, 32}, {64, 32}, {128, 128}, {128, 4}, {256, 32}}) {
    for (int trial = 0; trial < 2000; ++trial) {
      int lanes = trial % 2 ? 32 : 64;
      std::uint32_t bytes = 1u << (rng() % 5);
      std::vector<Addr> a(lanes);
      for (auto& x : a) x = (rng() % 4096) * (trial % 3 ? bytes : 1);
      std::uint64_t active = trial % 5 == 0 ? ~0ull : rng();
      if (lanes == 32) active &= 0xFFFFFFFFull;
      std::set<std::pair<Addr, int>> want;
      std::vector<Addr> order;
      for (int i = 0; i < lanes; ++i) {
        if (!((active >> i) & 1)) continue;
        for (Addr b = a[i]; b < a[i] + bytes; ++b) {
          want.insert({b / line * line, static_cast<int>(b % line / sector)});
          if (std::find(order.begin(), order.end(), b / line * line) == order.end()) order.push_back(b / line * line);
        }
      }
      auto check = [&](const std::vector<LineRequest>& got_requests, const char* how) {
        std::set<std::pair<Addr, int>> got;
        std::vector<Addr> got_order;
        for (const auto& r : got_requests) {
          got_order.push_back(r.line);
          for (int s = 0; s < static_cast<int>(line / sector); ++s)
            if (r.sectors >> s & 1) got.insert({r.line, s});
        }
        ASSERT_EQ(got, want) << how << " line " << line << " sector " << sector << " trial " << trial;
        ASSERT_EQ(got_order, order) << how << " line " << line << " sector " << sector << " trial " << trial;
      };
      check(coalesce(a, active, bytes, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(sector)), "coalesce");
      if (active == (lanes == 32 ? 0xFFFFFFFFull : ~0ull)) {  // every lane active: the trace path too
        std::vector<LineRequest> out{{1, 1}};  // cleared first
        coalesce_into(out, a.data(), static_cast<std::uint32_t>(lanes), bytes, static_cast<std::uint32_t>(line),
                      static_cast<std::uint32_t>(sector));
        check(out, "coalesce_into");
      }
    }
  }
}

}  // namespace
}  // namespace gms
