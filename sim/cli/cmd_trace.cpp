// gpumemsim trace info|convert|export: what a trace holds (one streaming pass), Accel-Sim text to
// the project's .gmstrace, and a generated workload written out as an engine-level .gmstrace.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/files.h"
#include "trace/gms_trace.h"
#include "trace/trace_summary.h"
#include "workload/recorded_kernel.h"

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

// Text traces through the trace layer; a .gmstrace kernel by kernel (engine-level kernels are
// summarised by the workload layer, which knows their instructions).
TraceSummary summarize_any(const std::string& path, bool* capped) {
  if (!is_gms_trace(path)) return summarize_trace(path);
  TraceSummary s;
  s.list = path;
  for (const GmsCommand& c : scan_gms_trace(path)) {
    if (c.kind == GmsCommand::Kind::kMemcpyHtoD) {
      s.memcpy_bytes += static_cast<std::int64_t>(c.bytes);
    } else if (c.encoding == GmsKernelEncoding::kSass) {
      GmsSassCtaSource source(path, c);
      s.kernels.push_back(summarize_sass_kernel(source));
    } else {
      bool cap = false;
      s.kernels.push_back(summarize_engine_kernel(path, c, &cap));
      *capped = *capped || cap;
    }
  }
  return s;
}

int trace_info(const std::vector<std::string>& rest) {
  po::options_description desc("gpumemsim trace info options");
  po::positional_options_description pos;
  pos.add("trace", 1);
  po::variables_map vm;
  std::string trace, json;
  int top = 12;
  desc.add_options()("trace", po::value(&trace)->required(), "kernelslist.g, its folder, a .traceg[.xz] or a .gmstrace")(
      "json", po::value(&json)->default_value(""), "also write the summary as JSON to this file")(
      "top", po::value(&top)->default_value(12), "opcodes to list per kernel");
  if (!parse_options(rest, desc, vm, "usage: gpumemsim trace info TRACE [--json FILE] [--top N]", &pos)) return 0;
  bool capped = false;
  TraceSummary s = summarize_any(trace, &capped);
  if (!json.empty()) write_file_atomically(json, to_json(s).dump(1) + "\n");
  print_text(s, top);
  if (capped) std::cout << "(distinct sectors counted up to 2^26: the footprint above is a lower bound)\n";
  return 0;
}

int trace_convert(const std::vector<std::string>& rest) {
  po::options_description desc("gpumemsim trace convert options");
  po::positional_options_description pos;
  pos.add("in", 1).add("out", 1);
  po::variables_map vm;
  std::string in, out;
  desc.add_options()("in", po::value(&in)->required(), "Accel-Sim trace: kernelslist.g, its folder, or a .traceg[.xz]")(
      "out", po::value(&out)->required(), "the .gmstrace to write");
  if (!parse_options(rest, desc, vm, "usage: gpumemsim trace convert ACCELSIM_TRACE OUT.gmstrace", &pos)) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  ConvertStats st = convert_accelsim_trace(in, out);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << out << ": " << st.kernels << " kernel(s), " << st.ctas << " CTAs, " << st.warp_instructions
            << " warp instructions; " << st.file_bytes << " bytes (" << st.raw_bytes << " before compression) in " << s
            << " s\n";
  return 0;
}

int trace_export(const std::vector<std::string>& rest) {
  po::options_description desc("gpumemsim trace export options");
  po::positional_options_description pos;
  pos.add("out", 1);
  po::variables_map vm;
  std::string gpu, workload, out;
  std::vector<std::string> sets;
  desc.add_options()("gpu,g", po::value(&gpu)->required(), "GPU preset name or file")(
      "workload,w", po::value(&workload)->required(), "a generated workload (kind gemm, gemv or tiled_gemm)")(
      "set,s", po::value(&sets)->composing(), "override a key, repeatable")(
      "out", po::value(&out)->required(), "the .gmstrace to write");
  if (!parse_options(rest, desc, vm, "usage: gpumemsim trace export --gpu G --workload W.yaml [--set k=v]... OUT.gmstrace",
                     &pos))
    return 0;
  LoadedConfigs cfg = load_configs(ConfigInputs(gpu, workload, sets));
  if (cfg.workload.value.kind == "trace")
    throw ConfigError(workload + ": already a trace; export writes generated workloads (gemm, gemv, tiled_gemm)");
  auto kernel = make_kernel(cfg.workload.value, cfg.gpu.value);
  const auto t0 = std::chrono::steady_clock::now();
  GmsTraceWriter w(out);
  ExportStats st = export_kernel(*kernel, runs_at_tensor_clock(cfg.workload.value, cfg.gpu.value), w);
  w.finish();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << out << ": " << kernel->name() << ", " << st.ctas << " CTAs, " << st.warp_instructions
            << " engine instructions; " << w.bytes_written() << " bytes (" << w.raw_bytes() << " before compression) in "
            << s << " s\n"
            << "replay it with a workload file holding 'kind: trace' and 'path: " << out << "'\n";
  return 0;
}

}  // namespace

int cmd_trace(const std::vector<std::string>& args) {
  const std::string sub = args.empty() ? "" : args[0];
  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "info") return trace_info(rest);
  if (sub == "convert") return trace_convert(rest);
  if (sub == "export") return trace_export(rest);
  std::cerr << "usage: gpumemsim trace info TRACE [--json FILE] [--top N]\n"
               "       gpumemsim trace convert ACCELSIM_TRACE OUT.gmstrace\n"
               "       gpumemsim trace export --gpu G --workload W.yaml [--set k=v]... OUT.gmstrace\n"
               "  TRACE: an Accel-Sim kernelslist.g, the folder holding it, a kernel-N.traceg[.xz], or a .gmstrace\n";
  const bool help = sub == "--help" || sub == "-h";
  return help ? 0 : 2;
}

}  // namespace gms::cli
