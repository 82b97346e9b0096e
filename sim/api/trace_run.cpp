// kind: trace - the kernels of an Accel-Sim trace (or a .gmstrace) replayed in order on one memory system: each
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
#include "model/power_clock.h"
#include "trace/gms_trace.h"
#include "trace/isa_table.h"
#include "workload/recorded_kernel.h"
#include "workload/trace_kernel.h"

namespace gms {
namespace {

// One kernel to replay, from either trace format.
struct PendingKernel {
  std::unique_ptr<Kernel> kernel;
  KernelRun meta;  // id, name, file, binary_version
  bool tensor_clock = false;
};

}  // namespace

bool trace_runs_at_tensor_clock(const TraceWorkloadConfig& w) {
  if (!is_gms_trace(w.path)) return false;
  for (const GmsCommand& c : scan_gms_trace(w.path))
    if (c.kind == GmsCommand::Kind::kKernel && c.encoding == GmsKernelEncoding::kEngine) {
      ByteReader r(c.header_payload, w.path + ": kernel header");
      r.u8();
      if (decode_engine_header(r).tensor_clock) return true;
    }
  return false;
}

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
  bool first = true, tensor_clock = false;

  // A SASS kernel (Accel-Sim text or a converted .gmstrace) decodes through the ISA table of its
  // binary version.
  auto sass_kernel = [&](std::unique_ptr<CtaSource> source) {
    const TraceKernelHeader header = source->header();
    const std::string file = source->name();
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
    PendingKernel k;
    k.meta.id = header.id;
    k.meta.name = header.name;
    k.meta.file = file;
    k.meta.binary_version = header.binary_version;
    k.kernel = std::make_unique<TraceKernel>(std::move(source), *table, gpu, w.cta_limit,
                                             opt.threads > 1 ? TraceKernel::kReadAheadBlocks : 0);
    return k;
  };

  auto run_kernel = [&](PendingKernel&& pk) {
    mem.begin_kernel(w.l2_between_kernels == "keep", now);
    Engine engine(gpu, *pk.kernel, &mem);
    engine.set_start(now);
    if (opt.threads > 1) engine.set_pipeline(Pipeline::kWorker);
    if (opt.progress) engine.set_progress(opt.progress);
    if (opt.trace_warps_sm >= 0) {
      if (opt.trace_warps_sm >= gpu.sm.count)
        throw ConfigError("--warp-timeline " + std::to_string(opt.trace_warps_sm) + ": the GPU has " +
                          std::to_string(gpu.sm.count) + " SMs");
      engine.trace_warps_of_sm(opt.trace_warps_sm);
    }
    SimResult r = engine.run();
    KernelRun k = pk.meta;
    k.ctas = r.shape.ctas;
    k.start_cycle = ticks_to_whole_cycles(now);
    // Whole cycles from this kernel's start to the next one's, so that the kernels add up to the run.
    k.cycles = ticks_to_whole_cycles(now + r.end + overhead) - k.start_cycle;
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
    tensor_clock = tensor_clock || pk.tensor_clock;
    out.kernel = std::move(pk.kernel);
  };

  if (is_gms_trace(w.path)) {
    int ordinal = 0;
    for (const GmsCommand& cmd : scan_gms_trace(w.path)) {
      if (cmd.kind == GmsCommand::Kind::kMemcpyHtoD) {
        if (w.memcpy_to_l2) mem.copy_into_l2(cmd.address, cmd.bytes, now);
        continue;
      }
      ++ordinal;
      if (cmd.encoding == GmsKernelEncoding::kSass) {
        auto source = std::make_unique<GmsSassCtaSource>(w.path, cmd);
        if (!ids->empty() && !ids->count(source->header().id)) continue;
        run_kernel(sass_kernel(std::move(source)));
      } else {
        if (!ids->empty() && !ids->count(ordinal)) continue;  // engine kernels are numbered from 1 in file order
        PendingKernel k;
        auto rec = std::make_unique<RecordedKernel>(w.path, cmd, w.cta_limit);
        k.meta.id = ordinal;
        k.meta.name = rec->name();
        k.meta.file = w.path;
        k.meta.binary_version = gpu.sm.compute_capability;
        k.tensor_clock = rec->header().tensor_clock;
        k.kernel = std::move(rec);
        run_kernel(std::move(k));
      }
    }
  } else {
    for (const TraceCommand& cmd : read_trace_commands(w.path)) {
      if (cmd.kind == TraceCommand::Kind::kMemcpyHtoD) {
        if (w.memcpy_to_l2) mem.copy_into_l2(cmd.address, cmd.bytes, now);
        continue;
      }
      auto reader = std::make_unique<TraceKernelReader>(cmd.path);
      if (!ids->empty() && !ids->count(reader->header().id)) continue;
      run_kernel(sass_kernel(std::move(reader)));
    }
  }
  if (out.kernels.empty()) throw ConfigError("workload key 'kernels': '" + w.kernels + "' selects no kernel of " + w.path);
  // An exported tensor-core GEMM ran under the power model's clock when generated; so it does here.
  if (tensor_clock) out.result.sm_clock = clock_under_load(gpu, out.result);
  return out;
}

}  // namespace gms
