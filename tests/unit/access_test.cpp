// The access analyser: hand-counted cases, lane-list parsing, properties over random patterns, and
// every committed silicon record (validate/results/*/access) reproduced exactly.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "access/access_spec.h"
#include "access/bank_model.h"
#include "common/error.h"
#include "test_util.h"

namespace gms {
namespace {

AccessPattern one_instruction(MemSpace space, AccessOp op, std::uint32_t width, const std::vector<std::int64_t>& lanes) {
  AccessPattern p;
  p.space = space;
  p.op = op;
  p.width_bytes = width;
  p.threads = static_cast<std::uint32_t>(lanes.size());
  p.byte_offsets = {lanes};
  check_pattern(p);
  return p;
}

std::vector<std::int64_t> lanes_of(std::function<std::int64_t(int)> f, int n = 32) {
  std::vector<std::int64_t> v;
  for (int l = 0; l < n; ++l) v.push_back(f(l));
  return v;
}

TEST(BankModel, HandCountedSharedPatterns) {
  auto wf = [](std::uint32_t w, std::function<std::int64_t(int)> f, AccessOp op = AccessOp::kLoad) {
    return analyse_access(one_instruction(MemSpace::kShared, op, w, lanes_of(f))).totals;
  };
  EXPECT_EQ(wf(4, [](int l) { return 4 * l; }).wavefronts, 1u);
  EXPECT_EQ(wf(4, [](int l) { return 128 * l; }).wavefronts, 32u);       // column of a 32x32 fp32 tile
  EXPECT_EQ(wf(4, [](int l) { return 128 * l; }).bank_conflicts, 31u);
  EXPECT_EQ(wf(4, [](int l) { return 132 * l; }).wavefronts, 1u);        // padded to 33 words
  EXPECT_EQ(wf(4, [](int) { return 0; }).wavefronts, 1u);                // broadcast
  EXPECT_EQ(wf(8, [](int l) { return 8 * l; }).wavefronts, 2u);
  EXPECT_EQ(wf(16, [](int l) { return 16 * l; }).wavefronts, 4u);
  EXPECT_EQ(wf(16, [](int l) { return 128 * l; }).wavefronts, 32u);
  // Loads merge equal addresses within a quad, stores do not.
  EXPECT_EQ(wf(16, [](int) { return 0; }).wavefronts, 2u);
  EXPECT_EQ(wf(16, [](int l) { return 16 * (l / 2); }).wavefronts, 2u);
  EXPECT_EQ(wf(16, [](int l) { return 16 * (l / 2); }, AccessOp::kStore).wavefronts, 4u);
  EXPECT_EQ(wf(16, [](int l) { return 16 * (l % 4); }).wavefronts, 4u);
  EXPECT_EQ(wf(8, [](int) { return 0; }).wavefronts, 1u);
  EXPECT_EQ(wf(8, [](int) { return 0; }, AccessOp::kStore).wavefronts, 2u);
}

TEST(BankModel, GlobalRequestsAndSectors) {
  auto g = [](std::uint32_t w, std::function<std::int64_t(int)> f) {
    return analyse_access(one_instruction(MemSpace::kGlobal, AccessOp::kLoad, w, lanes_of(f))).totals;
  };
  EXPECT_EQ(g(4, [](int l) { return 4 * l; }).sectors, 4u);
  EXPECT_EQ(g(4, [](int l) { return 4 + 4 * l; }).sectors, 5u);
  EXPECT_EQ(g(4, [](int l) { return 16384 * l; }).sectors, 32u);
  EXPECT_EQ(g(16, [](int l) { return 16 * l; }).sectors, 16u);
  EXPECT_EQ(g(16, [](int l) { return 16 * l; }).requests, 1u);
}

TEST(BankModel, MetricNamesFollowNsight) {
  AccessPattern p = one_instruction(MemSpace::kShared, AccessOp::kLdmatrix, 16, lanes_of([](int l) { return 16 * l; }));
  auto a = analyse_access(p);
  ASSERT_EQ(a.metrics.size(), 3u);
  EXPECT_EQ(a.metrics[0].first, "smsp__sass_inst_executed_op_ldsm.sum");
  EXPECT_EQ(a.metrics[1].first, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  EXPECT_EQ(a.metrics[2].first, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  EXPECT_EQ(a.metrics[1].second, 4);
}

// Properties over random patterns: wavefronts >= groups, conflicts = wavefronts - groups, a lane is
// marked conflicted only when some bank of its group holds several words, and relabelling the
// addresses by a whole number of 128-byte rows changes nothing.
TEST(BankModel, RandomPatternProperties) {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 2000; ++iter) {
    std::uint32_t widths[] = {4, 8, 16};
    std::uint32_t w = widths[rng() % 3];
    AccessOp op = rng() % 3 == 0 ? AccessOp::kStore : AccessOp::kLoad;
    std::vector<std::int64_t> lanes(32), shifted(32);
    for (int l = 0; l < 32; ++l) {
      lanes[static_cast<size_t>(l)] = rng() % 5 == 0 ? kInactiveLane : static_cast<std::int64_t>(rng() % 64) * w;
      shifted[static_cast<size_t>(l)] = lanes[static_cast<size_t>(l)] == kInactiveLane ? kInactiveLane : lanes[static_cast<size_t>(l)] + 128 * 7;
    }
    auto r = analyse_instruction(one_instruction(MemSpace::kShared, op, w, lanes), 0, 0);
    auto s = analyse_instruction(one_instruction(MemSpace::kShared, op, w, shifted), 0, 0);
    EXPECT_GE(r.wavefronts, r.phases);
    EXPECT_EQ(r.wavefronts, s.wavefronts);
    EXPECT_LE(r.wavefronts, 32u * (w / 4));
    bool any_conflict = false;
    for (bool c : r.lane_conflicted) any_conflict = any_conflict || c;
    EXPECT_EQ(any_conflict, r.wavefronts > r.phases);
  }
}

TEST(LaneList, ParsesAndRejectsWithFileAndLine) {
  AccessPattern p;
  p.threads = 64;
  p.width_bytes = 4;
  parse_lane_list("# comment\nthread,instruction,byte_offset\n0,0,0\n1,0,4\n63,2,8\n", "x.csv", p);
  EXPECT_EQ(p.instructions(), 3u);
  EXPECT_EQ(p.byte_offsets[0][1], 4);
  EXPECT_EQ(p.byte_offsets[1][0], kInactiveLane);
  EXPECT_EQ(lane_list_csv(p), "thread,instruction,byte_offset\n0,0,0\n1,0,4\n63,2,8\n");
  auto error = [](const std::string& text) {
    AccessPattern q;
    q.threads = 32;
    q.width_bytes = 4;
    try {
      parse_lane_list(text, "f.csv", q);
      check_pattern(q);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,0,0\n"), "no error");
  EXPECT_EQ(error("thread,instr\n0,0,0\n"), "f.csv:1: expected the header 'thread,instruction,byte_offset'");
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,0,0\n0,0,4\n"), "f.csv:3: thread 0, instruction 0 given twice (also line 2)");
  EXPECT_EQ(error("thread,instruction,byte_offset\n32,0,0\n"), "f.csv:2: thread 32 outside 0..31");
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,0,x\n"), "f.csv:2: field 3 'x' is not an integer");
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,0\n"), "f.csv:2: expected 3 fields: thread,instruction,byte_offset");
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,0,-4\n"), "f.csv:2: byte offset -4 outside 0..2^40");
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,0,2\n"), "thread 0, instruction 0: byte offset 2 is not aligned to the 4-byte access");
  EXPECT_EQ(error("thread,instruction,byte_offset\n"), "f.csv: the lane list has no rows");
  EXPECT_EQ(error("thread,instruction,byte_offset\n0,1048575,0\n"),
            "f.csv:2: instruction 1048575 outside 0..524287 (at most 2^24 lanes in all)");
  EXPECT_EQ(error(""), "f.csv: empty lane list (expected the header 'thread,instruction,byte_offset')");
}

TEST(CuteCopy, VectorAccessesMustBeContiguousAndAligned) {
  CuteCopySpec s;
  s.tensor = parse_layout("(64,16):(16,1)");  // row-major: (4,1) values are 16 elements apart
  s.threads = parse_layout("(16,4)");
  s.values = parse_layout("(4,1)");
  s.copy.width_bytes = 16;
  EXPECT_THROW(pattern_of(s, MemSpace::kShared, AccessOp::kLoad), ConfigError);
  s.values = parse_layout("(1,4)");
  s.threads = parse_layout("(64,1)");
  EXPECT_NO_THROW(pattern_of(s, MemSpace::kShared, AccessOp::kLoad));
  s.copy.base_bytes = 4;
  EXPECT_THROW(pattern_of(s, MemSpace::kShared, AccessOp::kLoad), ConfigError);  // misaligned 16-byte access
  s.copy.base_bytes = 0;
  s.tensor = parse_layout("(64,16):(1,32)");  // overlapping columns
  EXPECT_THROW(pattern_of(s, MemSpace::kShared, AccessOp::kLoad), ConfigError);
  s.tensor = parse_layout("(100000,100000)");  // a whole matrix, not a CTA tile
  try {
    pattern_of(s, MemSpace::kShared, AccessOp::kLoad);
    ADD_FAILURE() << "no error for a 10^10-element tensor";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 2^24 elements"), std::string::npos) << e.what();
  }
}

// Every pattern measured on silicon: the model's counts equal Nsight Compute's, exactly.
void expect_records_reproduced(const std::string& gpu) {
  std::ifstream f(test::source_path("validate/results/" + gpu + "/access/access_records.json"));
  ASSERT_TRUE(f) << gpu;
  auto doc = nlohmann::json::parse(f);
  size_t checked = 0;
  for (const auto& r : doc["records"]) {
    ASSERT_EQ(r["check"], "ok") << r["name"];
    AccessPattern p = read_lane_list(test::source_path(r["lanes"].get<std::string>()), r["threads"].get<std::uint32_t>(),
                                     parse_mem_space(r["space"]), parse_access_op(r["op"]), r["width_bytes"].get<std::uint32_t>(),
                                     r["ldsm_matrices"].get<std::uint32_t>());
    for (const auto& [name, value] : analyse_access(p).metrics) {
      ASSERT_TRUE(r["measured"].contains(name)) << r["name"] << " " << name;
      EXPECT_EQ(r["measured"][name].get<double>(), value) << gpu << " " << r["name"].get<std::string>() << " " << name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u * 60u);
}

TEST(AccessRecords, H100CountsEqualTheModel) { expect_records_reproduced("h100"); }
TEST(AccessRecords, H200CountsEqualTheModel) { expect_records_reproduced("h200"); }

}  // namespace
}  // namespace gms
