// Host-only parts of the validation runner, tested without a GPU: case sets, records that the
// simulator can replay, the kernels' CTA-order formula against the simulator's, fp16 conversion.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "config/workload_schema.h"
#include "kernels/cta_order.h"
#include "runner/cases.h"
#include "runner/record.h"
#include "workload/cta_order.h"
#include "../unit/test_util.h"

namespace {

TEST(ValidateCases, SetsCoverTheIssueShapesAndNamesAreUnique) {
  auto g = gmsv::gemm_cases("gemm");
  EXPECT_EQ(g.size(), 24u);  // 3 shapes x (7 groups + column-major)
  std::set<std::string> names;
  for (const auto& c : g) names.insert(c.name());
  for (const auto& c : gmsv::gemv_cases("gemv")) names.insert(c.name());
  EXPECT_EQ(names.size(), 24u + 16u);
  EXPECT_TRUE(names.count("gemm_16384x16384x2048_grouped16"));
  EXPECT_TRUE(names.count("gemv_1x4096x7168_bn256_bk64_w4_llcc"));
  EXPECT_THROW(gmsv::gemm_cases("nope"), std::invalid_argument);
}

TEST(ValidateCases, GemmWorkloadsBindToTheSimulatorSchema) {
  for (const auto& c : gmsv::gemm_cases("gemm")) {
    auto doc = gms::read_yaml_text(c.workload_json(224), c.name());
    auto b = gms::bind_workload(doc, c.name());
    EXPECT_EQ(b.value.gemm.m, c.m);
    EXPECT_EQ(b.value.gemm.tile.k, 32);
    EXPECT_EQ(b.value.gemm.registers_per_thread, 224);
    EXPECT_EQ(b.value.gemm.cta_order.group_m, c.group_m);
  }
}

TEST(ValidateCases, KernelCtaOrderEqualsTheSimulators) {
  for (int kind : {gmsv::kRowMajor, gmsv::kColumnMajor, gmsv::kGrouped})
    for (int g : {1, 3, 8, 64})
      for (auto [tm, tn] : {std::pair{64, 64}, std::pair{128, 128}, std::pair{16, 256}, std::pair{13, 7}}) {
        gms::CtaOrderConfig cfg;
        cfg.kind = kind == gmsv::kGrouped ? "grouped" : kind == gmsv::kColumnMajor ? "column_major" : "row_major";
        cfg.group_m = g;
        auto sim = gms::make_cta_order(cfg, tm, tn, "");
        gmsv::CtaOrderParams p{kind, g};
        for (int pid = 0; pid < tm * tn; ++pid) {
          int m, n;
          gmsv::cta_tile(p, pid, tm, tn, &m, &n);
          ASSERT_EQ(m, sim->tile(pid).m) << cfg.kind << " g" << g << " pid " << pid;
          ASSERT_EQ(n, sim->tile(pid).n) << cfg.kind << " g" << g << " pid " << pid;
        }
      }
}

TEST(ValidateRecord, RecordsAreJsonWithMeasuredNamesAndNullForNonFinite) {
  std::string rec = gmsv::make_record("c\"1", "gemm", "{\"kind\": \"gemm\"}",
                                      {{"gpu__time_duration.sum", 123.5}, {"bad", NAN}}, "{\"passed\": true}",
                                      "{\"gpu\": \"x\"}");
  auto j = nlohmann::json::parse(rec);
  EXPECT_EQ(j["case"], "c\"1");
  EXPECT_EQ(j["measured"]["gpu__time_duration.sum"], 123.5);
  EXPECT_TRUE(j["measured"]["bad"].is_null());
  EXPECT_EQ(j["workload"]["kind"], "gemm");
}

TEST(ValidateRecord, MedianAndRelativeError) {
  auto t = gmsv::summarize({5, 1, 3, 2, 4});
  EXPECT_EQ(t.median_ns, 3);
  EXPECT_EQ(t.min_ns, 1);
  EXPECT_EQ(t.reps, 5);
  EXPECT_EQ(gmsv::summarize({1, 2, 3, 4}).median_ns, 2.5);
  EXPECT_NEAR(gmsv::relative_error({1, 2, 2}, {1, 2, 3}), 1 / std::sqrt(14.0), 1e-12);
  EXPECT_TRUE(std::isinf(gmsv::relative_error({NAN}, {1})));
  EXPECT_TRUE(std::isinf(gmsv::relative_error({1}, {1, 2})));
}

TEST(ValidateRecord, HalfConversionRoundTripsEveryFiniteValue) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    std::uint16_t h = static_cast<std::uint16_t>(b);
    float f = gmsv::half_bits_to_float(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(gmsv::float_to_half_bits(f), h) << std::hex << b;
  }
  EXPECT_EQ(gmsv::float_to_half_bits(1.0f), 0x3c00);
  EXPECT_EQ(gmsv::half_bits_to_float(0xc000), -2.0f);
}

TEST(ValidateResults, EveryCommittedGemmRecordReplays) {
  namespace fs = std::filesystem;
  fs::path dir = gms::test::source_path("validate/results/h100/gemm");
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    gms::ConfigInputs in{gms::test::source_path("configs/gpus/h100.yaml"), e.path().string(), {}};
    in.workload_from_record = true;
    auto cfg = gms::load_configs(in);
    EXPECT_EQ(cfg.workload.value.kind, "gemm") << e.path();
    EXPECT_EQ(cfg.workload.value.gemm.tile.k, 32) << e.path();
    ++n;
  }
  EXPECT_EQ(n, 24);
}

// Triton's wgmma GEMM (triton_gemm_records.py) on both GPUs: every record loads, asks for the wgmma
// class, carries the compiler's registers, and its first CTAs replay.
TEST(ValidateResults, TritonGemmRecordsReplayOnTheWgmmaPath) {
  namespace fs = std::filesystem;
  for (const char* gpu : {"h100", "h200"}) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(gms::test::source_path(std::string("validate/results/") + gpu + "/triton_gemm"))) {
      gms::ConfigInputs in{gms::test::source_path(std::string("configs/gpus/") + gpu + ".yaml"), e.path().string(),
                           {"workload.cta_limit=8"}};
      in.workload_from_record = true;
      auto cfg = gms::load_configs(in);
      EXPECT_EQ(cfg.workload.value.gemm.mma, "wgmma") << e.path();
      EXPECT_GT(cfg.workload.value.gemm.registers_per_thread, 100) << e.path();
      if (n++ == 0) {
        auto run = gms::simulate(cfg);
        EXPECT_GT(run.result.mma_instructions, 0u) << e.path();
        EXPECT_GT(run.result.sm_clock, 0.0) << e.path();  // the power model set the clock
      }
    }
    EXPECT_EQ(n, 12) << gpu;
  }
}

}  // namespace
