#pragma once
// What each SASS opcode of one architecture does in the timing model, read from a YAML table
// (configs/isa/sm_<cc>.yaml, each number with its source): its kind (ALU, global/shared/local
// memory, barrier, tensor, ...), the pipe it occupies, how many cycles the pipe stays busy per warp
// instruction (the issue interval) and the cycles until its result can be used (the dependent-issue
// latency). Memory kinds carry no latency: the memory model times them.
//
// Lookup is by the longest dot-separated prefix of the opcode: "HMMA.16816.F32" finds an entry
// "HMMA.16816" before "HMMA"; "LDG.E.128" finds "LDG". An opcode no entry covers is the caller's
// error to report (with the trace's file:line).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "config/config_tree.h"
#include "workload/program.h"

namespace gms {

enum class OpKind : std::uint8_t {
  kAlu,           // a result after a fixed latency on a pipe
  kTensor,        // tensor-core MMA: FLOPs on the tensor pipe
  kControl,       // branches, convergence, NOP: a pipe slot, no result
  kGlobalLoad,    // LDG
  kGlobalStore,   // STG
  kGlobalAtomic,  // ATOMG / ATOM: read-modify-write at L2, old value returned
  kGlobalReduce,  // RED: read-modify-write at L2, nothing returned
  kLocalLoad,     // LDL (per-thread local memory, cached in L1)
  kLocalStore,    // STL
  kGenericLoad,   // LD: shared or global, told by the address
  kGenericStore,  // ST
  kSharedLoad,    // LDS
  kSharedStore,   // STS
  kSharedAtomic,  // ATOMS: shared read-modify-write, old value returned
  kLdmatrix,      // LDSM
  kAsyncCopy,     // LDGSTS: global -> shared, completion tracked by the async-copy group
  kAsyncWait,     // LDGDEPBAR / DEPBAR: wait for the async copies
  kBarrier,       // BAR: CTA-wide barrier
  kExit,          // EXIT
  kSpecialRead,   // S2R: an MIO instruction without a data-path pass, its data after the class's latency
};
const char* op_kind_name(OpKind k);

struct OpClass {
  std::string name;  // the class's name in the table
  OpKind kind = OpKind::kAlu;
  Pipe pipe = Pipe::kAlu;
  std::uint32_t latency = 0;   // cycles from the pipe taking the instruction to its result
  std::uint32_t interval = 1;  // cycles the pipe is busy per warp instruction
  double flops_per_lane = 0;   // FLOP per active lane (FFMA: 2)
  // Tensor: FLOP per warp instruction; 0 = from the opcode's MxNxK shape (per warp: HGMMA's
  // warpgroup shape divided by its 4 warps).
  double flops_per_instruction = 0;
  bool bypass_l1 = false;      // global loads of this class skip L1 (.CG-like)
  // Control: cycles a taken branch keeps its warp from its next instruction (the fetch from the new address).
  std::uint32_t taken = 0;
};

class IsaTable {
 public:
  // Builds the table from a parsed document; every mistake is a ConfigError at its file:line:col.
  static IsaTable from_document(const ConfigNode& doc);
  static IsaTable load(const std::string& path);

  // The class of a full SASS opcode ("LDG.E.128"), or nullptr when no entry covers it.
  const OpClass* find(std::string_view opcode) const;
  const std::string& arch() const { return arch_; }
  int compute_capability() const { return compute_capability_; }
  const std::string& source() const { return source_; }

 private:
  std::string arch_;
  int compute_capability_ = 0;
  std::string source_;
  std::vector<OpClass> classes_;
  std::unordered_map<std::string, std::size_t> opcodes_;  // opcode prefix -> class index
};

// FLOP of one warp instruction of a tensor opcode whose shape is in its modifiers
// ("HMMA.16816" = m16n8k16, "HGMMA.64x128x16" = a warpgroup's 64x128x16 over 4 warps); 0 if none.
double tensor_flops_from_opcode(std::string_view opcode);

// The table shipped for a compute capability (configs/isa/sm_<cc>.yaml under the configs folder:
// $GPUMEMSIM_CONFIGS, else the source tree's or the installed one). Throws ConfigError if absent.
std::string isa_table_path(int compute_capability);

}  // namespace gms
