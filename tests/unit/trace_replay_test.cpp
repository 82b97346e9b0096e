// kind: trace - replaying Accel-Sim traces through the engine: the ISA tables, the scoreboard the
// decoder builds from registers, memory through lanes, and the public traces against what they hold
// and (the FFMA chain) what silicon measured.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/simulation.h"
#include "common/error.h"
#include "stats/metrics.h"
#include "test_util.h"
#include "trace/isa_table.h"
#include "trace/trace_summary.h"

namespace gms {
namespace {


struct Replay {
  RunOutput run;
  std::vector<Metric> metrics;
  double get(const std::string& name) const {
    const Metric* m = find_metric(metrics, name);
    EXPECT_NE(m, nullptr) << name;
    return m ? m->value : 0;
  }
};

Replay replay(const std::string& gpu, const std::string& trace_path, std::vector<std::string> sets = {}) {
  auto dir = test::temp_dir("trace_replay");
  std::string wl = test::write_file(dir / "w.yaml", "kind: trace\npath: " + trace_path + "\n");
  ConfigInputs in{test::source_path("configs/gpus/" + gpu + ".yaml"), wl, std::move(sets)};
  LoadedConfigs cfg = load_configs(in);
  Replay r;
  r.run = simulate(cfg);
  r.metrics = compute_metrics(r.run.result, cfg.gpu.value, *r.run.kernel);
  return r;
}

// A one-CTA, one-warp trace of the given instruction lines (sm_90), written next to a kernel list.
std::string synthetic_trace(const std::string& name, const std::vector<std::string>& lines, int warps = 1) {
  auto dir = test::temp_dir("synthetic_" + name);
  std::ostringstream t;
  t << "-kernel name = synthetic\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (" << 32 * warps
    << ",1,1)\n-shmem = 0\n-nregs = 32\n-binary version = 90\n-cuda stream id = 0\n"
       "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
       "-nvbit version = 1.7.4\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\n";
  for (int w = 0; w < warps; ++w) {
    t << "warp = " << w << "\ninsts = " << lines.size() << "\n";
    for (const auto& l : lines) t << l << "\n";
    t << "\n";
  }
  t << "#END_TB\n";
  test::write_file(dir / "kernel-1.traceg", t.str());
  test::write_file(dir / "kernelslist.g", "kernel-1.traceg\n");
  return dir.string();
}

// --- ISA tables --------------------------------------------------------------------------------

TEST(IsaTable, LongestDottedPrefixWins) {
  IsaTable t = IsaTable::load(test::source_path("configs/isa/sm_90.yaml"));
  EXPECT_EQ(t.compute_capability(), 90);
  EXPECT_EQ(t.find("HFMA2.MMA")->name, "move");
  EXPECT_EQ(t.find("HFMA2.FTZ")->name, "fp16x2_fma");
  EXPECT_EQ(t.find("LDG.E.128.CONSTANT")->kind, OpKind::kGlobalLoad);
  EXPECT_TRUE(t.find("LDG.E.CG")->bypass_l1);
  EXPECT_EQ(t.find("IMAD.MOV.U32")->name, "move");
  EXPECT_EQ(t.find("IMAD.WIDE")->name, "int_mad");
  EXPECT_EQ(t.find("FFMA")->latency, 4u);
  EXPECT_EQ(t.find("NOTANOPCODE"), nullptr);
  EXPECT_EQ(t.find("LD"), t.find("LD.E.64"));
  EXPECT_NE(t.find("LDG"), t.find("LD"));  // a prefix of the text is not a prefix of the opcode
}

TEST(IsaTable, ShippedTablesCoverEveryOpcodeOfThePublicTraces) {
  NEED_SHARED_TRACES();
  for (const char* dir : {"vectoradd", "rodinia-b+tree-128-1000", "ffma-1x32-iters10"}) {
    TraceSummary s = summarize_trace(test::shared_trace(dir));
    for (const auto& k : s.kernels) {
      IsaTable t = IsaTable::load(isa_table_path(k.header.binary_version));
      for (const auto& [opcode, count] : k.opcode_mix) EXPECT_NE(t.find(opcode), nullptr) << dir << ": " << opcode;
    }
  }
}

TEST(IsaTable, MistakesNameTheirPlace) {
  auto expect_error = [](const std::string& yaml, const std::string& part) {
    try {
      IsaTable::from_document(read_yaml_text(yaml, "t.yaml"));
      ADD_FAILURE() << "accepted: " << yaml;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  const std::string head = "arch: sm_90\ncompute_capability: 90\n";
  expect_error(head + "classes:\n  a: {kind: alu, pipe: fma, latency: 4cycles}\nopcodes:\n  FFMA: b\n", "t.yaml:6:9: opcode FFMA names class 'b'");
  expect_error(head + "classes:\n  a: {kind: alu, pipe: fma, latncy: 4cycles}\nopcodes: {}\n", "did you mean 'latency'");
  expect_error(head + "classes:\n  a: {kind: alu, pipe: fmaa, latency: 4}\nopcodes: {}\n", "did you mean 'fma'");
  expect_error(head + "classes:\n  a: {kind: alu, pipe: fma}\nopcodes: {}\n", "needs a 'latency'");
  expect_error(head + "classes:\n  a: {kind: exit}\nopcodes:\n  exit: a\n", "is not a SASS opcode");
  expect_error(head + "clases: {}\n", "did you mean 'classes'");
  expect_error(head + "classes:\n  a: {kind: alu, pipe: fma, latency: 4cycles, taken: 15cycles}\nopcodes: {}\n", "'taken' is for control classes");
}

TEST(IsaTable, TensorShapesGiveFlopsPerWarpInstruction) {
  EXPECT_EQ(tensor_flops_from_opcode("HMMA.16816.F32.BF16"), 4096);
  EXPECT_EQ(tensor_flops_from_opcode("HMMA.1688.F32"), 2048);
  EXPECT_EQ(tensor_flops_from_opcode("HGMMA.64x128x16.F32"), 2.0 * 64 * 128 * 16 / 4);
  EXPECT_EQ(tensor_flops_from_opcode("HMMA"), 0);
}

// --- the scoreboard the decoder builds ---------------------------------------------------------

std::vector<std::string> ffma_chain(int n, bool dependent) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i)
    v.push_back(dependent ? "0080 ffffffff 1 R3 FFMA 2 R3 R0 0 0" : "0080 ffffffff 1 R" + std::to_string(4 + i % 16) + " FFMA 2 R1 R0 0 0");
  v.push_back("0090 ffffffff 0 EXIT 0 0 0");
  return v;
}

TEST(TraceReplay, DependentInstructionsWaitTheirLatencyIndependentOnesTheirInterval) {
  const int n = 400;
  Replay dep = replay("h100-pcie", synthetic_trace("dep", ffma_chain(n, true)));
  Replay ind = replay("h100-pcie", synthetic_trace("ind", ffma_chain(n, false)));
  // FFMA on sm_90: latency 4, one warp instruction per cycle per sub-partition.
  EXPECT_NEAR(dep.get("sm__cycles_elapsed.max") / n, 4.0, 0.1);
  EXPECT_NEAR(ind.get("sm__cycles_elapsed.max") / n, 1.0, 0.1);
  EXPECT_EQ(dep.get("smsp__inst_executed.sum"), n + 1);
  EXPECT_EQ(dep.get("gpumemsim__flop.sum"), 2.0 * 32 * n);
  EXPECT_GT(dep.get("smsp__warp_issue_stalled_wait_per_warp_active.pct"), 70);
  EXPECT_LT(ind.get("smsp__warp_issue_stalled_wait_per_warp_active.pct"), 5);
}

// A loop of n iterations, each an independent FFMA and a BRA back to it (taken but on the last pass), or the same
// instructions laid out straight (every BRA falls through to the next address).
std::vector<std::string> branch_loop(int n, bool taken) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) {
    const int at = taken ? 0 : 0x20 * i;
    char ffma[64], bra[64];
    std::snprintf(ffma, sizeof ffma, "%04x ffffffff 1 R%d FFMA 2 R1 R0 0 0", at, 4 + i % 16);
    std::snprintf(bra, sizeof bra, "%04x ffffffff 0 BRA 0 0 0", at + 0x10);
    v.push_back(ffma);
    v.push_back(bra);
  }
  char exit_line[64];
  std::snprintf(exit_line, sizeof exit_line, "%04x ffffffff 0 EXIT 0 0 0", taken ? 0x20 : 0x20 * n);
  v.push_back(exit_line);
  return v;
}

