// The shared-memory data path's bookings (model/shared_path.h): instructions first come, first
// served; a copy's one-cycle fill slots at the ends of the instructions the path serves - the
// arbitration gms-fill-ubench measured (validate/results/h100/fill).
#include "model/shared_path.h"

#include <gtest/gtest.h>

#include <random>

#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

TEST(SharedPath, InstructionsAreServedInOrderOfIssue) {
  SharedPath p(2, true);
  EXPECT_EQ(p.book(0, 0, 16 * kCycle), 16 * kCycle);
  EXPECT_EQ(p.book(0, 4 * kCycle, 16 * kCycle), 32 * kCycle);  // queued behind the first
  EXPECT_EQ(p.book(0, 100 * kCycle, 4 * kCycle), 104 * kCycle);  // the path was idle
  EXPECT_EQ(p.book(1, 0, kCycle), kCycle);                        // another SM's path
}

// The fill ubench in miniature: 16-wavefront ldmatrix booked back to back keep the path busy; each
// 512-byte copy is two one-cycle slots. A slot waits for the end of the instruction in service, not
// for the queue, so a copy completes ~2 x 16 cycles after the one before it (silicon: 34) and costs
// the instructions booked after it 2 cycles (silicon: 1.92).
TEST(SharedPath, FillSlotsTakeTheInstructionBoundariesOneEach) {
  SharedPath p(1, true);
  for (int i = 0; i < 1000; ++i) p.book(0, 0, 16 * kCycle);
  const Tick queued = p.free_at(0);
  EXPECT_EQ(queued, 16000 * kCycle);
  Tick last = 0;
  for (int c = 0; c < 100; ++c) {
    const Tick done = p.fill_between(0, 0, 2 * kCycle);
    if (c > 0) {
      EXPECT_EQ(done - last, 32 * kCycle) << c;
    }
    last = done;
  }
  EXPECT_LT(last, 100 * 34 * kCycle);        // not behind the whole queue of 16,000 cycles
  EXPECT_EQ(p.free_at(0), queued + 200 * kCycle);  // what the slots took from later instructions
  // Beside 4-wavefront instructions the slots come 4 cycles apart: a copy every ~8 cycles.
  SharedPath q(1, true);
  for (int i = 0; i < 1000; ++i) q.book(0, 0, 4 * kCycle);
  const Tick first = q.fill_between(0, 0, 2 * kCycle);
  EXPECT_EQ(q.fill_between(0, 0, 2 * kCycle) - first, 8 * kCycle);
}

TEST(SharedPath, AFillOnAnIdlePathGoesAtOnce) {
  SharedPath p(1, true);
  p.book(0, 0, 16 * kCycle);
  EXPECT_EQ(p.fill_between(0, 50 * kCycle, 2 * kCycle), 52 * kCycle);
  EXPECT_EQ(p.free_at(0), 52 * kCycle);
  EXPECT_EQ(p.book(0, 51 * kCycle, 4 * kCycle), 56 * kCycle);  // after the slots
}

// A block of n instructions has n - 1 inner boundaries: a slot arriving inside the block waits only
// for the instruction it is in.
TEST(SharedPath, ABlocksInstructionsEachEndAtABoundary) {
  SharedPath p(1, true);
  p.book(0, 0, 64 * kCycle, 4);  // four 16-cycle instructions
  EXPECT_EQ(p.fill_between(0, 20 * kCycle, kCycle), 33 * kCycle);
  EXPECT_EQ(p.fill_between(0, 20 * kCycle, kCycle), 49 * kCycle);  // the next boundary
}

// Property: over random bookings and fills (in time order), every fill ends after it arrived, fills
// never overlap one another, and the path's end grows by exactly the booked instructions' and the
// slots' time when everything arrives at 0.
TEST(SharedPath, RandomBookingsKeepFillsOrderedAndTimeConserved) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    SharedPath p(1, true);
    Tick t = 0, booked = 0, last_fill = 0;
    for (int i = 0; i < 400; ++i) {
      t += static_cast<Tick>(rng() % 8) * kCycle;
      if (rng() % 3) {
        const Tick ticks = static_cast<Tick>(1 + rng() % 24) * kCycle;
        booked += ticks;
        p.book(0, t, ticks, 1 + rng() % 4);
      } else {
        const std::uint32_t slots = 1 + rng() % 4;
        const Tick done = p.fill_between(0, t, slots * kCycle);
        EXPECT_GE(done, t + slots * kCycle);
        EXPECT_GE(done, last_fill + slots * kCycle);
        last_fill = done;
      }
    }
    EXPECT_GE(p.free_at(0), booked);
  }
}

}  // namespace
}  // namespace gms
