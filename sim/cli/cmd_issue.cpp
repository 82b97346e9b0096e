#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "asm/sass_issue.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"

namespace gms::cli {

// gpumemsim issue FILE.sass: the warp's issue floor per iteration of the hot loop, from the
// compiler's stall counts, and the kind-gemm settings that replay it.
int cmd_issue(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim issue options");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  std::string file, kernel, executed;
  int k_tiles = 1, section = 1;
  bool json = false;
  desc.add_options()("file", po::value(&file)->required(), "SASS listing as cuobjdump -sass prints it (sm_70 or newer)")(
      "kernel,k", po::value(&kernel)->default_value(""), "a substring of the kernel name (default: first with loads)")(
      "executed", po::value(&executed)->default_value(""),
      "ncu source export (ncu -i R --page source --csv --print-source sass): weight each instruction by its executed count")(
      "section", po::value(&section)->default_value(1),
      "which of the export's sections that list the kernel's instructions (launches of one kernel, e.g. at two occupancies)")(
      "k-tiles-per-iteration", po::value(&k_tiles)->default_value(1), "K tiles one loop iteration covers (unrolled loops)")(
      "json", po::bool_switch(&json), "print JSON instead of text");
  if (!parse_options(args, desc, vm, "usage: gpumemsim issue FILE.sass [--kernel NAME] [--executed SOURCE.csv [--section N]] [--json]", &pos))
    return 0;
  if (k_tiles < 1 || k_tiles > 64) throw ConfigError("--k-tiles-per-iteration " + std::to_string(k_tiles) + ": expected 1 to 64");
  if (section < 1) throw ConfigError("--section " + std::to_string(section) + ": sections count from 1");
  const IssueProfile p = sass_issue_profile(file, kernel, executed, section);
  const double n = p.total_instructions() / k_tiles, s = p.total_stall_cycles() / k_tiles;
  const double selected = p.sampled_cycles[kSampledSelected] / k_tiles, wait = p.sampled_cycles[kSampledWait] / k_tiles,
               dispatch = p.sampled_cycles[kSampledDispatch] / k_tiles, branch = p.sampled_cycles[kSampledBranch] / k_tiles;
  const double exposed = p.shared_exposed_reads / k_tiles, hidden = p.shared_hidden_cycles;
  const double special = p.special_exposed_reads / k_tiles, special_hidden = p.special_hidden_cycles;
  const double banks = p.bank_conflict_cycles / k_tiles;
  char buf[512];
  if (json) {
    std::cout << "{\"kernel\": \"" << p.kernel << "\", \"loop\": " << (p.loop ? "true" : "false") << ", \"lines\": [" << p.body_first
              << ", " << p.body_last << "], \"executed\": " << (p.executed ? "true" : "false") << ", \"classes\": {";
    for (int c = 0; c < static_cast<int>(IssueClass::kCount); ++c) {
      std::snprintf(buf, sizeof buf, "%s\"%s\": {\"instructions\": %.3f, \"stall_cycles\": %.3f", c ? ", " : "",
                    issue_class_name(static_cast<IssueClass>(c)), p.instructions[c] / k_tiles, p.stall_cycles[c] / k_tiles);
      std::cout << buf;
      if (p.sampled) {
        const double* m = p.sampled_by_class[c];
        std::snprintf(buf, sizeof buf,
                      ", \"measured\": {\"selected\": %.3f, \"wait\": %.3f, \"dispatch_stall\": %.3f, \"branch_resolving\": %.3f}",
                      m[kSampledSelected] / k_tiles, m[kSampledWait] / k_tiles, m[kSampledDispatch] / k_tiles,
                      m[kSampledBranch] / k_tiles);
        std::cout << buf;
      }
      std::cout << "}";
    }
    std::snprintf(buf, sizeof buf,
                  "}, \"instructions_per_k_tile\": %.3f, \"stall_cycles_per_k_tile\": %.3f, "
                  "\"shared_reads_per_k_tile\": {\"exposed\": %.3f, \"hidden_cycles\": %.3f}, "
                  "\"special_reads_per_k_tile\": {\"exposed\": %.3f, \"hidden_cycles\": %.3f}, "
                  "\"register_bank_conflict_cycles_per_k_tile\": %.3f",
                  n, s, exposed, hidden, special, special_hidden, banks);
    std::cout << buf;
    if (p.sampled) {
      std::snprintf(buf, sizeof buf,
                    ", \"measured_per_k_tile\": {\"selected\": %.3f, \"wait\": %.3f, \"dispatch_stall\": %.3f, "
                    "\"branch_resolving\": %.3f}",
                    selected, wait, dispatch, branch);
      std::cout << buf;
    }
    std::cout << "}\n";
    return 0;
  }
  std::cout << "# issue " << file << ": kernel " << p.kernel << "\n# " << (p.loop ? "loop body" : "straight-line body")
            << ", lines " << p.body_first << "-" << p.body_last << ", "
            << (p.executed ? "executed counts from " + executed : std::string("each instruction once (static: give --executed "
                                                                               "for the path the warps take)"))
            << "\n# per K tile and warp (" << k_tiles << " per iteration):\n";
  std::snprintf(buf, sizeof buf, "#   %-13s %9s %12s %8s%s\n", "class", "instr", "stall cyc", "mean",
                p.sampled ? "   measured: selected     wait dispatch   branch" : "");
  std::cout << buf;
  auto measured = [&](const double* m) {
    if (!p.sampled) return std::string();
    char cols[128];
    std::snprintf(cols, sizeof cols, "             %8.1f %8.1f %8.1f %8.1f", m[kSampledSelected] / k_tiles, m[kSampledWait] / k_tiles,
                  m[kSampledDispatch] / k_tiles, m[kSampledBranch] / k_tiles);
    return std::string(cols);
  };
  for (int c = 0; c < static_cast<int>(IssueClass::kCount); ++c) {
    if (p.instructions[c] <= 0) continue;
    std::snprintf(buf, sizeof buf, "#   %-13s %9.1f %12.1f %8.2f%s\n", issue_class_name(static_cast<IssueClass>(c)),
                  p.instructions[c] / k_tiles, p.stall_cycles[c] / k_tiles, p.stall_cycles[c] / p.instructions[c],
                  measured(p.sampled_by_class[c]).c_str());
    std::cout << buf;
  }
  std::snprintf(buf, sizeof buf, "#   %-13s %9.1f %12.1f %8.2f%s\n", "all", n, s, s / n, measured(p.sampled_cycles).c_str());
  std::cout << buf;
  std::snprintf(buf, sizeof buf,
                "# shared reads: the warp alone waits on %.1f per K tile, each for the read latency less %.1f cycles "
                "the order hides (short_scoreboard)\n",
                exposed, hidden);
  std::cout << buf;
  std::snprintf(buf, sizeof buf,
                "# special-register reads (S2R, S2UR): the warp alone waits on %.1f per K tile, each for their latency "
                "less %.1f cycles (short_scoreboard)\n",
                special, special_hidden);
  std::cout << buf;
  std::snprintf(buf, sizeof buf, "# register-bank conflicts: %.1f issue cycles per K tile the sub-partition loses\n", banks);
  std::cout << buf;
  if (p.sampled) {
    std::snprintf(buf, sizeof buf,
                  "# measured (the export's warp-state samples) per K tile and warp: selected %.1f, wait %.1f, "
                  "dispatch_stall %.1f, branch_resolving %.1f cycles\n",
                  selected, wait, dispatch, branch);
    std::cout << buf;
  }
  // The replay settings, written once: as --set options and as the workload's YAML block.
  std::vector<std::pair<std::string, std::string>> settings;
  auto set = [&](const char* key, const char* format, double value) {
    std::snprintf(buf, sizeof buf, format, value);
    settings.emplace_back(key, buf);
  };
  set("instructions", "%.0f", n);
  set("stall_cycles", "%.0fcycles", s);
  if (exposed > 0) {
    set("shared_reads.exposed", "%.1f", exposed);
    set("shared_reads.hidden", "%.0fcycles", hidden);
  }
  if (special > 0) {
    set("special_reads.exposed", "%.1f", special);
    set("special_reads.hidden", "%.0fcycles", special_hidden);
  }
  if (banks > 0) set("register_bank_conflicts", "%.0fcycles", banks);
  if (p.sampled) {
    set("measured.wait", "%.0fcycles", wait);
    set("measured.dispatch_stall", "%.0fcycles", dispatch);
    set("measured.branch_resolving", "%.0fcycles", branch);
  }
  std::cout << "# replay (kind gemm):";
  for (const auto& [key, value] : settings) std::cout << " --set workload.issue." << key << "=" << value;
  std::cout << "\nissue:\n";
  std::string group;  // the nested mapping the last key was written in
  for (const auto& [key, value] : settings) {
    const size_t dot = key.find('.');
    const std::string parent = dot == std::string::npos ? "" : key.substr(0, dot);
    if (!parent.empty() && parent != group) std::cout << "  " << parent << ":\n";
    group = parent;
    std::cout << (parent.empty() ? "  " + key : "    " + key.substr(dot + 1)) << ": " << value << "\n";
  }
  return 0;
}

}  // namespace gms::cli
