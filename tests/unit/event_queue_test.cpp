// The engine's 4-ary event heap pops exactly what a binary std::priority_queue pops, for any
// interleaving of pushes and pops, ties and duplicates included - which is why swapping it in left
// every simulated number unchanged.
#include <gtest/gtest.h>

#include <queue>
#include <vector>

#include "model/event_queue.h"

namespace gms {
namespace {

TEST(EventQueue, PopsInTheOrderOfAStdPriorityQueue) {
  std::uint64_t s = 0x243F6A8885A308D3ull;
  auto next = [&s] { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  for (int round = 0; round < 20; ++round) {
    EventQueue q;
    std::priority_queue<EventQueue::Event, std::vector<EventQueue::Event>, std::greater<>> ref;
    const Tick span = round % 2 ? 16 : 1u << 20;  // few distinct ticks: many ties and duplicates
    for (int i = 0; i < 20000; ++i) {
      if (ref.empty() || next() % 3 != 0) {
        const Tick t = next() % span;
        const auto index = static_cast<std::uint32_t>(next() % 64);
        q.emplace(t, index);
        ref.emplace(t, index);
      } else {
        ASSERT_EQ(q.top(), ref.top()) << "round " << round << ", step " << i;
        q.pop();
        ref.pop();
      }
      ASSERT_EQ(q.size(), ref.size());
    }
    while (!ref.empty()) {
      ASSERT_EQ(q.top(), ref.top());
      q.pop();
      ref.pop();
    }
    EXPECT_TRUE(q.empty());
  }
}

}  // namespace
}  // namespace gms
