// The Accel-Sim trace reader: the public v5 traces (../shared/traces, SOURCES.md there), round trips
// of the instruction format, and one clear error per malformed input.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "common/error.h"
#include "test_util.h"
#include "trace/accelsim_trace.h"
#include "trace/trace_summary.h"

namespace gms {
namespace {


TEST(AccelSimTrace, VectorAddHoldsItsGridAndItsArrays) {
  NEED_SHARED_TRACES();
  TraceSummary s = summarize_trace(test::shared_trace("vectoradd"));
  ASSERT_EQ(s.kernels.size(), 1u);
  const auto& k = s.kernels[0];
  EXPECT_EQ(k.header.name, "_Z9vectorAddPKfS0_Pfi");
  EXPECT_EQ(k.header.grid.x, 196);
  EXPECT_EQ(k.header.block.x, 256);
  EXPECT_EQ(k.header.binary_version, 80);
  EXPECT_EQ(k.header.tracer_version, 5);
  EXPECT_EQ(k.ctas, 196);
  EXPECT_EQ(k.warps, 196 * 8);
  // Two 200,000-byte inputs copied in; A, B and C of 50,000 floats touched once each.
  EXPECT_EQ(s.memcpy_bytes, 400000);
  EXPECT_EQ(k.global_sectors_touched * 32, 3 * 50000 * 4);
  EXPECT_EQ(k.global_bytes_requested, 3 * 50000 * 4);
  EXPECT_EQ(k.mem_instructions.at(TraceMemClass::kGlobalLoad), 2 * k.mem_instructions.at(TraceMemClass::kGlobalStore));
}

TEST(AccelSimTrace, FfmaTracesDifferBy128FfmaPerIteration) {
  NEED_SHARED_TRACES();
  auto ffma = [](int iters) {
    return summarize_trace(test::shared_trace("ffma-1x32-iters" + std::to_string(iters))).kernels.at(0).opcode_mix.at("FFMA");
  };
  EXPECT_EQ(ffma(10), 1280);
  EXPECT_EQ(ffma(20) - ffma(10), 1280);
  EXPECT_EQ(ffma(40) - ffma(30), 1280);
}

TEST(AccelSimTrace, EveryBTreeInstructionRoundTripsThroughItsText) {
  NEED_SHARED_TRACES();
  auto list = read_kernels_list(test::shared_trace("rodinia-b+tree-128-1000"));
  ASSERT_EQ(list.size(), 4u);  // 2 copies, 2 kernels
  TraceKernelReader r(list.back().path);
  EXPECT_EQ(r.header().binary_version, 90);
  TraceCta cta;
  std::int64_t n = 0, strided = 0, listed = 0;
  while (r.next_cta(cta))
    for (const auto& w : cta.warps)
      for (const auto& in : w.instrs) {
        std::string text = format_trace_instruction(in);
        EXPECT_EQ(parse_trace_instruction(text, "again"), in) << text;
        if (in.mem_width) {
          ASSERT_EQ(static_cast<int>(in.addresses.size()), in.active_lanes());
          (text.find(" 1 0x") != std::string::npos ? strided : listed)++;
        }
        ++n;
      }
  EXPECT_EQ(n, 21832);
  EXPECT_GT(strided, 0);
  EXPECT_GT(listed, 0);  // the base + deltas form (LDL with partial masks, gathered LDG)
}

TEST(AccelSimTrace, RandomInstructionsRoundTrip) {
  std::mt19937_64 rng(12);
  for (int i = 0; i < 2000; ++i) {
    TraceInstr in;
    in.pc = rng() % 0x100000 * 16;
    in.mask = static_cast<std::uint32_t>(rng() % 4 == 0 ? 0xffffffffu : rng());
    for (int d = static_cast<int>(rng() % 3); d > 0; --d)
      in.dests.push_back(TraceRegister{static_cast<TraceRegister::Kind>(rng() % 4), static_cast<std::uint16_t>(rng() % 256)});
    in.opcode = std::vector<std::string>{"LDG.E.128", "STS", "FFMA", "ATOMG.E.ADD.F32", "LDL"}[rng() % 5];
    for (int d = static_cast<int>(rng() % 4); d > 0; --d)
      in.srcs.push_back(TraceRegister{TraceRegister::Kind::kR, static_cast<std::uint16_t>(rng() % 256)});
    if (rng() % 2) {
      in.mem_width = 1u << (rng() % 5);
      const std::uint64_t base = 0x7f0000000000ull + rng() % (1ull << 30);
      const int kind = static_cast<int>(rng() % 3);
      for (int l = 0; l < in.active_lanes(); ++l)
        in.addresses.push_back(kind == 0 ? base + 16ull * l : kind == 1 ? base : base + rng() % 100000 - 50000);
    }
    in.immediate = static_cast<std::int64_t>(rng() % 2000) - 1000;
    EXPECT_EQ(parse_trace_instruction(format_trace_instruction(in), "t"), in) << format_trace_instruction(in);
  }
}

std::string header(int version = 5, const std::string& grid = "(2,1,1)") {
  return "-kernel name = k\n-kernel id = 1\n-grid dim = " + grid +
         "\n-block dim = (64,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 90\n-cuda stream id = 0\n"
         "-accelsim tracer version = " +
         std::to_string(version) + "\n\n#traces format = ...\n\n";
}

const std::string kBlock0 =
    "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
    "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n0010 ffffffff 0 EXIT 0 0 0\n"
    "warp = 1\ninsts = 1\n0000 0000000f 0 EXIT 0 0 0\n#END_TB\n";

std::string error_of(const std::string& text) {
  try {
    TraceKernelReader r(std::make_unique<std::istringstream>(text), "k.traceg");
    TraceCta c;
    while (r.next_cta(c)) {
    }
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(AccelSimTrace, StreamsThreadBlocksOneAtATime) {
  TraceKernelReader r(std::make_unique<std::istringstream>(header() + kBlock0 + "\n" +
                                                           "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 0\n#END_TB\n"),
                      "k.traceg");
  TraceCta c;
  ASSERT_TRUE(r.next_cta(c));
  ASSERT_EQ(c.warps.size(), 2u);
  EXPECT_EQ(c.warps[0].instrs[0].addresses.size(), 32u);
  EXPECT_EQ(c.warps[0].instrs[0].addresses[31], 0x1000u + 31 * 4);
  EXPECT_EQ(c.warps[1].instrs[0].active_lanes(), 4);
  ASSERT_TRUE(r.next_cta(c));
  EXPECT_EQ(c.x, 1);
  EXPECT_FALSE(r.next_cta(c));
}

TEST(AccelSimTrace, MalformedInputsNameTheFileLineAndCause) {
  auto has = [](const std::string& err, const std::string& what) {
    return err.find(what) != std::string::npos ? ::testing::AssertionSuccess()
                                               : ::testing::AssertionFailure() << "'" << err << "' lacks '" << what << "'";
  };
  EXPECT_TRUE(has(error_of(header(6)), "tracer version 6 is not supported"));
  EXPECT_TRUE(has(error_of("-kernel name = k\n-cluster dim = (1,1,1)\n"), "k.traceg:2: unknown header key '-cluster dim'"));
  EXPECT_TRUE(has(error_of("hello\n"), "k.traceg:1:"));
  EXPECT_TRUE(has(error_of(header() + kBlock0.substr(0, kBlock0.size() - 8)), "truncated trace"));
  std::string b = kBlock0;
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("insts = 2"), 9, "insts = 3")), "announced insts = 3"));
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("4 1 0x1000 4 0"), 14, "4 0 0x1000 0")),
                  "ends before its address"));
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("R2"), 2, "Q2")), "k.traceg:19: bad register 'Q2'"));
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("4 1 0x1000 4 0"), 14, "4 1 0x1000 4 0 9")),
                  "extra fields"));
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("0,0,0"), 5, "5,0,0")), "outside the grid"));
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("warp = 1"), 8, "warp = 7")), "bad warp id"));
  EXPECT_TRUE(has(error_of(header() + std::string(b).replace(b.find("1 R1 LDG"), 1, "99999999999")), "destination count"));
  try {
    TraceKernelReader r("/nonexistent/kernel-1.traceg.xz");
    ADD_FAILURE();
  } catch (const ConfigError& e) {  // .xz is read (gms_trace_test.cpp); a missing one names the file
    EXPECT_TRUE(has(e.what(), "/nonexistent/kernel-1.traceg.xz: cannot open the kernel trace"));
  }
}

}  // namespace
}  // namespace gms
