#pragma once
// Simulation set against measurement: per-case errors, per-metric summaries (MAPE, or mean
// absolute error in percentage points for percent metrics), the rank correlation of time within
// each group of cases, and checks of accuracy targets ("dram__bytes_read.sum:mape<=15").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calib/measured.h"
#include "calib/rank_noise.h"
#include "calib/replay.h"

namespace gms {

// Signed error of one value: percent of the measurement, or percentage points for percent metrics.
double metric_error(const std::string& metric, double measured, double simulated);

struct MetricSummary {
  std::string metric;
  double mean_abs_error = 0;  // % (MAPE) or pp
  std::size_t n = 0;
};

struct Scorecard {
  std::vector<MetricSummary> metrics;              // in compared_metrics() order, only those measured
  // The same per record set (the directory a record came from: gemm, gemv, triton_gemv, ...).
  std::map<std::string, std::vector<MetricSummary>> metrics_by_set;
  // group -> rho over the group's times (groups of >= 3 launches): the CTA orders of one tiling, and
  // for GEMMs also the tilings of one shape and order. Cases that are the same launch (GROUP_M >= the
  // tile rows and column-major; one tiling recorded twice) count once, at their measured times' mean:
  // one simulation cannot order them, and what separates them on silicon (0.1-0.5 %: their tile-index
  // arithmetic, the order they were measured in) is not a choice of tiles or order a ranking is asked about.
  std::map<std::string, double> spearman_time;
  std::map<std::string, std::size_t> group_sizes;     // distinct launches per group
  std::map<std::string, std::size_t> group_cases_n;   // cases per group (>= group_sizes)
  // group -> silicon's own ranking noise and the model's score on the pairs silicon resolves (groups
  // whose every case carries repeated rounds of its time; one launch's cases at their mean per round).
  std::map<std::string, RankNoise> rank_noise;
  // group -> its launches' names (one launch's cases joined by " = "), in RankNoise's index order
  std::map<std::string, std::vector<std::string>> group_cases;
  // Time MAPE (%) per record set (the kernel: gemm, triton_gemm, gemv, ...) and per CTA-order group
  // (one tiling of one kernel): where the error sits.
  std::map<std::string, MetricSummary> time_by_set, time_by_group;
  // `record_set` empty: over every case.
  const MetricSummary* find(const std::string& metric, const std::string& record_set = "") const;
};

// `launches[i]`: what names case i's launch (Replayer::run's keys); equal names are one launch.
// Empty: every case its own.
Scorecard score(const std::vector<MeasuredCase>& cases, const std::vector<MetricValues>& simulated,
                const std::vector<std::string>& launches = {});

// A target: METRIC:mape<=X, METRIC:mae<=X (pp), METRIC@SET:... (only the cases of one record set,
// e.g. lts__t_sectors_srcunit_ltcfabric.sum@gemv:mape<=3), spearman:GROUP_PREFIX>=X (every group whose
// name starts with the prefix; "gemm" covers each GEMM shape), or resolved:GROUP_PREFIX>=X (the
// fraction of the pairs silicon resolves over repeated rounds that the model orders as silicon, in
// every such group that has repeated rounds).
struct Requirement {
  std::string text;
  std::string metric;  // or "spearman", "resolved"
  std::string group_prefix;
  std::string record_set;  // METRIC@SET: only that set's cases; empty: all
  bool at_most = true;
  double bound = 0;
};
// Throws ConfigError naming the text when it does not parse.
Requirement parse_requirement(const std::string& text);

struct RequirementResult {
  std::string text;
  bool passed = false;
  std::string reached;  // "MAPE 12.3 % over 40", "gemm 8192x8192x8192: +0.83"
};
std::vector<RequirementResult> check(const std::vector<Requirement>& reqs, const Scorecard& card);

}  // namespace gms
