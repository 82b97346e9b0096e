// The calibration toolkit: measured-case loading (records, raw ncu CSV), launch deduplication,
// scoring and targets, the fitters, and the calibrated-YAML writer.
#include <gtest/gtest.h>

#include <map>

#include <cmath>

#include "calib/calibrated_yaml.h"
#include "calib/fit.h"
#include "calib/measured.h"
#include "calib/replay.h"
#include "calib/rank_noise.h"
#include "calib/scoring.h"
#include "stats/statistics.h"
#include "common/error.h"
#include "test_util.h"

namespace gms {
namespace {

using test::source_path;

TEST(Measured, NcuCsvRowsBecomeCasesInSimulatorUnits) {
  auto cases = load_ncu_csv(source_path("tests/data/ncu/gemv_small.csv"), source_path("tests/data/ncu/gemv_small.yaml"));
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "gemv_small#0");
  EXPECT_DOUBLE_EQ(cases[0].measured.at("dram__bytes_read.sum"), 58.84e6);     // Mbyte -> byte
  EXPECT_DOUBLE_EQ(cases[0].measured.at("gpu__time_duration.sum"), 28700.0);   // usecond -> ns
  EXPECT_DOUBLE_EQ(cases[0].measured.at("sm__cycles_elapsed.max"), 56790.0);   // thousands separator
  EXPECT_DOUBLE_EQ(cases[0].measured.at("lts__t_sector_hit_rate.pct"), 12.4);
  auto only = load_ncu_csv(source_path("tests/data/ncu/gemv_small.csv"), source_path("tests/data/ncu/gemv_small.yaml"),
                           "gemv_splitk");
  ASSERT_EQ(only.size(), 1u);
  EXPECT_THROW(load_ncu_csv(source_path("tests/data/ncu/gemv_small.yaml"), source_path("tests/data/ncu/gemv_small.yaml")),
               ConfigError);
  EXPECT_THROW(load_ncu_csv(source_path("tests/data/ncu/gemv_small.csv"), "x.yaml", "no_such_kernel"), ConfigError);
}

TEST(Measured, RecordsPreferNsightTimeAndSkipMicrobenchmarks) {
  auto cases = load_records({source_path("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc.json"),
                             source_path("validate/results/h100/ubench/dram_bandwidth.json")});
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].group, "gemv 1x4096x7168 (warps x order)");
  EXPECT_DOUBLE_EQ(cases[0].measured.at("gpu__time_duration.sum"), 27808.0);  // ncu, not the event median 53.8 us
  EXPECT_THROW(load_records({"/no/such/dir"}), ConfigError);
}

// GEMM records group twice: the CTA orders of one tiling (pads are tilings), and the tilings of one
// shape and order; the directory a record came from names its kernel.
TEST(Measured, GemmRecordsGroupByTilingAndByOrder) {
  auto cases = load_records({source_path("validate/results/h100/padding")});
  ASSERT_EQ(cases.size(), 9u);
  std::map<std::string, int> groups, tilings;
  for (const auto& c : cases) {
    ++groups[c.group];
    ++tilings[c.tiling_group];
    EXPECT_EQ(c.record_set, "padding");
  }
  EXPECT_EQ(groups.size(), 6u);  // 2 shapes x 3 pads
  EXPECT_EQ(groups.at("gemm 8192x8192x8192 128x128x32 w4 s3 pad16 (CTA orders)"), 2);
  EXPECT_EQ(tilings.size(), 3u);  // 8192^3 grouped-8 and column-major, 16384x16384x2048 grouped-8
  EXPECT_EQ(tilings.at("gemm 8192x8192x8192 grouped8 (tilings)"), 3);
  EXPECT_EQ(tilings.at("gemm 8192x8192x8192 column_major (tilings)"), 3);
  auto triton = load_records({source_path("validate/results/h100/triton_gemm/triton_gemm_4096x4096x4096_128x256x64_w8_s4_grouped8.json")});
  ASSERT_EQ(triton.size(), 1u);
  EXPECT_EQ(triton[0].group, "gemm 4096x4096x4096 128x256x64 w8 s4 wgmma (CTA orders)");
  EXPECT_EQ(triton[0].record_set, "triton_gemm");
  // Its TMA twin is another kernel: its own CTA-order group and tiling group.
  auto tma = load_records({source_path("validate/results/h100/triton_tma_gemm/triton_tma_gemm_4096x4096x4096_128x256x64_w8_s4_grouped8.json")});
  ASSERT_EQ(tma.size(), 1u);
  EXPECT_EQ(tma[0].group, "gemm 4096x4096x4096 128x256x64 w8 s4 wgmma tma (CTA orders)");
  EXPECT_EQ(triton[0].tiling_group, "gemm 4096x4096x4096 grouped8 wgmma (tilings)");
  EXPECT_EQ(tma[0].tiling_group, "gemm 4096x4096x4096 grouped8 wgmma tma (tilings)");
}

