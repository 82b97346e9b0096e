// gpumemsim sweep: the cartesian product of --grid axes (and of --gpu files), simulated on all cores.
// Rows are appended to DIR/sweep.partial.csv as points finish (an interrupted sweep keeps them);
// at the end DIR/sweep.csv (in grid order, so identical inputs give identical files) and
// DIR/sweep.md replace it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "api/simulation.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/parallel.h"
#include "common/error.h"
#include "stats/metrics.h"

namespace gms::cli {
namespace {

struct Axis {
  std::string key;  // "gpu" or a --set key
  std::vector<std::string> values;
};

Axis parse_axis(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw ConfigError("--grid " + text + ": expected KEY=V1,V2,... (e.g. workload.warps=1,2,4)");
  Axis a{text.substr(0, eq), {}};
  std::stringstream ss(text.substr(eq + 1));
  for (std::string v; std::getline(ss, v, ',');)
    if (!v.empty()) a.values.push_back(v);
  if (a.values.empty()) throw ConfigError("--grid " + text + ": no values");
  return a;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n ") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim sweep options");
  po::variables_map vm;
  std::vector<std::string> gpus, grid, sets;
  std::string workload, out, metrics_list;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  desc.add_options()("gpu,g", po::value(&gpus)->required()->composing(), "GPU file(s); several = one more axis")(
      "workload,w", po::value(&workload)->required(), "workload file")(
      "grid", po::value(&grid)->composing(), "an axis: KEY=V1,V2,... with KEY a --set key (repeatable)")(
      "set,s", po::value(&sets)->composing(), "a fixed override for every point")(
      "out,o", po::value(&out)->required(), "directory for sweep.csv and sweep.md")(
      "jobs,j", po::value(&jobs), "points simulated at once (default: all cores)")(
      "metrics", po::value(&metrics_list)->default_value(
                     "gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,"
                     "lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,"
                     "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,launch__registers_per_thread"),
      "metrics to tabulate (comma-separated)");
  if (!parse_options(args, desc, vm,
                     "usage: gpumemsim sweep --gpu G.yaml [--gpu G2.yaml] --workload W.yaml --grid key=v1,v2 ... --out DIR"))
    return 0;
  std::vector<Axis> axes;
  if (gpus.size() > 1) axes.push_back({"gpu", gpus});
  for (const auto& g : grid) axes.push_back(parse_axis(g));
  std::vector<std::string> metric_names;
  {
    std::stringstream ss(metrics_list);
    for (std::string m; std::getline(ss, m, ',');) metric_names.push_back(m);
  }
  // Every point, in grid order (the last axis fastest); all configurations are checked up front so
  // a typo fails before any work.
  struct Point {
    std::vector<std::string> values;
    LoadedConfigs cfg;
  };
  std::vector<Point> points;
  size_t total = 1;
  for (const auto& a : axes) total *= a.values.size();
  for (size_t i = 0; i < total; ++i) {
    Point p;
    ConfigInputs in{gpus.front(), workload, sets, false};
    size_t rest = i;
    std::vector<std::string> vals(axes.size());
    for (size_t k = axes.size(); k-- > 0;) {
      vals[k] = axes[k].values[rest % axes[k].values.size()];
      rest /= axes[k].values.size();
    }
    for (size_t k = 0; k < axes.size(); ++k) {
      if (axes[k].key == "gpu")
        in.gpu_file = vals[k];
      else
        in.overrides.push_back(axes[k].key + "=" + vals[k]);
    }
    p.values = vals;
    p.cfg = load_configs(in);
    points.push_back(std::move(p));
  }
  if (points.empty()) throw ConfigError("the grid has no points");
  std::filesystem::create_directories(out);
  const auto dir = std::filesystem::path(out);
  std::string header;
  for (const auto& a : axes) header += csv_cell(a.key) + ",";
  for (const auto& m : metric_names) header += m + ",";
  header += "error\n";
  std::ofstream partial(dir / "sweep.partial.csv");
  partial << header << std::flush;
  std::vector<std::string> rows(points.size());
  size_t done = 0;
  parallel_for(
      points.size(), jobs,
      [&](size_t i) {
        std::string row;
        for (const auto& v : points[i].values) row += csv_cell(v) + ",";
        try {
          RunOutput run = simulate(points[i].cfg);
          auto m = compute_metrics(run.result, points[i].cfg.gpu.value, *run.kernel);
          for (const auto& name : metric_names) {
            const Metric* x = find_metric(m, name);
            std::ostringstream v;
            v.precision(8);
            if (x) v << x->value;
            row += v.str() + ",";
          }
          row += "\n";
        } catch (const ConfigError& e) {
          for (size_t k = 0; k < metric_names.size(); ++k) row += ",";
          row += csv_cell(e.what()) + "\n";
        }
        rows[i] = row;
      },
      [&](size_t i) {
        partial << rows[i] << std::flush;
        std::cerr << "\r  " << ++done << " / " << points.size() << " points" << std::flush;
      });
  std::cerr << "\n";
  {
    std::ofstream csv(dir / "sweep.csv.tmp");
    csv << header;
    for (const auto& r : rows) csv << r;
  }
  std::filesystem::rename(dir / "sweep.csv.tmp", dir / "sweep.csv");
  partial.close();
  std::filesystem::remove(dir / "sweep.partial.csv");
  // Markdown table of the same rows.
  std::ostringstream md;
  md << "|";
  for (const auto& a : axes) md << " " << a.key << " |";
  for (const auto& m : metric_names) md << " " << m << " |";
  md << "\n|";
  for (size_t k = 0; k < axes.size() + metric_names.size(); ++k) md << "---|";
  md << "\n";
  for (const auto& r : rows) {
    std::string cells = r.substr(0, r.size() - 1);
    std::string line = "|";
    bool quoted = false;
    std::string cell;
    for (char c : cells) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) line += " " + cell + " |", cell.clear();
      else cell += c;
    }
    if (!cell.empty()) line += " error: " + cell + " |";
    md << line << "\n";
  }
  std::ofstream(dir / "sweep.md") << md.str();
  std::cout << md.str() << "wrote " << (dir / "sweep.csv").string() << " and sweep.md (" << points.size() << " points)\n";
  return 0;
}

}  // namespace gms::cli
