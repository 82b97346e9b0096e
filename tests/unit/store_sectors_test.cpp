// Partly written sectors (model/store_sectors.h) and what they cost the write path
// (icnt.partial_sector_write_slots, measured by gms-store-ubench: validate/results/h100/store;
// l2.partial_sector_input_slots, gms-fabric-ubench halfstores: validate/results/h200/fabric_halfstores).
#include "model/store_sectors.h"

#include <gtest/gtest.h>

#include <random>

#include "api/simulation.h"
#include "model/engine.h"
#include "model/memory_system.h"
#include "one_cta_kernel.h"
#include "test_util.h"

namespace gms {
namespace {

// Property: a sector is partial exactly when the span touches it without covering all of it.
TEST(StoreSectors, SpanPartialsMatchByteCoverage) {
  std::mt19937 rng(7);
  const Addr line = 0x4000;
  for (int i = 0; i < 2000; ++i) {
    std::uniform_int_distribution<int> d(0, 128);
    int a = d(rng), b = d(rng);
    if (a == b) continue;
    const Addr lo = line + std::min(a, b), hi = line + std::max(a, b);
    std::uint32_t expect = 0;
    for (int s = 0; s < 4; ++s) {
      const Addr s0 = line + 32 * s, s1 = s0 + 32;
      const bool touched = lo < s1 && hi > s0, whole = lo <= s0 && hi >= s1;
      if (touched && !whole) expect |= 1u << s;
    }
    ASSERT_EQ(partial_sectors_of_span(line, lo, hi, 32), expect) << a << ".." << b;
  }
}

TEST(StoreSectors, LanesThatFillASectorLeaveNoPartial) {
  LineCoverage whole(0x1000, 128);
  for (int lane = 0; lane < 8; ++lane) whole.add(0x1000 + 4 * lane, 4);  // sector 0, 8 lanes x 4 B
  EXPECT_EQ(whole.partial(0b0001, 32), 0u);
  LineCoverage half(0x1000, 128);
  for (int lane = 0; lane < 4; ++lane) half.add(0x1020 + 4 * lane, 4);  // sector 1, 16 of 32 bytes
  half.add(0x0ff0, 64);                                                  // sector 0 whole (from before the line)
  EXPECT_EQ(half.partial(0b0011, 32), 0b0010u);
}

// gms-store-ubench in miniature: 4 warps each store 64-row tiles, one instruction of 8 rows at a time,
// 16 bytes a row (the WMMA epilogue's half sectors) or 32 (whole sectors), rows 32 KiB apart.
class TileStores final : public test::OneCtaKernel {
 public:
  explicit TileStores(std::uint32_t row_bytes) : OneCtaKernel("tile_stores", 4), row_bytes_(row_bytes) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const std::int64_t i = c.step++;
    if (i >= kInstructions) {
      out.op = Op::kExit;
      return;
    }
    out.op = Op::kStore;
    const Addr tile = 0x10000000 + static_cast<Addr>(c.warp) * 256;
    const Addr group = static_cast<Addr>(i % 64 / 8) * 8 * kPitch, strip = static_cast<Addr>(i % 8) * row_bytes_;
    out.region = Region{tile + group + strip, 8, row_bytes_, kPitch};
    out.issue_cycles = 1;
  }
  static constexpr std::int64_t kInstructions = 640;  // ten rounds of a 64-instruction tile
  static constexpr Addr kPitch = 32768;

 private:
  std::uint32_t row_bytes_;
};

TEST(StoreSectors, HalfSectorsLeaveAnSmAtHalfTheRate) {
  auto run = [](std::uint32_t row_bytes, const char* slots) {
    const SimResult r = test::run_on_h100(TileStores(row_bytes), {std::string("gpu.icnt.partial_sector_write_slots=") + slots,
                                                                  "gpu.launch.kernel_overhead=0"});
    return 4.0 * TileStores::kInstructions * 8 / ticks_to_cycles(r.end);  // sectors per SM cycle
  };
  const double half = run(16, "2"), whole = run(32, "2"), half_flat = run(16, "1");
  RecordProperty("half_sectors_per_cycle", std::to_string(half));
  RecordProperty("whole_sectors_per_cycle", std::to_string(whole));
  // Silicon (one SM, 4 warps): 0.50 half sectors a cycle, 0.91-0.96 whole ones.
  EXPECT_NEAR(half, 0.5, 0.05);
  EXPECT_NEAR(whole, 1.0, 0.1);
  EXPECT_NEAR(half_flat, whole, 0.05 * whole);  // a preset without the cost sends them like whole ones
}

// The slices' crossbar inputs take a half sector at l2.partial_sector_input_slots of a whole one's slots: with
// only the inputs binding (0.25 B a cycle each), one SM's half sectors are in L2 that much later than its whole ones.
TEST(StoreSectors, HalfSectorsTakeTheSlicesInputsAtTheirOwnSlots) {
  auto taken = [](bool half, const char* slots) {
    auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                         {"gpu.icnt.sm_write_bytes_per_cycle=0", "gpu.icnt.sm_requests_per_cycle=0", "gpu.l2.fabric_bytes_per_cycle=0",
                                          "gpu.l2.input_bytes_per_cycle=0.25", std::string("gpu.l2.partial_sector_input_slots=") + slots}});
    MemorySystem mem(cfg.gpu.value);
    const Addr base = 0x7f0000000000;
    const std::uint32_t bytes = 256 * 1024;
    const Region r = half ? Region{base, bytes / 32, 16, 32} : Region{base, 1, bytes, 0};
    return static_cast<double>(mem.store(AccessCtx{0, 0, nullptr}, r).taken);
  };
  const double whole = taken(false, "1.25");
  // Silicon (H200): 1.26-1.28 input cycles a half sector against 1.01-1.02 a whole one.
  EXPECT_NEAR(taken(true, "1.25") / whole, 1.25, 0.06);
  EXPECT_NEAR(taken(true, "1") / whole, 1.0, 0.05);
  EXPECT_NEAR(taken(true, "2") / whole, 2.0, 0.1);
}

}  // namespace
}  // namespace gms
