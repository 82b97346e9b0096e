// The shared-memory data path in turns (sm.shared_path_in_turns, model/shared_path.h's turn_wait / book_in_turn):
// a new instruction waits for the few already past the turn and one of each other warp's, not the booked queue -
// what gms-ldg-backlog-ubench measured (validate/results/h200/ldg_backlog) - and a lone warp's wavefronts, 2 cycles
// apart for it (gms-lds-pace-ubench), leave gaps that only another warp's instructions fill (gms-mio-ubench: a lone
// warp's 32-way LDS.32 every 63.3 cycles).
#include <gtest/gtest.h>

#include <random>

#include "model/engine.h"
#include "model/shared_path.h"
#include "one_cta_kernel.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

// Seven warps keep 8 conflict-free LDS.128 (4 wavefronts) each booked; a chasing warp's one-wavefront LDS asked at
// t waits for the `depth` in front and one of each other warp: (depth + 7) x 4 cycles, not the 56 booked x 4.
TEST(SharedPathTurns, ANewInstructionWaitsOneOfEachWarpNotTheQueue) {
  for (std::uint32_t depth : {0u, 2u, 4u}) {
    SharedPath p(1, true);
    for (int k = 0; k < 8; ++k)
      for (int w = 0; w < 7; ++w) p.book_in_turn(0, 0, 4 * kCycle, 1, w, depth, 4 * kCycle);
    EXPECT_EQ(p.free_at(0), 224 * kCycle);
    EXPECT_EQ(p.turn_wait(0, 0, 1, 7, depth), (depth + 7) * 4 * kCycle) << depth;
    // First come, first served would have waited the whole booked path.
    const Tick done = p.book_in_turn(0, 0, kCycle, 1, 7, depth, kCycle);
    EXPECT_EQ(done, ((depth + 7) * 4 + 1) * kCycle) << depth;
    EXPECT_EQ(p.free_at(0), 225 * kCycle) << depth;  // the path's later bookings come after its cycle as well
  }
}

// A lone warp's 32-way loads: 32 path cycles, 63 of its own (31 replays two cycles apart). Its own chain sets the
// pace (each starts when the last is through), and a new warp's load waits for the front ones at their own time.
TEST(SharedPathTurns, ALoneWarpsReplaysSetItsPaceAndTheFrontWait) {
  SharedPath p(1, true);
  Tick last = 0;
  for (int k = 0; k < 10; ++k) {
    const Tick done = p.book_in_turn(0, 0, 32 * kCycle, 1, 0, 3, 63 * kCycle);
    EXPECT_EQ(done - last, 63 * kCycle) << k;
    last = done;
  }
  EXPECT_EQ(p.done_at(0), 630 * kCycle);
  // Asked at 0: the front three at 63 each, then the flood's next as a turn (its path cycles).
  EXPECT_EQ(p.turn_wait(0, 0, 1, 1, 3), (3 * 63 + 32) * kCycle);
  // Asked part way through the first: what is left of it counts.
  EXPECT_EQ(p.turn_wait(0, 13 * kCycle, 1, 1, 3), (50 + 2 * 63 + 32) * kCycle);
  // Its own warp waits for every earlier one of its own.
  EXPECT_EQ(p.turn_wait(0, 0, 1, 0, 3), 630 * kCycle);
}

// gms-mio-ubench's paces (validate/results/h100/mio): a lone warp's 32-way LDS.32 every 63.3 cycles, two or four
// warps' every 31.5-31.8 for the SM - one warp's replay gaps filled by the others', never faster than the path.
TEST(SharedPathTurns, WarpsFillEachOthersReplayGapsUpToThePathsRate) {
  for (int warps : {1, 2, 4, 8}) {
    SharedPath p(1, true);
    Tick last = 0;
    for (int k = 0; k < 40; ++k)
      for (int w = 0; w < warps; ++w) last = std::max(last, p.book_in_turn(0, 0, 32 * kCycle, 1, w, 4, 63 * kCycle));
    const double pace = static_cast<double>(last) / kCycle / (40 * warps);
    if (warps == 1) {
      EXPECT_DOUBLE_EQ(pace, 63.0);
    } else {
      EXPECT_GE(pace, 32.0) << warps;
      EXPECT_LE(pace, 33.0) << warps;
    }
  }
}

