// gpumemsim trace info PATH: what an Accel-Sim trace holds, read in one streaming pass.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "common/files.h"
#include "trace/trace_summary.h"

namespace gms::cli {
namespace {

nlohmann::ordered_json to_json(const TraceSummary& s) {
  nlohmann::ordered_json j;
  j["trace"] = s.list;
  j["memcpy_htod_bytes"] = s.memcpy_bytes;
  auto ks = nlohmann::ordered_json::array();
  for (const auto& k : s.kernels) {
    const auto& h = k.header;
    nlohmann::ordered_json o;
    o["file"] = k.file;
    o["name"] = h.name;
    o["id"] = h.id;
    o["grid"] = {h.grid.x, h.grid.y, h.grid.z};
    o["block"] = {h.block.x, h.block.y, h.block.z};
    o["registers_per_thread"] = h.nregs;
    o["shared_mem_per_cta"] = h.shmem;
    o["binary_version"] = h.binary_version;
    o["tracer_version"] = h.tracer_version;
    o["ctas"] = k.ctas;
    o["warps"] = k.warps;
    o["smsp__inst_executed.sum"] = k.warp_instructions;
    o["smsp__thread_inst_executed.sum"] = k.thread_instructions;
    nlohmann::ordered_json mem;
    for (const auto& [c, n] : k.mem_instructions) mem[trace_mem_class_name(c)] = n;
    o["memory_instructions"] = mem;
    o["global_bytes_requested"] = k.global_bytes_requested;
    o["global_sectors_touched"] = k.global_sectors_touched;
    o["opcode_mix"] = k.opcode_mix;
    ks.push_back(o);
  }
  j["kernels"] = ks;
  return j;
}

void print_text(const TraceSummary& s, int top) {
  std::cout << "# trace " << s.list << ": " << s.kernels.size() << " kernel(s), " << s.memcpy_bytes
            << " bytes copied host-to-device first\n";
  for (const auto& k : s.kernels) {
    const auto& h = k.header;
    std::cout << "\nkernel " << h.id << " " << h.name << "  (" << k.file << ")\n"
              << "  grid (" << h.grid.x << "," << h.grid.y << "," << h.grid.z << ") x block (" << h.block.x << ","
              << h.block.y << "," << h.block.z << "), " << h.nregs << " registers/thread, " << h.shmem
              << " B shared/CTA, sm_" << h.binary_version << ", tracer v" << h.tracer_version << "\n"
              << "  " << k.ctas << " CTAs, " << k.warps << " warps, " << k.warp_instructions << " warp instructions ("
              << k.thread_instructions << " thread instructions)\n  memory:";
    for (const auto& [c, n] : k.mem_instructions) std::cout << " " << trace_mem_class_name(c) << " " << n;
    std::cout << "\n  global: " << k.global_bytes_requested << " bytes requested, " << k.global_sectors_touched
              << " distinct 32-byte sectors (" << k.global_sectors_touched * 32 << " bytes footprint)\n  opcodes:";
    std::vector<std::pair<std::int64_t, std::string>> mix;
    for (const auto& [op, n] : k.opcode_mix) mix.emplace_back(-n, op);
    std::sort(mix.begin(), mix.end());
    for (int i = 0; i < static_cast<int>(mix.size()) && i < top; ++i)
      std::cout << " " << mix[static_cast<size_t>(i)].second << " " << -mix[static_cast<size_t>(i)].first;
    if (static_cast<int>(mix.size()) > top) std::cout << " (+" << mix.size() - static_cast<size_t>(top) << " more)";
    std::cout << "\n";
  }
}

}  // namespace

int cmd_trace(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "info") {
    std::cerr << "usage: gpumemsim trace info TRACE [--json FILE] [--top N]\n"
                 "  TRACE: an Accel-Sim kernelslist.g, the folder holding it, or one kernel-N.traceg\n";
    const bool help = !args.empty() && (args[0] == "--help" || args[0] == "-h");
    return help ? 0 : 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  po::options_description desc("gpumemsim trace info options");
  po::positional_options_description pos;
  pos.add("trace", 1);
  po::variables_map vm;
  std::string trace, json;
  int top = 12;
  desc.add_options()("trace", po::value(&trace)->required(), "kernelslist.g, its folder, or a .traceg file")(
      "json", po::value(&json)->default_value(""), "also write the summary as JSON to this file")(
      "top", po::value(&top)->default_value(12), "opcodes to list per kernel");
  if (!parse_options(rest, desc, vm, "usage: gpumemsim trace info TRACE [--json FILE] [--top N]", &pos)) return 0;
  TraceSummary s = summarize_trace(trace);
  if (!json.empty()) write_file_atomically(json, to_json(s).dump(1) + "\n");
  print_text(s, top);
  return 0;
}

}  // namespace gms::cli
