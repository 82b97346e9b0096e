#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "api/simulation.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"
#include "report/report_writer.h"
#include "stats/report.h"

namespace gms::cli {
namespace {

// Writes next to the final name and renames, so a failed run never leaves a half-written file.
void write_atomically(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw ConfigError(tmp.string() + ": cannot write");
    out << text;
    if (!out) throw ConfigError(tmp.string() + ": write failed");
  }
  std::filesystem::rename(tmp, path);
}

ProgressFn terminal_progress() {
  auto start = std::chrono::steady_clock::now();
  return [start](std::int64_t done, std::int64_t total, Tick) {
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double eta = done > 0 ? el * static_cast<double>(total - done) / static_cast<double>(done) : 0;
    std::fprintf(stderr, "\r  %5.1f %% of CTAs retired, %.1f s elapsed, ETA %.1f s   ",
                 100.0 * static_cast<double>(done) / static_cast<double>(total), el, eta);
    if (done == total) std::fprintf(stderr, "\r%70s\r", "");
  };
}

}  // namespace

void write_timeline_csv(std::ostream& os, const Timeline& t, Tick end) {
  os << "bucket_start_cycle,sm,l2_hit_sectors,l2_miss_sectors,dram_read_bytes\n";
  for (size_t b = 0; b < t.bucket_count(end); ++b)
    for (int sm = 0; sm < t.sms(); ++sm) {
      const auto& x = t.get(sm, b);
      if (!x.l2_hit_sectors && !x.l2_miss_sectors && !x.dram_read_bytes) continue;
      os << b * t.bucket_cycles() << ',' << sm << ',' << x.l2_hit_sectors << ',' << x.l2_miss_sectors << ','
         << x.dram_read_bytes << '\n';
    }
}

int cmd_run(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim run options");
  po::variables_map vm;
  ConfigInputs in;
  std::string out, report;
  bool quiet = false, progress = false, no_progress = false;
  std::uint64_t bucket = 0;
  std::string record;
  desc.add_options()("gpu,g", po::value(&in.gpu_file)->required(), "GPU description (configs/gpus/*.yaml)")(
      "workload,w", po::value(&in.workload_file), "workload description (configs/workloads/*.yaml)")(
      "record", po::value(&record), "replay the workload of a validate record (validate/results/*/*/*.json)")(
      "set,s", po::value(&in.overrides)->composing(),
      "override a key, repeatable: gpu.l2.size=40MiB, workload.cta_order.group_m=8")(
      "out,o", po::value(&out), "directory for stats.json and ctas.csv (created; files replaced)")(
      "timeline-bucket", po::value(&bucket)->default_value(0),
      "with --out, also write timeline.csv with buckets of N cycles")(
      "report", po::value(&report),
      "also draw the heatmaps and report.html into DIR (implies --out DIR when --out is absent)")(
      "quiet,q", po::bool_switch(&quiet), "print no summary")(
      "progress", po::bool_switch(&progress), "show progress on stderr even when it is not a terminal")(
      "no-progress", po::bool_switch(&no_progress), "never show progress");
  if (!parse_options(args, desc, vm,
                     "usage: gpumemsim run --gpu G.yaml (--workload W.yaml | --record R.json) [--set key=value]... [--out DIR]"))
    return 0;
  if (in.workload_file.empty() == record.empty())
    throw ConfigError("give exactly one of --workload FILE or --record FILE");
  if (!record.empty()) {
    in.workload_file = record;
    in.workload_from_record = true;
  }
  LoadedConfigs cfg = load_configs(in);
  if (!report.empty() && out.empty()) out = report;
  if (!report.empty() && bucket == 0) bucket = 1024;
  RunOptions opt;
  opt.timeline_bucket_cycles = out.empty() ? 0 : bucket;
  if (!no_progress && (progress || isatty(STDERR_FILENO))) opt.progress = terminal_progress();
  RunOutput run = simulate(cfg, opt);
  auto metrics = compute_metrics(run.result, cfg.gpu.value, *run.kernel);
  if (!out.empty()) {
    std::filesystem::create_directories(out);
    std::filesystem::path dir(out);
    write_atomically(dir / "stats.json", stats_json(cfg, run, metrics).dump(2) + "\n");
    std::ostringstream csv;
    write_cta_csv(csv, run.result);
    write_atomically(dir / "ctas.csv", csv.str());
    if (run.timeline) {
      std::ostringstream tl;
      write_timeline_csv(tl, *run.timeline, run.result.end);
      write_atomically(dir / "timeline.csv", tl.str());
    }
  }
  std::vector<std::string> report_files;
  if (!report.empty()) report_files = write_report(load_run(out), nullptr, report, ReportOptions{});
  if (!quiet) {
    std::cout << summary_text(cfg, run, metrics);
    if (!out.empty())
      std::cout << "  wrote           " << (std::filesystem::path(out) / "stats.json").string() << ", ctas.csv"
                << (run.timeline ? ", timeline.csv" : "") << "\n";
    if (!report.empty())
      std::cout << "  report          " << (std::filesystem::path(report) / "report.html").string() << " and "
                << report_files.size() - 1 << " images\n";
  }
  return 0;
}

}  // namespace gms::cli
