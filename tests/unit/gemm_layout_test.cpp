// kind: gemm in either layout of A and B (workload layout.a / layout.b, workload/gemm_tiles.cpp): each
// layout must read every element of A and B, and only those, with the same number of line requests as
// row-major when its contiguous runs are whole lines - a wrong stride or a swapped dimension shows as DRAM
// bytes that are not the matrices' size.
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "metric_util.h"
#include "test_util.h"

namespace gms {
namespace {

using test::metric;

// A 256 x 384 times 384 x 512 fp16 GEMM (every dimension different, so a swapped one changes the
// footprint), 128x128x64 tiles: 8 CTAs, all of A and B fit the H100's L2 and are read from DRAM once.
LoadedConfigs gemm(const std::string& a, const std::string& b) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                   {"workload.m=256", "workload.n=512", "workload.k=384", "workload.layout.a=" + a,
                                    "workload.layout.b=" + b}});
}

TEST(GemmLayout, EveryLayoutReadsEachElementOfAAndBOnce) {
  const double a_bytes = 256.0 * 384 * 2, b_bytes = 384.0 * 512 * 2, a_and_b = a_bytes + b_bytes;
  auto row = gemm("row", "row");
  auto r0 = simulate(row);
  const double delivered = metric(row, r0, "l1tex__m_xbar2l1tex_read_sectors.sum");
  EXPECT_EQ(delivered, (4 * a_bytes + 2 * b_bytes) / 32);  // A's tiles to the 4 CTAs of a tile row, B's to 2
  EXPECT_EQ(metric(row, r0, "dram__bytes_read.sum"), a_and_b);
  for (auto [a, b] : {std::pair{"col", "row"}, std::pair{"row", "col"}, std::pair{"col", "col"}}) {
    SCOPED_TRACE(std::string("layout.a ") + a + ", layout.b " + b);
    auto cfg = gemm(a, b);
    auto run = simulate(cfg);
    EXPECT_EQ(metric(cfg, run, "dram__bytes_read.sum"), a_and_b);
    // Contiguous runs of 128 (A's m, B's n) or 64 (k) fp16 elements: 256 or 128 bytes, whole sectors in
    // either layout, so the SMs receive the same sectors (what merges at L2 depends on timing, not on this).
    EXPECT_EQ(metric(cfg, run, "l1tex__m_xbar2l1tex_read_sectors.sum"), delivered);
  }
}

}  // namespace
}  // namespace gms
