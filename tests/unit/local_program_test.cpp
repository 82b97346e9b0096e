// The compiled spill program (workload local_program): its text form, and the GEMV replaying it.
#include <gtest/gtest.h>

#include <random>

#include "api/simulation.h"
#include "common/error.h"
#include "metric_util.h"
#include "stats/metrics.h"
#include "test_util.h"
#include "workload/local_program.h"

namespace gms {
namespace {

TEST(LocalProgram, ParsesEveryKindAndPrintsItBack) {
  const std::string text = "C90 X3 W64.2 S62+2/1 S56+6/3~2 D8 L0+48/24.5 F12 X_ W64._ C1";
  const LocalProgram p = parse_local_program(text);
  EXPECT_EQ(p.str(), text);
  EXPECT_EQ(p.steps.size(), 11u);
  EXPECT_EQ(p.x_loads, 2);
  EXPECT_EQ(p.w_loads, 128);
  EXPECT_EQ(p.stored_lines, 8);
  EXPECT_EQ(p.loaded_lines, 48);
  EXPECT_EQ(p.line_end, 64);
  EXPECT_EQ(p.local_instructions, 1 + 3 + 24);
  EXPECT_EQ(p.other_instructions, 90 + 2 + 1);
  EXPECT_EQ(p.math_instructions, 12);
  EXPECT_EQ(p.steps[6].scoreboard, 5);
  EXPECT_EQ(p.steps[8].scoreboard, kNoScoreboard);
  EXPECT_EQ(parse_local_program("  X0\n\tW1.0  ").str(), "X0 W1.0");  // any blanks between tokens
}

TEST(LocalProgram, RejectsMalformedTokensNamingThem) {
  auto error_of = [](const std::string& text) {
    try {
      parse_local_program(text, "prog");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error_of("X0 Q1").find("prog: token 2 'Q1': unknown kind"), std::string::npos) << error_of("X0 Q1");
  EXPECT_NE(error_of("W0.1").find("the loads below 1"), std::string::npos);
  EXPECT_NE(error_of("W3.6").find("a scoreboard above 5"), std::string::npos);
  EXPECT_NE(error_of("S0+2/3").find("the instruction count above 2"), std::string::npos);  // an access covers a line at least
  EXPECT_NE(error_of("L0+2/1").find("expected '.' before the scoreboard"), std::string::npos);
  EXPECT_NE(error_of("D0").find("mask below 1"), std::string::npos);
  EXPECT_NE(error_of("D64").find("mask above 63"), std::string::npos);
  EXPECT_NE(error_of("S1+1/1~0").find("other instructions below 1"), std::string::npos);
  EXPECT_NE(error_of("X1x").find("unexpected 'x'"), std::string::npos);
  EXPECT_NE(error_of("S4194303+2/1").find("the line count above 1"), std::string::npos);
  EXPECT_NE(error_of("F99999999999999999999").find("above"), std::string::npos);
  EXPECT_NE(error_of(" \n").find("an empty program"), std::string::npos);
}

TEST(LocalProgram, RandomProgramsRoundTripWithConsistentTotals) {
  std::mt19937 rng(20261126);
  for (int n = 0; n < 2000; ++n) {
    std::string text;
    std::int64_t stored = 0, loaded = 0, w = 0;
    const int steps = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < steps; ++i) {
      const std::uint32_t lines = 1 + rng() % 9, lo = rng() % 1000;
      const std::string sb = rng() % 7 == 6 ? "_" : std::to_string(rng() % 6);
      std::string t;
      switch (rng() % 7) {
        case 0: t = "X" + sb; break;
        case 1: t = "W" + std::to_string(1 + rng() % 64) + "." + sb; w += std::stoll(t.substr(1)); break;
        case 2: t = "S" + std::to_string(lo) + "+" + std::to_string(lines) + "/" + std::to_string(1 + rng() % lines); stored += lines; break;
        case 3: t = "L" + std::to_string(lo) + "+" + std::to_string(lines) + "/1." + sb + "~" + std::to_string(1 + rng() % 5); loaded += lines; break;
        case 4: t = "D" + std::to_string(1 + rng() % 63); break;
        case 5: t = "F" + std::to_string(1 + rng() % 100); break;
        default: t = "C" + std::to_string(1 + rng() % 100); break;
      }
      text += (i ? " " : "") + t;
    }
    const LocalProgram p = parse_local_program(text);
    ASSERT_EQ(p.str(), text);
    ASSERT_EQ(parse_local_program(p.str()).str(), text);
    EXPECT_EQ(p.stored_lines, stored) << text;
    EXPECT_EQ(p.loaded_lines, loaded) << text;
    EXPECT_EQ(p.w_loads, w) << text;
  }
}

TEST(LocalProgram, VectorLoadsOfAWarp) {
  EXPECT_EQ(warp_vector_loads(64, 512, 32), 64);  // BLOCK_N 256 fp16: a row per load
  EXPECT_EQ(warp_vector_loads(64, 256, 32), 32);  // two rows a load
  EXPECT_EQ(warp_vector_loads(16, 1024, 32), 32);  // two loads a row
  EXPECT_EQ(warp_vector_loads(3, 128, 32), 1);
}

// Seed 001's 1-warp BLOCK_N 256 program at 64 registers with a 3,568-byte frame, replaying `program`.
LoadedConfigs spilled(const std::string& program, std::vector<std::string> sets = {}) {
  sets.insert(sets.end(), {"workload.warps=1", "workload.registers_per_thread=64", "workload.spill_bytes_per_thread=3568B",
                           "workload.local_program=" + program});
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/seed001-gemv-llcc.yaml"), std::move(sets), false});
}

using test::metric;

// The W loads of the block, the x loads, and the math: what every program below shares.
const std::string kLoads = "X0 X0 W128.1 D3 ";
const std::string kMath = " D4 F256 C40";

TEST(GemvLocalProgram, EveryStoredLineReachesL2AndNothingElseChanges) {
  const std::vector<std::string> once = {"gpu.l2.far_writes_in_both_partitions=false"};  // each stored sector counted once
  auto base = spilled(kLoads + "C1" + kMath, once);
  auto stores = spilled(kLoads + "S0+200/100 S300+100/100" + kMath, once);
  auto rb = simulate(base), rs = simulate(stores);
  const double warps = 28.0 * 32;  // one warp a program
  EXPECT_EQ(metric(stores, rs, "lts__t_sectors_op_write.sum") - metric(base, rb, "lts__t_sectors_op_write.sum"), warps * 300 * 4);
  EXPECT_EQ(metric(stores, rs, "dram__bytes_read.sum"), metric(base, rb, "dram__bytes_read.sum"));
  // The instructions the program names are the ones executed (no instructions_per_warp to fill).
  EXPECT_EQ(metric(stores, rs, "smsp__inst_executed.sum") - metric(base, rb, "smsp__inst_executed.sum"), warps * (200 - 1));
}

TEST(GemvLocalProgram, AReloadFarFromItsStoreMissesL1WhereANearOneHits) {
  // The same 64 lines stored and loaded back: right after the store they are in L1 (write-through
  // keeps them); after the warp's own 800 more lines of frame through a 64 KiB L1 (512 lines, 4
  // ways), they are gone to L2. Same traffic, more L2 reads.
  const std::string near = kLoads + "S0+64/64 L0+64/64.2 D4 S64+800/800" + kMath;
  const std::string far = kLoads + "S0+64/64 S64+800/800 L0+64/64.2 D4" + kMath;
  const std::vector<std::string> small_l1 = {"gpu.l1.size=64KiB", "gpu.l1.unified_bytes=0B"};
  auto cn = spilled(near, small_l1), cf = spilled(far, small_l1);
  auto rn = simulate(cn), rf = simulate(cf);
  const double warps = 28.0 * 32;
  EXPECT_EQ(metric(cn, rn, "lts__t_sectors_op_write.sum"), metric(cf, rf, "lts__t_sectors_op_write.sum"));
  EXPECT_GE(metric(cf, rf, "lts__t_sectors_op_read.sum") - metric(cn, rn, "lts__t_sectors_op_read.sum"), 0.9 * warps * 64 * 4);
  EXPECT_GT(metric(cn, rn, "l1tex__t_sector_hit_rate.pct"), metric(cf, rf, "l1tex__t_sector_hit_rate.pct") + 10);
  // Held in L1 write-back instead, the stores reach L2 only when evicted.
  auto wb = spilled(near, {"gpu.l1.size=64KiB", "gpu.l1.unified_bytes=0B", "gpu.l1.local_stores=write_back"});
  auto rw = simulate(wb);
  EXPECT_LT(metric(wb, rw, "lts__t_sectors_op_write.sum"), metric(cn, rn, "lts__t_sectors_op_write.sum"));
}

TEST(GemvLocalProgram, LocalStoresLeaveTheSmAtItsWriteRate) {
  // gms-local-ubench (validate/results/h100/local): four warps of one CTA storing 720-byte frames
  // that miss L1 send 1.000 sector a cycle to L2 - icnt.sm_write_bytes_per_cycle 32; without the
  // limit the SM's port would take them at ~3 a cycle. L2 counts 1.50 write sectors per stored one.
  std::string program = "X0 X0 W32.1 D3";
  for (int i = 0; i < 50; ++i) program += " S0+180/90";
  program += " F256 C40";
  const double stored = 4.0 * 32 * 50 * 720 / 32;  // sectors
  double l2_writes = 0;
  auto run = [&](const std::string& rate, const std::string& far_writes = "true") {
    auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                         test::source_path("configs/workloads/seed001-gemv-llcc.yaml"),
                                         {"workload.n=256", "workload.k=128", "workload.warps=4", "workload.registers_per_thread=190",
                                          "workload.spill_bytes_per_thread=720B", "workload.shared_carveout=228KiB",
                                          "workload.local_program=" + program, "gpu.icnt.sm_write_bytes_per_cycle=" + rate,
                                          "gpu.l2.far_writes_in_both_partitions=" + far_writes,
                                          "gpu.launch.kernel_overhead=0cycles"},  // a rate: the kernel's fixed cost is no part of it
                                         false});
    auto r = simulate(cfg);
    l2_writes = metric(cfg, r, "lts__t_sectors_op_write.sum");
    return stored / metric(cfg, r, "sm__cycles_elapsed.max");
  };
  EXPECT_NEAR(run("32"), 1.0, 0.03);
  // Half the lines are homed in the far partition: counted at a near slice too, 1.50 x as ncu does.
  EXPECT_NEAR(l2_writes / stored, 1.5, 0.05);
  EXPECT_GT(run("0"), 2.5);
  run("32", "false");
  EXPECT_EQ(l2_writes, stored);
}

