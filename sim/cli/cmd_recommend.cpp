// gpumemsim recommend: which tiling, warps, stages and CTA order to use for one GEMM/GEMV shape on
// one GPU, by simulating the space that fits (sim/recommend). Prints the top configurations with
// predicted time, DRAM bytes, L2 hit rate and the limiting resource; --json for scripts (the
// validate script measures exactly these); --report DIR writes recommend.md/csv/json. Under
// mpirun/srun the candidates are split over ranks (the same ranking for any number of ranks).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"
#include "common/files.h"
#include "dist/ranks.h"
#include "recommend/recommend.h"
#include "report/recommend_plot.h"
#include "report/report_writer.h"
#include "stats/metrics.h"
#include "stats/report.h"

namespace gms::cli {
namespace {

std::vector<std::int64_t> parse_shape(const std::string& text, std::size_t n, const char* what) {
  std::vector<std::int64_t> v;
  std::stringstream ss(text);
  for (std::string x; std::getline(ss, x, ',');) {
    try {
      std::size_t used = 0;
      v.push_back(std::stoll(x, &used));
      if (used != x.size() || v.back() <= 0) throw std::invalid_argument(x);
    } catch (const std::exception&) {
      throw ConfigError(std::string(what) + " " + text + ": expected " + (n == 3 ? "M,N,K" : "N,K") + " positive integers");
    }
  }
  if (v.size() != n) throw ConfigError(std::string(what) + " " + text + ": expected " + (n == 3 ? "M,N,K" : "N,K"));
  return v;
}

template <typename T>
std::vector<T> parse_list(const std::string& text, const char* what) {
  std::vector<T> v;
  std::stringstream ss(text);
  for (std::string x; std::getline(ss, x, ',');) {
    if constexpr (std::is_same_v<T, int>) {
      try {
        v.push_back(std::stoi(x));
      } catch (const std::exception&) {
        throw ConfigError(std::string(what) + " " + text + ": expected comma-separated integers");
      }
    } else {
      v.push_back(x);
    }
  }
  return v;
}

nlohmann::ordered_json candidate_json(const Candidate& c) {
  nlohmann::ordered_json j = {{"config", c.label}, {"set", c.set}, {"registers", c.registers}};
  if (!c.mma.empty()) j["mma"] = c.mma;
  if (c.loop_instructions > 0) j["loop_instructions"] = c.loop_instructions;
  if (c.spill_bytes > 0) j["spill_bytes_per_thread"] = c.spill_bytes;
  if (!c.excluded.empty()) {
    j["excluded"] = c.excluded;
    return j;
  }
  j["gpu__time_duration.sum"] = c.time_ns;
  j["dram__bytes.sum"] = c.dram_bytes;
  j["lts__t_sector_hit_rate.pct"] = c.l2_hit_pct;
  j["tflops"] = c.tflops;
  j["ctas_per_sm"] = c.ctas_per_sm;
  j["limiter"] = c.limiter;
  j["why"] = c.why;
  return j;
}


// --report's pictures: the searched space (space.png/svg), and the first pick's L2 hit rate per
// output tile beside the same configuration launched in the other CTA order (heatmaps/: what the
// order buys, with `gpumemsim heatmap`'s figures of both runs under runs/).
std::vector<std::string> write_recommend_figures(const RecommendRequest& req, const RecommendResult& r,
                                                 const std::filesystem::path& dir) {
  std::vector<std::string> files;
  const CategoryGrid g = recommend_space_grid(r);
  double worst = 1.05;
  for (double v : g.grid.v)
    if (!std::isnan(v)) worst = std::max(worst, v);
  const ColorScale scale{1.0, std::min(worst, 3.0), false, "time / first pick"};
  const std::string shape = std::to_string(req.m) + "x" + std::to_string(req.n) + "x" + std::to_string(req.k);
  const Figure fig{"Predicted time over the searched space (us; outlined: the first pick)",
                   (req.kind == "gemm" ? "GEMM " : "GEMV ") + shape + " " + req.dtype + " on " + r.gpu_name,
                   req.kind == "gemm" ? "warps, stages (each cell: its best GROUP_SIZE_M)" : "warps, load order",
                   "grey: left out (smem: shared memory does not fit)"};
  draw_category_figure((dir / "space.png").string(), ImageFormat::kPng, fig, g, scale);
  draw_category_figure((dir / "space.svg").string(), ImageFormat::kSvg, fig, g, scale);
  files = {"space.png", "space.svg"};
  if (req.kind != "gemm") return files;
  const Candidate& first = r.ranked.front();
  const OtherOrder other = other_cta_order(first);
  const std::pair<std::string, std::vector<std::string>> runs[] = {{"first_pick", first.set},
                                                                   {"first_pick_" + other.name, other.set}};
  std::vector<RunData> data;
  for (const auto& [name, set] : runs) {
    const LoadedConfigs cfg = load_configs(candidate_inputs(req, r, set));
    const RunOutput run = simulate(cfg);
    const auto metrics = compute_metrics(run.result, cfg.gpu.value, *run.kernel);
    const auto run_dir = dir / "runs" / name;
    std::filesystem::create_directories(run_dir);
    write_file_atomically(run_dir / "stats.json", stats_json(cfg, run, metrics).dump(2) + "\n");
    std::ostringstream csv;
    write_cta_csv(csv, run.result);
    write_file_atomically(run_dir / "ctas.csv", csv.str());
    data.push_back(load_run(run_dir.string()));
    data.back().dir = "runs/" + name;  // the figure names the runs; the whole path would not fit
    files.push_back("runs/" + name + "/stats.json");
    files.push_back("runs/" + name + "/ctas.csv");
  }
  ReportOptions opt;
  for (const auto& f : write_report(data[0], &data[1], (dir / "heatmaps").string(), opt)) files.push_back("heatmaps/" + f);
  return files;
}

}  // namespace

int cmd_recommend(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim recommend options");
  po::variables_map vm;
  RecommendRequest req;
  std::string gemm, gemv, json_path, report_dir, tiles, warps, stages, group_m, block_n, block_k, orders;
  int top = 5;
  bool no_loop_estimate = false;
  req.jobs = std::max(1u, std::thread::hardware_concurrency());
  desc.add_options()("gpu,g", po::value(&req.gpu)->required(), "GPU preset name or file")(
      "gemm", po::value(&gemm), "GEMM shape M,N,K")("gemv", po::value(&gemv), "GEMV shape N,K (one row of x)")(
      "dtype", po::value(&req.dtype)->default_value("fp16"), "element type: fp16 | bf16 | fp32 | fp8")(
      "mma", po::value(&req.mma)->default_value("auto"),
      "GEMM tensor-core path: auto (each configuration as Triton compiles it: wgmma for warps % 4 == 0 and "
      "BLOCK_M % 64 == 0 on a GPU with wgmma, else mma_sync) | wgmma | mma_sync")(
      "no-loop-estimate", po::bool_switch(&no_loop_estimate),
      "GEMM: leave out the instructions a compiled wgmma loop issues between its copies and MMAs (estimated per "
      "candidate from its copies a K tile: workload/loop_estimate.h); only the data path the model builds")(
      "top", po::value(&top), "configurations to print (default 5)")(
      "tiles", po::value(&tiles), "GEMM tiles to search, e.g. 128x128x64,128x256x64 (default: Triton's neighbourhood)")(
      "warps", po::value(&warps), "warps to search (comma-separated)")(
      "stages", po::value(&stages), "GEMM pipeline stages to search")(
      "group-m", po::value(&group_m), "GEMM GROUP_SIZE_M values (1 = row-major order)")(
      "block-n", po::value(&block_n), "GEMV BLOCK_N values")("block-k", po::value(&block_k), "GEMV BLOCK_K values")(
      "orders", po::value(&orders), "GEMV load orders (llcc,lclc)")(
      "set,s", po::value(&req.overrides)->composing(), "GPU override for every candidate (gpu.KEY=V)")(
      "jobs,j", po::value(&req.jobs), "simulations at once (default: all cores)")(
      "sample-waves", po::value(&req.sample_waves)->default_value(0),
      "approximate: each candidate simulates N >= 2 waves of CTAs and extrapolates the rest (0 = exact, the default)")(
      "json", po::value(&json_path), "write every candidate (ranked and excluded) as JSON")(
      "report", po::value(&report_dir),
      "directory for recommend.md/csv/json (every candidate), space.png/svg (the space as a heatmap) and "
      "heatmaps/ (the first pick's tiles beside its other CTA order)");
  if (!parse_options(args, desc, vm,
                     "usage: gpumemsim recommend --gpu G (--gemm M,N,K | --gemv N,K) [--dtype fp16] [--top 5] [--json F] "
                     "[--report DIR]"))
    return 0;
  req.estimate_loop = !no_loop_estimate;
  if (gemm.empty() == gemv.empty()) throw ConfigError("recommend: give exactly one of --gemm M,N,K or --gemv N,K");
  for (const auto& o : req.overrides)
    if (o.rfind("gpu.", 0) != 0) throw ConfigError("--set " + o + ": recommend takes gpu.* overrides only");
  check_sample_waves(req.sample_waves);
  if (!gemm.empty()) {
    auto s = parse_shape(gemm, 3, "--gemm");
    req.kind = "gemm";
    req.m = s[0], req.n = s[1], req.k = s[2];
    req.space = default_gemm_space();
    if (!tiles.empty()) {
      req.space.tiles.clear();
      for (const auto& t : parse_list<std::string>(tiles, "--tiles")) {
        int a = 0, b = 0, c = 0;
        char tail = 0;
        if (std::sscanf(t.c_str(), "%dx%dx%d%c", &a, &b, &c, &tail) != 3 || a <= 0 || b <= 0 || c <= 0)
          throw ConfigError("--tiles " + t + ": expected BLOCK_MxBLOCK_NxBLOCK_K");
        req.space.tiles.push_back({a, b, c});
      }
    }
    if (!stages.empty()) req.space.stages = parse_list<int>(stages, "--stages");
    if (!group_m.empty()) req.space.group_m = parse_list<int>(group_m, "--group-m");
  } else {
    auto s = parse_shape(gemv, 2, "--gemv");
    req.kind = "gemv";
    req.m = 1, req.n = s[0], req.k = s[1];
    req.space = default_gemv_space();
    if (!block_n.empty()) req.space.block_n = parse_list<int>(block_n, "--block-n");
    if (!block_k.empty()) req.space.block_k = parse_list<int>(block_k, "--block-k");
    if (!orders.empty()) req.space.gemv_orders = parse_list<std::string>(orders, "--orders");
  }
  if (!warps.empty()) req.space.warps = parse_list<int>(warps, "--warps");

  if (dist::size() > 1) req.map = dist::map_all;  // under mpirun/srun: candidates over ranks
  const RecommendResult r = recommend(req);
  if (!dist::is_root()) return 0;  // every rank ranks the same results; rank 0 speaks and writes
  const std::size_t shown = std::min<std::size_t>(static_cast<std::size_t>(std::max(top, 1)), r.ranked.size());
  std::ostringstream md;
  md << "gpumemsim recommend: " << (req.kind == "gemm" ? "GEMM " : "GEMV ") << req.m << "x" << req.n << "x" << req.k
     << " " << req.dtype << " on " << r.gpu_name << " - " << r.ranked.size() + r.excluded.size() << " configurations, "
     << r.ranked.size() << " simulated, " << r.excluded.size() << " left out\n\n";
  if (req.sample_waves > 0)
    md << "approximate: each candidate simulated " << req.sample_waves
       << " waves of CTAs and extrapolated the rest (--sample-waves; exact runs rank by full simulation)\n\n";
  md << "| rank | config | time us | TFLOP/s | DRAM MB | L2 hit % | regs | limited by | why |\n";
  md << "|---|---|---|---|---|---|---|---|---|\n";
  char line[512];
  for (std::size_t i = 0; i < shown; ++i) {
    const Candidate& c = r.ranked[i];
    std::snprintf(line, sizeof line, "| %zu | %s | %.1f | %.1f | %.1f | %.1f | %d | %s | %s |\n", i + 1, c.label.c_str(),
                  c.time_ns / 1e3, c.tflops, c.dram_bytes / 1e6, c.l2_hit_pct, c.registers, c.limiter.c_str(),
                  c.why.c_str());
    md << line;
  }
  std::map<std::string, int> reasons;
  for (const auto& c : r.excluded) reasons[c.excluded.substr(0, c.excluded.find(':'))]++;
  if (!reasons.empty()) {
    md << "\nleft out:";
    for (const auto& [why, n] : reasons) md << " " << n << " " << why << ";";
    md << " (--json lists each)\n";
  }
  std::cout << md.str();
  if (!json_path.empty() || !report_dir.empty()) {
    nlohmann::ordered_json j = {{"gpu", r.gpu_name}, {"kind", req.kind}, {"m", req.m}, {"n", req.n}, {"k", req.k},
                                {"dtype", req.dtype}, {"workload", r.workload_text}};
    j["ranked"] = nlohmann::ordered_json::array();
    for (const auto& c : r.ranked) j["ranked"].push_back(candidate_json(c));
    j["excluded"] = nlohmann::ordered_json::array();
    for (const auto& c : r.excluded) j["excluded"].push_back(candidate_json(c));
    if (!json_path.empty()) {
      const auto parent = std::filesystem::path(json_path).parent_path();
      if (!parent.empty()) std::filesystem::create_directories(parent);
      write_file_atomically(json_path, j.dump(2) + "\n");
    }
    if (!report_dir.empty()) {
      std::filesystem::create_directories(report_dir);
      write_file_atomically(std::filesystem::path(report_dir) / "recommend.md", md.str());
      write_file_atomically(std::filesystem::path(report_dir) / "recommend.json", j.dump(2) + "\n");
      std::string csv = "rank,config,time_ns,tflops,dram_bytes,l2_hit_pct,registers,limiter\n";
      for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const Candidate& c = r.ranked[i];
        std::snprintf(line, sizeof line, "%zu,%s,%.3f,%.3f,%.0f,%.3f,%d,%s\n", i + 1, c.label.c_str(), c.time_ns,
                      c.tflops, c.dram_bytes, c.l2_hit_pct, c.registers, c.limiter.c_str());
        csv += line;
      }
      write_file_atomically(std::filesystem::path(report_dir) / "recommend.csv", csv);
      const auto figures = write_recommend_figures(req, r, report_dir);
      std::cout << "wrote " << report_dir << "/recommend.md, recommend.csv, recommend.json";
      for (const auto& f : figures) std::cout << ", " << f;
      std::cout << "\n";
    }
  }
  return 0;
}

}  // namespace gms::cli
