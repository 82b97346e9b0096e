#include "model/occupancy.h"

#include <gtest/gtest.h>

#include "api/simulation.h"
#include "common/error.h"
#include "test_util.h"

namespace gms {
namespace {

GpuConfig h100() { return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", {}}).gpu.value; }

LaunchShape shape(int warps, int regs, std::int64_t smem) {
  LaunchShape s;
  s.warps_per_cta = warps;
  s.registers_per_thread = regs;
  s.shared_mem_per_cta = smem;
  return s;
}

TEST(Occupancy, EachLimitCanBind) {
  GpuConfig g = h100();
  auto o = compute_occupancy(g, shape(4, 32, 0));
  EXPECT_EQ(o.ctas_per_sm, 16);  // 64 warps / 4
  EXPECT_EQ(o.limiter, "warps");
  o = compute_occupancy(g, shape(1, 32, 0));
  EXPECT_EQ(o.ctas_per_sm, 32);
  EXPECT_EQ(o.limiter, "ctas");
  o = compute_occupancy(g, shape(4, 200, 0));  // 200 x 32 = 6400 -> 6400 per warp -> 25600 per CTA
  EXPECT_EQ(o.ctas_per_sm, 2);
  EXPECT_EQ(o.limiter, "registers");
  o = compute_occupancy(g, shape(4, 32, 96 * 1024));  // (96 + 1) KiB of 228 KiB
  EXPECT_EQ(o.ctas_per_sm, 2);
  EXPECT_EQ(o.limiter, "shared_mem");
}

TEST(Occupancy, KernelThatCannotFitIsAUserError) {
  GpuConfig g = h100();
  EXPECT_THROW(compute_occupancy(g, shape(4, 32, 300 * 1024)), ConfigError);
  EXPECT_THROW(compute_occupancy(g, shape(128, 32, 0)), ConfigError);
  EXPECT_THROW(compute_occupancy(g, shape(32, 255, 0)), ConfigError);  // 32 x 32 x 256 > 65536
}

TEST(Occupancy, RegistersBeyondTheLimitAreCountedAsSpills) {
  GpuConfig g = h100();
  auto o = compute_occupancy(g, shape(1, 300, 0));
  EXPECT_EQ(o.registers_per_thread, 255);
  EXPECT_EQ(o.spilled_registers, 45);
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

// gms-carveout-ubench (validate/results/h100/carveout): a 1-warp CTA with S bytes of shared memory;
// L1 is what the driver's carve-out leaves of the 256 KiB array (hits measured up to a little less).
TEST(CarveOut, L1IsWhatTheMeasuredCarveOutLeaves) {
  GpuConfig g = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                                          {"gpu.l1.unified_bytes=256KiB",
                                           "gpu.l1.carveouts=0KiB,8KiB,16KiB,32KiB,64KiB,100KiB,132KiB,164KiB,196KiB,228KiB"}})
                    .gpu.value;
  ASSERT_EQ(g.l1.unified_bytes, 256 * 1024);
  auto l1_kib = [&](std::int64_t smem) {
    const LaunchShape s = shape(1, 32, smem);
    return l1_bytes_for(g, s, compute_occupancy(g, s)) / 1024;
  };
  EXPECT_EQ(l1_kib(16), 192);           // 32 CTAs x 1 KiB: carve-out 64 (hits to 184 KB)
  EXPECT_EQ(l1_kib(8 * 1024), 28);      // 25 x 9 KiB: 228 (hits to 16 KB)
  EXPECT_EQ(l1_kib(48 * 1024), 60);     // 4 x 49 KiB: 196 (hits to 48 KB)
  EXPECT_EQ(l1_kib(64 * 1024), 60);     // 3 x 65 KiB: 196
  EXPECT_EQ(l1_kib(100 * 1024), 28);    // 2 x 101 KiB: 228
  EXPECT_EQ(l1_kib(132 * 1024), 92);    // 1 x 133 KiB: 164 (hits to 88 KB)
  EXPECT_EQ(l1_kib(164 * 1024), 60);    // 165 KiB: 196
  EXPECT_EQ(l1_kib(227 * 1024), 28);    // 228
  // Registers that let 8 CTAs run leave more L1 than 32 CTAs' reserves would: the carve-out holds
  // twice those 8 (l1.carveout_headroom 2: Triton's 1-warp GEMVs at 255 registers, 128 B of shared
  // memory, were 28 CTAs short of shared memory under Nsight - 32 KiB), or the 8 alone (headroom 1).
  const LaunchShape spilled = shape(1, 255, 128);
  ASSERT_EQ(g.l1.carveout_headroom, 2);
  EXPECT_EQ(l1_bytes_for(g, spilled, compute_occupancy(g, spilled)) / 1024, 224);
  // Triton's spilling GEMM (4 warps, 255 registers: 2 CTAs; 72 KiB each): room for 4, as far as
  // 228 KiB holds them - 3, Nsight's shared-memory limit - leaving 28 KiB of L1.
  const LaunchShape gemm = shape(4, 255, 72 * 1024);
  EXPECT_EQ(l1_bytes_for(g, gemm, compute_occupancy(g, gemm)) / 1024, 28);
  g.l1.carveout_headroom = 1;
  EXPECT_EQ(l1_bytes_for(g, spilled, compute_occupancy(g, spilled)) / 1024, 240);
  EXPECT_EQ(l1_bytes_for(g, gemm, compute_occupancy(g, gemm)) / 1024, 92);
  // A record's own carve-out (what its profile implies) wins; one the GPU lacks, or too small for
  // the CTA, is refused.
  LaunchShape given = gemm;
  given.shared_carveout = 132 * 1024;
  EXPECT_EQ(l1_bytes_for(g, given, compute_occupancy(g, given)) / 1024, 124);
  given.shared_carveout = 100 * 1000;
  EXPECT_THROW(l1_bytes_for(g, given, compute_occupancy(g, given)), ConfigError);
  given.shared_carveout = 64 * 1024;
  EXPECT_THROW(l1_bytes_for(g, given, compute_occupancy(g, given)), ConfigError);
  // Without one array for both, L1 is l1.size whatever the kernel.
  g.l1.unified_bytes = 0;
  EXPECT_EQ(l1_bytes_for(g, shape(1, 32, 227 * 1024), compute_occupancy(g, shape(1, 32, 227 * 1024))), g.l1.size);
}

TEST(CarveOut, CarveOutListsParseOrSayWhy) {
  std::string why;
  auto c = parse_carveouts("0KiB, 8KiB,16KiB ,228KiB", &why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(*c, (std::vector<std::int64_t>{0, 8192, 16384, 228 * 1024}));
  EXPECT_TRUE(parse_carveouts("", &why)->empty());
  EXPECT_FALSE(parse_carveouts("8KiB,4KiB", &why));
  EXPECT_NE(why.find("must ascend"), std::string::npos);
  EXPECT_FALSE(parse_carveouts("8KiB,lots", &why));
  EXPECT_NE(why.find("'lots' is not a size in bytes"), std::string::npos);
  EXPECT_FALSE(parse_carveouts("8KiB,,16KiB", &why));
  // A preset whose carve-outs leave no L1 is refused where it is written.
  try {
    load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "",
                              {"gpu.l1.unified_bytes=256KiB", "gpu.l1.carveouts=0KiB,256KiB"}});
    ADD_FAILURE() << "a 256 KiB carve-out of a 256 KiB array was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu key 'l1.carveouts'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gms