// sm_90's `control` class: a taken branch holds its warp `taken` (15) cycles, Nsight's branch_resolving; one that
// falls through costs its issue cycle (the FFMA traces' back-edge: 514 -> 528 cycles an iteration, silicon 529).
TEST(TraceReplay, ATakenBranchHoldsItsWarpWhileTheTargetIsFetched) {
  const int n = 200;
  Replay taken = replay("h100-pcie", synthetic_trace("taken", branch_loop(n, true)));
  Replay straight = replay("h100-pcie", synthetic_trace("straight", branch_loop(n, false)));
  EXPECT_EQ(taken.get("smsp__inst_executed.sum"), straight.get("smsp__inst_executed.sum"));
  // n - 1 taken branches, each holding its warp 15 cycles where a fall-through holds it one.
  EXPECT_NEAR(taken.get("sm__cycles_elapsed.max") - straight.get("sm__cycles_elapsed.max"), (n - 1) * 14.0, 2.0);
  EXPECT_GT(taken.get("smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct"), 70);
  EXPECT_LT(straight.get("smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct"), 1);
}

// A loop of `body` independent FFMAs and a back-edge BRA, run `passes` times (laid out as compiled: the back-edge
// jumps body instructions back).
std::vector<std::string> ffma_loop(int body, int passes) {
  std::vector<std::string> v;
  char line[64];
  for (int p = 0; p < passes; ++p) {
    for (int i = 0; i < body; ++i) {
      std::snprintf(line, sizeof line, "%04x ffffffff 1 R%d FFMA 2 R%d R0 0 0", 0x10 * (i + 1), 4 + i % 8, 4 + i % 8);
      v.push_back(line);
    }
    std::snprintf(line, sizeof line, "%04x ffffffff 0 BRA 0 0 0", 0x10 * (body + 1));
    v.push_back(line);
  }
  std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0 0", 0x10 * (body + 2));
  v.push_back(line);
  return v;
}

