// l2.far_read_home_evict_first: the line a far read fills at its home slice (the near partition's copy then answers
// that partition) is its set's first victim there. gms-store-copy-ubench --pace (validate/results/h200/store_copies/pace):
// beside a slow stream of fresh reads silicon keeps a resident set as only this does; stores (dirty at home) are not
// touched by it. The replays here are the ubench's rounds (bench/store_rounds.h) on an H200 with a 6 MiB L2, sized down
// with it (the resident set and the stream a tenth of the record's 16 MiB each).
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "store_rounds.h"
#include "test_util.h"

namespace gms {
namespace {

GpuConfig small_h200(bool home_first) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h200.yaml"), "",
                                   {"gpu.l2.size=6MiB", std::string("gpu.l2.far_read_home_evict_first=") +
                                                            (home_first ? "true" : "false")}})
      .gpu.value;
}

// The resident set's share read again from DRAM a round after the first (the record's "R displaced a round").
double displaced(bool home_first, bench::Stream mode) {
  constexpr int kRounds = 8;
  constexpr std::uint64_t kBytes = 1600 * 1024;
  const auto r = bench::replay_store_rounds(small_h200(home_first), kBytes, kBytes, mode, kRounds);
  const double extra = static_cast<double>(r.read) - static_cast<double>(r.resident) -
                       (mode == bench::Stream::kRead ? static_cast<double>(r.stream) * kRounds : 0.0);
  return extra / (static_cast<double>(r.resident) * (kRounds - 1));
}

TEST(L2FarReadHome, OffInThePresets) {
  for (const char* preset : {"configs/gpus/h100.yaml", "configs/gpus/h200.yaml"})
    EXPECT_FALSE(load_configs(ConfigInputs{test::source_path(preset), "", {}}).gpu.value.l2.far_read_home_evict_first)
        << preset;
}

TEST(L2FarReadHome, AReadStreamDisplacesLessOfAResidentSet) {
  const double lru = displaced(false, bench::Stream::kRead), first = displaced(true, bench::Stream::kRead);
  EXPECT_GT(lru, 0.03);  // the stream does push the set out under plain LRU at this size
  EXPECT_LT(first, 0.5 * lru) << "LRU " << lru;
}

TEST(L2FarReadHome, AStoreStreamHardlyMoves) {
  // Stored lines are written at home, not filled for a copy; only the resident set's own far home lines change.
  EXPECT_NEAR(displaced(true, bench::Stream::kStore), displaced(false, bench::Stream::kStore), 0.02);
}

TEST(L2FarReadHome, AResidentSetAloneStays) {
  EXPECT_LT(displaced(true, bench::Stream::kNone), 0.01);
}

}  // namespace
}  // namespace gms
