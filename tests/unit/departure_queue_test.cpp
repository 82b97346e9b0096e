// DepartureQueue (sim/model/departure_queue.h): the lines that have left their SMs, taken across SMs in
// order of departure whatever order the SMs handed them over in.
#include "model/departure_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

namespace gms {
namespace {

struct Item {
  int sm;
  int seq;  // its place in its SM's order
};

// Pushes every SM's list (departures non-decreasing per SM) with the SMs interleaved as `rng` says, then
// pops everything: the (departure, SM, seq) triples in the order taken.
std::vector<std::tuple<Tick, int, int>> drain(const std::vector<std::vector<Tick>>& per_sm, std::mt19937& rng) {
  DepartureQueue<Item> q(static_cast<int>(per_sm.size()));
  std::vector<std::size_t> next(per_sm.size(), 0);
  std::size_t left = 0;
  for (const auto& v : per_sm) left += v.size();
  while (left > 0) {
    const int sm = static_cast<int>(rng() % per_sm.size());
    if (next[sm] == per_sm[sm].size()) continue;
    q.push(sm, per_sm[sm][next[sm]], Item{sm, static_cast<int>(next[sm])});
    ++next[sm];
    --left;
  }
  std::vector<std::tuple<Tick, int, int>> out;
  while (!q.empty()) {
    EXPECT_EQ(q.next(), q.front_departure());
    out.emplace_back(q.front_departure(), q.front().sm, q.front().seq);
    EXPECT_EQ(q.next_sm(), q.front().sm);
    q.pop();
  }
  EXPECT_EQ(q.size(), 0u);
  EXPECT_EQ(q.next(), kNever);
  return out;
}

TEST(DepartureQueue, TakesEveryRequestInOrderOfDepartureThenSmThenItsOwnOrder) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    const int sms = 1 + static_cast<int>(rng() % 12);
    std::vector<std::vector<Tick>> per_sm(static_cast<std::size_t>(sms));
    for (auto& v : per_sm) {
      Tick t = rng() % 20;
      for (int k = static_cast<int>(rng() % 40); k > 0; --k) v.push_back(t += rng() % 3);  // ties within and across SMs
    }
    const auto a = drain(per_sm, rng), b = drain(per_sm, rng);
    EXPECT_EQ(a, b) << "the order must not depend on how the SMs' pushes interleave";
    auto sorted = a;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(a, sorted);
    std::size_t total = 0;
    for (const auto& v : per_sm) total += v.size();
    EXPECT_EQ(a.size(), total);
  }
}

TEST(DepartureQueue, ADelayedRequestHoldsItsSmsLaterOnesBehindIt) {
  DepartureQueue<Item> q(2);
  q.push(0, 10, Item{0, 0});
  q.push(0, 11, Item{0, 1});
  q.push(1, 12, Item{1, 0});
  ASSERT_EQ(q.front().sm, 0);
  q.delay_front(20);  // SM 0's oldest waits until 20 (an MSHR): SM 1's goes first
  EXPECT_EQ(q.front().sm, 1);
  EXPECT_EQ(q.front_departure(), 12);
  q.pop();
  EXPECT_EQ(q.front_departure(), 20);
  EXPECT_EQ(q.front().seq, 0);
  q.pop();
  EXPECT_EQ(q.front_departure(), 20) << "SM 0's next request leaves no sooner than the one delayed before it";
  EXPECT_EQ(q.front().seq, 1);
  q.pop();
  EXPECT_TRUE(q.empty());
}

TEST(DepartureQueue, KeepsItsStorageBoundedUnderAQueueThatNeverEmpties) {
  DepartureQueue<Item> q(1);
  Tick t = 0;
  for (int k = 0; k < 100000; ++k) {
    q.push(0, t++, Item{0, k});
    q.push(0, t++, Item{0, k});
    q.pop();
  }
  EXPECT_EQ(q.size(), 100000u);
  int seen = 0;
  Tick last = 0;
  while (!q.empty()) {
    EXPECT_GE(q.front_departure(), last);
    last = q.front_departure();
    q.pop();
    ++seen;
  }
  EXPECT_EQ(seen, 100000);
}

}  // namespace
}  // namespace gms
