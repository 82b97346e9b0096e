#pragma once
// What a trace holds, read in one streaming pass (`gpumemsim trace info`): per kernel the launch, the
// instruction and memory-operation counts by space, the global footprint and the opcode mix.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "trace/accelsim_trace.h"

namespace gms {

// The memory space and direction of a SASS opcode, from its base name (LDG, STS, ATOMG, ...).
enum class TraceMemClass : std::uint8_t {
  kNone, kGlobalLoad, kGlobalStore, kSharedLoad, kSharedStore, kLocalLoad, kLocalStore, kAtomic, kAsyncCopy, kConstant
};
TraceMemClass trace_mem_class(std::string_view base_opcode);
const char* trace_mem_class_name(TraceMemClass c);

struct TraceKernelSummary {
  TraceKernelHeader header;
  std::string file;
  std::int64_t ctas = 0, warps = 0;
  std::int64_t warp_instructions = 0, thread_instructions = 0;
  std::map<TraceMemClass, std::int64_t> mem_instructions;  // warp instructions per class
  std::int64_t global_bytes_requested = 0;                 // active lanes x width, loads + stores + atomics
  std::int64_t global_sectors_touched = 0;                 // distinct 32-byte sectors
  std::map<std::string, std::int64_t> opcode_mix;          // base opcode -> warp instructions
};

struct TraceSummary {
  std::string list;
  std::int64_t memcpy_bytes = 0;
  std::vector<TraceKernelSummary> kernels;
};

// A kernelslist.g, its folder, or one .traceg (.traceg.xz) file.
TraceSummary summarize_trace(const std::string& path);
// One SASS kernel, from any source (Accel-Sim text, a .gmstrace).
TraceKernelSummary summarize_sass_kernel(CtaSource& source);

}  // namespace gms