// Property: a turn never waits longer than everything booked, and the path's free time only grows.
TEST(SharedPathTurns, ATurnIsNeverLongerThanTheWholeBookedPath) {
  std::mt19937 rng(7);
  SharedPath p(1, true);
  Tick t = 0, free = 0;
  for (int i = 0; i < 5000; ++i) {
    t += static_cast<Tick>(rng() % 8) * kCycle;
    const int warp = static_cast<int>(rng() % 12);
    const std::uint32_t n = 1 + rng() % 4;
    const Tick ticks = static_cast<Tick>(n * (1 + rng() % 32)) * kCycle;
    const std::uint32_t depth = rng() % 5;
    const Tick wait = p.turn_wait(0, t, n, warp, depth);
    ASSERT_LE(t + wait, std::max(t, p.done_at(0))) << i;
    p.book_in_turn(0, t, ticks, n, warp, depth, ticks + static_cast<Tick>(rng() % 32) * kCycle);
    ASSERT_GE(p.free_at(0), free) << i;
    free = p.free_at(0);
  }
}

// gms-lds-pace-ubench in the engine: warps 0 .. warps-1 (one a sub-partition) each issue 64 independent conflict-free
// LDS.128 (4 wavefronts, 16 bytes a lane) one at a time, then wait for them. A lone warp's wavefronts at the replay pace
// alone would take 8 cycles a load; its data, 512 bytes a load reaching it at sm.shared_warp_bytes_per_cycle (40), 12.8
// - silicon 12.65. Four warps share the path (16 wavefronts a round of loads): its one wavefront a cycle binds, not the
// warps' data (silicon 17.49).
class Lds128Stream final : public test::OneCtaKernel {
 public:
  Lds128Stream(int warps, std::uint8_t lane_bytes) : OneCtaKernel("lds128_stream", warps), lane_bytes_(lane_bytes) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (test::wait_then_exit(step, kLoads, 1, out)) return;
    out.op = Op::kSharedLoad;
    out.issue_cycles = 1;
    out.wavefronts = 4;
    out.lane_bytes = lane_bytes_;
    out.slot = 1;
  }
  static constexpr int kLoads = 64;

 private:
  std::uint8_t lane_bytes_;
};

double cycles_per_load(int warps, std::uint8_t lane_bytes, const char* bytes_per_cycle) {
  const SimResult r = test::run_on_h100(
      Lds128Stream(warps, lane_bytes),
      {"gpu.sm.shared_path_in_turns=true", "gpu.sm.shared_path_depth=4", "gpu.sm.shared_replay_cycles=2cycles",
       "gpu.sm.shared_latency_per_wavefront=0cycles", "gpu.sm.mio_queue_per_subpartition=0", "gpu.sm.mio_queue_per_sm=0",
       std::string("gpu.sm.shared_warp_bytes_per_cycle=") + bytes_per_cycle});
  return ticks_to_cycles(r.end) / Lds128Stream::kLoads;
}

TEST(SharedPathTurns, ALoneWarpsVectorLoadsTakeTheirBytesAtItsDataRate) {
  const double bytes = cycles_per_load(1, 16, "40"), replay = cycles_per_load(1, 16, "0"),
               unknown = cycles_per_load(1, 0, "40");
  EXPECT_GE(bytes, 12.8);  // 512 bytes at 40 a cycle, the first load's latency spread over 64
  EXPECT_LE(bytes, 14.0);
  EXPECT_GE(replay, 8.0);  // 4 wavefronts 2 cycles apart
  EXPECT_LE(replay, 9.2);
  EXPECT_DOUBLE_EQ(unknown, replay);  // a load whose lanes' bytes are not known keeps the replay pace
  const double shared = cycles_per_load(4, 16, "40");  // each warp's, four warps on the path
  EXPECT_GE(shared, 16.0);
  EXPECT_LE(shared, 17.2);
}

}  // namespace
}  // namespace gms