// sm.instruction_cache_instructions / sm.fetch_instructions_per_cycle reach trace replays through the warp's widest
// backward jump: a loop past the cache issues at the fetch's rate, the rest of its time no_instruction; one that fits
// runs as without them (gms-icache-ubench, validate/results/h200/icache).
TEST(TraceReplay, ALoopPastTheInstructionCacheIssuesAtTheFetchRate) {
  const std::vector<std::string> fetch{"gpu.sm.instruction_cache_instructions=512", "gpu.sm.fetch_instructions_per_cycle=0.4"};
  // Instructions a cycle between 8 and 16 passes (the launch's fixed costs cancel).
  auto rate = [](const std::string& name, int body, int passes, const std::vector<std::string>& sets) {
    Replay a = replay("h200", synthetic_trace(name + "_a", ffma_loop(body, passes)), sets);
    Replay b = replay("h200", synthetic_trace(name + "_b", ffma_loop(body, 2 * passes)), sets);
    return std::pair{(b.get("smsp__inst_executed.sum") - a.get("smsp__inst_executed.sum")) /
                         (b.get("sm__cycles_elapsed.max") - a.get("sm__cycles_elapsed.max")),
                     b.get("smsp__warp_issue_stalled_no_instruction_per_warp_active.pct")};
  };
  const auto [past, past_waits] = rate("past", 1024, 8, fetch);
  const auto [past_free, past_free_waits] = rate("past_free", 1024, 8, {});
  const auto [fits, fits_waits] = rate("fits", 256, 32, fetch);
  const auto [fits_free, fits_free_waits] = rate("fits_free", 256, 32, {});
  EXPECT_NEAR(past, 0.4, 0.01);
  EXPECT_GT(past_free, 1.5 * past);  // without the fetch the loop runs at its own pace
  EXPECT_GT(past_waits, 50);
  EXPECT_EQ(past_free_waits, 0);
  EXPECT_EQ(fits, fits_free);
  EXPECT_EQ(fits_waits, 0);
}