// Why `make` (spilled or compiled below) refuses `program` with `sets`, or "accepted".
template <class Make>
std::string refusal(Make make, const std::string& program, std::vector<std::string> sets = {}) {
  try {
    make(program, std::move(sets));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(GemvLocalProgram, AProgramThatDoesNotFitItsKernelIsRefused) {
  auto error_of = [](const std::string& program, std::vector<std::string> sets = {}) {
    return refusal(spilled, program, std::move(sets));
  };
  const std::string wrong_w = error_of("X0 X0 W127.1 F1");
  EXPECT_NE(wrong_w.find("workload key 'local_program': 127 W loads; a warp of this block loads 128"), std::string::npos) << wrong_w;
  EXPECT_NE(error_of("X0 W128.1 F1").find("1 x loads"), std::string::npos);
  EXPECT_NE(error_of(kLoads + "S890+3/3 F1").find("up to 3572 per thread, beyond the 3568-byte frame"), std::string::npos);
  EXPECT_NE(error_of(kLoads + "S0+2/1 F1", {"workload.spill_traffic.stored=16B"}).find("stores 8 bytes a thread"),
            std::string::npos);
  EXPECT_NE(error_of(kLoads + "Z1").find("token 5 'Z1': unknown kind"), std::string::npos);
}

// Without spills the program is the compiled loads and waits alone: no frame, x loaded per W load as Triton does (the
// x of its rows, one sector; 4-warp BLOCK_N 256 BK 64, two K steps: 32 x and 32 W loads a warp), the loads in flight
// as the code keeps them.
LoadedConfigs compiled(const std::string& program, std::vector<std::string> sets = {}) {
  sets.insert(sets.begin(), "workload.registers_per_thread=72");
  sets.push_back("workload.local_program=" + program);
  return load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                   test::source_path("configs/workloads/seed001-gemv-llcc.yaml"), std::move(sets), false});
}

