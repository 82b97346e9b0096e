// The issue profile from SASS control words: the decoding, the ncu source join, and the profile of
// this project's WMMA GEMM as the H100 executed it (validate/results/h100/issue/).
#include "asm/sass_issue.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "common/error.h"
#include "sass_listing.h"
#include "test_util.h"

namespace gms {
namespace {

std::string issue_data(const std::string& f) { return test::source_path("validate/results/h100/issue/" + f); }

using test::listing;

TEST(SassIssue, ControlFieldsRoundTrip) {
  std::mt19937 rng(7);
  for (int i = 0; i < 500; ++i) {
    const int stall = rng() % 16, yield = rng() % 2, wb = rng() % 8, rb = rng() % 8, mask = rng() % 64;
    auto lines = listing(16 * i, "@!P0 IMAD.WIDE.U32 R4, R2, 0x10, R6", stall, yield, wb, rb, mask);
    auto ins = parse_sass_instructions(lines, 1, 2, "t.sass");
    ASSERT_EQ(ins.size(), 1u);
    EXPECT_EQ(ins[0].opcode, "IMAD.WIDE.U32");
    EXPECT_EQ(ins[0].offset, 16u * i);
    EXPECT_EQ(ins[0].stall, stall);
    EXPECT_EQ(ins[0].yield, yield == 1);
    EXPECT_EQ(ins[0].write_barrier, wb);
    EXPECT_EQ(ins[0].read_barrier, rb);
    EXPECT_EQ(ins[0].wait_mask, mask);
  }
}

TEST(SassIssue, InstructionWithoutItsSecondWordIsAUserError) {
  auto lines = listing(0x20, "HMMA.16816.F32 R4, R8, R12, R4", 2, 1, 7, 7, 0);
  lines.pop_back();
  lines.push_back("        /*0030*/                   NOP ;   /* 0x0000000000007918 */");
  try {
    parse_sass_instructions(lines, 1, 2, "k.sass");
    FAIL() << "accepted an instruction without its control word";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("k.sass:2"), std::string::npos) << e.what();
  }
}

// A two-instruction function (an HMMA and the loop's branch) that the export sections below match.
std::vector<SassInstruction> hmma_then_branch() {
  std::vector<std::string> lines;
  for (auto& l : listing(0, "HMMA.16816.F32 R4, R8, R12, R4", 4, 1, 7, 7, 0)) lines.push_back(l);
  for (auto& l : listing(16, "@!P0 BRA 0x0", 5, 1, 7, 7, 0)) lines.push_back(l);
  return parse_sass_instructions(lines, 1, 4, "k.sass");
}

TEST(SassIssue, ExecutedCountsComeFromTheSectionWithTheSameInstructions) {
  const auto ins = hmma_then_branch();
  const std::string other = "\"Kernel Name\",\"a\"\n\"Address\",\"Source\",\"Instructions Executed\"\n"
                            "\"0x0\",\"  LDG.E R1, [R2] \",\"9\"\n\"0x10\",\"  BRA 0x0\",\"9\"\n";
  const std::string same = "\"Kernel Name\",\"b\"\n\"Address\",\"Source\",\"Instructions Executed\"\n"
                           "\"0x0\",\"      HMMA.16816.F32 R4, R8, R12, R4\",\"1,024\"\n\"0x10\",\"@!P0 BRA `(.L_x_1)\",\"256\"\n";
  auto counts = executed_counts(other + same, ins, "s.csv");
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0], 1024);
  EXPECT_EQ(counts[1], 256);
  EXPECT_THROW(executed_counts(other, ins, "s.csv"), ConfigError);
  // Two launches of the kernel (two occupancies): the second matching section on request, a clear error
  // past the last.
  std::string again = same;
  again.replace(again.find("\"1,024\""), 7, "\"2,048\"");
  EXPECT_EQ(executed_profile(other + same + again, ins, "s.csv", 2).executed, (std::vector<double>{2048, 256}));
  EXPECT_EQ(executed_profile(other + same + again, ins, "s.csv").executed, (std::vector<double>{1024, 256}));
  try {
    executed_profile(other + same + again, ins, "s.csv", 3);
    ADD_FAILURE() << "a third matching section does not exist";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("section 3 asked for, but only 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(executed_profile(same, ins, "s.csv", 0), ConfigError);
  std::string bad = same;
  bad.replace(bad.find("\"256\""), 5, "\"n/a\"");
  EXPECT_THROW(executed_counts(bad, ins, "s.csv"), ConfigError);
}

// Warp-state samples come with the counts when the export has every reason's column, and not at all
// when one is missing or not a number (an export without the WarpStateStats section).
TEST(SassIssue, SamplesComeFromTheSameSectionWhenEveryColumnIsThere) {
  const auto ins = hmma_then_branch();
  const std::string head = "\"Kernel Name\",\"b\"\n\"Address\",\"Source\",\"Instructions Executed\",\"stall_selected\","
                           "\"stall_wait\",\"stall_dispatch\",\"stall_branch_resolving\"\n";
  const std::string rows = "\"0x0\",\"  HMMA.16816.F32 R4, R8, R12, R4\",\"1,024\",\"10\",\"40\",\"3\",\"0\"\n"
                           "\"0x10\",\"@!P0 BRA `(.L_x_1)\",\"256\",\"2\",\"1\",\"0\",\"7\"\n";
  ExecutedProfile p = executed_profile(head + rows, ins, "s.csv");
  ASSERT_EQ(p.samples[1].size(), 2u);
  EXPECT_EQ(p.samples[0][0], 10);
  EXPECT_EQ(p.samples[1][0], 40);
  EXPECT_EQ(p.samples[2][0], 3);
  EXPECT_EQ(p.samples[3][1], 7);
  std::string no_branch = head;
  no_branch.replace(no_branch.find("stall_branch_resolving"), 22, "stall_other");
  EXPECT_TRUE(executed_profile(no_branch + rows, ins, "s.csv").samples[0].empty());
  std::string bad = rows;
  bad.replace(bad.find("\"40\""), 4, "\"x\"");
  EXPECT_TRUE(executed_profile(head + bad, ins, "s.csv").samples[0].empty());
  EXPECT_EQ(executed_profile(head + bad, ins, "s.csv").executed, (std::vector<double>{1024, 256}));
}

TEST(SassIssue, ClassesTheModelIssuesSeparately) {
  EXPECT_EQ(classify_issue("HMMA.16816.F32"), IssueClass::kMma);
  EXPECT_EQ(classify_issue("HGMMA.64x128x16.F32"), IssueClass::kMma);
  EXPECT_EQ(classify_issue("LDSM.16.MT88.4"), IssueClass::kLdsm);
  EXPECT_EQ(classify_issue("LDGSTS.E.BYPASS.128"), IssueClass::kAsyncCopy);
  EXPECT_EQ(classify_issue("LDS.128"), IssueClass::kSharedLoad);
  EXPECT_EQ(classify_issue("BAR.SYNC.DEFER_BLOCKING"), IssueClass::kBarrier);
  EXPECT_EQ(classify_issue("LDGDEPBAR"), IssueClass::kOther);
  EXPECT_EQ(classify_issue("IMAD.WIDE.U32"), IssueClass::kOther);
}

// Triton's software-pipelined wgmma loop (tests/data/asm), statically: every instruction once.
TEST(SassIssue, StaticProfileOfTritonsLoop) {
  IssueProfile p = sass_issue_profile(test::source_path("tests/data/asm/triton_gemm_128x128x64_w4_s3.sm90.sass"), "", "");
  EXPECT_TRUE(p.loop);
  EXPECT_FALSE(p.executed);
  EXPECT_EQ(p.instructions[static_cast<int>(IssueClass::kMma)], 8);
  EXPECT_EQ(p.instructions[static_cast<int>(IssueClass::kAsyncCopy)], 16);
  EXPECT_EQ(p.instructions[static_cast<int>(IssueClass::kBarrier)], 2);
  EXPECT_EQ(p.total_instructions(), 131);
  EXPECT_EQ(p.total_stall_cycles(), 238);
}

// The WMMA GEMM's loop as the H100 ran it (8192^3, pads 8 and 16 compile to the same loop): the
// executed path skips the guarded copies' slow branches (462 static -> 354 executed instructions).
TEST(SassIssue, ExecutedProfileOfTheWmmaLoopOnTheH100) {
  IssueProfile pad0 = sass_issue_profile(issue_data("gms-validate.sm90.sass.xz"), "gemm_fp16_kernelILi32ELi3ELi0E",
                                         issue_data("wmma_source.csv.xz"));  // its own code (row pitch 64 B)
  EXPECT_NEAR(pad0.total_instructions(), 353.3, 0.1);
  EXPECT_NEAR(pad0.total_stall_cycles(), 934.7, 0.1);
  for (const char* kernel : {"gemm_fp16_kernelILi32ELi3ELi8E", "gemm_fp16_kernelILi32ELi3ELi16E"}) {
    IssueProfile stat = sass_issue_profile(issue_data("gms-validate.sm90.sass.xz"), kernel, "");
    EXPECT_EQ(stat.total_instructions(), 462) << kernel;
    IssueProfile p = sass_issue_profile(issue_data("gms-validate.sm90.sass.xz"), kernel, issue_data("wmma_source.csv.xz"));
    EXPECT_TRUE(p.executed);
    EXPECT_EQ(p.iterations, 4096.0 * 4 * 256) << kernel;  // CTAs x warps x K tiles
    EXPECT_EQ(p.instructions[static_cast<int>(IssueClass::kMma)], 64);
    EXPECT_EQ(p.instructions[static_cast<int>(IssueClass::kLdsm)], 16);
    EXPECT_NEAR(p.total_instructions(), 354.3, 0.1) << kernel;
    EXPECT_NEAR(p.total_stall_cycles(), 922.7, 0.1) << kernel;
    // The samples: `selected` cycles per iteration must come out as the instructions (one issue a
    // cycle) - the check on the samples-to-cycles conversion; silicon waits longer than the stall
    // counts say (HMMA, IMAD), and dispatch and branch stalls are 7-8 % and ~3 % of 1,618 cycles.
    ASSERT_TRUE(p.sampled) << kernel;
    EXPECT_NEAR(p.sampled_cycles[0], p.total_instructions(), 0.01 * p.total_instructions()) << kernel;
    EXPECT_GT(p.sampled_cycles[1], p.total_stall_cycles() - p.total_instructions()) << kernel;
    EXPECT_NEAR(p.sampled_cycles[2], 0.077 * 1618, 30) << kernel;
    EXPECT_NEAR(p.sampled_cycles[3], 0.03 * 1618, 10) << kernel;
  }
  EXPECT_FALSE(sass_issue_profile(issue_data("gms-validate.sm90.sass.xz"), "gemm_fp16_kernelILi32ELi3ELi8E", "").sampled);
}

}  // namespace
}  // namespace gms