TEST(TraceReplay, LoadsMoveTheirLanesSectorsAndConsumersWaitForThem) {
  // 32 lanes x 4 B contiguous (one request, 4 sectors), then 32 lanes 128 B apart (32 sectors);
  // the FADD uses both results.
  auto trace = synthetic_trace("loads", {"0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x10000 4 0",
                                         "0010 ffffffff 1 R5 LDG.E 1 R2 4 1 0x20000 128 0",
                                         "0020 ffffffff 1 R6 FADD 2 R4 R5 0 0",
                                         "0030 ffffffff 0 STG.E 2 R2 R6 4 1 0x30000 4 0",
                                         "0040 ffffffff 0 EXIT 0 0 0"});
  Replay r = replay("h100-pcie", trace, {"workload.memcpy_to_l2=false"});
  EXPECT_EQ(r.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2);
  EXPECT_EQ(r.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4 + 32);
  EXPECT_EQ(r.get("dram__bytes_read.sum"), 36 * 32);
  // The stored line is homed in the far partition: counted at a near slice too (l2.far_writes_in_both_partitions).
  EXPECT_EQ(r.get("lts__t_sectors_op_write.sum"), 8);
  // The FADD waited for DRAM: the kernel lasts at least one DRAM round trip.
  EXPECT_GT(r.get("sm__cycles_elapsed.max"), 670);
  // Waiting on the loads, then on the L2 taking the store after EXIT.
  EXPECT_GT(r.get("smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"), 50);
  EXPECT_GT(r.get("smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct") +
                r.get("smsp__warp_issue_stalled_drain_per_warp_active.pct"),
            95);
}

TEST(TraceReplay, LocalStoresStayInL1ForTheLoadsThatFollow) {
  // STL.64 by every lane to one local offset, LDL back: interleaved per lane, so one 256-byte
  // access each; the load hits L1 (local memory is cached write-back there).
  auto trace = synthetic_trace("local", {"0000 ffffffff 0 STL.64 2 R1 R4 8 1 0xfffbd0 0 0",
                                         "0010 ffffffff 1 R6 LDL.64 1 R1 8 1 0xfffbd0 0 0",
                                         "0020 ffffffff 1 R8 FADD 2 R6 R7 0 0",
                                         "0030 ffffffff 0 EXIT 0 0 0"});
  Replay r = replay("h100-pcie", trace);
  // Counted as local, as Nsight does: no global load sectors; the local load's 8 hit.
  EXPECT_EQ(r.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 0);
  EXPECT_EQ(r.get("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"), 8);
  EXPECT_EQ(r.get("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"), 8);
  EXPECT_EQ(r.get("l1tex__t_sector_hit_rate.pct"), 100);
  EXPECT_EQ(r.get("dram__bytes_read.sum"), 0);
}

TEST(TraceReplay, SharedAccessesCostTheirBankConflictWavefronts) {
  // LDS.32 with lanes 128 B apart: every lane in bank 0, a 32-way conflict; then a conflict-free one.
  auto trace = synthetic_trace("shared", {"0000 ffffffff 1 R4 LDS 1 R2 4 1 0x0 128 0",
                                          "0010 ffffffff 1 R5 LDS 1 R2 4 1 0x0 4 0",
                                          "0020 ffffffff 0 STS 2 R2 R5 4 1 0x0 4 0",
                                          "0030 ffffffff 0 EXIT 0 0 0"});
  Replay r = replay("h100-pcie", trace);
  EXPECT_EQ(r.get("smsp__sass_inst_executed_op_shared_ld.sum"), 2);
  EXPECT_EQ(r.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32 + 1);
  EXPECT_EQ(r.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 31);
  EXPECT_EQ(r.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 1);
}