std::string repeat(const std::string& token, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += token + " ";
  return out;
}

TEST(GemvLocalProgram, WithoutSpillsItIsTheCompiledLoadsAndWaits) {
  // Two programs an SM (255 registers): too few warps for one load a warp in flight to fill the DRAM.
  const std::string x = repeat("X0", 32) + "D1 ";
  const std::vector<std::string> two = {"workload.registers_per_thread=255"};
  auto deep = compiled(x + repeat("W8.1 D2", 4) + "F64 C10", two);  // eight in flight at each wait
  auto shallow = compiled(x + repeat("W1.1 D2", 32) + "F64 C10", two);  // one: the compiled BLOCK_N 256 code's middle
  auto rd = simulate(deep), rs = simulate(shallow);
  const double warps = 28.0 * 32 * 4;
  // Every load as compiled: a W load moves 512 bytes (16 sectors), an x load one element (one sector).
  EXPECT_EQ(metric(deep, rd, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), warps * (32 * 16 + 32));
  EXPECT_EQ(metric(shallow, rs, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), warps * (32 * 16 + 32));
  EXPECT_EQ(metric(deep, rd, "dram__bytes_read.sum"), metric(shallow, rs, "dram__bytes_read.sum"));
  // Their warps wait on loads nearly all the time either way; one in flight takes longer.
  EXPECT_GT(metric(shallow, rs, "gpu__time_duration.sum"), 1.5 * metric(deep, rd, "gpu__time_duration.sum"));
  // x once per K step still reads (the spilled programs' form).
  EXPECT_NO_THROW(compiled("X0 X0 D1 " + repeat("W8.1 D2", 4) + "F64 C10"));
}

