#include <gtest/gtest.h>

#include <sstream>
#include <vector>

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

// Triton's wgmma GEMM at 128x128x64, 4 warps, as its SASS has the epilogue: per round 4 STS.128, a
// barrier, 4 LDSM.16.M88.4, a barrier (none after the last round), then a wait for the reads and the
// 16 STG.E.128 of the warp's 8 KB.
TEST(GemmEpilogue, StagedRowsGoThroughSharedMemoryInRounds) {
  GemmEpilogue e("coalesced", 2, 32, 4, 16);
  ASSERT_EQ(e.staged_instructions(kShare), 16u);
  ASSERT_EQ(e.rounds(kShare), 4u);
  ASSERT_EQ(e.blocks(kShare), 17);
  const std::vector<Op> round = {Op::kSharedStore, Op::kBarrier, Op::kSharedLoad, Op::kBarrier};
  std::uint32_t stores = 0, reads = 0, store_wavefronts = 0, read_wavefronts = 0;
  for (int i = 0; i < e.blocks(kShare); ++i) {
    const Instr in = e.block(kShare, i);
    if (i < 15) {
      EXPECT_EQ(in.op, round[static_cast<size_t>(i % 4)]) << "block " << i;
    } else if (i == 15) {
      EXPECT_EQ(in.op, Op::kWait);
      EXPECT_EQ(in.slot, 16);
    } else {
      EXPECT_EQ(in.op, Op::kStore);
      EXPECT_EQ(in.issue_cycles, 16u);
      EXPECT_EQ(in.region.row_bytes, kShare.row_bytes);
      EXPECT_EQ(in.region.rows, kShare.rows);
    }
    if (in.op == Op::kSharedStore) {
      stores += in.issue_cycles;
      store_wavefronts += in.wavefronts;
      EXPECT_TRUE(in.mio_burst);
    }
    if (in.op == Op::kSharedLoad) {
      EXPECT_TRUE(in.ldmatrix);
      EXPECT_EQ(in.slot, 16);
      reads += in.issue_cycles;
      read_wavefronts += in.wavefronts;
    }
  }
  EXPECT_EQ(stores, 16u);
  EXPECT_EQ(reads, 16u);
  EXPECT_EQ(store_wavefronts, 64u);  // 8 KB in 128-byte wavefronts, conflict-free
  EXPECT_EQ(read_wavefronts, 64u);
}

TEST(GemmEpilogue, AShortLastRoundStagesTheRest) {
  GemmEpilogue e("coalesced", 2, 32, 3, 16);
  ASSERT_EQ(e.rounds(kShare), 6u);  // 16 = 5 x 3 + 1
  ASSERT_EQ(e.blocks(kShare), 6 * 4 - 1 + 2);
  EXPECT_EQ(e.block(kShare, 5 * 4).issue_cycles, 1u);  // the last round's stores
  EXPECT_EQ(e.block(kShare, 5 * 4 + 2).issue_cycles, 1u);
  EXPECT_EQ(e.block(kShare, 5 * 4 + 2).wavefronts, 4u);
  // A 32-bit C reads its rows back with LDS.128 (ldmatrix reads 16-bit matrices).
  const Instr fp32_read = GemmEpilogue("coalesced", 4, 32, 4, 16).block(kShare, 2);
  EXPECT_EQ(fp32_read.op, Op::kSharedLoad);
  EXPECT_FALSE(fp32_read.ldmatrix);
  // Unstaged (per round 0) and fragments never touch shared memory.
  EXPECT_EQ(GemmEpilogue("coalesced", 2, 32).blocks(kShare), 1);
  EXPECT_EQ(GemmEpilogue("fragments", 2, 32, 4, 16).staged_instructions(kShare), 0u);
}

// In a simulation: Triton's wgmma tile stages C through shared memory (its records: 64 LDSM per
// 128x128 CTA, silicon's count exactly); the fragments epilogue stores from registers.
TEST(GemmEpilogue, AStagedEpilogueCountsItsSharedTraffic) {
  auto cfg = [](const std::string& epilogue) {
    return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                     test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                     {"workload.m=1024", "workload.n=1024", "workload.k=256", "workload.mma=wgmma",
                                      "workload.epilogue=" + epilogue}});
  };
  auto staged_cfg = cfg("coalesced"), frag_cfg = cfg("fragments");
  auto staged = simulate(staged_cfg), frag = simulate(frag_cfg);
  const double c_bytes = 1024.0 * 1024 * 2;
  EXPECT_EQ(metric(staged_cfg, staged, "smsp__sass_inst_executed_op_ldsm.sum"), c_bytes / 512);
  EXPECT_EQ(metric(staged_cfg, staged, "smsp__sass_inst_executed_op_shared_st.sum"), c_bytes / 512);
  EXPECT_EQ(metric(staged_cfg, staged, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), c_bytes / 128);
  EXPECT_EQ(metric(staged_cfg, staged, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), c_bytes / 128);
  EXPECT_EQ(metric(frag_cfg, frag, "smsp__sass_inst_executed_op_ldsm.sum"), 0.0);
  EXPECT_EQ(metric(frag_cfg, frag, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 0.0);
  // Same bytes to L2 either way: whole rows after the round trip.
  EXPECT_EQ(metric(staged_cfg, staged, "dram__bytes_write.sum"), metric(frag_cfg, frag, "dram__bytes_write.sum"));
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