// sm_90's S2R (`special_read`): an MIO instruction without a pass of the data path (gms-mio-startup-ubench: a new warp's
// first S2R waits behind older warps' stores as behind their loads, validate/results/h200/mio_startup); S2UR is not.
// Behind 40 32-way stores of its own warp (the sub-partition's queue holds 31) an S2R waits for the next entry (32
// cycles of the path) where a MOV in its place goes at once; its consumer waits its latency (20 cycles against the
// MOV's 4). Alone it waits for nothing, and it is never counted as a shared load.
TEST(TraceReplay, AnS2rTakesAnMioEntryAndNoPassOfThePath) {
  const IsaTable isa = IsaTable::load(test::source_path("configs/isa/sm_90.yaml"));
  EXPECT_EQ(isa.find("S2R")->kind, OpKind::kSpecialRead);
  EXPECT_EQ(isa.find("S2UR")->kind, OpKind::kAlu);
  auto lines = [](int stores, const char* op) {
    std::vector<std::string> v;
    char l[96];
    for (int i = 0; i < stores; ++i) {
      std::snprintf(l, sizeof l, "%04x ffffffff 0 STS 2 R2 R5 4 1 0x0 128 0", 0x10 * i);
      v.push_back(l);
    }
    std::snprintf(l, sizeof l, "%04x ffffffff 1 R40 %s 0 0 0", 0x10 * stores, op);
    v.push_back(l);
    std::snprintf(l, sizeof l, "%04x ffffffff 1 R41 IADD3 1 R40 0 0", 0x10 * stores + 0x10);
    v.push_back(l);
    std::snprintf(l, sizeof l, "%04x ffffffff 0 EXIT 0 0 0", 0x10 * stores + 0x20);
    v.push_back(l);
    return v;
  };
  Replay alone = replay("h100-pcie", synthetic_trace("s2r_alone", lines(0, "S2R")));
  EXPECT_EQ(alone.get("smsp__sass_inst_executed_op_shared_ld.sum"), 0);
  EXPECT_EQ(alone.get("smsp__inst_executed.sum"), 3);
  EXPECT_EQ(alone.get("smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct"), 0);
  Replay s2r = replay("h100-pcie", synthetic_trace("s2r_behind", lines(40, "S2R")));
  Replay mov = replay("h100-pcie", synthetic_trace("mov_behind", lines(40, "MOV")));
  EXPECT_EQ(s2r.get("smsp__sass_inst_executed_op_shared_ld.sum"), 0);
  EXPECT_EQ(s2r.get("smsp__sass_inst_executed_op_shared_st.sum"), 40);
  const double later = s2r.get("sm__cycles_elapsed.max") - mov.get("sm__cycles_elapsed.max");
  EXPECT_GE(later, 32 + 16 - 4) << "an S2R behind a full queue waits for an entry (32 cycles) and its latency";
  EXPECT_LE(later, 32 + 16 + 8);
}

TEST(TraceReplay, UnknownOpcodesNameTheTraceFileAndLine) {
  auto trace = synthetic_trace("unknown", {"0000 ffffffff 0 NOP 0 0 0", "0010 ffffffff 1 R4 FROBNICATE 0 0 0",
                                           "0020 ffffffff 0 EXIT 0 0 0"});
  try {
    replay("h100-pcie", trace);
    FAIL() << "an unknown opcode was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel-1.traceg:22: opcode 'FROBNICATE'"), std::string::npos) << e.what();
  }
}

// --- the public traces -------------------------------------------------------------------------

TEST(TraceReplay, VectorAddReplaysEveryInstructionAndMovesItsArraysOnce) {
  NEED_SHARED_TRACES();
  Replay cold = replay("a100", test::shared_trace("vectoradd"), {"workload.memcpy_to_l2=false"});
  const TraceKernelSummary k = summarize_trace(test::shared_trace("vectoradd")).kernels.at(0);
  EXPECT_EQ(cold.get("smsp__inst_executed.sum"), k.warp_instructions);  // 26,601, what `trace info` counts
  // One request per LDG (3,126: the last CTA's idle warps left before loading).
  EXPECT_EQ(cold.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), k.mem_instructions.at(TraceMemClass::kGlobalLoad));
  EXPECT_EQ(cold.get("lts__t_sectors_op_write.sum") * 32, 200000);
  EXPECT_GE(cold.get("dram__bytes_read.sum"), 400000);
  EXPECT_LE(cold.get("dram__bytes_read.sum"), 400000 + 2 * 64);  // fills round to the DRAM access unit
  // The inputs were just copied in: with memcpy_to_l2 (the default) they are L2 hits.
  Replay warm = replay("a100", test::shared_trace("vectoradd"));
  EXPECT_EQ(warm.get("dram__bytes_read.sum"), 0);
  EXPECT_LT(warm.get("sm__cycles_elapsed.max"), cold.get("sm__cycles_elapsed.max"));
  EXPECT_EQ(cold.run.notes.size(), 0u);  // an sm_80 trace on the A100 preset
}