TEST(Replay, IdenticalLaunchSequencesShareOneSimulation) {
  auto cfg = [](const std::string& rec) {
    return load_configs({source_path("configs/gpus/h100.yaml"), source_path("validate/results/h100/gemm/" + rec), {}, true});
  };
  // 2048 rows = 16 tile rows: GROUP_M 16, 32, 64 and column-major launch the same tiles in the same order.
  EXPECT_EQ(launch_key(cfg("gemm_2048x32768x8192_grouped16.json")), launch_key(cfg("gemm_2048x32768x8192_column_major.json")));
  EXPECT_EQ(launch_key(cfg("gemm_2048x32768x8192_grouped64.json")), launch_key(cfg("gemm_2048x32768x8192_column_major.json")));
  EXPECT_NE(launch_key(cfg("gemm_2048x32768x8192_grouped8.json")), launch_key(cfg("gemm_2048x32768x8192_column_major.json")));
  EXPECT_NE(launch_key(cfg("gemm_8192x8192x8192_grouped8.json")), launch_key(cfg("gemm_2048x32768x8192_grouped8.json")));
}

// Replays are handed out longest first, by the L2 sectors silicon counted (else DRAM sectors).
TEST(Replay, CostFollowsTheMeasuredL2Sectors) {
  auto cases = load_records({source_path("validate/results/h100/gemm/gemm_8192x8192x8192_grouped8.json"),
                             source_path("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc.json")});
  ASSERT_EQ(cases.size(), 2u);
  const double gemm = replay_cost(cases[0]), gemv = replay_cost(cases[1]);
  EXPECT_DOUBLE_EQ(gemm, cases[0].measured.at("lts__t_sectors_op_read.sum") +
                             (cases[0].measured.count("lts__t_sectors_op_red.sum") ? cases[0].measured.at("lts__t_sectors_op_red.sum") : 0));
  EXPECT_GT(gemm, 100 * gemv);
  MeasuredCase dram_only;
  dram_only.measured["dram__bytes_read.sum"] = 3200;
  EXPECT_DOUBLE_EQ(replay_cost(dram_only), 100);
  EXPECT_TRUE(std::isinf(replay_cost(MeasuredCase{})));
}

