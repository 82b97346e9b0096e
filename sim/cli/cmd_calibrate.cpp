// gpumemsim calibrate: fits chosen GPU parameters to measured cases and writes a calibrated GPU
// description whose fitted values carry their provenance (records used, error before and after,
// on the training cases and on held-out ones).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "calib/calibrated_yaml.h"
#include "common/files.h"
#include "calib/fit.h"
#include "calib/replay.h"
#include "calib/scoring.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "config/install_paths.h"
#include "dist/ranks.h"
#include "common/error.h"
#include "config/gpu_schema.h"

namespace gms::cli {
namespace {

const Param<GpuConfig>& gpu_param(const std::string& path) {
  for (const auto& p : gpu_schema().params)
    if (p.path == path) return p;
  std::vector<std::string> names;
  for (const auto& p : gpu_schema().params) names.push_back(p.path);
  std::string hint = did_you_mean(path, names);
  throw ConfigError("--fit " + path + ": not a GPU parameter" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
}

// "path" or "path=lo:hi" (bounds written like values: 16:64, 1.5GHz:2GHz).
FitParam parse_fit(const std::string& spec, const LoadedConfigs& cfg) {
  std::string path = spec, range;
  if (auto eq = spec.find('='); eq != std::string::npos) {
    path = spec.substr(0, eq);
    range = spec.substr(eq + 1);
  }
  const Param<GpuConfig>& p = gpu_param(path);
  if (p.kind != ParamKind::kQuantity) throw ConfigError("--fit " + path + ": only numeric parameters can be fitted");
  FitParam f;
  f.path = path;
  f.start = p.get_number(cfg.gpu.value);
  f.integer = p.quantity == Quantity::kInteger || p.quantity == Quantity::kCycles || p.quantity == Quantity::kBytes;
  f.lo = std::max(p.min, f.start / 4);
  f.hi = std::min(p.max, f.start * 4);
  if (!range.empty()) {
    auto colon = range.find(':');
    if (colon == std::string::npos) throw ConfigError("--fit " + spec + ": bounds are LO:HI");
    std::string why;
    auto lo = parse_quantity(range.substr(0, colon), p.quantity, &why);
    if (!lo) throw ConfigError("--fit " + spec + ": lower bound: " + why);
    auto hi = parse_quantity(range.substr(colon + 1), p.quantity, &why);
    if (!hi) throw ConfigError("--fit " + spec + ": upper bound: " + why);
    f.lo = std::max(p.min, *lo);
    f.hi = std::min(p.max, *hi);
  }
  return f;
}

// Every k-th case of each group (k = 1 / fraction), from the middle of the group's sorted list, is
// held out; groups of one case stay in training.
void split(const std::vector<MeasuredCase>& all, double fraction, std::vector<MeasuredCase>* train,
           std::vector<MeasuredCase>* held) {
  std::map<std::string, std::vector<const MeasuredCase*>> groups;
  for (const auto& c : all) groups[c.group].push_back(&c);
  const int k = fraction > 0 ? std::max(2, static_cast<int>(std::lround(1.0 / fraction))) : 0;
  for (auto& [g, v] : groups) {
    std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (size_t i = 0; i < v.size(); ++i) {
      bool hold = k > 0 && v.size() > 1 && static_cast<int>(i % k) == k / 2;
      (hold ? held : train)->push_back(*v[i]);
    }
  }
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

std::string summary_line(const Scorecard& card, const std::vector<std::string>& metrics) {
  std::ostringstream os;
  for (const auto& m : metrics)
    if (const MetricSummary* s = card.find(m)) {
      char buf[120];
      std::snprintf(buf, sizeof buf, "%s%s %.1f %s", os.tellp() > 0 ? ", " : "", m.c_str(), s->mean_abs_error,
                    is_pct_metric(m) ? "pp" : "%");
      os << buf;
    }
  return os.str();
}

}  // namespace

int cmd_calibrate(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim calibrate options");
  po::positional_options_description pos;
  pos.add("record", -1);
  po::variables_map vm;
  std::string gpu, out_path, report_path, method = "auto", fit_list, ncu_csv, workload, kernel_filter;
  std::vector<std::string> records, sets, metrics;
  double holdout = 0.25;
  int max_evals = 30;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  desc.add_options()("gpu,g", po::value(&gpu)->required(), "GPU description to start from")(
      "record", po::value(&records), "validate records (JSON files or directories of them)")(
      "ncu", po::value(&ncu_csv), "a raw Nsight Compute export instead of records (with --workload)")(
      "workload,w", po::value(&workload), "with --ncu: the workload YAML of the profiled kernel")(
      "kernel", po::value(&kernel_filter), "with --ncu: only rows whose kernel name contains this")(
      "fit", po::value(&fit_list),
      "comma-separated GPU keys to fit, each optionally with bounds: l2.slice_bytes_per_cycle=16:64 "
      "(default bounds: start/4 .. start*4); none: the --set values are written and the records scored")(
      "metric,m", po::value(&metrics)->composing(),
      "metric whose error is minimised, repeatable (default gpu__time_duration.sum)")(
      "holdout", po::value(&holdout), "fraction of each group's cases kept out of the fit (default 0.25; 0 = none)")(
      "method", po::value(&method), "auto | lm | nelder-mead (auto: nelder-mead when a parameter is an integer)")(
      "max-evals", po::value(&max_evals), "parameter points simulated at most (default 30)")(
      "set,s", po::value(&sets)->composing(), "fixed overrides for every replay (gpu.KEY=V)")(
      "jobs,j", po::value(&jobs), "simulations at once (default: all cores)")(
      "out,o", po::value(&out_path)->required(), "calibrated GPU YAML to write")(
      "report", po::value(&report_path), "also write the fit (every evaluation, errors) as JSON");
  if (!parse_options(args, desc, vm,
                     "usage: gpumemsim calibrate --gpu G.yaml [--fit KEY[=LO:HI],...] [--set gpu.KEY=V]... --out G-cal.yaml RECORDS...", &pos))
    return 0;
  gpu = resolve_gpu_preset(gpu);  // a preset name ("h100") names its file
  if (holdout < 0 || holdout >= 1) throw ConfigError("--holdout must be in [0, 1)");
  if (metrics.empty()) metrics = {"gpu__time_duration.sum"};
  for (const auto& m : metrics)
    if (std::find(compared_metrics().begin(), compared_metrics().end(), m) == compared_metrics().end())
      throw ConfigError("--metric " + m + ": not a compared metric");
  std::vector<MeasuredCase> all = load_cases(records, ncu_csv, workload, kernel_filter);
  std::vector<MeasuredCase> train, held;
  split(all, holdout, &train, &held);
  if (train.empty()) throw ConfigError("no training cases");
  Replayer replayer(gpu, jobs);
  // Under mpirun every rank replays its share of each parameter point and receives all results, so
  // all ranks take the same fit steps; rank 0 writes.
  if (dist::size() > 1) replayer.set_parallel_map(dist::map_all);
  const LoadedConfigs base = replayer.configs(train.front(), sets);
  const LoadedConfigs file_only = load_configs(ConfigInputs{gpu, "", {}, false});
  std::vector<FitParam> params;
  std::stringstream list(fit_list);
  for (std::string item; std::getline(list, item, ',');)
    if (!item.empty()) params.push_back(parse_fit(item, base));
  for (const auto& p : params) {  // the calibrated file replaces the value on its own line
    auto o = file_only.gpu.origins.find(p.path);
    if (o == file_only.gpu.origins.end() || o->second.line == 0)
      throw ConfigError("--fit " + p.path + ": not set in " + gpu + " (it has its default); add the key there first");
  }
  // The GPU values --set fixes (measured ones, for a new GPU; the loader marks where each value came from)
  // go into the calibrated file too, on their own lines, so that it holds what the fit ran with: each must
  // be a key of the file already.
  std::vector<FittedValue> fixed;
  for (const auto& [path, mark] : base.gpu.origins) {
    if (mark.file.rfind("--set ", 0) != 0) continue;  // "--set gpu.KEY=V"
    if (std::any_of(params.begin(), params.end(), [&](const FitParam& f) { return f.path == path; })) continue;  // fitted
    auto o = file_only.gpu.origins.find(path);
    if (o == file_only.gpu.origins.end() || o->second.line == 0)
      throw ConfigError(mark.file + ": not set in " + gpu +
                        " (it has its default); add the key there first, so that the calibrated file holds the value");
    const Param<GpuConfig>& p = gpu_param(path);
    fixed.push_back(FittedValue{path, o->second.line, p.format(file_only.gpu.value), p.format(base.gpu.value)});
  }
  if (params.empty() && fixed.empty()) throw ConfigError("nothing to do: give --fit KEYS, or --set gpu.KEY=V values to write");
  auto overrides_at = [&](const std::vector<double>& x) {
    std::vector<std::string> o = sets;
    for (size_t i = 0; i < params.size(); ++i)
      o.push_back("gpu." + params[i].path + "=" + format_quantity(x[i], gpu_param(params[i].path).quantity));
    return o;
  };
  int evals = 0;
  ResidualFn residuals = [&](const std::vector<double>& x) {
    auto sim = replayer.run(train, overrides_at(x));
    std::vector<double> r;
    for (size_t i = 0; i < train.size(); ++i)
      for (const auto& m : metrics) {
        auto meas = train[i].measured.find(m);
        auto s = sim[i].find(m);
        if (meas != train[i].measured.end() && s != sim[i].end()) r.push_back(metric_error(m, meas->second, s->second) / 100);
      }
    if (r.empty()) throw ConfigError("none of the training cases measured " + metrics.front());
    double cost = 0;
    for (double v : r) cost += v * v;
    ++evals;
    if (!dist::is_root()) return r;
    std::fprintf(stderr, "  eval %2d:", evals);
    for (size_t i = 0; i < params.size(); ++i)
      std::fprintf(stderr, " %s=%s", params[i].path.c_str(), format_quantity(x[i], gpu_param(params[i].path).quantity).c_str());
    std::fprintf(stderr, "  rms error %.2f %%\n", 100 * std::sqrt(cost / static_cast<double>(r.size())));
    return r;
  };
  if (dist::is_root() && !params.empty())
    std::fprintf(stderr, "calibrating %zu parameter(s) on %zu training cases (%zu held out)\n", params.size(), train.size(),
                 held.size());
  else if (dist::is_root())
    std::fprintf(stderr, "writing %zu --set value(s), scored on %zu cases (%zu held out)\n", fixed.size(), train.size(),
                 held.size());
  FitOptions opt;
  opt.method = method;
  opt.max_evals = max_evals;
  FitResult res;
  if (params.empty()) {  // nothing to fit: the copy takes the --set values (measured ones), scored below
    res.method = "none";
  } else {
    res = fit(params, residuals, opt);
  }
  std::vector<double> x0;
  for (const auto& p : params) x0.push_back(p.start);
  // The same launches under any parameter point: the start's replay names them.
  std::vector<std::string> train_launches, held_launches;
  const auto train_at_start = replayer.run(train, overrides_at(x0), {}, &train_launches);
  Scorecard train_before = score(train, train_at_start, train_launches);
  Scorecard train_after = score(train, replayer.run(train, overrides_at(res.x)), train_launches);
  Scorecard held_before, held_after;
  if (!held.empty()) {
    const auto held_at_start = replayer.run(held, overrides_at(x0), {}, &held_launches);
    held_before = score(held, held_at_start, held_launches);
    held_after = score(held, replayer.run(held, overrides_at(res.x)), held_launches);
  }

  if (!dist::is_root()) return 0;
  std::vector<FittedValue> values;
  std::vector<std::string> header = {
      "Calibrated by `gpumemsim calibrate` from " + gpu + " (" + res.method + ", " +
          std::to_string(res.history.size()) + " parameter points, " + std::to_string(replayer.simulations()) +
          " simulations).",
      "Minimised: " + join(metrics, ", ") + (sets.empty() ? "" : "; fixed overrides: " + join(sets, " "))};
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& q = gpu_param(params[i].path).quantity;
    FittedValue v{params[i].path, file_only.gpu.origins.at(params[i].path).line, format_quantity(params[i].start, q),
                  format_quantity(res.x[i], q)};
    header.push_back("Fitted " + v.path + ": " + v.old_text + " -> " + v.new_text + " (bounds " +
                     format_quantity(params[i].lo, q) + " .. " + format_quantity(params[i].hi, q) + ")");
    values.push_back(v);
  }
  for (const FittedValue& v : fixed) {
    header.push_back("Set " + v.path + ": " + v.old_text + " -> " + v.new_text + " (--set, not fitted)");
    values.push_back(v);
  }
  header.push_back("Training cases (" + std::to_string(train.size()) + "), error before -> after: " +
                   summary_line(train_before, metrics) + " -> " + summary_line(train_after, metrics));
  if (!held.empty())
    header.push_back("Held-out cases (" + std::to_string(held.size()) + "), error before -> after: " +
                     summary_line(held_before, metrics) + " -> " + summary_line(held_after, metrics));
  auto names = [](const std::vector<MeasuredCase>& cases) {
    std::vector<std::string> n;
    for (const auto& c : cases) n.push_back(c.name);
    return join(n, " ");
  };
  header.push_back("Training: " + names(train));
  if (!held.empty()) header.push_back("Held out: " + names(held));
  header.push_back("Records from: " + (ncu_csv.empty() ? join(records, " ") : ncu_csv));

  std::ifstream orig(gpu);
  std::stringstream text;
  text << orig.rdbuf();
  std::string yaml = calibrated_yaml(text.str(), gpu, values, header);
  write_file_atomically(out_path, yaml);
  try {  // the result must load like any GPU file
    load_configs(ConfigInputs{out_path, "", {}, false});
  } catch (const ConfigError& e) {
    std::remove(out_path.c_str());
    throw ConfigError(std::string("the calibrated file did not load back (removed): ") + e.what());
  }
  for (const auto& h : header) std::printf("%s\n", h.c_str());
  std::printf("wrote %s\n", out_path.c_str());
  if (!report_path.empty()) {
    nlohmann::ordered_json rep = {{"gpu", gpu}, {"method", res.method}, {"metrics", metrics}};
    rep["parameters"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < params.size(); ++i)
      rep["parameters"].push_back({{"key", params[i].path}, {"start", params[i].start}, {"fitted", res.x[i]},
                                   {"lo", params[i].lo}, {"hi", params[i].hi}});
    rep["evaluations"] = nlohmann::ordered_json::array();
    for (const auto& e : res.history) rep["evaluations"].push_back({{"x", e.x}, {"sum_sq", e.cost}});
    auto card_json = [](const Scorecard& c) {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (const auto& s : c.metrics) j[s.metric] = s.mean_abs_error;
      return j;
    };
    rep["train"] = {{"cases", train.size()}, {"before", card_json(train_before)}, {"after", card_json(train_after)}};
    if (!held.empty())
      rep["held_out"] = {{"cases", held.size()}, {"before", card_json(held_before)}, {"after", card_json(held_after)}};
    std::ofstream js(report_path);
    if (!js) throw ConfigError("--report " + report_path + ": cannot write");
    js << rep.dump(2) << "\n";
  }
  return 0;
}

}  // namespace gms::cli