TEST(TraceReplay, FfmaChainCostsWhatTheH100PcieMeasured) {
  NEED_SHARED_TRACES();
  // gt is the publisher's measured duration (nsys, fixed clock): differences between iteration
  // counts cancel the launch cost and leave the 128 dependent FFMA per iteration.
  double sim[4], gt[4];
  for (int i = 0; i < 4; ++i) {
    const std::string dir = test::shared_trace("ffma-1x32-iters" + std::to_string(10 * (i + 1)));
    sim[i] = replay("h100-pcie", dir).get("sm__cycles_elapsed.max");
    std::ifstream(dir + "/gt") >> gt[i];
  }
  const double sim_slope = (sim[3] - sim[0]) / 30, gt_slope = (gt[3] - gt[0]) / 30;  // cycles per iteration
  // 512 cycles for the FFMAs and 15 for the taken back-edge branch (sm_90's `control` class, `taken`): 528 against 529.
  EXPECT_NEAR(sim_slope / gt_slope, 1.0, 0.01) << "simulated " << sim_slope << ", measured " << gt_slope;
  for (int i = 1; i < 4; ++i) EXPECT_NEAR(sim[i] - sim[i - 1], gt[i] - gt[i - 1], 0.06 * (gt[i] - gt[i - 1]));
}

TEST(TraceReplay, KernelsRunInOrderAndL2CarriesOverUnlessFlushed) {
  NEED_SHARED_TRACES();
  const std::string bt = test::shared_trace("rodinia-b+tree-128-1000");
  Replay keep = replay("h100-pcie", bt, {"workload.memcpy_to_l2=false"});
  Replay flush = replay("h100-pcie", bt, {"workload.memcpy_to_l2=false", "workload.l2_between_kernels=flush"});
  ASSERT_EQ(keep.run.kernels.size(), 2u);
  EXPECT_EQ(keep.run.kernels[0].id, 1);
  EXPECT_EQ(keep.run.kernels[1].start_cycle, keep.run.kernels[0].cycles);
  EXPECT_EQ(keep.get("smsp__inst_executed.sum"), 2 * 21832);
  // The second kernel walks the same tree: warm L2 when kept, cold again when flushed.
  EXPECT_EQ(keep.run.kernels[0].dram_read_bytes, flush.run.kernels[0].dram_read_bytes);
  EXPECT_LT(keep.run.kernels[1].dram_read_bytes, flush.run.kernels[1].dram_read_bytes / 4);
  EXPECT_LT(keep.run.kernels[1].cycles, flush.run.kernels[1].cycles);
  // The total is the sum of the kernels.
  EXPECT_EQ(keep.get("sm__cycles_elapsed.max"), keep.run.kernels[0].cycles + keep.run.kernels[1].cycles);
  // Only one kernel when asked.
  Replay one = replay("h100-pcie", bt, {"workload.kernels=2"});
  ASSERT_EQ(one.run.kernels.size(), 1u);
  EXPECT_EQ(one.run.kernels[0].id, 2);
}

TEST(TraceReplay, SameTraceSameStatsAndTheGpuMismatchIsSaid) {
  NEED_SHARED_TRACES();
  Replay a = replay("h100", test::shared_trace("vectoradd"));
  Replay b = replay("h100", test::shared_trace("vectoradd"));
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (size_t i = 0; i < a.metrics.size(); ++i) EXPECT_EQ(a.metrics[i].value, b.metrics[i].value) << a.metrics[i].name;
  ASSERT_EQ(a.run.notes.size(), 1u);  // an sm_80 trace on an sm_90 preset (replayed with the sm_80 table)
  EXPECT_NE(a.run.notes[0].find("sm_80"), std::string::npos) << a.run.notes[0];
}

TEST(TraceReplay, TheExampleWorkloadsRun) {
  NEED_SHARED_TRACES();
  for (const char* w : {"ffma-chain-h100-pcie", "btree-h100-pcie"}) {
    LoadedConfigs cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100-pcie.yaml"),
                                                  test::source_path(std::string("configs/workloads/traces/") + w + ".yaml")});
    RunOutput run = simulate(cfg);
    EXPECT_GT(run.result.warp_instructions, 1000u) << w;
    EXPECT_TRUE(run.notes.empty()) << w << ": " << run.notes.front();
  }
}

}  // namespace
}  // namespace gms