TEST(Scoring, ErrorsSummariesRanksAndTargets) {
  EXPECT_DOUBLE_EQ(metric_error("dram__bytes_read.sum", 100, 110), 10.0);
  EXPECT_DOUBLE_EQ(metric_error("lts__t_sector_hit_rate.pct", 80, 75), -5.0);
  std::vector<MeasuredCase> cases(4);
  std::vector<MetricValues> sim(4);
  for (int i = 0; i < 4; ++i) {
    cases[i].name = "c" + std::to_string(i);
    cases[i].group = "gemm 1x1x1";
    cases[i].measured = {{"gpu__time_duration.sum", 100.0 + i}, {"lts__t_sector_hit_rate.pct", 50.0}};
    sim[i] = {{"gpu__time_duration.sum", 200.0 + 10 * i}, {"lts__t_sector_hit_rate.pct", 50.0 + (i % 2 ? 4 : -2)}};
  }
  Scorecard card = score(cases, sim);
  ASSERT_NE(card.find("lts__t_sector_hit_rate.pct"), nullptr);
  EXPECT_DOUBLE_EQ(card.find("lts__t_sector_hit_rate.pct")->mean_abs_error, 3.0);
  EXPECT_NEAR(card.find("gpu__time_duration.sum")->mean_abs_error, 100.0 * (100. / 100 + 109. / 101 + 118. / 102 + 127. / 103) / 4, 1e-9);
  EXPECT_DOUBLE_EQ(card.spearman_time.at("gemm 1x1x1"), 1.0);
  // The breakdowns: one group, no record set named; a second set shows up on its own.
  EXPECT_EQ(card.time_by_group.at("gemm 1x1x1").n, 4u);
  EXPECT_DOUBLE_EQ(card.time_by_group.at("gemm 1x1x1").mean_abs_error, card.find("gpu__time_duration.sum")->mean_abs_error);
  EXPECT_TRUE(card.time_by_set.empty());
  cases[3].record_set = "other";
  cases[3].tiling_group = "gemm 1x1x1 grouped8 (tilings)";
  const Scorecard split = score(cases, sim);
  EXPECT_NEAR(split.time_by_set.at("other").mean_abs_error, 100.0 * 127. / 103, 1e-9);
  EXPECT_EQ(split.group_sizes.at("gemm 1x1x1 grouped8 (tilings)"), 1u);
  auto res = check({parse_requirement("lts__t_sector_hit_rate.pct:mae<=5"), parse_requirement("gpu__time_duration.sum:mape<=20"),
                    parse_requirement("spearman:gemm>=0.8"), parse_requirement("spearman:gemv>=0.8")},
                   card);
  EXPECT_TRUE(res[0].passed);
  EXPECT_FALSE(res[1].passed);
  EXPECT_TRUE(res[2].passed);
  EXPECT_FALSE(res[3].passed);  // no such group: a target that cannot be checked is missed
  EXPECT_THROW(parse_requirement("gpu__time_duration.sum<=20"), ConfigError);
  EXPECT_THROW(parse_requirement("gpu__time_duration.sum:mae<=20"), ConfigError);  // time is relative
  EXPECT_THROW(parse_requirement("no_such_metric:mape<=20"), ConfigError);
  EXPECT_THROW(parse_requirement("spearman:gemm<=0.8"), ConfigError);
  // METRIC@SET: the cases of one record set only (case 3 is 'other', its hit rate 4 pp high).
  const auto by_set = check({parse_requirement("lts__t_sector_hit_rate.pct@other:mae<=3"),
                             parse_requirement("lts__t_sector_hit_rate.pct@other:mae<=5"),
                             parse_requirement("lts__t_sector_hit_rate.pct@none:mae<=5")},
                            split);
  EXPECT_FALSE(by_set[0].passed) << by_set[0].reached;
  EXPECT_TRUE(by_set[1].passed) << by_set[1].reached;
  EXPECT_EQ(by_set[1].reached, "mean |error| 4.0 pp over 1 of other");
  EXPECT_FALSE(by_set[2].passed);  // a set with no such cases cannot be checked: missed
  EXPECT_DOUBLE_EQ(split.find("lts__t_sector_hit_rate.pct")->mean_abs_error, 3.0);  // all four, as before
  EXPECT_THROW(parse_requirement("lts__t_sector_hit_rate.pct@:mae<=5"), ConfigError);
  EXPECT_THROW(parse_requirement("no_such_metric@other:mape<=5"), ConfigError);
}

// Five cases c0..c4 of one group, "gemm 2x2x2", measured and simulated at the given times.
void five_cases(const double (&measured)[5], const double (&model)[5], std::vector<MeasuredCase>& cases,
                std::vector<MetricValues>& sim) {
  cases.assign(5, {});
  sim.assign(5, {});
  for (int i = 0; i < 5; ++i) {
    cases[i].name = "c" + std::to_string(i);
    cases[i].group = "gemm 2x2x2";
    cases[i].measured = {{"gpu__time_duration.sum", measured[i]}};
    sim[i] = {{"gpu__time_duration.sum", model[i]}};
  }
}

