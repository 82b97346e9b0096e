#include "sweep/sweep.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "common/csv.h"
#include "common/error.h"
#include "stats/metrics.h"

namespace gms {

SweepAxis parse_sweep_axis(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw ConfigError("--grid " + text + ": expected KEY=V1,V2,... (e.g. workload.warps=1,2,4)");
  SweepAxis a{text.substr(0, eq), {}};
  std::stringstream ss(text.substr(eq + 1));
  for (std::string v; std::getline(ss, v, ',');)
    if (!v.empty()) a.values.push_back(v);
  if (a.values.empty()) throw ConfigError("--grid " + text + ": no values");
  return a;
}

std::vector<std::string> default_sweep_metrics() {
  return {"gpu__time_duration.sum",
          "dram__throughput.avg.pct_of_peak_sustained_elapsed",
          "lts__t_sector_hit_rate.pct",
          "sm__warps_active.avg.pct_of_peak_sustained_active",
          "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
          "launch__registers_per_thread"};
}

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
  std::size_t total = 1;
  for (const auto& a : spec.axes) {
    if (a.values.empty()) throw ConfigError("sweep axis '" + a.key + "' has no values");
    total *= a.values.size();
  }
  std::vector<SweepPoint> points;
  points.reserve(total);
  for (std::size_t i = 0; i < total; ++i) {
    SweepPoint p;
    p.inputs = spec.base;
    p.values.resize(spec.axes.size());
    std::size_t rest = i;
    for (std::size_t k = spec.axes.size(); k-- > 0;) {
      p.values[k] = spec.axes[k].values[rest % spec.axes[k].values.size()];
      rest /= spec.axes[k].values.size();
    }
    for (std::size_t k = 0; k < spec.axes.size(); ++k) {
      if (spec.axes[k].key == "gpu") {
        p.inputs.gpu_file = p.values[k];
        p.inputs.gpu_text.clear();
      } else {
        p.inputs.overrides.push_back(spec.axes[k].key + "=" + p.values[k]);
      }
    }
    (void)load_configs(p.inputs);  // fail on a typo before any work
    points.push_back(std::move(p));
  }
  return points;
}

SweepRow run_sweep_point(const SweepSpec& spec, const SweepPoint& point) {
  SweepRow row;
  row.values = point.values;
  row.metrics.assign(spec.metrics.size(), std::numeric_limits<double>::quiet_NaN());
  try {
    const LoadedConfigs cfg = load_configs(point.inputs);
    const RunOutput run = simulate(cfg);
    const auto m = compute_metrics(run.result, cfg.gpu.value, *run.kernel);
    for (const auto& x : m) row.all[x.name] = x.value;
    for (std::size_t k = 0; k < spec.metrics.size(); ++k)
      if (const Metric* x = find_metric(m, spec.metrics[k])) row.metrics[k] = x->value;
  } catch (const ConfigError& e) {
    row.error = e.what();
  }
  return row;
}

std::string sweep_csv_header(const SweepSpec& spec) {
  std::string h;
  for (const auto& a : spec.axes) h += csv_quote(a.key) + ",";
  for (const auto& m : spec.metrics) h += csv_quote(m) + ",";
  return h + "error\n";
}

std::string sweep_csv_row(const SweepRow& row) {
  std::string r;
  for (const auto& v : row.values) r += csv_quote(v) + ",";
  for (double x : row.metrics) {
    if (!std::isnan(x)) {
      std::ostringstream v;
      v.precision(8);
      v << x;
      r += v.str();
    }
    r += ",";
  }
  return r + csv_quote(row.error) + "\n";
}

std::string sweep_markdown(const SweepSpec& spec, const std::vector<std::string>& csv_rows) {
  std::ostringstream md;
  md << "|";
  for (const auto& a : spec.axes) md << " " << a.key << " |";
  for (const auto& m : spec.metrics) md << " " << m << " |";
  md << "\n|";
  for (std::size_t k = 0; k < spec.axes.size() + spec.metrics.size(); ++k) md << "---|";
  md << "\n";
  for (const auto& r : csv_rows) {
    auto cells = split_csv(r.substr(0, r.size() - (r.ends_with('\n') ? 1 : 0)));
    const std::string error = cells.back();
    cells.pop_back();
    md << "|";
    for (const auto& c : cells) md << " " << c << " |";
    if (!error.empty()) md << " error: " << error << " |";
    md << "\n";
  }
  return md.str();
}

std::string sweep_fingerprint(const SweepSpec& spec) {
  std::ostringstream f;
  f << "gpumemsim sweep\ngpu: " << spec.base.gpu_file << "\n";
  if (!spec.base.gpu_text.empty()) f << "gpu_text: " << spec.base.gpu_text << "\n";
  f << "workload: " << spec.base.workload_file << "\n";
  if (!spec.base.workload_text.empty()) f << "workload_text: " << spec.base.workload_text << "\n";
  for (const auto& s : spec.base.overrides) f << "set: " << s << "\n";
  for (const auto& a : spec.axes) {
    f << "grid: " << a.key << "=";
    for (std::size_t i = 0; i < a.values.size(); ++i) f << (i ? "," : "") << a.values[i];
    f << "\n";
  }
  f << "metrics:";
  for (const auto& m : spec.metrics) f << " " << m;
  f << "\n";
  return f.str();
}

std::map<std::size_t, std::string> finished_sweep_rows(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                                       const std::string& partial_csv) {
  // Records end at a newline outside quotes (an error text may hold newlines inside quotes).
  std::vector<std::string> records;
  std::string cur;
  bool quoted = false;
  for (char c : partial_csv) {
    cur += c;
    if (c == '"') quoted = !quoted;
    if (c == '\n' && !quoted) records.push_back(std::move(cur)), cur.clear();
  }
  std::map<std::size_t, std::string> rows;
  if (records.empty()) return rows;
  if (records.front() != sweep_csv_header(spec))
    throw ConfigError("the partial sweep CSV has another header than this sweep: it belongs to another sweep "
                      "(remove it, or run without --resume)");
  std::map<std::vector<std::string>, std::size_t> index;
  for (std::size_t i = 0; i < points.size(); ++i) index[points[i].values] = i;
  const std::size_t cells_per_row = spec.axes.size() + spec.metrics.size() + 1;
  for (std::size_t r = 1; r < records.size(); ++r) {
    bool complete = true;
    auto cells = split_csv(records[r].substr(0, records[r].size() - 1), &complete);
    if (!complete || cells.size() != cells_per_row) continue;
    cells.resize(spec.axes.size());
    if (auto it = index.find(cells); it != index.end()) rows[it->second] = records[r];
  }
  return rows;
}

}  // namespace gms
