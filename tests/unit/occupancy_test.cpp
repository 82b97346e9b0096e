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