// Cases that are one launch (the same tile sequence under two order names) rank once, at their measured
// times' mean: one simulation cannot order them.
TEST(Scoring, TheSameLaunchRanksOnceAtItsMeanTime) {
  // Five cases, four launches: c1 and c3 are one launch (the model gives both 110), which silicon ran
  // at 100 and 104 - on either side of c2 (102; the model 112).
  const double measured[] = {90, 100, 102, 104, 120}, model[] = {95, 110, 112, 110, 130};
  std::vector<MeasuredCase> cases;
  std::vector<MetricValues> sim;
  five_cases(measured, model, cases, sim);
  const Scorecard apart = score(cases, sim);
  EXPECT_LT(apart.spearman_time.at("gemm 2x2x2"), 0.95);  // c2 between the two runs of one launch
  EXPECT_EQ(apart.group_sizes.at("gemm 2x2x2"), 5u);
  const Scorecard merged = score(cases, sim, {"a", "b", "c", "b", "d"});
  // b at (100 + 104) / 2 = 102 ties c on silicon: ranks 1, 2.5, 2.5, 4 against the model's 1, 2, 3, 4.
  EXPECT_NEAR(merged.spearman_time.at("gemm 2x2x2"), spearman({90, 102, 102, 120}, {95, 110, 112, 130}), 1e-12);
  EXPECT_GT(merged.spearman_time.at("gemm 2x2x2"), apart.spearman_time.at("gemm 2x2x2"));
  EXPECT_EQ(merged.group_sizes.at("gemm 2x2x2"), 4u);
  EXPECT_EQ(merged.group_cases_n.at("gemm 2x2x2"), 5u);
  // The errors stay per case.
  EXPECT_DOUBLE_EQ(merged.find("gpu__time_duration.sum")->mean_abs_error, apart.find("gpu__time_duration.sum")->mean_abs_error);
  // Three cases of one launch are one point: no ranking.
  EXPECT_FALSE(score(cases, sim, {"a", "a", "a", "b", "b"}).spearman_time.count("gemm 2x2x2"));
  // Silicon's repeated rounds: c1 and c3, one launch, apart in both rounds - a pair silicon resolves and
  // the model ties - are one kernel at their mean per round once merged.
  for (int i = 0; i < 5; ++i) cases[i].time_rounds = {measured[i], measured[i] + 0.5};
  const Scorecard apart_rounds = score(cases, sim);
  const Scorecard merged_rounds = score(cases, sim, {"a", "b", "c", "b", "d"});
  EXPECT_EQ(apart_rounds.rank_noise.at("gemm 2x2x2").pairs, 10u);
  EXPECT_EQ(merged_rounds.rank_noise.at("gemm 2x2x2").pairs, 6u);
  EXPECT_EQ(merged_rounds.group_cases.at("gemm 2x2x2")[1], "c1 = c3");
  bool one_launch_missed = false;
  for (const auto& [fast, slow] : apart_rounds.rank_noise.at("gemm 2x2x2").missed)
    one_launch_missed |= (fast == 1 && slow == 3);
  EXPECT_TRUE(one_launch_missed) << "ranked apart, the model's tie on one launch is a miss";
}

// A group that joins records measured once (the padded WMMA kernel's beside the repeated CTA orders) still has
// silicon's ceiling over the launches that were measured in rounds, and a missed pair names them in the whole group.
TEST(Scoring, RankNoiseOverTheLaunchesMeasuredInRounds) {
  const double measured[] = {90, 100, 102, 104, 120}, model[] = {95, 110, 112, 108, 130};
  std::vector<MeasuredCase> cases;
  std::vector<MetricValues> sim;
  five_cases(measured, model, cases, sim);
  for (int i = 1; i < 5; ++i) cases[i].time_rounds = {measured[i], measured[i] + 0.5};  // c0 measured once
  const Scorecard card = score(cases, sim);
  const RankNoise& n = card.rank_noise.at("gemm 2x2x2");
  EXPECT_EQ(n.kernels, 4u);
  EXPECT_EQ(card.group_sizes.at("gemm 2x2x2"), 5u);
  EXPECT_EQ(n.pairs, 6u);
  // Silicon resolves every pair of c1..c4; the model puts c3 (108) before c1 (110) and c2 (112).
  ASSERT_EQ(n.missed.size(), 2u);
  EXPECT_EQ(card.group_cases.at("gemm 2x2x2")[n.missed[0].first], "c1");
  EXPECT_EQ(card.group_cases.at("gemm 2x2x2")[n.missed[0].second], "c3");
  EXPECT_EQ(card.group_cases.at("gemm 2x2x2")[n.missed[1].first], "c2");
  // Fewer than three launches in rounds: no ceiling.
  cases[1].time_rounds.clear();
  cases[2].time_rounds.clear();
  EXPECT_FALSE(score(cases, sim).rank_noise.count("gemm 2x2x2"));
}

