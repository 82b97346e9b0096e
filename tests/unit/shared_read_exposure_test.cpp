// The loop's own wait on shared reads, walked from the control codes: hand-made loops whose wait is
// known, properties over random loops, and the seed-002 ladder's loops against the short_scoreboard
// the H100 measured on them (validate/results/h100/issue/).
#include "asm/shared_read_exposure.h"

#include <gtest/gtest.h>

#include <random>

#include "asm/sass_issue.h"

#include "sass_listing.h"
#include "test_util.h"

namespace gms {
namespace {

constexpr int kNone = 7;  // no scoreboard

// A loop body from (text, stall, write scoreboard, wait mask) rows.
struct Row {
  const char* text;
  int stall, wb, mask;
};
std::vector<SassInstruction> loop(const std::vector<Row>& rows) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < rows.size(); ++i)
    for (auto& l : test::listing(static_cast<std::uint32_t>(16 * i), rows[i].text, rows[i].stall, 0, rows[i].wb, kNone, rows[i].mask))
      lines.push_back(l);
  return parse_sass_instructions(lines, 1, static_cast<int>(lines.size()), "t.sass");
}

// n independent instructions of one cycle each.
void filler(std::vector<Row>& rows, int n) {
  for (int i = 0; i < n; ++i) rows.push_back({"IADD3 R1, R1, 0x1, RZ", 1, kNone, 0});
}

TEST(SharedReadExposure, AReadUsedAtOnceWaitsItsWholeLatencyLessOneCycle) {
  std::vector<Row> rows = {{"LDS R4, [R2]", 1, 0, 0}, {"FFMA R5, R4, R4, R5", 1, kNone, 1 << 0}};
  filler(rows, 10);
  rows.push_back({"BRA 0x0", 1, kNone, 0});
  const auto body = loop(rows);
  for (double latency : {2.0, 29.0, 64.0}) EXPECT_EQ(shared_read_wait(body, latency), latency - 1) << latency;
  const SharedReadExposure e = shared_read_exposure(body);
  EXPECT_EQ(e.exposed_reads, 1);
  EXPECT_EQ(e.hidden_cycles, 1);
}

TEST(SharedReadExposure, AReadLoadedAStepAheadWaitsOnlyBeyondItsLead) {
  // Used 40 cycles after issue: hidden up to 40 cycles, then the rest of the latency is exposed.
  std::vector<Row> rows = {{"LDS R4, [R2]", 1, 0, 0}};
  filler(rows, 39);
  rows.push_back({"FFMA R5, R4, R4, R5", 1, kNone, 1 << 0});
  rows.push_back({"BRA 0x0", 1, kNone, 0});
  const auto body = loop(rows);
  EXPECT_EQ(shared_read_wait(body, 29), 0);
  EXPECT_EQ(shared_read_wait(body, 40), 0);
  EXPECT_EQ(shared_read_wait(body, 64), 24);
}

TEST(SharedReadExposure, ReadsInFlightAcrossTheBackEdgeCount) {
  // Loaded at the end of the loop, used at the top of the next iteration, 3 cycles later.
  std::vector<Row> rows = {{"FFMA R5, R4, R4, R5", 1, kNone, 1 << 2}};
  filler(rows, 1);
  rows.push_back({"LDS R4, [R2]", 1, 2, 0});
  rows.push_back({"BRA 0x0", 2, kNone, 0});
  EXPECT_EQ(shared_read_wait(loop(rows), 29), 29 - 3);
}

TEST(SharedReadExposure, OneScoreboardWaitsForEveryReadOnIt) {
  // Two reads on scoreboard 1; the first use waits for both (the hardware counts them), and a global
  // load on scoreboard 3 is another stall reason.
  std::vector<Row> rows = {{"LDS R4, [R2]", 1, 1, 0},     {"LDG.E R8, desc[UR4][R6.64]", 1, 3, 0},
                           {"LDS R5, [R2+0x80]", 4, 1, 0}, {"FFMA R5, R4, R4, R5", 1, kNone, (1 << 1) | (1 << 3)},
                           {"BRA 0x0", 1, kNone, 0}};
  EXPECT_EQ(shared_read_wait(loop(rows), 29), 29 - 4);  // the second read issued 2 cycles after the first
}

TEST(SharedReadExposure, WaitGrowsWithLatencyAndIsBoundedByIt) {
  std::mt19937 rng(11);
  const char* texts[] = {"LDS R4, [R2]", "LDSM.16.M88.4 R8, [R3]", "FFMA R5, R4, R4, R5", "LDG.E R8, desc[UR4][R6.64]"};
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Row> rows;
    int reads = 0;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const int kind = static_cast<int>(rng() % 4);
      reads += kind < 2;
      rows.push_back({texts[kind], static_cast<int>(rng() % 16), static_cast<int>(rng() % 8), static_cast<int>(rng() % 64)});
    }
    const auto body = loop(rows);
    double last = 0;
    for (double latency = 0; latency <= 96; latency += 8) {
      const double s = shared_read_wait(body, latency);
      EXPECT_GE(s, last) << "trial " << trial << " latency " << latency;
      // Each wait ends at a read's release: at most one full latency per read per iteration, plus
      // what the previous iteration left in flight.
      EXPECT_LE(s, 2.0 * reads * latency) << "trial " << trial;
      last = s;
    }
    EXPECT_EQ(shared_read_wait(body, 0), 0);
    if (reads == 0) {
      EXPECT_EQ(shared_read_exposure(body).exposed_reads, 0);
    }
  }
}

