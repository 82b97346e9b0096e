// AtomicLines: each line's reductions take turns l2.atomic_line_interval apart; other lines do not wait.
#include "model/atomic_lines.h"

#include <gtest/gtest.h>

#include <random>

namespace gms {
namespace {

TEST(AtomicLines, ALinesReductionsTakeTurnsOtherLinesDoNot) {
  AtomicLines lines(100);
  EXPECT_EQ(lines.start(7, 1000), 1000u);
  EXPECT_EQ(lines.start(7, 1000), 1100u);  // the same line, at once: its turn comes 100 later
  EXPECT_EQ(lines.start(7, 1050), 1200u);
  EXPECT_EQ(lines.start(8, 1050), 1050u);  // another line: no wait
  EXPECT_EQ(lines.start(7, 5000), 5000u);  // long after: no wait
}

TEST(AtomicLines, NoIntervalNeverWaits) {
  AtomicLines lines(0);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(lines.start(3, 42), 42u);
}

// Property: for any sequence of requests in time order, one line's starts are at least the interval
// apart and never before their arrival; a line alone in the table waits only for itself.
TEST(AtomicLines, StartsOfOneLineAreAnIntervalApartAndNeverEarly) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const Tick interval = 1 + rng() % 64;
    AtomicLines lines(interval, 64);
    Tick now = 0, last = 0;
    bool first = true;
    for (int i = 0; i < 500; ++i) {
      now += rng() % (2 * interval);
      const Tick s = lines.start(5, now);
      ASSERT_GE(s, now);
      if (!first) {
        ASSERT_GE(s, last + interval) << "trial " << trial << " request " << i;
      }
      if (!first && now >= last + interval) {
        ASSERT_EQ(s, now);  // its turn had come: no wait
      }
      last = s;
      first = false;
    }
  }
}

}  // namespace
}  // namespace gms