// Silicon's own ranking noise: kernels whose times overlap over the rounds have no silicon order, a
// Spearman against one round is capped by round-vs-round agreement, and the model is scored on the
// pairs silicon does resolve (a model tie on such a pair counts half).
TEST(RankNoise, CeilingResolvedPairsAndModelAgreement) {
  // Kernels 0 and 1 overlap (no order); 2 is always slower than both; 3 always slowest.
  const std::vector<std::vector<double>> rounds = {{100, 104, 101}, {103, 99, 102}, {110, 111, 112}, {120, 125, 121}};
  RankNoise n = rank_noise(rounds, {1, 2, 3, 4});
  EXPECT_EQ(n.rounds, 3u);
  EXPECT_EQ(n.pairs, 6u);
  EXPECT_EQ(n.resolved, 5u);  // all but (0, 1)
  EXPECT_DOUBLE_EQ(n.agreed, 5.0);
  EXPECT_DOUBLE_EQ(n.agreed_fraction(), 1.0);
  // Round 1 swaps kernels 0 and 1 against rounds 0 and 2 (rho 0.8 each), which agree (1.0).
  EXPECT_NEAR(n.silicon_self, (0.8 + 0.8 + 1.0) / 3, 1e-12);
  EXPECT_TRUE(n.missed.empty());
  // A model that swaps 2 and 3 loses one resolved pair; a tie between 0 and 2 costs half of one.
  const RankNoise swapped = rank_noise(rounds, {1, 2, 4, 3});
  EXPECT_DOUBLE_EQ(swapped.agreed, 4.0);
  ASSERT_EQ(swapped.missed.size(), 1u);
  EXPECT_EQ(swapped.missed[0], (std::pair<std::size_t, std::size_t>{2, 3}));  // silicon's faster first
  EXPECT_EQ(rank_noise(rounds, {3, 2, 3, 4}).missed.size(), 1u);              // the tie is listed too
  EXPECT_DOUBLE_EQ(rank_noise(rounds, {3, 2, 3, 4}).agreed, 4.5);
  // The model's order of the unresolved pair is never scored.
  EXPECT_DOUBLE_EQ(rank_noise(rounds, {2, 1, 3, 4}).agreed, 5.0);
  EXPECT_DEATH(rank_noise({{1}, {2}}, {1, 2}), "rounds");
}

// Records carry the repeated rounds measured the way their own time was: ncu profiles where the
// record's time is ncu's; the card then has each group's ceiling and `resolved:` targets check it.
TEST(RankNoise, RecordsCarryTheirRoundsAndTargetsUseThem) {
  auto cases = load_records({source_path("validate/results/h100/gemv")});
  ASSERT_EQ(cases.size(), 16u);
  for (const auto& c : cases) {
    ASSERT_EQ(c.time_rounds.size(), 5u) << c.name;
    // ncu times differ from the record's own run by the run-to-run spread, not by the events' offset.
    for (double t : c.time_rounds) EXPECT_NEAR(t / c.measured.at("gpu__time_duration.sum"), 1.0, 0.1) << c.name;
  }
  std::vector<MetricValues> sim;
  for (const auto& c : cases) sim.push_back({{"gpu__time_duration.sum", c.measured.at("gpu__time_duration.sum")}});
  const Scorecard card = score(cases, sim);
  ASSERT_EQ(card.rank_noise.size(), 2u);
  for (const auto& [g, n] : card.rank_noise) {
    EXPECT_GT(n.resolved, 0u) << g;
    EXPECT_LT(n.silicon_self, 1.0) << g;
  }
  auto ok = check({parse_requirement("resolved:gemv>=0.5"), parse_requirement("resolved:gemm>=0.5")}, card);
  EXPECT_FALSE(ok[1].passed);  // no GEMM group with rounds here: a target that cannot be checked is missed
  EXPECT_THROW(parse_requirement("resolved:gemv>=1.5"), ConfigError);
  EXPECT_THROW(parse_requirement("resolved:gemv<=0.5"), ConfigError);
}

// Residuals of a known model: y = a * t + b * t^2 at a few t; the fit must find (a, b).
std::vector<double> model_residuals(const std::vector<double>& x) {
  std::vector<double> r;
  for (double t : {0.5, 1.0, 2.0, 3.0, 5.0}) r.push_back((x[0] * t + x[1] * t * t) - (2.5 * t + 0.75 * t * t));
  return r;
}