// The compiled code's first instructions hold its start S2Rs (records_add_gemv_sass.py counts those before the first
// LDG), which the warp issues itself as MIO instructions: the program's instructions before its first load give them
// up, so every warp issues the SASS's count once (here the program, the start reads and the reduction fill it).
TEST(GemvLocalProgram, TheStartReadsAreAmongTheProgramsFirstInstructions) {
  const std::string body = repeat("X0", 32) + "D1 " + repeat("W8.1 D2", 4) + "F64 C10";
  auto instructions = [&](const std::string& first, int start_reads) {
    auto cfg = compiled(first + " " + body, {"workload.start_special_reads=" + std::to_string(start_reads),
                                             "workload.instructions_per_warp=0"});
    return metric(cfg, simulate(cfg), "smsp__inst_executed.sum");
  };
  EXPECT_EQ(instructions("C30", 2), instructions("C30", 0));
  EXPECT_EQ(instructions("C1 F2 C1", 2), instructions("C1 F2 C1", 0));  // C steps before the first load, across math
  EXPECT_EQ(instructions("C30", 2) - instructions("C29", 2), 28.0 * 32 * 4);  // one per warp
  auto run = [](const std::string& program, std::vector<std::string> sets) { simulate(compiled(program, std::move(sets))); };
  const std::string short_start = refusal(run, "C1 " + body, {"workload.start_special_reads=2"});
  EXPECT_NE(short_start.find("its other instructions before the first load (C) hold 1 of the 2 start_special_reads"),
            std::string::npos)
      << short_start;
}

TEST(GemvLocalProgram, AFramelessProgramIsRefusedWhereItDoesNotFit) {
  auto error_of = [](const std::string& program, std::vector<std::string> sets = {}) {
    return refusal(compiled, program, std::move(sets));
  };
  const std::string w = repeat("W8.1 D2", 4);
  EXPECT_NE(error_of(repeat("X0", 3) + w).find("3 x loads; the GEMV loads x once per K step (k_steps 2) or once per W "
                                                 "load (32)"),
            std::string::npos)
      << error_of(repeat("X0", 3) + w);
  EXPECT_NE(error_of("X0 X0 " + w + "S0+2/1").find("with spill stores or loads needs the frame"), std::string::npos);
  EXPECT_NE(error_of("X0 X0 " + w, {"workload.loads_in_flight=8"}).find("it replaces the window"), std::string::npos);
}

}  // namespace
}  // namespace gms
