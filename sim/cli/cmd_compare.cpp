// gpumemsim compare: replays measured cases (validate records, or a raw ncu CSV with a workload)
// and sets simulation beside silicon, metric by metric, with per-metric error summaries, the rank
// correlation of time in every group (CTA orders of one tiling; tilings of one GEMM shape and order;
// GEMV variants), the time MAPE per record set and per tiling, and optional accuracy targets
// (--require) that make the exit code 1 when missed. With --simulated the simulated side comes from a
// scorecard saved earlier (no replay); with --expect-simulated the fresh replays must equal one.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "api/simulation.h"
#include "calib/replay.h"
#include "calib/saved_scorecard.h"
#include "calib/scoring.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "dist/ranks.h"
#include "common/error.h"
#include "config/gpu_schema.h"

namespace gms::cli {

int cmd_compare(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim compare options");
  po::positional_options_description pos;
  pos.add("record", -1);
  po::variables_map vm;
  std::string gpu, csv_path, json_path, ncu_csv, workload, kernel_filter, expected_path;
  std::vector<std::string> records, sets, requires_, saved_paths;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  int sample_waves = 0;
  desc.add_options()("gpu,g", po::value(&gpu)->required(), "GPU description to simulate on")(
      "record", po::value(&records), "validate records (JSON files or directories of them)")(
      "ncu", po::value(&ncu_csv), "a raw Nsight Compute export (ncu --csv --page raw ...) to compare instead")(
      "workload,w", po::value(&workload), "with --ncu: the workload YAML describing the profiled kernel")(
      "kernel", po::value(&kernel_filter), "with --ncu: only rows whose kernel name contains this")(
      "set,s", po::value(&sets)->composing(), "override a key for every replay (gpu.KEY=V, workload.KEY=V)")(
      "jobs,j", po::value(&jobs), "simulations at once (default: all cores)")(
      "sample-waves", po::value(&sample_waves)->default_value(0),
      "approximate: simulate N >= 2 waves of CTAs per kernel and extrapolate the rest (0 = exact, the default)")(
      "csv", po::value(&csv_path), "write case,metric,measured,simulated,error rows")(
      "json", po::value(&json_path), "write the comparison as JSON")(
      "simulated", po::value(&saved_paths)->composing(),
      "replay nothing: take each case's simulated metrics from a scorecard an earlier --json wrote (plain or .xz, e.g. "
      "docs/results/h100-compare.json.xz) and score them; repeatable: parts of one scorecard made the same way, a later "
      "part's case replacing an earlier one's")(
      "expect-simulated", po::value(&expected_path),
      "replay, and exit 1 unless every simulated metric equals that saved scorecard's: is it still this model's?")(
      "require", po::value(&requires_)->composing(),
      "accuracy target, repeatable: METRIC:mape<=X, METRIC:mae<=X (pp), METRIC@SET:... (the records of one directory, "
      "e.g. gemv), spearman:GROUP>=X or resolved:GROUP>=X "
      "(the share of the pairs silicon orders alike in every repeated round that the model orders so too); exit 1 if missed");
  if (!parse_options(args, desc, vm,
                     "usage: gpumemsim compare --gpu G.yaml RECORD.json|DIR ...\n"
                     "       gpumemsim compare --gpu G.yaml --ncu PROFILE.csv --workload W.yaml",
                     &pos))
    return 0;
  check_sample_waves(sample_waves);
  const bool replay = saved_paths.empty();
  if (!replay && (!sets.empty() || sample_waves > 0 || !expected_path.empty()))
    throw ConfigError("--simulated takes a saved scorecard as it was made (its own --set and --sample-waves): it does not "
                      "combine with --set, --sample-waves or --expect-simulated");
  std::vector<Requirement> reqs;
  for (const auto& r : requires_) reqs.push_back(parse_requirement(r));
  std::vector<MeasuredCase> cases = load_cases(records, ncu_csv, workload, kernel_filter);
  Replayer replayer(gpu, jobs);
  replayer.set_sample_waves(sample_waves);
  if (sample_waves > 0 && dist::is_root())
    std::cerr << "gpumemsim: note: approximate replays (--sample-waves " << sample_waves << ")\n";
  if (dist::size() > 1) replayer.set_parallel_map(dist::map_all);  // under mpirun: cases over ranks
  std::string gpu_name = replayer.configs(cases.front(), sets).gpu.value.name;
  SavedScorecard saved;
  if (!replay || !expected_path.empty()) {
    if (replay) {
      saved = load_saved_scorecard(expected_path);
    } else {
      std::vector<SavedScorecard> parts;
      // A gpu.* override restates the preset when the description rendered with it is the preset's: the part was
      // replayed as the preset replays now (a switch that a preset took after its what-if card was made).
      const std::string preset = render_yaml(gpu_schema(), replayer.configs(cases.front(), {}).gpu.value);
      auto restates_preset = [&](const std::string& o) {
        return o.rfind("gpu.", 0) == 0 && render_yaml(gpu_schema(), replayer.configs(cases.front(), {o}).gpu.value) == preset;
      };
      for (const auto& path : saved_paths) {
        parts.push_back(load_saved_scorecard(path));
        for (const auto& o : drop_restated_overrides(parts.back(), restates_preset))
          if (dist::is_root())
            std::cerr << "gpumemsim: note: " << path << ": --set " << o << " is what " << gpu << " has: taken as its own replay\n";
      }
      saved = merge_scorecards(parts);
    }
    if (saved.gpu != gpu_name)
      throw ConfigError(saved.path + ": a scorecard of " + saved.gpu + ", not of " + gpu_name + " (--gpu " + gpu + ")");
    if (replay) {
      require_made_as(saved, sample_waves, sets);
    } else {  // the card's cases rank by the launches it replayed
      sets = saved.overrides;
      replayer.set_sample_waves(saved.sample_waves);
    }
  }
  std::vector<std::string> launches;  // per case, what names its simulation (one launch ranks once)
  std::vector<MetricValues> simulated;
  if (replay) {
    simulated = replayer.run(cases, sets, [](size_t done, size_t total) {
      if (dist::is_root()) std::cerr << "\r  " << done << " / " << total << " simulations" << std::flush;
    }, &launches);
    if (!dist::is_root()) return 0;  // rank 0 reports
    std::cerr << "\n";
  } else {
    simulated = saved_results(saved, cases);
    launches = replayer.simulation_keys(cases, sets);
    if (!dist::is_root()) return 0;
  }
  std::vector<std::string> stale;  // --expect-simulated: where the fresh replays left the saved scorecard
  if (replay && !expected_path.empty()) stale = differences_from(saved, cases, simulated);
  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
    if (!csv) throw ConfigError("--csv " + csv_path + ": cannot write");
    csv << "case,metric,measured,simulated,error,error_unit\n";
  }
  nlohmann::ordered_json out = {{"gpu", gpu_name},
                                {"sample_waves", replay ? sample_waves : saved.sample_waves},
                                {"overrides", sets},
                                {"cases", nlohmann::ordered_json::array()}};
  std::printf("%-44s %-28s %14s %14s %9s\n", "case", "metric", "measured", "simulated", "error");
  for (size_t i = 0; i < cases.size(); ++i) {
    nlohmann::ordered_json c = {{"case", cases[i].name}, {"group", cases[i].group}, {"metrics", nlohmann::ordered_json::object()}};
    if (!cases[i].tiling_group.empty()) c["tiling_group"] = cases[i].tiling_group;
    c["record_set"] = cases[i].record_set;
    for (const auto& m : compared_metrics()) {
      auto meas = cases[i].measured.find(m);
      auto sim = simulated[i].find(m);
      if (meas == cases[i].measured.end() || sim == simulated[i].end()) continue;
      double err = metric_error(m, meas->second, sim->second);
      const char* unit = is_pct_metric(m) ? "pp" : "%";
      std::printf("%-44s %-28.28s %14.6g %14.6g %+8.1f%s\n", cases[i].name.c_str(), m.c_str(), meas->second,
                  sim->second, err, unit);
      if (csv.is_open()) csv << cases[i].name << ',' << m << ',' << meas->second << ',' << sim->second << ',' << err << ',' << unit << '\n';
      c["metrics"][m] = {{"measured", meas->second}, {"simulated", sim->second}, {"error", err}, {"unit", unit}};
    }
    out["cases"].push_back(c);
  }
  Scorecard card = score(cases, simulated, launches);
  if (replay)
    std::printf("\nsummary over %zu cases on %s (%zu simulations)\n", cases.size(), gpu_name.c_str(), replayer.simulations());
  else
    std::printf("\nsummary over %zu cases on %s (simulated: %s)\n", cases.size(), gpu_name.c_str(), saved.path.c_str());
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  for (const auto& s : card.metrics) {
    bool pp = is_pct_metric(s.metric);
    std::printf("  %-62s %s %6.1f%s over %zu\n", s.metric.c_str(), pp ? "mean |error|" : "MAPE        ", s.mean_abs_error,
                pp ? " pp" : " %", s.n);
    summary[s.metric] = {{pp ? "mean_abs_error_pp" : "mape_pct", s.mean_abs_error}, {"n", s.n}};
  }
  nlohmann::ordered_json rho = nlohmann::ordered_json::object();
  nlohmann::ordered_json group_sizes = nlohmann::ordered_json::object();
  for (const auto& [g, r] : card.spearman_time) {
    const std::size_t n = card.group_sizes.at(g), cases_n = card.group_cases_n.at(g);
    if (n == cases_n)
      std::printf("  Spearman rank correlation of time, %-40s %+.2f over %zu\n", g.c_str(), r, n);
    else  // GROUP_M >= the tile rows and column-major, or one tiling recorded twice: one launch
      std::printf("  Spearman rank correlation of time, %-40s %+.2f over %zu launches (%zu cases: the same launch counts once)\n",
                  g.c_str(), r, n, cases_n);
    rho[g] = r;
    group_sizes[g] = {{"launches", n}, {"cases", cases_n}};
  }
  nlohmann::ordered_json noise = nlohmann::ordered_json::object();
  for (const auto& [g, n] : card.rank_noise) {
    const std::size_t launches = card.group_sizes.at(g);
    char over[96] = "";
    if (n.kernels < launches)  // a group that joins records measured once: the ceiling is of the repeated ones
      std::snprintf(over, sizeof over, " (the %zu of %zu launches measured in rounds)", n.kernels, launches);
    std::printf("  silicon against itself, %-46s %+.2f over %zu rounds%s; the model against their medians %+.2f;\n"
                "    silicon resolves %zu of %zu pairs, the model orders %.3g of them as silicon\n",
                g.c_str(), n.silicon_self, n.rounds, over, n.model_vs_median, n.resolved, n.pairs, n.agreed);
    nlohmann::ordered_json missed = nlohmann::ordered_json::array();
    const std::vector<std::string>& names = card.group_cases.at(g);
    for (const auto& [fast, slow] : n.missed) {
      // Silicon runs `fast` faster in every round; the model does not.
      std::printf("    silicon always: %s < %s\n", names[fast].c_str(), names[slow].c_str());
      missed.push_back({names[fast], names[slow]});
    }
    noise[g] = {{"rounds", n.rounds}, {"launches_with_rounds", n.kernels}, {"silicon_round_vs_round_spearman", n.silicon_self},
                {"model_vs_round_medians_spearman", n.model_vs_median}, {"pairs", n.pairs},
                {"resolved_pairs", n.resolved}, {"model_agrees_on", n.agreed},
                {"missed_pairs_faster_first", missed}};
  }
  out["summary"] = summary;
  out["spearman_time"] = rho;
  out["spearman_time_group_sizes"] = group_sizes;
  if (!card.rank_noise.empty()) out["silicon_rank_noise"] = noise;
  // Where the time error sits: per record set (kernel) and per tiling (its CTA-order group).
  nlohmann::ordered_json by_set = nlohmann::ordered_json::object(), by_group = nlohmann::ordered_json::object();
  if (card.time_by_set.size() > 1 || card.time_by_group.size() > 1) {
    std::printf("\ntime MAPE by record set, and by tiling (its CTA-order group)\n");
    for (const auto& [k, m] : card.time_by_set) {
      std::printf("  %-75s %6.1f %% over %zu\n", k.c_str(), m.mean_abs_error, m.n);
      by_set[k] = {{"mape_pct", m.mean_abs_error}, {"n", m.n}};
    }
    for (const auto& [k, m] : card.time_by_group) {
      std::printf("  %-75s %6.1f %% over %zu\n", k.c_str(), m.mean_abs_error, m.n);
      by_group[k] = {{"mape_pct", m.mean_abs_error}, {"n", m.n}};
    }
  }
  out["time_mape_by_record_set"] = by_set;
  out["time_mape_by_group"] = by_group;
  bool all_passed = true;
  if (!reqs.empty()) {
    std::printf("\ntargets\n");
    nlohmann::ordered_json targets = nlohmann::ordered_json::array();
    for (const auto& r : check(reqs, card)) {
      all_passed &= r.passed;
      std::printf("  %-4s %-44s %s\n", r.passed ? "ok" : "MISS", r.text.c_str(), r.reached.c_str());
      targets.push_back({{"target", r.text}, {"passed", r.passed}, {"reached", r.reached}});
    }
    out["targets"] = targets;
  }
  if (!expected_path.empty()) {
    std::printf("\nagainst the saved scorecard %s: %zu simulated values differ\n", expected_path.c_str(), stale.size());
    for (std::size_t i = 0; i < stale.size() && i < 20; ++i) std::printf("  %s\n", stale[i].c_str());
    if (!stale.empty()) {
      std::fprintf(stderr,
                   "gpumemsim: %s is not this model's scorecard (%zu values differ): make it again "
                   "(scripts/device_scorecard.sh) and commit it with the change\n",
                   expected_path.c_str(), stale.size());
      all_passed = false;
    }
    out["saved_scorecard"] = {{"path", expected_path}, {"differences", stale}};
  }
  if (!json_path.empty()) {
    std::ofstream js(json_path);
    if (!js) throw ConfigError("--json " + json_path + ": cannot write");
    js << out.dump(2) << "\n";
  }
  return all_passed ? 0 : 1;
}

}  // namespace gms::cli
