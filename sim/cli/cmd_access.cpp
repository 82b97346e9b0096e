// gpumemsim access: the analyser a kernel author runs before writing a kernel. From a CuTe
// description (TiledCopy or local_partition over a tile, element size, copy width, swizzle) or an
// explicit lane list, it prints per warp instruction the lanes, banks, wavefronts and conflicts
// (shared) or requests and sectors (global), and the totals for one execution by the CTA under
// Nsight Compute's metric names.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "access/access_spec.h"
#include "access/bank_model.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"
#include "common/units.h"
#include "report/access_plot.h"

namespace gms::cli {

namespace {

std::uint32_t parse_bytes_option(const std::string& text, const char* option) {
  if (text == "fp64") return 8;
  if (text == "fp32" || text == "tf32" || text == "int32") return 4;
  if (text == "fp16" || text == "bf16") return 2;
  if (text == "fp8" || text == "int8") return 1;
  std::string why;
  auto v = parse_quantity(text, Quantity::kBytes, &why);
  if (!v || *v < 1 || *v > 1024 || *v != static_cast<double>(static_cast<std::uint32_t>(*v)))
    throw ConfigError(std::string(option) + " '" + text + "': expected bytes such as 4B or 16B, or fp32/fp16/...");
  return static_cast<std::uint32_t>(*v);
}

nlohmann::ordered_json to_json(const AccessPattern& p, const AccessAnalysis& a, const std::string& source) {
  nlohmann::ordered_json j;
  j["pattern"] = {{"source", source},
                  {"space", mem_space_name(p.space)},
                  {"op", access_op_name(p.op)},
                  {"width_bytes", p.width_bytes},
                  {"threads", p.threads},
                  {"instructions_per_thread", p.instructions()}};
  if (p.op == AccessOp::kLdmatrix) j["pattern"]["ldmatrix"] = "x" + std::to_string(p.ldsm_matrices);
  nlohmann::ordered_json m;
  for (const auto& [name, v] : a.metrics) m[name] = v;
  j["metrics"] = m;
  auto rows = nlohmann::ordered_json::array();
  for (const auto& r : a.instructions) {
    nlohmann::ordered_json row = {{"warp", r.warp}, {"instruction", r.instruction}, {"active_lanes", r.active_lanes}};
    if (p.space == MemSpace::kShared) {
      row["wavefronts"] = r.wavefronts;
      row["bank_conflicts"] = r.bank_conflicts();
      row["conflict_ways"] = r.conflict_ways;
      row["banks_touched"] = r.banks_touched;
    } else {
      row["requests"] = r.requests;
      row["sectors"] = r.sectors;
    }
    rows.push_back(row);
  }
  j["instructions"] = rows;
  return j;
}

void print_text(const AccessPattern& p, const AccessAnalysis& a, const std::string& source, bool all_warps) {
  std::printf("# access %s %s, %u-byte lanes, %u threads (%u warps), %u instructions per thread; %s\n",
              mem_space_name(p.space), access_op_name(p.op), p.width_bytes, p.threads, p.warps(), p.instructions(),
              source.c_str());
  if (p.space == MemSpace::kShared)
    std::printf("%5s %6s %6s %6s %10s %10s %6s\n", "warp", "instr", "lanes", "banks", "wavefronts", "conflicts", "ways");
  else
    std::printf("%5s %6s %6s %9s %8s\n", "warp", "instr", "lanes", "requests", "sectors");
  for (const auto& r : a.instructions) {
    if (!all_warps && r.warp != 0) continue;
    if (p.space == MemSpace::kShared)
      std::printf("%5u %6u %6u %6u %10u %10u %6u\n", r.warp, r.instruction, r.active_lanes, r.banks_touched,
                  r.wavefronts, r.bank_conflicts(), r.conflict_ways);
    else
      std::printf("%5u %6u %6u %9u %8u\n", r.warp, r.instruction, r.active_lanes, r.requests, r.sectors);
  }
  if (!all_warps && p.warps() > 1) std::printf("# (warp 0 shown; --all-warps for every warp)\n");
  std::printf("# totals for one execution by the CTA\n");
  for (const auto& [name, v] : a.metrics) std::printf("%-60s %12.0f\n", name.c_str(), v);
}

}  // namespace

int cmd_access(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim access options");
  po::variables_map vm;
  std::string tensor, threads, values, partition, step, elem = "4B", width, swizzle = "none", space = "shared",
                                                            op = "ld", base = "0B", lanes, ldsm = "x4", json_path,
                                                            emit_lanes, report_dir;
  std::uint32_t threads_per_cta = 0;
  bool all_warps = false;
  desc.add_options()("tensor", po::value(&tensor), "the tile in memory, CuTe shape:stride in elements, e.g. \"(64,16):(1,64)\"")(
      "threads", po::value(&threads), "TiledCopy thread layout (thr_layout), e.g. \"(16,4):(1,16)\"")(
      "values", po::value(&values), "TiledCopy value layout (val_layout), e.g. \"(4,1)\"")(
      "partition", po::value(&partition), "local_partition thread layout instead of --threads/--values, e.g. \"(8,8)\"")(
      "step", po::value(&step), "with --partition: CuTe's Step, e.g. \"1,X\" (tile mode 0, take mode 1 whole)")(
      "elem", po::value(&elem), "element size: 4B, 2B, ... or fp32/fp16/bf16/fp8 (default 4B)")(
      "width", po::value(&width), "bytes one lane moves per instruction: 4B, 8B, 16B (default: one element)")(
      "swizzle", po::value(&swizzle), "CuTe Swizzle<B,M,S> on element offsets: \"3,3,3\" (default none)")(
      "base", po::value(&base), "byte address of element 0 (default 0B)")(
      "space", po::value(&space), "shared | global (default shared)")(
      "op", po::value(&op), "ld | st | ldmatrix (default ld)")(
      "ldmatrix", po::value(&ldsm), "ldmatrix .x1 | .x2 | .x4 for --lanes (default x4)")(
      "lanes", po::value(&lanes), "explicit lane list CSV: thread,instruction,byte_offset")(
      "threads-per-cta", po::value(&threads_per_cta), "with --lanes: threads in the CTA")(
      "all-warps", po::bool_switch(&all_warps), "print every warp's instructions, not only warp 0's")(
      "json", po::value(&json_path), "write the analysis as JSON (- for stdout)")(
      "emit-lanes", po::value(&emit_lanes), "write the pattern as a lane list CSV (what the validate kernel replays)")(
      "report", po::value(&report_dir), "draw the tile (or lane list) with thread, bank and conflicts: DIR/access.{svg,png}");
  if (!parse_options(args, desc, vm,
                     "usage: gpumemsim access --tensor L (--threads L --values L | --partition L [--step S]) [--elem B]\n"
                     "                        [--width B] [--swizzle B,M,S] [--space shared|global] [--op ld|st|ldmatrix]\n"
                     "       gpumemsim access --lanes FILE.csv --threads-per-cta N --width B [--space ...] [--op ...]"))
    return 0;
  const MemSpace sp = parse_mem_space(space);
  const AccessOp o = parse_access_op(op);
  std::optional<CuteCopySpec> spec;
  AccessPattern pattern;
  std::string source;
  if (!lanes.empty()) {
    if (!tensor.empty() || !threads.empty() || !partition.empty())
      throw ConfigError("--lanes replaces the CuTe description: drop --tensor/--threads/--partition");
    if (threads_per_cta == 0) throw ConfigError("--lanes needs --threads-per-cta N");
    if (width.empty()) throw ConfigError("--lanes needs --width (bytes per lane per instruction)");
    std::uint32_t m = ldsm == "x1" ? 1 : ldsm == "x2" ? 2 : ldsm == "x4" ? 4 : 0;
    if (m == 0) throw ConfigError("--ldmatrix '" + ldsm + "': expected x1, x2 or x4");
    pattern = read_lane_list(lanes, threads_per_cta, sp, o, parse_bytes_option(width, "--width"), m);
    source = "lanes " + lanes;
  } else {
    if (tensor.empty()) throw ConfigError("give --tensor with --threads/--values or --partition, or --lanes FILE");
    CuteCopySpec s;
    s.tensor = parse_layout(tensor, "--tensor");
    if (!partition.empty()) {
      if (!threads.empty() || !values.empty()) throw ConfigError("--partition replaces --threads/--values");
      s.threads = parse_layout(partition, "--partition");
      s.step = step;
      source = "local_partition(" + s.tensor.str() + ", " + s.threads.str() + (step.empty() ? "" : ", Step<" + step + ">") + ")";
    } else {
      if (threads.empty() || values.empty()) throw ConfigError("a TiledCopy needs --threads and --values");
      if (!step.empty()) throw ConfigError("--step goes with --partition");
      s.threads = parse_layout(threads, "--threads");
      s.values = parse_layout(values, "--values");
      source = "tiled_copy(" + s.tensor.str() + ", thr " + s.threads.str() + ", val " + s.values->str() + ")";
    }
    s.copy.elem_bytes = parse_bytes_option(elem, "--elem");
    s.copy.width_bytes = width.empty() ? s.copy.elem_bytes : parse_bytes_option(width, "--width");
    s.copy.swizzle = parse_swizzle(swizzle, "--swizzle");
    std::string why;
    auto b = parse_quantity(base, Quantity::kBytes, &why);
    if (!b || *b < 0) throw ConfigError("--base '" + base + "': expected bytes, e.g. 0B or 128B");
    s.copy.base_bytes = static_cast<std::int64_t>(*b);
    if (!s.copy.swizzle.identity()) source += " o " + s.copy.swizzle.str();
    pattern = pattern_of(s, sp, o);
    spec = s;
  }
  AccessAnalysis analysis = analyse_access(pattern);
  // Everything is computed before anything is written: an error leaves no partial output.
  std::string json_text = to_json(pattern, analysis, source).dump(2) + "\n";
  if (!emit_lanes.empty()) write_lane_list(emit_lanes, pattern);
  if (!report_dir.empty()) {
    std::filesystem::create_directories(report_dir);
    for (auto fmt : {ImageFormat::kSvg, ImageFormat::kPng}) {
      std::string path = report_dir + (fmt == ImageFormat::kSvg ? "/access.svg" : "/access.png");
      if (spec)
        draw_access_tile(path, fmt, *spec, pattern, analysis, source);
      else
        draw_access_banks(path, fmt, pattern, analysis, source);
    }
  }
  if (json_path == "-") {
    std::cout << json_text;
    return 0;
  }
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    if (!f) throw ConfigError("--json " + json_path + ": cannot write");
    f << json_text;
  }
  print_text(pattern, analysis, source, all_warps);
  return 0;
}

}  // namespace gms::cli
