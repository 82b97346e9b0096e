// sm.instruction_cache_instructions / sm.fetch_instructions_per_cycle: past the instruction cache a warp's
// instructions arrive at the fetch's rate, and a warp that asks for more waits for them as Nsight's no_instruction
// (gms-icache-ubench --fine, validate/results/h200/icache/fine: a lone warp 0.42 a cycle past ~2,300 SASS instructions,
// whatever it asks above that; all it asks below).
#include <gtest/gtest.h>

#include "config/gpu_config.h"
#include "one_cta_kernel.h"
#include "workload/program.h"

namespace gms {
namespace {

SmConfig fetching_sm() {
  SmConfig sm;
  sm.instruction_cache_instructions = 2304;
  sm.fetch_instructions_per_cycle = 0.42;
  return sm;
}

TEST(InstructionFetch, OnlyLoopsPastTheCacheWaitForTheirInstructions) {
  const SmConfig sm = fetching_sm();
  EXPECT_EQ(fetch_cycles_per_instruction(sm, 2136), 0.0);  // fits (the ubench's 33 KB loop)
  EXPECT_EQ(fetch_cycles_per_instruction(sm, 2304), 0.0);
  EXPECT_DOUBLE_EQ(fetch_cycles_per_instruction(sm, 2778), 1 / 0.42);  // r3_bk32's loop
  SmConfig off = sm;
  off.fetch_instructions_per_cycle = 0;
  EXPECT_EQ(fetch_cycles_per_instruction(off, 5511), 0.0);
  off = sm;
  off.instruction_cache_instructions = 0;
  EXPECT_EQ(fetch_cycles_per_instruction(off, 5511), 0.0);
}

TEST(InstructionFetch, ABlockCarriesItsInstructionsArrival) {
  IssueProfileConfig issue;
  issue.instructions = 2778;
  issue.measured_wait_cycles = 340;
  const IssueHold h = issue_hold_per_instruction(issue, 30, 0, fetch_cycles_per_instruction(fetching_sm(), 2778));
  Instr block;
  block.op = Op::kCompute;
  block.pipe = Pipe::kFma;
  block.issue_cycles = 100;
  hold_for_issue(block, h);
  EXPECT_EQ(block.fetch_ticks, static_cast<std::uint32_t>(100 * kTicksPerCycle / 0.42 + 0.5));
  EXPECT_EQ(block.hold_ticks, static_cast<std::uint32_t>(100.0 * (2778 + 340) / 2778 * kTicksPerCycle + 0.5));
  const IssueHold fits = issue_hold_per_instruction(issue, 30, 0, 0);
  hold_for_issue(block, fits);
  EXPECT_EQ(block.fetch_ticks, 0u);
}

// One warp alone, blocks of 100 ALU instructions whose dependencies let it issue again 112 cycles after each began;
// their instructions take `fetch_cycles` to arrive.
test::RepeatedBlock fetched_alu_blocks(std::uint64_t fetch_cycles) {
  Instr b = test::alu_block(100, 112);
  b.fetch_ticks = static_cast<std::uint32_t>(cycles_to_ticks(fetch_cycles));
  return test::RepeatedBlock("fetched_alu", 1, b);
}

TEST(InstructionFetch, AWarpThatAsksForMoreWaitsAsNoInstruction) {
  // 238 cycles a block (100 / 0.42): 100 selected, 12 wait, 126 no_instruction.
  const SimResult r = test::run_on_h100(fetched_alu_blocks(238), {});
  EXPECT_NEAR(r.stalls.pct(WarpState::kSelected), 100.0 * 100 / 238, 1.0);
  EXPECT_NEAR(r.stalls.pct(WarpState::kWait), 100.0 * 12 / 238, 1.0);
  EXPECT_NEAR(r.stalls.pct(WarpState::kNoInstruction), 100.0 * 126 / 238, 1.0);
}

TEST(InstructionFetch, AWarpThatAsksForLessIsNotSlowed) {
  // The fetch (90 cycles for 100 instructions) is ahead of the warp's own floor (112): as if the loop fit.
  const SimResult fetched = test::run_on_h100(fetched_alu_blocks(90), {});
  const SimResult fits = test::run_on_h100(fetched_alu_blocks(0), {});
  EXPECT_EQ(fetched.end, fits.end);
  EXPECT_EQ(fetched.stalls.total(WarpState::kNoInstruction), 0u);
}

}  // namespace
}  // namespace gms