TEST(Fit, LevenbergMarquardtRecoversKnownParameters) {
  FitOptions opt;
  opt.method = "lm";
  opt.max_evals = 40;
  opt.rel_tol = 1e-9;
  FitResult r = fit({{"a", 1.0, 0.1, 10, false}, {"b", 1.0, 0.1, 10, false}}, model_residuals, opt);
  EXPECT_EQ(r.method, "lm");
  EXPECT_NEAR(r.x[0], 2.5, 1e-3);
  EXPECT_NEAR(r.x[1], 0.75, 1e-3);
  EXPECT_LT(r.cost_best, r.cost_start);
  EXPECT_LE(static_cast<int>(r.history.size()), 40);
}

TEST(Fit, NelderMeadHandlesIntegersAndBounds) {
  FitOptions opt;  // auto picks nelder-mead for an integer parameter
  opt.max_evals = 80;
  FitResult r = fit({{"a", 1.0, 0.1, 10, false}, {"n", 4, 1, 20, true}},
                    [](const std::vector<double>& x) {
                      EXPECT_EQ(x[1], std::round(x[1]));
                      return std::vector<double>{x[0] - 3.2, (x[1] - 7) / 10};
                    },
                    opt);
  EXPECT_EQ(r.method, "nelder-mead");
  EXPECT_NEAR(r.x[0], 3.2, 0.05);
  EXPECT_EQ(r.x[1], 7);
  // A bound below the optimum is respected.
  FitResult b = fit({{"a", 1.0, 0.5, 2.0, false}}, [](const std::vector<double>& x) { return std::vector<double>{x[0] - 3}; },
                    FitOptions{"lm", 20, 1e-6});
  EXPECT_NEAR(b.x[0], 2.0, 1e-9);
  // Starting on the upper bound: the slope is taken backwards, and the fit still moves down.
  FitResult top = fit({{"a", 10.0, 0.1, 10, false}, {"b", 1.0, 0.1, 10, false}}, model_residuals, FitOptions{"lm", 60, 1e-9});
  EXPECT_NEAR(top.x[0], 2.5, 1e-2);
  EXPECT_THROW(fit({{"z", 0.0, 0.0, 0.0, false}}, model_residuals, FitOptions{}), ConfigError);
  EXPECT_THROW(fit({{"a", 5.0, 0.0, 1.0, false}}, model_residuals, FitOptions{}), ConfigError);
}

// An integer parameter on a plateau (a launch overhead in cycles, whose +-1 moves the error by noise)
// stops after its neighbours are tried instead of walking one step per evaluation.
TEST(Fit, IntegerPolishStopsOnAPlateau) {
  FitOptions opt;
  opt.max_evals = 40;
  int evals = 0;
  FitResult r = fit({{"cycles", 10000, 0, 20000, true}},
                    [&](const std::vector<double>& x) {
                      ++evals;
                      return std::vector<double>{1.0 + 1e-7 * (20000 - x[0])};
                    },
                    opt);
  EXPECT_LE(evals, 8) << "the polish walked the plateau to " << r.x[0];
  EXPECT_NEAR(r.x[0], 10000, 3000);
}

TEST(CalibratedYaml, ReplacesValuesOnTheirLinesAndAddsProvenance) {
  const std::string text =
      "# GPU X\n# sources\nname: X\nl2:\n  size: 50MiB       # measured\n  slice_bytes_per_cycle: 48  # derived: probe\n";
  std::string out = calibrated_yaml(text, "x.yaml", {{"l2.slice_bytes_per_cycle", 6, "48B/cycle", "36.5B/cycle"}},
                                    {"Calibrated by test", "Fitted l2.slice_bytes_per_cycle: 48 -> 36.5"});
  EXPECT_NE(out.find("# GPU X\n# sources\n# Calibrated by test\n# Fitted l2.slice_bytes_per_cycle: 48 -> 36.5\nname: X\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  slice_bytes_per_cycle: 36.5B/cycle # calibrated (see header); was 48B/cycle: derived: probe\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  size: 50MiB       # measured\n"), std::string::npos);
  EXPECT_THROW(calibrated_yaml(text, "x.yaml", {{"l2.assoc", 6, "16", "8"}}, {}), ConfigError);
}

}  // namespace
}  // namespace gms
