#include "report/run_data.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "stats/report.h"

namespace gms {
namespace {

// The first `numeric` columns must be whole numbers (the rest are read past); all rows have `columns`. A file
// written before the last column was added (`header` without its last column) is read with one column fewer.
std::vector<std::vector<std::uint64_t>> read_csv(const std::filesystem::path& path, const std::string& header,
                                                  size_t columns, size_t numeric, bool earlier_without_last = false) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path.string() + ": cannot open file");
  std::string line;
  const std::string earlier = header.substr(0, header.rfind(','));
  if (std::getline(in, line) && earlier_without_last && line == earlier)
    --columns;
  else if (line != header)
    throw ConfigError(path.string() + ":1: expected the header '" + header + "'");
  std::vector<std::vector<std::uint64_t>> rows;
  for (int lineno = 2; std::getline(in, line); ++lineno) {
    if (line.empty()) continue;
    std::vector<std::uint64_t> row;
    std::stringstream ss(line);
    size_t cells = 0;
    for (std::string cell; std::getline(ss, cell, ',');) {
      if (++cells > numeric) continue;
      try {
        size_t used = 0;
        row.push_back(std::stoull(cell, &used));
        if (used != cell.size()) throw std::invalid_argument(cell);
      } catch (const std::exception&) {
        throw ConfigError(path.string() + ":" + std::to_string(lineno) + ": '" + cell + "' is not a whole number");
      }
    }
    if (!line.empty() && line.back() == ',') ++cells;  // getline drops a trailing empty cell
    if (cells != columns)
      throw ConfigError(path.string() + ":" + std::to_string(lineno) + ": expected " + std::to_string(columns) +
                        " columns, found " + std::to_string(cells));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

double RunData::metric(const std::string& name) const {
  const auto& m = stats.at("metrics");
  return m.contains(name) ? m.at(name).get<double>() : 0.0;
}

RunData load_run(const std::string& dir) {
  namespace fs = std::filesystem;
  RunData r;
  r.dir = dir;
  fs::path stats = fs::path(dir) / "stats.json";
  std::ifstream in(stats);
  if (!in) throw ConfigError(stats.string() + ": cannot open file (is " + dir + " a gpumemsim run --out directory?)");
  try {
    r.stats = nlohmann::json::parse(in);
    r.gpu = r.stats.at("gpu").get<std::string>();
    r.workload = r.stats.at("workload").get<std::string>();
    const auto& g = r.stats.at("config").at("gpu");
    r.sms = g.at("sm").at("count").get<int>();
    r.sm_clock = g.at("clock").at("sm").get<double>();
    r.cycles = static_cast<std::uint64_t>(r.stats.at("metrics").at("sm__cycles_elapsed.max").get<double>());
    if (r.stats.contains("timeline")) r.bucket_cycles = r.stats.at("timeline").at("bucket_cycles").get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(stats.string() + ": not a gpumemsim stats file: " + e.what());
  }
  for (const auto& row : read_csv(fs::path(dir) / "ctas.csv", kCtaCsvHeader, 11, 8, true)) {
    CtaRow c{static_cast<std::int64_t>(row[0]), static_cast<std::int64_t>(row[1]), static_cast<std::int64_t>(row[2]),
             static_cast<int>(row[3]), row[4], row[5], row[6], row[7]};
    r.tiles_m = std::max(r.tiles_m, c.tile_m + 1);
    r.tiles_n = std::max(r.tiles_n, c.tile_n + 1);
    r.ctas.push_back(c);
  }
  // The grid of the workload, when it says (a cta_limit run covers only part of it).
  const auto& w = r.stats.at("config").at("workload");
  if (w.contains("cta_order")) {  // the label names the order, which --set may have changed
    const auto& o = w.at("cta_order");
    std::string kind = o.value("kind", "");
    r.workload += " [" + kind;
    if (kind == "grouped") r.workload += " " + std::to_string(o.value("group_m", 0));
    if (kind == "grouped_n") r.workload += " " + std::to_string(o.value("group_n", 0));
    r.workload += "]";
  }
  if (w.contains("tile") && w.contains("m") && w.contains("n")) {
    auto cdiv = [](double a, double b) { return static_cast<std::int64_t>((a + b - 1) / b); };
    r.tiles_m = std::max(r.tiles_m, cdiv(w.at("m").get<double>(), w.at("tile").at("m").get<double>()));
    r.tiles_n = std::max(r.tiles_n, cdiv(w.at("n").get<double>(), w.at("tile").at("n").get<double>()));
  }
  fs::path tl = fs::path(dir) / "timeline.csv";
  if (fs::exists(tl)) {
    for (const auto& row :
         read_csv(tl, "bucket_start_cycle,sm,l2_hit_sectors,l2_miss_sectors,dram_read_bytes", 5, 5))
      r.timeline.push_back({row[0], static_cast<int>(row[1]), row[2], row[3], row[4]});
    if (r.bucket_cycles == 0) throw ConfigError(stats.string() + ": timeline.csv present but no timeline.bucket_cycles");
  }
  return r;
}

}  // namespace gms
