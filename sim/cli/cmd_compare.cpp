// gpumemsim compare: replays measured records (validate/results) and sets simulation beside
// silicon, metric by metric, with per-metric error summaries and, for every group of records that
// differ only in CTA order or warp count/order, the rank correlation of the measured and simulated
// times (Spearman).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "api/simulation.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/parallel.h"
#include "common/error.h"
#include "stats/metrics.h"
#include "stats/statistics.h"

namespace gms::cli {
namespace {

const char* kCompared[] = {"gpu__time_duration.sum",
                           "dram__bytes_read.sum",
                           "dram__bytes_write.sum",
                           "lts__t_sector_hit_rate.pct",
                           "lts__t_sectors_op_read.sum",
                           "lts__t_sectors_op_red.sum",
                           "sm__warps_active.avg.pct_of_peak_sustained_active",
                           "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"};

bool is_pct(const std::string& m) { return m.find(".pct") != std::string::npos; }

}  // namespace

int cmd_compare(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim compare options");
  po::positional_options_description pos;
  pos.add("record", -1);
  po::variables_map vm;
  std::string gpu, csv_path, json_path;
  std::vector<std::string> records, sets;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  desc.add_options()("gpu,g", po::value(&gpu)->required(), "GPU description to simulate on")(
      "record", po::value(&records)->required(), "validate records (JSON files or directories of them)")(
      "set,s", po::value(&sets)->composing(), "override a key for every replay (gpu.KEY=V)")(
      "jobs,j", po::value(&jobs), "records simulated at once (default: all cores)")(
      "csv", po::value(&csv_path), "write case,metric,measured,simulated,error rows")(
      "json", po::value(&json_path), "write the comparison as JSON");
  if (!parse_options(args, desc, vm, "usage: gpumemsim compare --gpu G.yaml RECORD.json|DIR ...", &pos)) return 0;
  std::vector<std::string> files;
  for (const auto& r : records) {
    if (std::filesystem::is_directory(r)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(r))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    } else {
      files.push_back(r);
    }
  }
  std::sort(files.begin(), files.end());
  struct Row {
    std::string file, name, kind, group;
    nlohmann::json rec;
    LoadedConfigs cfg;
    std::map<std::string, double> measured, simulated;
  };
  std::vector<Row> rows;
  for (const auto& f : files) {
    std::ifstream in(f);
    nlohmann::json rec;
    try {
      rec = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError(f + ": not JSON: " + e.what());
    }
    if (!rec.contains("workload") || rec["workload"].is_null()) continue;  // microbenchmarks
    Row row{f, rec.value("case", f), rec.value("kind", ""), "", rec, {}, {}, {}};
    row.cfg = load_configs(ConfigInputs{gpu, f, sets, true});
    const auto& w = rec["workload"];
    if (row.kind == "gemm")
      row.group = "gemm " + std::to_string(w.value("m", 0)) + "x" + std::to_string(w.value("n", 0)) + "x" +
                  std::to_string(w.value("k", 0)) + " (CTA orders)";
    else
      row.group = row.kind + " 1x" + std::to_string(w.value("k", 0)) + "x" + std::to_string(w.value("n", 0)) +
                  " (warps x order)";
    if (rec.contains("measured") && rec["measured"].contains("gpu__time_duration.sum"))
      row.measured["gpu__time_duration.sum"] = rec["measured"]["gpu__time_duration.sum"].get<double>();
    if (rec.contains("ncu") && rec["ncu"].contains("counters"))
      for (const char* m : kCompared)
        if (rec["ncu"]["counters"].contains(m) && !row.measured.count(m))
          row.measured[m] = rec["ncu"]["counters"][m].get<double>();
    rows.push_back(std::move(row));
  }
  if (rows.empty()) throw ConfigError("no replayable records among the " + std::to_string(files.size()) + " files");
  size_t done = 0;
  parallel_for(
      rows.size(), jobs,
      [&](size_t i) {
        RunOutput run = simulate(rows[i].cfg);
        for (const auto& m : compute_metrics(run.result, rows[i].cfg.gpu.value, *run.kernel))
          rows[i].simulated[m.name] = m.value;
      },
      [&](size_t) { std::cerr << "\r  " << ++done << " / " << rows.size() << " records replayed" << std::flush; });
  std::cerr << "\n";
  // Per case and metric; pct metrics are compared in percentage points, the rest in relative error.
  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
    csv << "case,metric,measured,simulated,error,error_unit\n";
  }
  std::map<std::string, std::vector<double>> errors;
  nlohmann::ordered_json out = {{"gpu", rows.front().cfg.gpu.value.name}, {"cases", nlohmann::ordered_json::array()}};
  std::printf("%-44s %-28s %14s %14s %9s\n", "case", "metric", "measured", "simulated", "error");
  for (const auto& r : rows) {
    nlohmann::ordered_json c = {{"case", r.name}, {"metrics", nlohmann::ordered_json::object()}};
    for (const char* m : kCompared) {
      if (!r.measured.count(m) || !r.simulated.count(m)) continue;
      double meas = r.measured.at(m), sim = r.simulated.at(m);
      double err = is_pct(m) ? sim - meas : (meas != 0 ? 100.0 * (sim - meas) / meas : 0);
      errors[m].push_back(std::fabs(err));
      std::printf("%-44s %-28.28s %14.6g %14.6g %+8.1f%s\n", r.name.c_str(), m, meas, sim, err, is_pct(m) ? "pp" : "%");
      if (csv.is_open()) csv << r.name << ',' << m << ',' << meas << ',' << sim << ',' << err << ',' << (is_pct(m) ? "pp" : "%") << '\n';
      c["metrics"][m] = {{"measured", meas}, {"simulated", sim}, {"error", err}, {"unit", is_pct(m) ? "pp" : "%"}};
    }
    out["cases"].push_back(c);
  }
  std::printf("\nsummary over %zu records on %s\n", rows.size(), rows.front().cfg.gpu.value.name.c_str());
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  for (const char* m : kCompared) {
    if (!errors.count(m)) continue;
    const auto& e = errors[m];
    double mean = 0;
    for (double x : e) mean += x / e.size();
    std::printf("  %-62s %s %6.1f%s over %zu\n", m, is_pct(m) ? "mean |error|" : "MAPE        ", mean,
                is_pct(m) ? " pp" : " %", e.size());
    summary[m] = {{is_pct(m) ? "mean_abs_error_pp" : "mape_pct", mean}, {"n", e.size()}};
  }
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> groups;
  for (const auto& r : rows)
    if (r.measured.count("gpu__time_duration.sum")) {
      groups[r.group].first.push_back(r.measured.at("gpu__time_duration.sum"));
      groups[r.group].second.push_back(r.simulated.at("gpu__time_duration.sum"));
    }
  nlohmann::ordered_json rho = nlohmann::ordered_json::object();
  for (const auto& [g, v] : groups) {
    if (v.first.size() < 3) continue;
    double s = spearman(v.first, v.second);
    std::printf("  Spearman rank correlation of time, %-40s %+.2f over %zu\n", g.c_str(), s, v.first.size());
    rho[g] = s;
  }
  out["summary"] = summary;
  out["spearman_time"] = rho;
  if (!json_path.empty()) std::ofstream(json_path) << out.dump(2) << "\n";
  return 0;
}

}  // namespace gms::cli
