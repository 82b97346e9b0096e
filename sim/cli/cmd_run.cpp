#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "api/simulation.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"
#include "common/files.h"
#include "report/report_writer.h"
#include "stats/report.h"

namespace gms::cli {
namespace {

// run --threads' default: $GPUMEMSIM_THREADS where set (a test suite that runs simulations side by side sets
// 1: two threads per simulation would share its cores), else every core.
int default_threads() {
  const char* env = std::getenv("GPUMEMSIM_THREADS");
  if (env == nullptr || *env == '\0') return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > 1024)
    throw ConfigError(std::string("GPUMEMSIM_THREADS=") + env + ": a number of threads, 1 to 1024");
  return static_cast<int>(n);
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

// The seed-001 arithmetic: bytes a perfect cache moves, over a time measured on hardware.
std::string measured_line(const std::string& text, const std::vector<Metric>& metrics, const GpuConfig& gpu) {
  double scale = 0;
  std::string num = text;
  for (auto [suffix, s] : {std::pair{"ms", 1e-3}, std::pair{"us", 1e-6}, std::pair{"ns", 1e-9}, std::pair{"s", 1.0}})
    if (text.size() > std::strlen(suffix) && text.compare(text.size() - std::strlen(suffix), std::string::npos, suffix) == 0) {
      scale = s;
      num = text.substr(0, text.size() - std::strlen(suffix));
      break;
    }
  double value = 0;
  try {
    size_t used = 0;
    value = std::stod(num, &used);
    if (used != num.size()) scale = 0;
  } catch (const std::exception&) {
    scale = 0;
  }
  if (scale == 0 || value <= 0) throw ConfigError("--measured-time " + text + ": expected a time such as 0.294ms or 294us");
  double seconds = value * scale;
  const Metric* bytes = find_metric(metrics, "gpumemsim__compulsory_bytes.sum");
  const Metric* sim_ns = find_metric(metrics, "gpu__time_duration.sum");
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  measured        %s: %.0f compulsory bytes / %.4g ms = %.1f GB/s (%.1f GiB/s) = %.1f %% of %.0f GB/s "
                "peak; simulated %.4g ms (%+.1f %%)\n",
                text.c_str(), bytes->value, seconds * 1e3, bytes->value / seconds / 1e9,
                bytes->value / seconds / 1073741824.0, 100.0 * bytes->value / seconds / gpu.dram.bandwidth,
                gpu.dram.bandwidth / 1e9, sim_ns->value / 1e6, 100.0 * (sim_ns->value * 1e-9 - seconds) / seconds);
  return buf;
}

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
  std::string out, report, measured;
  bool quiet = false, progress = false, no_progress = false;
  std::uint64_t bucket = 0;
  int trace_sm = -1, sample_waves = 0;
  int threads = default_threads();
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
      "measured-time", po::value(&measured),
      "a time measured on hardware (e.g. 0.294ms, 294us): print the bandwidth the compulsory bytes imply")(
      "sample-waves", po::value(&sample_waves)->default_value(0),
      "approximate: simulate N >= 2 waves of CTAs and extrapolate the rest from the later half "
      "(never the default; stats.json's \"sampling\" says so)")(
      "threads", po::value(&threads),
      "threads for this one simulation (default: $GPUMEMSIM_THREADS, else all cores): 2+ times the memory side's requests on a thread "
      "of its own, pipelined behind the SMs, and a trace replay (kind: trace) reads and decodes its thread blocks "
      "ahead on another - the same results for any number")(
      "warp-timeline", po::value(&trace_sm), "with --out, write warps.csv: the warp states of every warp of SM N over time, and barriers.csv: when its "
      "CTAs' barriers released")(
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
  if (trace_sm >= 0 && out.empty()) throw ConfigError("--warp-timeline needs --out DIR");
  opt.trace_warps_sm = trace_sm;
  opt.sample_waves = sample_waves;
  if (threads < 1) throw ConfigError("--threads " + std::to_string(threads) + ": at least 1");
  opt.threads = threads;
  if (!no_progress && (progress || isatty(STDERR_FILENO))) opt.progress = terminal_progress();
  RunOutput run = simulate(cfg, opt);
  for (const std::string& n : run.notes) std::cerr << "gpumemsim: note: " << n << "\n";
  auto metrics = compute_metrics(run.result, cfg.gpu.value, *run.kernel);
  if (!out.empty()) {
    std::filesystem::create_directories(out);
    std::filesystem::path dir(out);
    write_file_atomically(dir / "stats.json", stats_json(cfg, run, metrics).dump(2) + "\n");
    std::ostringstream csv;
    write_cta_csv(csv, run.result);
    write_file_atomically(dir / "ctas.csv", csv.str());
    if (!run.kernels.empty()) {
      std::ostringstream ks;
      ks << "id,name,ctas,start_cycle,cycles,warp_instructions,dram_read_bytes,dram_write_bytes\n";
      for (const KernelRun& k : run.kernels)
        ks << k.id << ',' << k.name << ',' << k.ctas << ',' << k.start_cycle << ',' << k.cycles << ',' << k.warp_instructions
           << ',' << k.dram_read_bytes << ',' << k.dram_write_bytes << '\n';
      write_file_atomically(dir / "kernels.csv", ks.str());
    }
    if (run.result.stalls.traced()) {
      std::ostringstream ws;
      run.result.stalls.write_csv(ws);
      write_file_atomically(dir / "warps.csv", ws.str());
      std::ostringstream bs;
      run.result.stalls.write_barriers_csv(bs);
      write_file_atomically(dir / "barriers.csv", bs.str());
    }
    if (run.timeline) {
      std::ostringstream tl;
      write_timeline_csv(tl, *run.timeline, run.result.end);
      write_file_atomically(dir / "timeline.csv", tl.str());
    }
  }
  std::vector<std::string> report_files;
  if (!report.empty()) report_files = write_report(load_run(out), nullptr, report, ReportOptions{});
  if (!quiet) {
    std::cout << summary_text(cfg, run, metrics);
    if (!out.empty())
      std::cout << "  wrote           " << (std::filesystem::path(out) / "stats.json").string() << ", ctas.csv"
                << (run.timeline ? ", timeline.csv" : "") << (run.kernels.empty() ? "" : ", kernels.csv") << "\n";
    if (!measured.empty()) std::cout << measured_line(measured, metrics, cfg.gpu.value);
    if (!report.empty())
      std::cout << "  report          " << (std::filesystem::path(report) / "report.html").string() << " and "
                << report_files.size() - 1 << " images\n";
  }
  return 0;
}

}  // namespace gms::cli