// The ladder as compiled for the H100: the 128-thread rung uses its LDS results ~8 instructions after
// the loads and silicon's warps spent ~1,690 cycles per K tile in short_scoreboard; the double-buffered
// rungs ~2,170; the others load a step ahead (0.5-2.3 % short_scoreboard, 70-170 cycles).
TEST(SharedReadExposure, LadderLoopsOnTheH100) {
  const std::string sass = test::source_path("validate/results/h100/issue/gms-ladder.sm90.sass.xz");
  const std::string executed = test::source_path("validate/results/h100/issue/ladder_source.csv.xz");
  auto at_29 = [](const IssueProfile& p) {
    return p.shared_exposed_reads * std::max(0.0, 29 - p.shared_hidden_cycles);
  };
  const IssueProfile threads128 = sass_issue_profile(sass, "sgemm_ladderILi64ELi64ELi16ELi16ELi8ELi4ELb0ELi1ELi0ELi1EE", executed);
  EXPECT_NEAR(threads128.shared_exposed_reads, 58, 1);
  EXPECT_NEAR(at_29(threads128), 1430, 50);
  const IssueProfile double_buffer =
      sass_issue_profile(sass, "sgemm_ladderILi128ELi128ELi32ELi16ELi16ELi4ELb1ELi2ELi0ELi1EE", executed);
  EXPECT_NEAR(at_29(double_buffer), 2430, 60);
  for (const char* pipelined : {"sgemm_ladderILi128ELi128ELi16ELi16ELi16ELi4ELb0ELi1ELi0ELi1EE",
                                "sgemm_ladderILi128ELi128ELi32ELi16ELi16ELi4ELb0ELi1ELi0ELi1EE",
                                "sgemm_ladderILi128ELi128ELi32ELi16ELi16ELi4ELb1ELi2ELi0ELi4EE"})
    EXPECT_LT(at_29(sass_issue_profile(sass, pipelined, executed)), 100) << pipelined;
}

// Special-register reads (S2R, S2UR) walk the same way, each kind on its own: an LDS does not count
// as a special read nor an S2R as a shared one; CS2R (fixed latency) is neither.
TEST(SpecialReadExposure, AnS2RUsedAtOnceWaitsItsLatencyAndKindsStayApart) {
  std::vector<Row> rows = {{"S2R R6, SR_TID.X", 1, 1, 0},
                           {"ISETP.GT.AND P0, PT, R6, 0x1ff, PT", 1, kNone, 1 << 1},
                           {"LDS R4, [R2]", 1, 0, 0},
                           {"FFMA R5, R4, R4, R5", 1, kNone, 1 << 0},
                           {"CS2R R8, SR_CLOCKLO", 1, kNone, 0}};
  filler(rows, 10);
  rows.push_back({"BRA 0x0", 1, kNone, 0});
  const auto body = loop(rows);
  EXPECT_EQ(read_wait(body, 25, VariableRead::kSpecialRegister), 24);
  EXPECT_EQ(read_wait(body, 29, VariableRead::kShared), 28);
  const SharedReadExposure special = special_read_exposure(body), shared = shared_read_exposure(body);
  EXPECT_EQ(special.exposed_reads, 1);
  EXPECT_EQ(special.hidden_cycles, 1);
  EXPECT_EQ(shared.exposed_reads, 1);
  EXPECT_EQ(shared.hidden_cycles, 1);
  // The uniform datapath's S2UR is a special read too; used 10 cycles later, it hides 10 (the two
  // latencies the walk takes, 16 and 32, see up to 16 hidden cycles exactly).
  std::vector<Row> later = {{"S2UR UR6, SR_CgaCtaId", 1, 2, 0}};
  filler(later, 9);
  later.push_back({"ULEA UR5, UR6, UR5, 0x18", 1, kNone, 1 << 2});
  later.push_back({"BRA 0x0", 1, kNone, 0});
  const SharedReadExposure e = special_read_exposure(loop(later));
  EXPECT_EQ(e.exposed_reads, 1);
  EXPECT_EQ(e.hidden_cycles, 10);
}

// The WMMA GEMM's loop as compiled for the H100 re-reads SR_TID.X, SR_LANEID and SR_CgaCtaId every K
// tile; their consumers carry 5.6 % of silicon's pad-8 warp-state samples as short_scoreboard
// (~94 cycles per K tile and warp). The walk finds 4 exposed reads hiding ~7 cycles each: at the
// measured 25-cycle latency, ~70 cycles per K tile.
TEST(SpecialReadExposure, WmmaGemmLoopOnTheH100) {
  const IssueProfile p = sass_issue_profile(test::source_path("validate/results/h100/issue/gms-validate.sm90.sass.xz"),
                                            "gemm_fp16_kernelILi32ELi3ELi8ELb0E",
                                            test::source_path("validate/results/h100/issue/wmma_source.csv.xz"));
  EXPECT_NEAR(p.special_exposed_reads, 4.0, 0.1);
  EXPECT_NEAR(p.special_hidden_cycles, 7.2, 0.5);
  EXPECT_NEAR(p.special_exposed_reads * (25 - p.special_hidden_cycles), 71, 5);
}

}  // namespace
}  // namespace gms
