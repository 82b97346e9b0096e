#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "api/simulation.h"
#include "common/error.h"
#include "metric_util.h"
#include "stats/metrics.h"
#include "test_util.h"
#include "workload/gemv_kernel.h"
#include "workload/order_pattern.h"

namespace gms {
namespace {

TEST(OrderPattern, NamedAndExplicitOrders) {
  std::string why;
  auto llcc = parse_order("llcc", 2, &why);
  ASSERT_TRUE(llcc);
  EXPECT_EQ(llcc->size(), 4u);
  EXPECT_TRUE((*llcc)[1].load);
  EXPECT_EQ(max_live_steps(*llcc), 2);
  auto lclc = parse_order("lclc", 2, &why);
  EXPECT_EQ(max_live_steps(*lclc), 1);
  auto p = parse_order("L0 L1 C0 L2 C1 C2", 3, &why);
  ASSERT_TRUE(p) << why;
  EXPECT_EQ(max_live_steps(*p), 2);
  EXPECT_EQ(max_live_steps(*parse_order("llcc", 4, &why)), 4);
}

TEST(OrderPattern, RejectsBrokenPatterns) {
  std::string why;
  EXPECT_FALSE(parse_order("C0 L0", 1, &why));
  EXPECT_NE(why.find("C0 comes before L0"), std::string::npos);
  EXPECT_FALSE(parse_order("L0 L0 C0", 1, &why));
  EXPECT_FALSE(parse_order("L0 C0", 2, &why));
  EXPECT_NE(why.find("step 1 is never loaded"), std::string::npos);
  EXPECT_FALSE(parse_order("L0 X1", 2, &why));
  EXPECT_FALSE(parse_order("L0 C0 L5 C5", 2, &why));
}

LoadedConfigs seed001(const std::string& gpu, const std::string& order, std::vector<std::string> sets = {}) {
  return load_configs(ConfigInputs{test::source_path("configs/gpus/" + gpu + ".yaml"),
                                   test::source_path("configs/workloads/seed001-gemv-" + order + ".yaml"),
                                   std::move(sets), false});
}

using test::metric;

TEST(Gemv, SeedCaseMovesTheSeedsBytesAndOneReductionPerProgramColumn) {
  auto cfg = seed001("h100", "llcc");
  auto run = simulate(cfg);
  EXPECT_EQ(run.result.shape.grid_ctas, 28 * 32);
  // Every weight byte once, plus x; the seed counts 58,742,784 B with an fp16 output.
  EXPECT_EQ(metric(cfg, run, "gpumemsim__compulsory_bytes.sum"), 58742784.0);
  double dram = metric(cfg, run, "dram__bytes_read.sum");
  EXPECT_GE(dram, 4096.0 * 7168 * 2);
  EXPECT_LT(dram, 58742784.0 * 1.01);
  // Coalesced reductions (one atomic per warp-wide vector, no double count of far lines): 32 K
  // chunks x 7168 fp16 outputs = 32 x 448 sectors.
  auto one = seed001("h100", "llcc", {"workload.reduction_lane_elements=1", "gpu.l2.far_reductions_in_both_partitions=false"});
  EXPECT_EQ(metric(one, simulate(one), "lts__t_sectors_op_red.sum"), 32.0 * 7168 * 2 / 32);
  // Each lane adding 8 consecutive outputs, one atomic each: 8 instructions, each touching every
  // sector of the block once (two fp16 lanes share a sector, and one request carries both).
  auto eight = seed001("h100", "llcc", {"gpu.l2.far_reductions_in_both_partitions=false"});
  EXPECT_EQ(metric(eight, simulate(eight), "lts__t_sectors_op_red.sum"), 8 * 32.0 * 7168 * 2 / 32);
  // H100 counts far reductions in both partitions: between 1x and 2x of that.
  double both = metric(cfg, run, "lts__t_sectors_op_red.sum");
  EXPECT_GT(both, 8 * 32.0 * 7168 * 2 / 32 * 1.2);
  EXPECT_LT(both, 8 * 32.0 * 7168 * 2 / 32 * 1.8);
}

TEST(Gemv, LlccKeepsMoreRegistersLiveAndLosesOccupancy) {
  auto a = seed001("z100", "llcc"), b = seed001("z100", "lclc");
  auto ra = simulate(a), rb = simulate(b);
  EXPECT_GT(ra.result.shape.registers_per_thread, rb.result.shape.registers_per_thread);
  EXPECT_LT(ra.result.occupancy.ctas_per_sm, rb.result.occupancy.ctas_per_sm);
}

TEST(Gemv, RegistersBeyondTheLimitSpillToLocalMemory) {
  auto plain = seed001("h100", "llcc", {"workload.registers_per_thread=200"});
  auto spill = seed001("h100", "llcc", {"workload.registers_per_thread=300"});
  auto rp = simulate(plain), rs = simulate(spill);
  EXPECT_GT(metric(spill, rs, "lts__t_sectors_op_write.sum") + metric(spill, rs, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            metric(plain, rp, "lts__t_sectors_op_write.sum") + metric(plain, rp, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
}

TEST(Gemv, InCtaReductionWavefrontsRunOnTheSharedPipeAndCanBoundTime) {
  // BLOCK_K 16 programs (4x the CTAs of the seed): the reduction's shared-memory traffic per program
  // does not shrink with BLOCK_K, so at Triton's ~1,100 wavefronts per warp it outlasts DRAM.
  std::vector<std::string> small = {"workload.block.k=16"};
  auto none = seed001("h100", "llcc", small);
  auto with = small;
  with.push_back("workload.reduction_smem_wavefronts=1100");
  auto tri = seed001("h100", "llcc", with);
  auto rn = simulate(none), rt = simulate(tri);
  const double warps = 28.0 * 128 * 4;
  EXPECT_EQ(metric(none, rn, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), 0);
  EXPECT_EQ(metric(tri, rt, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), warps * 1100);
  EXPECT_EQ(metric(tri, rt, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), warps * 550);
  // The pipe moves one wavefront per cycle per SM: time >= wavefronts per SM, and well past the
  // DRAM-bound time without them.
  const double per_sm = warps * 1100 / 132;
  EXPECT_GE(metric(tri, rt, "sm__cycles_elapsed.max"), per_sm);
  EXPECT_GT(metric(tri, rt, "gpu__time_duration.sum"), 1.5 * metric(none, rn, "gpu__time_duration.sum"));
  // Traffic outside the SM is unchanged.
  EXPECT_EQ(metric(tri, rt, "dram__bytes_read.sum"), metric(none, rn, "dram__bytes_read.sum"));
}

namespace {
// Triton's BLOCK_N 256, BLOCK_K 32, 4-warp program's reduction as compiled (its SASS and profile):
// 1,108 shared wavefronts a warp over 34 STS and 34 LDS + LDSM in 9 rounds, 551 instructions a warp.
std::vector<std::string> triton_bn256_compiled() {
  return {"workload.reduction_smem_wavefronts=1108", "workload.block.k=32", "workload.reduction_smem_stores=34",
          "workload.reduction_smem_loads=34", "workload.reduction_barriers=9", "workload.instructions_per_warp=551"};
}
}  // namespace

TEST(Gemv, TheCompiledReductionIssuesItsInstructionsAndWaitsInTheMioQueue) {
  // Triton's BLOCK_N 256, 4-warp program as compiled: 34 STS, 34 LDS + LDSM, 9 barriers, 551
  // instructions per warp (validate/results/h100/triton_gemv, from its SASS).
  std::vector<std::string> triton = {"workload.reduction_smem_wavefronts=1108", "workload.block.k=32",
                                     "gpu.sm.mio_queue_per_sm=0", "gpu.sm.mio_queue_per_subpartition=0"};
  auto one = seed001("h100", "llcc", triton);
  auto compiled = triton;
  for (const char* kv : {"workload.reduction_smem_stores=34", "workload.reduction_smem_loads=34",
                         "workload.reduction_barriers=9", "workload.instructions_per_warp=551"})
    compiled.push_back(kv);
  auto split = seed001("h100", "llcc", compiled);
  auto queued = compiled;  // later --set overrides earlier ones
  queued.push_back("gpu.sm.mio_queue_per_sm=58");
  queued.push_back("gpu.sm.mio_queue_per_subpartition=30");
  auto bounded = seed001("h100", "llcc", queued);
  auto r1 = simulate(one), rs = simulate(split), rq = simulate(bounded);
  const double warps = metric(split, rs, "launch__grid_size") * 4;
  EXPECT_EQ(metric(one, r1, "smsp__sass_inst_executed_op_shared_st.sum"), warps);
  EXPECT_EQ(metric(split, rs, "smsp__sass_inst_executed_op_shared_st.sum"), warps * 34);
  EXPECT_EQ(metric(split, rs, "smsp__sass_inst_executed_op_shared_ld.sum"), warps * 34);
  EXPECT_EQ(metric(split, rs, "smsp__inst_executed.sum"), warps * 551);
  // The same wavefronts, spread over the instructions.
  EXPECT_EQ(metric(split, rs, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
            metric(one, r1, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"));
  // Unbounded, nobody waits for the queue; bounded, the warps storing 34 conflicted STS do.
  EXPECT_EQ(metric(split, rs, "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct"), 0);
  EXPECT_GT(metric(bounded, rq, "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct"), 5);
  EXPECT_LT(metric(bounded, rq, "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"),
            metric(split, rs, "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"));
}

TEST(Gemv, TheReductionsShufflesAreMioInstructionsInDependentLevels) {
  // The same program with its 32 SHFL (4 on one dependency chain, sass_shuffle_levels.py): as MIO
  // instructions they take 32 of the 1,108 wavefronts Nsight counts (one each) and leave the stores'
  // and loads' the rest; the instruction count is the compiled one either way. Each level waits a
  // shuffle's latency, so more levels of the same shuffles take longer.
  const std::vector<std::string> compiled = triton_bn256_compiled();
  auto alu = seed001("h100", "llcc", compiled);
  auto shuffled = compiled;
  shuffled.push_back("workload.reduction_shuffles=32");
  shuffled.push_back("workload.reduction_shuffle_levels=4");
  auto mio = seed001("h100", "llcc", shuffled);
  auto chained = shuffled;
  chained.push_back("workload.reduction_shuffle_levels=32");
  auto chain = seed001("h100", "llcc", chained);
  auto ra = simulate(alu), rm = simulate(mio), rc = simulate(chain);
  const double warps = metric(alu, ra, "launch__grid_size") * 4;
  EXPECT_EQ(metric(mio, rm, "smsp__inst_executed.sum"), warps * 551);
  EXPECT_EQ(metric(mio, rm, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), warps * 1108);
  EXPECT_EQ(metric(alu, ra, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), warps * 1108);
  EXPECT_EQ(metric(mio, rm, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") +
                metric(mio, rm, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
            warps * (1108 - 32));
  EXPECT_EQ(metric(mio, rm, "smsp__sass_inst_executed_op_shared_ld.sum"), warps * 34);  // shuffles are not LDS
  EXPECT_GT(metric(chain, rc, "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"),
            metric(mio, rm, "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"));
  EXPECT_GT(metric(chain, rc, "gpu__time_duration.sum"), metric(mio, rm, "gpu__time_duration.sum"));
}

// Triton's BLOCK_N 256 4-warp program with its 2 start S2R, behind a start gate of `backlog` (sm.mio_start_backlog).
LoadedConfigs triton_bn256_start_gated(const char* backlog) {
  std::vector<std::string> kv = triton_bn256_compiled();
  kv.push_back("workload.start_special_reads=2");
  kv.push_back(std::string("gpu.sm.mio_start_backlog=") + backlog);
  return seed001("h100", "llcc", kv);
}

TEST(Gemv, ANewWarpsFirstSpecialReadsWaitForTheMioQueueToDrain) {
  // A new warp may issue its start S2R only once the SM's MIO queue holds at most sm.mio_start_backlog entries - the
  // other CTAs' reductions keep it busy (gms-mio-ubench mio_startup). The wait is mio_throttle; the instructions are
  // the compiled ones.
  auto off = triton_bn256_start_gated("-1"), half = triton_bn256_start_gated("31"), empty = triton_bn256_start_gated("0");
  auto ro = simulate(off), rh = simulate(half), re = simulate(empty);
  const double warps = metric(off, ro, "launch__grid_size") * 4;
  EXPECT_EQ(metric(off, ro, "smsp__inst_executed.sum"), warps * 551);
  EXPECT_EQ(metric(half, rh, "smsp__inst_executed.sum"), warps * 551);
  EXPECT_EQ(metric(empty, re, "smsp__inst_executed.sum"), warps * 551);
  const char* mio = "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct";
  // The gate's wait adds mio_throttle time (its share of warp time times the kernel's time). Its share alone need not
  // rise: since the H100 preset orders waiting warps by CTA age (sm.mio_entries_by_cta_age) a half-full gate's run is
  // 13 % longer with 19.5 % of its warp time in mio_throttle against 20.7 % ungated (830 against 783 share-us).
  auto mio_time = [&](const LoadedConfigs& c, const RunOutput& r) {
    return metric(c, r, mio) * metric(c, r, "gpu__time_duration.sum");
  };
  EXPECT_GT(mio_time(half, rh), mio_time(off, ro));
  EXPECT_GT(mio_time(empty, re), mio_time(off, ro));
  EXPECT_GT(metric(empty, re, mio), metric(off, ro, mio));
  // The fuller the queue a new warp must wait for, the later the kernel ends (51.0, 42.5 and 37.7 us for the empty,
  // half-full and no gate; with waiting warps by their own ages, before the preset's CTA ages, 46.6 / 40.2 / 36.0).
  EXPECT_GT(metric(empty, re, "gpu__time_duration.sum"), metric(half, rh, "gpu__time_duration.sum"));
  EXPECT_GT(metric(half, rh, "gpu__time_duration.sum"), metric(off, ro, "gpu__time_duration.sum"));
}

TEST(Gemv, EachCtaMarksWhenItsFirstWarpIssuedItsStartSpecialRead) {
  // ctas.csv's first_special_read_cycle, the model's side of the Triton GEMV's start stamp
  // (validate/scripts/triton_gemv_start_wait.py): set for every CTA of a program with start S2Rs, at or after its
  // start; the first CTA an SM places (an empty queue) issues it at once; behind the start gate the later CTAs wait
  // longer than without it; a program without start S2Rs marks none.
  auto off = triton_bn256_start_gated("-1"), empty = triton_bn256_start_gated("0");
  auto ro = simulate(off), re = simulate(empty);
  auto later_wait = [](const SimResult& r) {
    std::map<int, Tick> first_end;
    for (const CtaRecord& c : r.ctas) first_end[c.sm] = first_end.count(c.sm) ? std::min(first_end[c.sm], c.end) : c.end;
    double sum = 0;
    int n = 0;
    for (const CtaRecord& c : r.ctas) {
      EXPECT_NE(c.first_special_read, kNever) << c.launch_index;
      EXPECT_GE(c.first_special_read, c.start) << c.launch_index;
      EXPECT_LE(c.first_special_read, c.end) << c.launch_index;
      if (c.start >= first_end[c.sm]) sum += static_cast<double>(c.first_special_read - c.start), ++n;
    }
    EXPECT_GT(n, 0);
    return sum / n;
  };
  std::map<int, const CtaRecord*> first_placed;
  for (const CtaRecord& c : ro.result.ctas)
    if (!first_placed.count(c.sm) || c.start < first_placed[c.sm]->start) first_placed[c.sm] = &c;
  for (const auto& [sm, c] : first_placed) EXPECT_EQ(c->first_special_read, c->start) << "SM " << sm;
  EXPECT_GT(later_wait(re.result), later_wait(ro.result) + cycles_to_ticks(1000));
  auto plain = seed001("h100", "llcc", triton_bn256_compiled());
  for (const CtaRecord& c : simulate(plain).result.ctas) EXPECT_EQ(c.first_special_read, kNever) << c.launch_index;
}

TEST(Gemv, ShufflesNeedTheirWavefrontsAndLevels) {
  EXPECT_THROW(seed001("h100", "llcc", {"workload.reduction_smem_wavefronts=16", "workload.reduction_shuffles=32",
                                        "workload.reduction_shuffle_levels=4"}),
               ConfigError);
  EXPECT_THROW(seed001("h100", "llcc", {"workload.reduction_smem_wavefronts=64", "workload.reduction_shuffles=32"}),
               ConfigError);
  EXPECT_THROW(seed001("h100", "llcc", {"workload.reduction_smem_wavefronts=64", "workload.reduction_shuffles=4",
                                        "workload.reduction_shuffle_levels=5"}),
               ConfigError);
}

TEST(Gemv, AnExplicitSpillFrameIsStoredAndLoadedOncePerThread) {
  // Triton's 1-warp BLOCK_N 256 program compiles to 64 registers and 892 four-byte spill slots:
  // no register count over the limit, yet 3,568 B of local traffic each way per thread. (Each stored
  // sector once: far lines not counted at a near slice too.)
  std::vector<std::string> base = {"workload.warps=1", "workload.registers_per_thread=64",
                                   "gpu.l2.far_writes_in_both_partitions=false"};
  auto plain = seed001("h100", "llcc", base);
  auto framed = base;
  framed.push_back("workload.spill_bytes_per_thread=3568B");
  auto spill = seed001("h100", "llcc", framed);
  auto rp = simulate(plain), rs = simulate(spill);
  const double threads = 28.0 * 32 * 32;
  EXPECT_EQ(metric(spill, rs, "lts__t_sectors_op_write.sum") - metric(plain, rp, "lts__t_sectors_op_write.sum"),
            threads * 3568 / 32);
  EXPECT_GT(metric(spill, rs, "gpu__time_duration.sum"), metric(plain, rp, "gpu__time_duration.sum"));
  EXPECT_GE(metric(spill, rs, "dram__bytes_read.sum"), metric(plain, rp, "dram__bytes_read.sum"));
}

TEST(Gemv, SpillTrafficFromTheSassPassesThroughTheFrame) {
  // The same program stores 6,376 B and loads 6,544 B per thread through its 3,568-byte frame (its
  // SASS' STL and LDL; Nsight counts the same): stores reach L2 as 6,376 B, the frame's addresses
  // stay the frame's, and the extra passes cost time. Without a frame the traffic has nowhere to go.
  std::vector<std::string> base = {"workload.warps=1", "workload.registers_per_thread=64",
                                   "workload.spill_bytes_per_thread=3568B", "gpu.l2.far_writes_in_both_partitions=false"};
  auto once = seed001("h100", "llcc", base);
  auto more = base;
  more.push_back("workload.spill_traffic.stored=6376B");
  more.push_back("workload.spill_traffic.loaded=6544B");
  auto twice = seed001("h100", "llcc", more);
  auto ro = simulate(once), rt = simulate(twice);
  const double threads = 28.0 * 32 * 32;
  EXPECT_EQ(metric(twice, rt, "lts__t_sectors_op_write.sum") - metric(once, ro, "lts__t_sectors_op_write.sum"),
            threads * (6376 - 3568) / 32);
  EXPECT_GT(metric(twice, rt, "gpu__time_duration.sum"), metric(once, ro, "gpu__time_duration.sum"));
  try {
    seed001("h100", "llcc", {"workload.spill_traffic.stored=64B"});
    ADD_FAILURE() << "spill traffic without a frame was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("workload key 'spill_traffic.stored'"), std::string::npos) << e.what();
  }
}

TEST(Gemv, ACompiledWindowMovesTheSameDataWithFewerLoadsInFlight) {
  // The compiled kernel keeps a few rows of W in flight per warp (3 or 9, its SASS): the same bytes
  // and reductions as a K step's rows at once, more time the fewer rows the window holds, and the
  // order does not matter inside a window (the 8-warp llcc and lclc kernels are one SASS).
  auto time_of = [](const std::string& order, int window, std::vector<std::string> sets = {}) {
    sets.push_back("workload.loads_in_flight=" + std::to_string(window));
    auto cfg = seed001("h100", order, sets);
    auto run = simulate(cfg);
    return std::make_tuple(metric(cfg, run, "gpu__time_duration.sum"), metric(cfg, run, "dram__bytes_read.sum"),
                           metric(cfg, run, "lts__t_sectors_op_red.sum"));
  };
  const auto [t0, d0, r0] = time_of("llcc", 0);
  const auto [t1, d1, r1] = time_of("llcc", 1);
  const auto [t3, d3, r3] = time_of("llcc", 3);
  const auto [t3l, d3l, r3l] = time_of("lclc", 3);
  EXPECT_NEAR(d1, d0, 0.01 * d0);
  EXPECT_NEAR(d3, d0, 0.01 * d0);
  EXPECT_NEAR(r3, r0, 0.03 * r0);
  EXPECT_GT(t3, t0);
  // On the whole H100 windows of 1 and 3 rows both wait on DRAM (within 0.1 % of each other since the dispatcher
  // follows silicon's SM order); on 8 SMs the same grid waits on latency, and 1 row in flight takes ~2x 3 rows' time.
  const std::vector<std::string> eight = {"gpu.sm.count=8", "gpu.l2.sm_partitions=", "gpu.launch.sm_order=",
                                          "gpu.icnt.gpc_sms="};
  const auto one_row = time_of("llcc", 1, eight), three_rows = time_of("llcc", 3, eight);
  EXPECT_GT(std::get<0>(one_row), 1.5 * std::get<0>(three_rows)) << std::get<0>(one_row) << " vs " << std::get<0>(three_rows);
  EXPECT_EQ(std::get<1>(one_row), std::get<1>(three_rows));  // the same DRAM bytes
  EXPECT_NEAR(t1, t3, 0.01 * t3);
  EXPECT_EQ(t3, t3l);
  EXPECT_EQ(d3, d3l);
}

TEST(Gemv, AWindowCountsTheVectorsALaneLoads) {
  // loads_in_flight counts 16-byte loads per lane, as the SASS does. At BLOCK_N 512 a row of fp16
  // takes two of them: 2 and 3 in flight both hold one row, 4 hold two. At BLOCK_N 128 one load
  // covers two rows: the same bytes, and more time with fewer loads in flight.
  auto run_of = [](int block_n, int window) {
    auto cfg = seed001("h100", "llcc",
                       {"workload.block.n=" + std::to_string(block_n), "workload.loads_in_flight=" + std::to_string(window)});
    auto run = simulate(cfg);
    return std::make_pair(metric(cfg, run, "gpu__time_duration.sum"), metric(cfg, run, "dram__bytes_read.sum"));
  };
  EXPECT_EQ(run_of(512, 2).first, run_of(512, 3).first);
  EXPECT_GT(run_of(512, 2).first, run_of(512, 4).first);
  const auto [t1, d1] = run_of(128, 1);
  const auto [t4, d4] = run_of(128, 4);
  EXPECT_GT(t1, t4);
  EXPECT_NEAR(d1, d4, 0.01 * d4);
  EXPECT_NEAR(d4, run_of(128, 0).second, 0.01 * d4);
  EXPECT_NO_THROW(run_of(512, 32));  // 16 loads of rows
}

TEST(Gemv, BadGemvInputsNameTheKey) {
  auto err = [](std::vector<std::string> sets) {
    try {
      seed001("h100", "llcc", std::move(sets));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(err({"workload.order=L0 C1"}).find("workload key 'order'"), std::string::npos);
  EXPECT_NE(err({"workload.block.n=100"}).find("multiple of 8"), std::string::npos);
  EXPECT_NE(err({"workload.block.k=4096"}).find("exceeds k"), std::string::npos);
  EXPECT_NE(err({"workload.loads_in_flight=3", "workload.spill_bytes_per_thread=64B"}).find("workload key 'loads_in_flight'"),
            std::string::npos);
  EXPECT_NE(err({"workload.loads_in_flight=17"}).find("at most 16 are tracked"), std::string::npos);  // BLOCK_N 256: 17 rows
  EXPECT_NE(err({"workload.reduction_smem_stores=34"}).find("without reduction_smem_wavefronts"), std::string::npos);
  EXPECT_NE(err({"workload.reduction_smem_wavefronts=100", "workload.reduction_smem_stores=0", "workload.reduction_smem_loads=0"})
                .find("workload key 'reduction_smem_stores'"),
            std::string::npos);
}

// Every committed record loads as a GEMV workload; the small shape's replays here (the whole set's,
// against silicon, is Fidelity.H100WmmaGemmAndCudaGemv's: replaying the large ones here too cost CI a minute).
TEST(ValidateResults, EveryCommittedGemvRecordReplays) {
  namespace fs = std::filesystem;
  int n = 0, replayed = 0;
  for (const auto& e : fs::directory_iterator(test::source_path("validate/results/h100/gemv"))) {
    ConfigInputs in{test::source_path("configs/gpus/h100.yaml"), e.path().string(), {}, true};
    auto cfg = load_configs(in);
    ASSERT_EQ(cfg.workload.value.kind, "gemv");
    ++n;
    if (e.path().filename().string().rfind("gemv_1x4096x7168_", 0) != 0) continue;
    auto run = simulate(cfg);
    EXPECT_GT(metric(cfg, run, "gpu__time_duration.sum"), 0) << e.path();
    ++replayed;
  }
  EXPECT_EQ(n, 16);
  EXPECT_EQ(replayed, 8);
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

TEST(WarpStates, EveryWarpCycleIsClassifiedAndLoadsDominateAGemv) {
  auto cfg = seed001("h100", "llcc");
  RunOptions opt;
  opt.trace_warps_sm = 0;
  auto run = simulate(cfg, opt);
  double sum = 0;
  for (const char* n : {"smsp__warp_issue_stalled_selected_per_warp_active.pct",
                        "smsp__warp_issue_stalled_not_selected_per_warp_active.pct",
                        "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
                        "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
                        "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct",
                        "smsp__warp_issue_stalled_drain_per_warp_active.pct"})
    sum += metric(cfg, run, n);
  EXPECT_NEAR(sum, 100.0, 0.5);
  // Warp 0 of each program sends its reductions last and waits at its exit until the L2 has them.
  EXPECT_GT(metric(cfg, run, "smsp__warp_issue_stalled_drain_per_warp_active.pct"), 0.0);
  EXPECT_GT(metric(cfg, run, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"), 80);
  std::ostringstream csv;
  run.result.stalls.write_csv(csv);
  EXPECT_EQ(csv.str().rfind("sm,warp_slot,launch_index,state,start_cycle,end_cycle\n0,", 0), 0u);
  EXPECT_NE(csv.str().find(",long_scoreboard,"), std::string::npos);
}

TEST(WarpStates, ComputeBoundGemmWaitsOnTheMathPipe) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                       test::source_path("configs/workloads/gemm-8192-grouped8.yaml"),
                                       {"workload.m=2048", "workload.n=2048", "workload.k=2048",
                                        "gpu.l2.slice_bytes_per_cycle=100000", "gpu.icnt.sm_bytes_per_cycle=100000",
                                        "gpu.sm.lsu_bytes_per_cycle=100000", "gpu.dram.bandwidth=1000TB/s"},
                                       false});
  auto run = simulate(cfg);
  EXPECT_GT(metric(cfg, run, "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct"),
            metric(cfg, run, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"));
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

LoadedConfigs gemm_with(std::vector<std::string> sets) {
  sets.push_back("workload.cta_limit=264");
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/gemm-8192-grouped8.yaml"), std::move(sets), false});
}

TEST(GemmOrder, PatternsChangeTheMainLoopButNotTheTraffic) {
  auto base = gemm_with({});
  auto run_base = simulate(base);
  for (const char* order : {"L0 C0", "C0 L0", "L0 L1 C0 C1"}) {
    auto cfg = gemm_with({std::string("workload.order=") + order});
    auto run = simulate(cfg);
    // The sectors the SMs receive; L2's lookups are timing-dependent (the request coalescer merges
    // reads that meet at a slice), so they are not traffic.
    EXPECT_EQ(metric(cfg, run, "l1tex__m_xbar2l1tex_read_sectors.sum"),
              metric(base, run_base, "l1tex__m_xbar2l1tex_read_sectors.sum")) << order;
    EXPECT_EQ(metric(cfg, run, "gpumemsim__flop.sum"), metric(base, run_base, "gpumemsim__flop.sum")) << order;
  }
  // Computing before prefetching exposes the load latency: more time waiting on loads. With two stages
  // (one tile in flight) the order decides it; with three, the second tile hides it either way and the
  // two orders sit within 0.2 % of each other.
  auto late = gemm_with({"workload.order=C0 L0", "workload.stages=2"}), early = gemm_with({"workload.order=L0 C0", "workload.stages=2"});
  auto rl = simulate(late), re = simulate(early);
  EXPECT_GT(metric(late, rl, "gpu__time_duration.sum"), 1.05 * metric(early, re, "gpu__time_duration.sum"));
  EXPECT_GT(metric(late, rl, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"),
            metric(early, re, "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"));
}

TEST(GemmOrder, PatternsThatOutrunTheStagesAreRejected) {
  try {
    gemm_with({"workload.stages=2", "workload.order=L0 L1 C0 C1"});
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("stages must be at least one more"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gemm_with({"workload.order=L0 C1"}), ConfigError);
  EXPECT_THROW(gemm_with({"workload.order=sideways"}), ConfigError);
}

}  // namespace
}  // namespace gms
