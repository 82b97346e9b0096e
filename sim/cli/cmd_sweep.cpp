// gpumemsim sweep: the cartesian product of --grid axes (and of --gpu files), simulated on all cores
// and, under mpirun/srun, over all ranks (sim/dist: point j of the work list on rank j % ranks,
// rows gathered on rank 0). Rank 0 appends each row to DIR/sweep.partial.csv as it arrives (an
// interrupted sweep keeps them; --resume skips them); at the end DIR/sweep.csv (in grid order, so
// identical inputs give identical files for any number of threads and ranks) and DIR/sweep.md
// replace it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"
#include "common/files.h"
#include "dist/ranks.h"
#include "sweep/sweep.h"

namespace gms::cli {
int cmd_sweep(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim sweep options");
  po::variables_map vm;
  std::vector<std::string> gpus, grid, sets;
  std::string workload, out, metrics_list;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string default_metrics;
  for (const auto& m : default_sweep_metrics()) default_metrics += (default_metrics.empty() ? "" : ",") + m;
  desc.add_options()("gpu,g", po::value(&gpus)->required()->composing(), "GPU file(s) or preset name(s); several = one more axis")(
      "workload,w", po::value(&workload)->required(), "workload file")(
      "grid", po::value(&grid)->composing(), "an axis: KEY=V1,V2,... with KEY a --set key (repeatable)")(
      "set,s", po::value(&sets)->composing(), "a fixed override for every point")(
      "out,o", po::value(&out)->required(), "directory for sweep.csv and sweep.md")(
      "jobs,j", po::value(&jobs), "points simulated at once per process (default: all cores)")(
      "resume", "keep the rows of DIR/sweep.partial.csv left by an interrupted run of the same sweep")(
      "metrics", po::value(&metrics_list)->default_value(default_metrics), "metrics to tabulate (comma-separated)");
  if (!parse_options(args, desc, vm,
                     "usage: [mpirun -n N] gpumemsim sweep --gpu G.yaml [--gpu G2.yaml] --workload W.yaml "
                     "--grid key=v1,v2 ... --out DIR [--resume]"))
    return 0;
  SweepSpec spec;
  spec.base = ConfigInputs(gpus.front(), workload, sets);
  if (gpus.size() > 1) spec.axes.push_back({"gpu", gpus});
  for (const auto& g : grid) spec.axes.push_back(parse_sweep_axis(g));
  {
    std::stringstream ss(metrics_list);
    for (std::string m; std::getline(ss, m, ',');)
      if (!m.empty()) spec.metrics.push_back(m);
  }
  const std::vector<SweepPoint> points = sweep_points(spec);  // every rank checks every point
  if (points.empty()) throw ConfigError("the grid has no points");
  const auto dir = std::filesystem::path(out);
  const std::string header = sweep_csv_header(spec);

  // Rank 0 decides what is already done (its file system holds the partial CSV) and tells the others.
  std::string partial_text;
  if (dist::is_root() && vm.count("resume") && std::filesystem::exists(dir / "sweep.partial.csv"))
    partial_text = read_file(dir / "sweep.partial.csv");
  partial_text = dist::broadcast_from_root(partial_text);
  std::map<std::size_t, std::string> finished = finished_sweep_rows(spec, points, partial_text);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!finished.count(i)) todo.push_back(i);

  std::ofstream partial;
  if (dist::is_root()) {
    std::filesystem::create_directories(dir);
    partial.open(dir / "sweep.partial.csv", std::ios::trunc);
    partial << header;
    for (const auto& [i, row] : finished) partial << row;
    partial << std::flush;
    if (!finished.empty())
      std::cerr << "  resuming: " << finished.size() << " of " << points.size() << " points already done\n";
  }
  std::vector<std::string> rows(points.size());
  for (auto& [i, row] : finished) rows[i] = std::move(row);
  std::size_t done = finished.size();
  dist::map_to_root(
      todo, jobs, [&](std::size_t i) { return sweep_csv_row(run_sweep_point(spec, points[i])); },
      [&](std::size_t i, const std::string& row) {
        rows[i] = row;
        partial << row << std::flush;
        std::cerr << "\r  " << ++done << " / " << points.size() << " points" << std::flush;
      });
  if (!dist::is_root()) return 0;
  std::cerr << "\n";
  std::string csv = header;
  for (const auto& r : rows) csv += r;
  write_file_atomically(dir / "sweep.csv", csv);
  const std::string md = sweep_markdown(spec, rows);
  write_file_atomically(dir / "sweep.md", md);
  partial.close();
  std::filesystem::remove(dir / "sweep.partial.csv");
  std::cout << md << "wrote " << (dir / "sweep.csv").string() << " and sweep.md (" << points.size() << " points";
  if (dist::size() > 1) std::cout << ", " << dist::size() << " ranks";
  std::cout << ")\n";
  return 0;
}

}  // namespace gms::cli
