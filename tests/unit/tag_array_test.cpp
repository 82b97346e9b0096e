#include "model/tag_array.h"

#include <vector>

#include <gtest/gtest.h>

namespace gms {
namespace {

// 2 sets x 2 ways of 128 B lines with 32 B sectors.
TagArray small(Replacement p = Replacement::kLru) { return TagArray(512, 128, 32, 2, p); }

TEST(TagArray, SectorsMissThenHitAfterFill) {
  TagArray t = small();
  auto a = t.access(0, 0, 0x1000, 0b0011, false, 10);
  EXPECT_EQ(a.hit, 0u);
  EXPECT_EQ(a.miss, 0b0011u);
  t.fill(a.slot, a.miss, 500);
  auto b = t.access(0, 0, 0x1000, 0b0111, false, 20);
  EXPECT_EQ(b.hit, 0b0011u);   // filled sectors hit...
  EXPECT_EQ(b.miss, 0b0100u);  // ...the third sector of the same line still misses
  EXPECT_EQ(b.ready, 500u);    // a hit under a fill in flight waits for the fill
  auto c = t.access(0, 0, 0x1000, 0b0011, false, 600);
  EXPECT_EQ(c.ready, 600u);
}

TEST(TagArray, HeldSectorsAreReadableOnlyAfterTheHoldAndNeverEarlier) {
  TagArray t = small();
  auto a = t.access(0, 0, 0x1000, 0b0011, false, 10);
  t.fill(a.slot, 0b0011, 100);
  t.hold_until(a.slot, 0b0001, 900);                     // a read-modify-write of sector 0 until 900
  EXPECT_EQ(t.access(0, 0, 0x1000, 0b0001, false, 200).ready, 900u);
  EXPECT_EQ(t.access(0, 0, 0x1000, 0b0010, false, 200).ready, 200u);  // sector 1 is not held
  t.hold_until(a.slot, 0b0001, 500);                     // an earlier hold never shortens a later one
  EXPECT_EQ(t.access(0, 0, 0x1000, 0b0001, false, 300).ready, 900u);
  EXPECT_EQ(t.access(0, 0, 0x1000, 0b0001, false, 1000).ready, 1000u);
}

TEST(TagArray, LruEvictsLeastRecentlyUsed) {
  TagArray t = small();
  t.fill(t.access(0, 0, 0x0000, 0b1, false, 0).slot, 0b1, 0);
  t.fill(t.access(0, 0, 0x1000, 0b1, false, 0).slot, 0b1, 0);
  t.access(0, 0, 0x0000, 0b1, false, 0);  // touch: 0x1000 is now LRU
  t.access(0, 0, 0x2000, 0b1, false, 0);  // evicts 0x1000
  EXPECT_TRUE(t.contains(0, 0, 0x0000));
  EXPECT_FALSE(t.contains(0, 0, 0x1000));
  EXPECT_TRUE(t.contains(0, 0, 0x2000));
}

// An empty way is taken before any line is evicted - even an evict-first one - while any way of the array is empty,
// and again after invalidate_all (the victim search skips the empty-way scan only once every way holds a line).
TEST(TagArray, EmptyWaysAreTakenFirstBeforeTheArrayFillsAndAfterItEmpties) {
  TagArray t = small();
  t.access(0, 0, 0x0000, 0b1, false, 0, InsertPriority::kFirst);  // set 0: an evict-first line...
  t.access(0, 0, 0x1000, 0b1, false, 0);                          // ...beside it, in the empty way
  EXPECT_TRUE(t.contains(0, 0, 0x0000));
  EXPECT_TRUE(t.contains(0, 0, 0x1000));
  t.access(0, 1, 0x3000, 0b1, false, 0);
  t.access(0, 1, 0x4000, 0b1, false, 0);  // every way full now
  EXPECT_EQ(t.access(0, 0, 0x2000, 0b1, false, 0).evicted_dirty, 0u);
  EXPECT_FALSE(t.contains(0, 0, 0x0000));  // the evict-first line went
  EXPECT_TRUE(t.contains(0, 0, 0x1000));
  t.invalidate_all();
  t.access(0, 0, 0x5000, 0b1, false, 0, InsertPriority::kFirst);
  t.access(0, 0, 0x6000, 0b1, false, 0);
  EXPECT_TRUE(t.contains(0, 0, 0x5000));  // both in empty ways again
  EXPECT_TRUE(t.contains(0, 0, 0x6000));
}

TEST(TagArray, FifoIgnoresTouches) {
  TagArray t = small(Replacement::kFifo);
  t.access(0, 0, 0x0000, 0b1, false, 0);
  t.access(0, 0, 0x1000, 0b1, false, 0);
  t.access(0, 0, 0x0000, 0b1, false, 0);
  t.access(0, 0, 0x2000, 0b1, false, 0);  // evicts the first inserted
  EXPECT_FALSE(t.contains(0, 0, 0x0000));
  EXPECT_TRUE(t.contains(0, 0, 0x1000));
}

TEST(TagArray, SetsAreIndependent) {
  TagArray t = small();
  for (Addr a : {0x0000, 0x1000, 0x2000}) t.access(0, 0, a, 1, false, 0);
  t.access(0, 1, 0x3000, 1, false, 0);
  EXPECT_TRUE(t.contains(0, 1, 0x3000));
}

TEST(TagArray, DirtySectorsAreReportedOnEviction) {
  TagArray t = small();
  auto w = t.access(0, 0, 0x0000, 0b1001, true, 0);
  EXPECT_EQ(w.miss, 0b1001u);  // a write allocates without fetching
  EXPECT_EQ(t.dirty_sectors(), 2u);
  t.access(0, 0, 0x1000, 1, false, 0);
  auto e = t.access(0, 0, 0x2000, 1, false, 0);
  EXPECT_EQ(e.evicted_line, 0x0000u);
  EXPECT_EQ(e.evicted_dirty, 0b1001u);
  EXPECT_EQ(t.dirty_sectors(), 0u);
}

TEST(TagArray, LowPriorityInsertIsNextVictim) {
  TagArray t = small();
  t.access(0, 0, 0x0000, 1, false, 0);
  t.access(0, 0, 0x1000, 1, false, 0, InsertPriority::kFirst);
  t.access(0, 0, 0x2000, 1, false, 0);
  EXPECT_TRUE(t.contains(0, 0, 0x0000));
  EXPECT_FALSE(t.contains(0, 0, 0x1000));
}

// Evict-first lines go in way order (the first of equal stamps), wherever they sit in the set, and
// only then does LRU pick among the normal lines.
TEST(TagArray, EvictFirstLinesGoInWayOrderThenLru) {
  TagArray t(1024, 128, 32, 4, Replacement::kLru);  // 2 sets x 4 ways
  t.access(0, 0, 0x0000, 1, false, 0);                            // way 0, normal
  t.access(0, 0, 0x1000, 1, false, 0, InsertPriority::kFirst);    // way 1
  t.access(0, 0, 0x2000, 1, false, 0);                            // way 2, normal
  t.access(0, 0, 0x3000, 1, false, 0, InsertPriority::kFirst);    // way 3
  EXPECT_EQ(t.access(0, 0, 0x4000, 1, false, 0).evicted_line, 0u);  // clean: no write-back reported
  EXPECT_FALSE(t.contains(0, 0, 0x1000));
  EXPECT_TRUE(t.contains(0, 0, 0x3000));
  t.access(0, 0, 0x5000, 1, false, 0);
  EXPECT_FALSE(t.contains(0, 0, 0x3000));
  t.access(0, 0, 0x6000, 1, false, 0);  // no evict-first line left: the least recently used, 0x0000
  EXPECT_FALSE(t.contains(0, 0, 0x0000));
  for (Addr line : {0x2000, 0x4000, 0x5000, 0x6000}) EXPECT_TRUE(t.contains(0, 0, static_cast<Addr>(line)));
}

// Property: the banks of one TagArray behave exactly as separate arrays (same hits, ready times,
// victims and dirty evictions) under a random mix of reads, writes, fills and hints, for every policy.
TEST(TagArray, BanksBehaveAsSeparateArrays) {
  for (Replacement p : {Replacement::kLru, Replacement::kFifo, Replacement::kRandom}) {
    constexpr int kBanks = 3;
    TagArray banked(2048, 128, 32, 4, p, kBanks);
    std::vector<TagArray> separate(kBanks, TagArray(2048, 128, 32, 4, p));
    std::uint64_t x = 12345;
    auto rnd = [&x] { x = x * 6364136223846793005ull + 1442695040888963407ull; return x >> 33; };
    for (int i = 0; i < 20000; ++i) {
      const std::uint32_t bank = static_cast<std::uint32_t>(rnd() % kBanks);
      const std::uint32_t set = static_cast<std::uint32_t>(rnd() % banked.sets());
      const Addr line = (rnd() % 24) << 7;
      const std::uint32_t sectors = static_cast<std::uint32_t>(rnd() % 15 + 1);
      const bool write = rnd() % 4 == 0;
      const auto prio = static_cast<InsertPriority>(static_cast<int>(rnd() % 3) - 1);
      const Tick now = static_cast<Tick>(i) * 10;
      auto a = banked.access(bank, set, line, sectors, write, now, prio);
      auto b = separate[bank].access(0, set, line, sectors, write, now, prio);
      ASSERT_EQ(a.hit, b.hit) << i;
      ASSERT_EQ(a.miss, b.miss) << i;
      ASSERT_EQ(a.ready, b.ready) << i;
      ASSERT_EQ(a.valid, b.valid) << i;
      ASSERT_EQ(a.evicted_dirty, b.evicted_dirty) << i;
      ASSERT_EQ(a.evicted_line, b.evicted_line) << i;
      if (a.miss && !write) {
        banked.fill(a.slot, a.miss, now + 500);
        separate[bank].fill(b.slot, b.miss, now + 500);
      }
    }
    std::uint64_t dirty = 0;
    for (const auto& t : separate) dirty += t.dirty_sectors();
    EXPECT_EQ(banked.dirty_sectors(), dirty);
  }
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

TEST(TagArray, EvictLastLinesOutliveNormalOnes) {
  TagArray t(512, 128, 32, 2, Replacement::kLru);  // 2 sets x 2 ways
  t.access(0, 0, 0x0000, 1, false, 0, InsertPriority::kLast);
  t.access(0, 0, 0x1000, 1, false, 0);
  t.access(0, 0, 0x2000, 1, false, 0);  // the normal line goes, although the protected one is older
  t.access(0, 0, 0x3000, 1, false, 0);
  EXPECT_TRUE(t.contains(0, 0, 0x0000));
  EXPECT_FALSE(t.contains(0, 0, 0x1000));
  EXPECT_FALSE(t.contains(0, 0, 0x2000));
  EXPECT_TRUE(t.contains(0, 0, 0x3000));
  // A touch without the hint keeps the protection (the line was loaded evict_last).
  t.access(0, 0, 0x0000, 1, false, 0);
  t.access(0, 0, 0x4000, 1, false, 0);
  EXPECT_TRUE(t.contains(0, 0, 0x0000));
}

// Lookups compare a 16-bit fingerprint first and the full line address after: among 200,000 other
// lines, ~50 share a fingerprint with one of the 16 held ones, and none may be taken for it.
TEST(TagArray, FingerprintCollisionsNeverHit) {
  TagArray t(16 * 128, 128, 32, 16, Replacement::kLru);  // one set of 16 ways
  std::vector<Addr> held;
  for (Addr i = 0; i < 16; ++i) {
    const Addr line = (0x7f0000000000ull + i * 0x9d3800ull) & ~Addr{127};
    auto a = t.access(0, 0, line, 0b1111, false, 0);
    t.fill(a.slot, a.miss, 7);
    held.push_back(line);
  }
  for (Addr line : held) EXPECT_TRUE(t.contains(0, 0, line));
  int found = 0;
  for (Addr i = 1; i <= 200000; ++i) {
    const Addr line = 0x100000000ull + i * 128;
    found += t.contains(0, 0, line);
  }
  EXPECT_EQ(found, 0);
  // A miss on a colliding line allocates and evicts the LRU way, whose state does not leak into it.
  auto a = t.access(0, 0, 0x100000000ull + 128, 0b0001, false, 100);
  EXPECT_EQ(a.hit, 0u);
  EXPECT_EQ(a.valid, 0u);
  EXPECT_FALSE(t.contains(0, 0, held[0]));
  for (std::size_t k = 1; k < held.size(); ++k) EXPECT_TRUE(t.contains(0, 0, held[k]));
}

// Arrival ticks are stored in 32 bits from a moving epoch: across many epochs (2^34 ticks here, ~16 M
// cycles) every hit still waits exactly for its sectors' fill, fills long past read as "no wait",
// and a line filled before several epoch moves neither wraps into the future nor loses its state.
TEST(TagArray, ArrivalTicksSurviveEpochMoves) {
  TagArray t = small();
  auto old = t.access(0, 0, 0x1000, 0b0001, false, 5);
  t.fill(old.slot, old.miss, 1000);
  Tick now = 0;
  for (int step = 1; step <= 64; ++step) {
    now = static_cast<Tick>(step) << 28;
    auto a = t.access(0, 1, 0x2000 + 0x200 * static_cast<Addr>(step), 0b0011, false, now);
    t.fill(a.slot, a.miss, now + 777);  // in flight
    auto b = t.access(0, 1, 0x2000 + 0x200 * static_cast<Addr>(step), 0b0001, false, now + 5);
    EXPECT_EQ(b.hit, 0b0001u);
    EXPECT_EQ(b.ready, now + 777) << "step " << step;
    auto c = t.access(0, 1, 0x2000 + 0x200 * static_cast<Addr>(step), 0b0010, false, now + 900);
    EXPECT_EQ(c.ready, now + 900);  // the fill is past
  }
  auto d = t.access(0, 0, 0x1000, 0b0001, false, now + 1);  // filled 2^34 ticks ago
  EXPECT_EQ(d.hit, 0b0001u);
  EXPECT_EQ(d.ready, now + 1);
  // A fill whose data arrives beyond the latest lookup moves the epoch too.
  auto e = t.access(0, 0, 0x1000, 0b0010, false, now + 2);
  const Tick far = now + (Tick{3} << 31);
  t.fill(e.slot, e.miss, far);
  EXPECT_EQ(t.access(0, 0, 0x1000, 0b0010, false, far - (Tick{1} << 30)).ready, far);
}

}  // namespace
}  // namespace gms
