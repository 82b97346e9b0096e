#pragma once
// Reads compiled GPU code (PTX, SASS from `cuobjdump -sass`, AMDGCN assembly, LLVM IR as Triton
// caches them) and extracts the sequence of global loads, shared-memory and local (spill) traffic,
// arithmetic and atomics of a kernel's loop body (or its straight-line body when it has no loop),
// then folds it into an order pattern ("L0 L1 C0 C1") that the GEMV and GEMM workloads accept.
#include <string>
#include <vector>

namespace gms {

enum class AsmFormat { kPtx, kSass, kAmdgcn, kLlvmIr };
const char* asm_format_name(AsmFormat f);

enum class AsmOp : char {
  kGlobalLoad = 'L',
  kCompute = 'C',
  kShared = 'S',
  kLocal = 'X',
  kAtomic = 'A',
  kGlobalStore = 'W',
};

struct AsmKernel {
  std::string name;
  int first_line = 0, last_line = 0;  // 1-based, the whole function
  int body_first = 0, body_last = 0;  // the part analysed: innermost hot loop or whole function
  bool loop = false;
  std::vector<AsmOp> ops;             // in program order
  // A software-pipelined loop (Triton, CUTLASS multistage): the global loads issued before the loop
  // (the prologue) and how many iterations ahead they run (prologue loads / loads per iteration,
  // rounded): stages - 1. Zero when the body is not a loop or nothing is loaded before it.
  int prologue_loads = 0;
  int prefetch_distance = 0;
};

struct OrderExtract {
  AsmFormat format;
  AsmKernel kernel;
  std::vector<std::string> kernels;  // every kernel in the file
  std::string pattern;               // e.g. "L0 L1 C0 C1"
  int steps = 0;
  std::string runs;                  // run-length view, e.g. "L64 C280"
  int count(AsmOp op) const;
};

// The lines of a listing (a name ending in .xz is decompressed); ConfigError when it cannot be read.
std::vector<std::string> read_asm_lines(const std::string& path);

// `format_name`: "auto" (by extension, then content), "ptx", "sass", "amdgcn", "llir".
// `kernel_filter`: a substring of the kernel's name ("" = the first kernel with global loads).
// `steps`: load/compute steps to fold into; 0 = auto (1 for a software-pipelined loop, else 2).
// Throws ConfigError for unreadable or unsupported input, or a kernel that is not there.
OrderExtract order_from_asm(const std::string& path, const std::string& format_name, const std::string& kernel_filter,
                            int steps);
// The same on a listing already read (`path` names it in messages and picks the format by extension).
OrderExtract order_from_asm(const std::vector<std::string>& lines, const std::string& path, const std::string& format_name,
                            const std::string& kernel_filter, int steps);

// Folds an op sequence into `steps` load/compute steps: global loads are cut into `steps` equal
// shares in program order, arithmetic likewise; Li is emitted at the first load of share i, Ci at
// the first arithmetic of share i - never before Li, unless `pipelined`: in a software-pipelined
// loop the loads prefetch later iterations (the GEMM's Li), so program order is kept as it is.
std::string fold_order(const std::vector<AsmOp>& ops, int steps, bool pipelined = false);

}  // namespace gms
