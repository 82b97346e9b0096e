// kind: trace - the kernels of an Accel-Sim trace replayed in order on one memory system: each
// kernel starts when the previous one has ended (plus the launch overhead), L1s start empty, L2
// keeps its contents or is flushed (workload key l2_between_kernels), and the results add up.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "api/simulation.h"
#include "config/workload_schema.h"
#include "common/error.h"
#include "model/memory_system.h"
#include "trace/isa_table.h"
#include "workload/trace_kernel.h"

namespace gms {
namespace {

// The commands to run: the list's copies and kernels in order, or one kernel file.
std::vector<TraceCommand> trace_commands(const std::string& path) {
  namespace fs = std::filesystem;
  if (fs::is_regular_file(path) && fs::path(path).filename() != "kernelslist.g") {
    TraceCommand c;
    c.path = path;
    return {c};
  }
  std::vector<TraceCommand> cmds = read_kernels_list(path);
  if (std::none_of(cmds.begin(), cmds.end(), [](const TraceCommand& c) { return c.kind == TraceCommand::Kind::kKernel; }))
    throw ConfigError(path + ": the kernel list names no kernel");
  return cmds;
}

}  // namespace

RunOutput simulate_trace(const LoadedConfigs& cfg, const RunOptions& opt) {
  const GpuConfig& gpu = cfg.gpu.value;
  const TraceWorkloadConfig& w = cfg.workload.value.trace;
  const std::optional<std::set<int>> ids = trace_kernel_ids(w.kernels);
  SIM_ASSERT(ids, "workload key kernels '" << w.kernels << "' passed validation but does not parse");
  RunOutput out;
  MemorySystem mem(gpu);
  if (opt.timeline_bucket_cycles > 0) {
    out.timeline = std::make_unique<Timeline>(gpu.sm.count, opt.timeline_bucket_cycles);
    mem.attach_timeline(out.timeline.get());
  }
  std::map<std::string, std::unique_ptr<IsaTable>> tables;
  std::set<int> warned_versions;
  const Tick overhead = cycles_to_ticks(gpu.launch.kernel_overhead);
  Tick now = 0;
  bool first = true;
  for (const TraceCommand& cmd : trace_commands(w.path)) {
    if (cmd.kind == TraceCommand::Kind::kMemcpyHtoD) {
      if (w.memcpy_to_l2) mem.copy_into_l2(cmd.address, cmd.bytes, now);
      continue;
    }
    const std::string& file = cmd.path;
    auto reader = std::make_unique<TraceKernelReader>(file);
    const TraceKernelHeader header = reader->header();
    if (!ids->empty() && !ids->count(header.id)) continue;
    const std::string isa_path = w.isa == "auto" ? isa_table_path(header.binary_version) : w.isa;
    auto& table = tables[isa_path];
    if (!table) table = std::make_unique<IsaTable>(IsaTable::load(isa_path));
    if (header.binary_version != gpu.sm.compute_capability && warned_versions.insert(header.binary_version).second)
      out.notes.push_back(file + ": captured from sm_" + std::to_string(header.binary_version) + " code; the GPU preset '" +
                          gpu.name + "' is " +
                          (gpu.sm.compute_capability ? "sm_" + std::to_string(gpu.sm.compute_capability) : "not an NVIDIA GPU") +
                          ": timing replays the instructions on the preset's hardware as they are");
    if (table->compute_capability() != header.binary_version)
      out.notes.push_back(file + ": binary version " + std::to_string(header.binary_version) + " replayed with the " +
                          table->arch() + " ISA table (" + isa_path + ")");
    auto kernel = std::make_unique<TraceKernel>(std::move(reader), *table, gpu, w.cta_limit);
    mem.begin_kernel(w.l2_between_kernels == "keep");
    Engine engine(gpu, *kernel, &mem);
    engine.set_start(now);
    if (opt.progress) engine.set_progress(opt.progress);
    if (opt.trace_warps_sm >= 0) {
      if (opt.trace_warps_sm >= gpu.sm.count)
        throw ConfigError("--warp-timeline " + std::to_string(opt.trace_warps_sm) + ": the GPU has " +
                          std::to_string(gpu.sm.count) + " SMs");
      engine.trace_warps_of_sm(opt.trace_warps_sm);
    }
    SimResult r = engine.run();
    KernelRun k;
    k.id = header.id;
    k.name = header.name;
    k.file = file;
    k.binary_version = header.binary_version;
    k.ctas = r.shape.ctas;
    k.start_cycle = ticks_to_whole_cycles(now);
    k.cycles = ticks_to_whole_cycles(r.end) + gpu.launch.kernel_overhead;
    k.warp_instructions = r.warp_instructions;
    k.dram_read_bytes = r.dram_read_bytes;
    k.dram_write_bytes = r.dram_write_bytes;
    k.flops = r.flops;
    out.kernels.push_back(k);
    const Tick offset = now;
    now += r.end + overhead;
    if (first) {
      out.result = std::move(r);
      first = false;
    } else {
      append_kernel_result(out.result, std::move(r), offset);
    }
    out.kernel = std::move(kernel);
  }
  if (out.kernels.empty()) throw ConfigError("workload key 'kernels': '" + w.kernels + "' selects no kernel of " + w.path);
  return out;
}

}  // namespace gms
