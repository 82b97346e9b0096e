#include <gtest/gtest.h>

#include <sstream>

#include "api/simulation.h"
#include "common/types.h"
#include "metric_util.h"
#include "stats/report.h"
#include "test_util.h"
#include "workload/gemm_epilogue.h"

namespace gms {
namespace {

using test::metric;

// A warp's share of a 128x128 fp16 C tile over 4 warps in the model: 32 rows of 256 bytes.
const Region kShare{0x10000, 32, 256, 8192 * 2};

TEST(GemmEpilogue, FragmentsStoreSixteenBytesARowPerInstruction) {
  GemmEpilogue e("fragments", 2, 32);
  ASSERT_EQ(e.blocks(kShare), 16);  // 256-byte rows in 16-byte strips (4 lanes x 2 halves)
  std::uint64_t instructions = 0, bytes = 0;
  for (int i = 0; i < e.blocks(kShare); ++i) {
    Instr in = e.block(kShare, i);
    EXPECT_EQ(in.op, Op::kStore);
    EXPECT_EQ(in.region.base, kShare.base + 16u * i);
    EXPECT_EQ(in.region.row_bytes, 16u);
    EXPECT_EQ(in.region.rows, 32u);
    EXPECT_EQ(in.region.stride, kShare.stride);
    instructions += in.issue_cycles;
    bytes += static_cast<std::uint64_t>(in.region.rows) * in.region.row_bytes;
  }
  // 8 rows a STG.E: 64 per warp, as the WMMA kernel's SASS stores its 64x64 share.
  EXPECT_EQ(instructions, 64u);
  EXPECT_EQ(bytes, 32u * 256);
}

TEST(GemmEpilogue, Fp32FragmentsFillWholeSectorsAndCoalescedRowsTakeOneBlock) {
  GemmEpilogue f32("fragments", 4, 32);
  EXPECT_EQ(f32.blocks(kShare), 8);
  EXPECT_EQ(f32.block(kShare, 7).region.row_bytes, 32u);
  GemmEpilogue whole("coalesced", 2, 32);
  ASSERT_EQ(whole.blocks(kShare), 1);
  Instr in = whole.block(kShare, 0);
  EXPECT_EQ(in.region.row_bytes, 256u);
  EXPECT_EQ(in.issue_cycles, 16u);  // 8 KB at 16 bytes a lane
  // A narrower last strip: a 40-byte row leaves 8 bytes for the third.
  Region edge = kShare;
  edge.row_bytes = 40;
  GemmEpilogue f16("fragments", 2, 32);
  ASSERT_EQ(f16.blocks(edge), 3);
  EXPECT_EQ(f16.block(edge, 2).region.row_bytes, 8u);
}

LoadedConfigs wmma(const std::string& epilogue) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                   {"workload.m=1024", "workload.n=1024", "workload.k=512", "workload.tile.k=32",
                                    "workload.smem.swizzle=none", "workload.smem.pad=8",
                                    "workload.epilogue=" + epilogue}});
}

// Half-sector stores reach L2 twice as often and take the SM's write port twice as long; the same
// bytes end in DRAM. (The H100's WMMA GEMM: 1.9x the write sectors of whole rows, measured.)
TEST(GemmEpilogue, FragmentsDoubleTheL2WriteSectorsOfA16BitC) {
  auto whole_cfg = wmma("coalesced"), frag_cfg = wmma("fragments");
  auto whole = simulate(whole_cfg), frag = simulate(frag_cfg);
  const double w = metric(whole_cfg, whole, "lts__t_sectors_op_write.sum");
  EXPECT_GE(w, 1024.0 * 1024 * 2 / 32);  // every sector of C at least once
  EXPECT_EQ(metric(frag_cfg, frag, "lts__t_sectors_op_write.sum"), 2 * w);
  EXPECT_EQ(metric(frag_cfg, frag, "dram__bytes_write.sum"), metric(whole_cfg, whole, "dram__bytes_write.sum"));
  EXPECT_GT(frag.result.end, whole.result.end);
}

// ctas.csv's phase marks: a GEMM CTA's first barrier (its first K tile in shared memory) comes after
// its start, its first global store (the epilogue) after that, its end last.
TEST(GemmEpilogue, CtaMarksOrderThePhases) {
  auto cfg = wmma("fragments");
  auto run = simulate(cfg);
  ASSERT_EQ(run.result.ctas.size(), 64u);
  for (const CtaRecord& c : run.result.ctas) {
    ASSERT_NE(c.first_barrier, kNever);
    ASSERT_NE(c.first_store, kNever);
    EXPECT_LT(c.start, c.first_barrier);
    EXPECT_LT(c.first_barrier, c.first_store);
    EXPECT_LT(c.first_store, c.end);
  }
  std::ostringstream csv;
  write_cta_csv(csv, run.result);
  std::string header = csv.str().substr(0, csv.str().find('\n'));
  EXPECT_EQ(header, kCtaCsvHeader);
  EXPECT_NE(header.find("first_barrier_cycle,first_store_cycle"), std::string::npos);
}

}  // namespace
}  // namespace gms
