#include "trace/trace_summary.h"

#include <filesystem>
#include <unordered_set>

namespace gms {

TraceMemClass trace_mem_class(std::string_view op) {
  if (op == "LDG" || op == "LD") return TraceMemClass::kGlobalLoad;
  if (op == "STG" || op == "ST") return TraceMemClass::kGlobalStore;
  if (op == "LDS" || op == "LDSM") return TraceMemClass::kSharedLoad;
  if (op == "STS") return TraceMemClass::kSharedStore;
  if (op == "LDL") return TraceMemClass::kLocalLoad;
  if (op == "STL") return TraceMemClass::kLocalStore;
  if (op == "ATOM" || op == "ATOMG" || op == "RED" || op == "REDG" || op == "ATOMS") return TraceMemClass::kAtomic;
  if (op == "LDGSTS") return TraceMemClass::kAsyncCopy;
  if (op == "LDC" || op == "ULDC") return TraceMemClass::kConstant;
  return TraceMemClass::kNone;
}

const char* trace_mem_class_name(TraceMemClass c) {
  switch (c) {
    case TraceMemClass::kGlobalLoad: return "global_ld";
    case TraceMemClass::kGlobalStore: return "global_st";
    case TraceMemClass::kSharedLoad: return "shared_ld";
    case TraceMemClass::kSharedStore: return "shared_st";
    case TraceMemClass::kLocalLoad: return "local_ld";
    case TraceMemClass::kLocalStore: return "local_st";
    case TraceMemClass::kAtomic: return "atomic";
    case TraceMemClass::kAsyncCopy: return "ldgsts";
    case TraceMemClass::kConstant: return "constant";
    default: return "none";
  }
}

TraceKernelSummary summarize_sass_kernel(CtaSource& r) {
  TraceKernelSummary k;
  k.header = r.header();
  k.file = r.name();
  std::unordered_set<std::uint64_t> sectors;
  TraceCta cta;
  while (r.next_cta(cta)) {
    ++k.ctas;
    k.warps += static_cast<std::int64_t>(cta.warps.size());
    for (const auto& w : cta.warps)
      for (const auto& in : w.instrs) {
        ++k.warp_instructions;
        k.thread_instructions += in.active_lanes();
        std::string_view base = in.base_opcode();
        ++k.opcode_mix[std::string(base)];
        TraceMemClass mc = trace_mem_class(base);
        if (mc == TraceMemClass::kNone) continue;
        ++k.mem_instructions[mc];
        const bool global = mc == TraceMemClass::kGlobalLoad || mc == TraceMemClass::kGlobalStore ||
                            (mc == TraceMemClass::kAtomic && base != "ATOMS") || mc == TraceMemClass::kAsyncCopy;
        if (!global || in.mem_width == 0) continue;
        k.global_bytes_requested += static_cast<std::int64_t>(in.addresses.size()) * in.mem_width;
        for (std::uint64_t a : in.addresses)
          for (std::uint64_t s = a / 32; s <= (a + in.mem_width - 1) / 32; ++s) sectors.insert(s);
      }
  }
  k.global_sectors_touched = static_cast<std::int64_t>(sectors.size());
  return k;
}

namespace {

TraceKernelSummary summarize_kernel(const std::string& file) {
  TraceKernelReader r(file);
  return summarize_sass_kernel(r);
}

}  // namespace

TraceSummary summarize_trace(const std::string& path) {
  TraceSummary s;
  s.list = path;
  for (const auto& c : read_trace_commands(path)) {
    if (c.kind == TraceCommand::Kind::kMemcpyHtoD) s.memcpy_bytes += static_cast<std::int64_t>(c.bytes);
    else s.kernels.push_back(summarize_kernel(c.path));
  }
  return s;
}

}  // namespace gms
