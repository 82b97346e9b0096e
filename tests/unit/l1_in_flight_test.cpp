// model/l1_in_flight.h: loads that hit L1 sectors whose miss is still in an outbox (l2.reads_in_arrival_order) wait
// for the request that brings them, and complete when every sector they waited on is back.
#include "model/l1_in_flight.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace gms {
namespace {

TEST(L1InFlight, AHitWaitsForEveryLateSectorAndTakesTheLaterOfItsFloorAndTheData) {
  L1InFlight f;
  const Addr line = 0x7f0000000080ull;
  f.sent(3, line, 0b0011);
  f.sent(3, line, 0b0100);  // a second miss of the same line, other sectors
  EXPECT_EQ(f.late(3, line, 0b1111), 0b0111u);
  EXPECT_EQ(f.late(3, line + 128, 0b1111), 0u);  // another line in the slot (refilled): not this one's
  EXPECT_EQ(f.late(4, line, 0b1111), 0u);
  f.wait(3, line, 0b0101, /*load=*/7, /*floor=*/1000);
  f.wait(3, line, 0b0010, /*load=*/8, /*floor=*/5000);
  std::vector<std::pair<std::uint32_t, Tick>> done;
  auto record = [&](std::uint32_t load, Tick at) { done.emplace_back(load, at); };
  f.back(3, line, 0b0011, 2000, record);  // load 8 is complete (its floor is later); load 7 still waits on sector 2
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0], (std::pair<std::uint32_t, Tick>{8, 5000}));
  EXPECT_EQ(f.late(3, line, 0b1111), 0b0100u);
  f.back(3, line, 0b0100, 1500, record);  // the later of its two requests' data (2000) and its floor
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[1], (std::pair<std::uint32_t, Tick>{7, 2000}));
  EXPECT_TRUE(f.empty());
}

}  // namespace
}  // namespace gms
