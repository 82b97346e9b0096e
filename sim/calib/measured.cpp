#include "calib/measured.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "common/csv.h"
#include "common/error.h"

namespace gms {
namespace {

std::string shape_of(const nlohmann::json& w) {
  return std::to_string(w.value("m", 0)) + "x" + std::to_string(w.value("n", 0)) + "x" + std::to_string(w.value("k", 0));
}

// The GEMM kernel a record names beyond its tiling: the MMA class and a TMA copy path (" wgmma tma").
std::string kernel_of(const nlohmann::json& w) {
  std::string k;
  if (w.contains("mma") && w["mma"].is_string()) k += " " + w["mma"].get<std::string>();
  if (w.contains("copy") && w["copy"].is_string() && w["copy"].get<std::string>() == "tma") k += " tma";
  return k;
}

// A GEMM's tiling as the records say it: tile, warps, stages, the kernel and shared-row padding
// when the record names them (the WMMA kernel's pads 0/8/16 are three tilings of one shape).
std::string tiling_of(const nlohmann::json& w) {
  std::string t;
  if (w.contains("tile") && w["tile"].is_object())
    t = std::to_string(w["tile"].value("m", 0)) + "x" + std::to_string(w["tile"].value("n", 0)) + "x" +
        std::to_string(w["tile"].value("k", 0));
  t += " w" + std::to_string(w.value("warps", 0)) + " s" + std::to_string(w.value("stages", 0));
  t += kernel_of(w);
  if (w.contains("smem") && w["smem"].is_object() && w["smem"].contains("pad"))
    t += " pad" + std::to_string(w["smem"].value("pad", 0));
  return t;
}

std::string order_of(const nlohmann::json& w) {
  if (!w.contains("cta_order") || !w["cta_order"].is_object()) return "default order";
  const std::string kind = w["cta_order"].value("kind", "grouped");
  return kind == "grouped" ? "grouped" + std::to_string(w["cta_order"].value("group_m", 0)) : kind;
}

std::string group_of(const std::string& kind, const nlohmann::json& w) {
  if (kind == "gemm") return "gemm " + shape_of(w) + " " + tiling_of(w) + " (CTA orders)";
  if (kind == "tiled_gemm") return "tiled_gemm " + shape_of(w) + " (tilings and data paths)";
  return kind + " " + std::to_string(w.value("m", 1)) + "x" + std::to_string(w.value("k", 0)) + "x" +
         std::to_string(w.value("n", 0)) + " (warps x order)";
}

std::string tiling_group_of(const std::string& kind, const nlohmann::json& w) {
  if (kind != "gemm") return "";  // the GEMV and tiled-GEMM groups already hold every variant of their shape
  // Tilings of one kernel: a wgmma kernel, its TMA twin and the WMMA kernel are ranked apart.
  return "gemm " + shape_of(w) + " " + order_of(w) + kernel_of(w) + " (tilings)";
}

// ncu prints numbers with thousands separators; "n/a" and empty cells carry no value.
std::optional<double> parse_number(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Scale from an ncu unit to the simulator's (byte, ns, cycle, sector, %).
std::optional<double> unit_scale(const std::string& unit) {
  static const std::map<std::string, double> scale = {
      {"", 1},           {"byte", 1},       {"Kbyte", 1e3},   {"Mbyte", 1e6},      {"Gbyte", 1e9},
      {"Tbyte", 1e12},   {"KB", 1e3},       {"MB", 1e6},      {"GB", 1e9},         {"nsecond", 1},
      {"ns", 1},         {"usecond", 1e3},  {"us", 1e3},      {"msecond", 1e6},    {"ms", 1e6},
      {"second", 1e9},   {"s", 1e9},        {"cycle", 1},     {"Kcycle", 1e3},     {"Mcycle", 1e6},
      {"sector", 1},     {"Ksector", 1e3},  {"Msector", 1e6}, {"Gsector", 1e9},    {"%", 1},
      {"block", 1},      {"thread", 1},     {"register/thread", 1}, {"inst", 1},   {"Kinst", 1e3},
      {"Minst", 1e6},    {"warp", 1}};
  auto it = scale.find(unit);
  if (it == scale.end()) return std::nullopt;
  return it->second;
}

}  // namespace

const std::vector<std::string>& compared_metrics() {
  static const std::vector<std::string> m = {"gpu__time_duration.sum",
                                             "sm__cycles_elapsed.max",
                                             "dram__bytes_read.sum",
                                             "dram__bytes_write.sum",
                                             "lts__t_sector_hit_rate.pct",
                                             "lts__t_sectors_op_read.sum",
                                             "lts__t_sectors_op_red.sum",
                                             // what crosses the fabric between the L2 partitions (docs/calibration.md)
                                             "lts__t_sectors_srcunit_ltcfabric.sum",
                                             // L1 (records that carry them: the Triton GEMVs and GEMMs); local = spills
                                             "l1tex__t_sector_hit_rate.pct",
                                             "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                             "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                                             "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
                                             // the L2 tag stage's requests (records that carry it: the padding set)
                                             "lts__t_requests_srcunit_tex_op_read.sum",
                                             // the SMs' read sectors the tag stage looks up, and those the SMs
                                             // receive: their ratio is what the request coalescer merged
                                             // (validate/scripts/merge_ratios.py; records: Triton GEMMs, padding)
                                             "lts__t_sectors_srcunit_tex_op_read.sum",
                                             "l1tex__m_xbar2l1tex_read_sectors.sum",
                                             "sm__warps_active.avg.pct_of_peak_sustained_active",
                                             "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
                                             // the SM data path (records that carry them: tiled_gemm)
                                             "smsp__sass_inst_executed_op_shared_ld.sum",
                                             "smsp__sass_inst_executed_op_shared_st.sum",
                                             "smsp__sass_inst_executed_op_ldgsts.sum",
                                             // ldmatrix: the data path's operand reads, a staged epilogue's read-back
                                             "smsp__sass_inst_executed_op_ldsm.sum",
                                             "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
                                             "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                             "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                             "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
                                             "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
                                             // the issue side (records that carry them)
                                             "smsp__inst_executed.sum",
                                             "smsp__warp_issue_stalled_wait_per_warp_active.pct",
                                             "smsp__warp_issue_stalled_selected_per_warp_active.pct",
                                             "smsp__warp_issue_stalled_barrier_per_warp_active.pct"};
  return m;
}

bool is_pct_metric(const std::string& metric) { return metric.find(".pct") != std::string::npos; }

namespace {
// One record's case; nlohmann's type errors (a key of the wrong type) pass to the caller.
MeasuredCase case_of_record(const std::string& f, const nlohmann::json& rec) {
  MeasuredCase c;
  c.source = c.workload_file = f;
  c.workload_from_record = true;
  c.name = rec.value("case", std::filesystem::path(f).stem().string());
  c.kind = rec.value("kind", rec["workload"].value("kind", ""));
  c.group = group_of(c.kind, rec["workload"]);
  c.tiling_group = tiling_group_of(c.kind, rec["workload"]);
  c.record_set = std::filesystem::path(f).parent_path().filename().string();
  const nlohmann::json* counters = nullptr;
  if (rec.contains("ncu") && rec["ncu"].is_object() && rec["ncu"].contains("counters")) counters = &rec["ncu"]["counters"];
  for (const auto& m : compared_metrics())
    if (counters && counters->contains(m) && (*counters)[m].is_number()) c.measured[m] = (*counters)[m].get<double>();
  const bool ncu_time = c.measured.count("gpu__time_duration.sum") > 0;
  if (!ncu_time && rec.contains("measured") && rec["measured"].contains("gpu__time_duration.sum"))
    c.measured["gpu__time_duration.sum"] = rec["measured"]["gpu__time_duration.sum"].get<double>();
  const char* rounds_key = ncu_time ? "ncu_gpu__time_duration.sum" : "events_gpu__time_duration.sum";
  if (rec.contains("repeat") && rec["repeat"].is_object() && rec["repeat"].contains(rounds_key)) {
    const auto& r = rec["repeat"][rounds_key];
    if (!r.is_array()) throw ConfigError(f + ": repeat." + rounds_key + " is not a list of times");
    for (const auto& v : r) {
      if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
        throw ConfigError(f + ": repeat." + rounds_key + " holds a non-time");
      c.time_rounds.push_back(v.get<double>());
    }
  }
  for (const auto& [m, v] : c.measured)
    if (!std::isfinite(v)) throw ConfigError(f + ": " + m + " is not a finite number");
  return c;
}
}  // namespace

std::vector<MeasuredCase> load_records(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& r : paths) {
    if (std::filesystem::is_directory(r)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(r))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    } else if (std::filesystem::exists(r)) {
      files.push_back(r);
    } else {
      throw ConfigError(r + ": no such record file or directory");
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<MeasuredCase> out;
  for (const auto& f : files) {
    std::ifstream in(f);
    nlohmann::json rec;
    try {
      rec = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError(f + ": not JSON: " + e.what());
    }
    if (!rec.is_object() || !rec.contains("workload") || rec["workload"].is_null()) continue;  // microbenchmarks
    try {
      out.push_back(case_of_record(f, rec));
    } catch (const nlohmann::json::exception& e) {  // a key of the wrong type
      throw ConfigError(f + ": not a validate record: " + e.what());
    }
  }
  return out;
}

std::vector<MeasuredCase> load_ncu_csv(const std::string& csv_file, const std::string& workload_yaml,
                                       const std::string& kernel_filter) {
  std::ifstream in(csv_file);
  if (!in) throw ConfigError(csv_file + ": cannot open");
  std::string line;
  int lineno = 0;
  std::vector<std::string> header, units;
  while (std::getline(in, line)) {  // the profiled program's own output may precede the table
    ++lineno;
    if (line.rfind("\"ID\",", 0) == 0) {
      header = split_csv(line);
      break;
    }
  }
  if (header.empty())
    throw ConfigError(csv_file + ": no ncu table (a line starting with \"ID\"); export with ncu --csv --page raw");
  auto column = [&](const std::string& name) -> int {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  const int kernel_col = column("Kernel Name"), id_col = column("ID");
  bool have_any = false;
  for (const auto& m : compared_metrics()) have_any |= column(m) >= 0;
  if (!have_any)
    throw ConfigError(csv_file + ":" + std::to_string(lineno) + ": none of the compared metrics is a column (" +
                      "collect e.g. gpu__time_duration.sum,dram__bytes_read.sum with --page raw)");
  std::vector<MeasuredCase> out;
  std::string wl_name = std::filesystem::path(workload_yaml).stem().string();
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] != '"') continue;
    auto row = split_csv(line);
    if (units.empty()) {  // the row after the header holds the units
      units = row;
      continue;
    }
    if (row.size() != header.size())
      throw ConfigError(csv_file + ":" + std::to_string(lineno) + ": " + std::to_string(row.size()) + " cells, header has " +
                        std::to_string(header.size()));
    std::string kernel = kernel_col >= 0 ? row[kernel_col] : "";
    if (!kernel_filter.empty() && kernel.find(kernel_filter) == std::string::npos) continue;
    MeasuredCase c;
    c.source = csv_file;
    c.workload_file = workload_yaml;
    c.name = wl_name + "#" + (id_col >= 0 ? row[id_col] : std::to_string(out.size()));
    c.group = wl_name + " (ncu rows)";
    for (const auto& m : compared_metrics()) {
      int col = column(m);
      if (col < 0) continue;
      auto v = parse_number(row[col]);
      if (!v) continue;
      const std::string unit = col < static_cast<int>(units.size()) ? units[col] : "";
      auto s = unit_scale(unit);
      if (!s)
        throw ConfigError(csv_file + ":" + std::to_string(lineno) + ": metric " + m + " has unit '" + unit +
                          "' that gpumemsim does not convert (export with --print-units base)");
      c.measured[m] = *v * *s;
    }
    out.push_back(std::move(c));
  }
  if (out.empty())
    throw ConfigError(csv_file + ": no kernel rows" + (kernel_filter.empty() ? "" : " matching '" + kernel_filter + "'"));
  return out;
}

std::vector<MeasuredCase> load_cases(const std::vector<std::string>& records, const std::string& ncu_csv,
                                     const std::string& workload_yaml, const std::string& kernel_filter) {
  if (!ncu_csv.empty()) {
    if (workload_yaml.empty()) throw ConfigError("--ncu needs --workload: the YAML of the kernel that was profiled");
    if (!records.empty()) throw ConfigError("give either records or --ncu, not both");
    return load_ncu_csv(ncu_csv, workload_yaml, kernel_filter);
  }
  if (records.empty()) throw ConfigError("no records given (or use --ncu PROFILE.csv --workload W.yaml)");
  auto cases = load_records(records);
  if (cases.empty()) throw ConfigError("no replayable records among the given files");
  return cases;
}

}  // namespace gms
