#pragma once
// How fast a warp can issue its own instructions, read from the compiler's control codes. Since
// Volta every SASS instruction carries a stall count (cycles until the same warp may issue again:
// the fixed latency the compiler scheduled for), a yield hint and scoreboard indices; cuobjdump -sass
// prints them in the second 64-bit word of each instruction. Over a kernel's hot loop the sum of the
// stall counts is the warp's issue floor per iteration - what Nsight Compute calls `selected` plus
// `wait` (fixed-latency dependencies) - before any memory, barrier or pipe waits.
//
// Which instructions an iteration executes depends on branches the listing cannot resolve (guarded
// copies, edge tiles), so each instruction counts once unless an Nsight Compute source export
// (`ncu --page source --csv --print-source sass`) gives its executed count.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gms {

// One instruction of a listing with its control word decoded.
struct SassInstruction {
  int line = 0;                 // 1-based line of the instruction in the listing
  std::uint32_t offset = 0;     // the /*0a30*/ address
  std::string opcode;           // "HMMA.16816.F32" (predicate dropped)
  std::string operands;         // "R4, R8.reuse, R12, R4" (what follows the opcode, no ';')
  int stall = 0;                // 0..15 cycles before the warp's next instruction
  bool yield = false;
  int write_barrier = 7;        // scoreboard the result sets (7: none)
  int read_barrier = 7;
  int wait_mask = 0;            // scoreboards waited on before issue
};

// The instructions on lines [first, last] (1-based, inclusive) of a cuobjdump -sass listing; each
// instruction line must be followed by the line of its second 64-bit word. Throws ConfigError naming
// `file:line` on an instruction without it or with a malformed word.
std::vector<SassInstruction> parse_sass_instructions(const std::vector<std::string>& lines, int first, int last,
                                                     const std::string& file);

// Executed counts per instruction of one kernel from an ncu source export (CSV text): the section
// whose instructions have the same opcodes, in order, as `function` (the whole function's listing).
// Throws ConfigError when no section matches or a count is not a number.
std::vector<double> executed_counts(const std::string& csv_text, const std::vector<SassInstruction>& function,
                                    const std::string& file);

// The same section's warp-state samples, when the export has them (a profile with the WarpStateStats
// and SourceCounters sections): per instruction, the samples that found its warp selected, waiting
// on a fixed latency, dispatch-stalled or resolving a branch, in this order.
enum SampleReason : int { kSampledSelected, kSampledWait, kSampledDispatch, kSampledBranch, kSampleReasons };
extern const char* const kSampleColumns[kSampleReasons];  // the export's column names, in that order
struct ExecutedProfile {
  std::vector<double> executed;
  std::array<std::vector<double>, kSampleReasons> samples;  // empty without sample columns
};
// `nth` (1-based): which of the sections listing the same instructions (an export of several launches
// of one kernel, e.g. at two occupancies, validate/results/h100/cta_occupancy).
ExecutedProfile executed_profile(const std::string& csv_text, const std::vector<SassInstruction>& function,
                                 const std::string& file, int nth = 1);

// Instruction classes the timing model issues separately.
enum class IssueClass : int { kMma, kLdsm, kSharedLoad, kSharedStore, kAsyncCopy, kGlobal, kBarrier, kOther, kCount };
const char* issue_class_name(IssueClass c);
IssueClass classify_issue(const std::string& opcode);

struct IssueProfile {
  std::string kernel;
  int body_first = 0, body_last = 0;  // 1-based lines of the loop (or whole function) analysed
  bool loop = false;
  bool executed = false;              // counts weighted by an ncu source export
  double iterations = 0;              // per-warp loop iterations summed over warps (executed only)
  double instructions[static_cast<int>(IssueClass::kCount)] = {};  // per iteration
  double stall_cycles[static_cast<int>(IssueClass::kCount)] = {};
  // From the export's samples (executed only): the loop's warp cycles per iteration that Nsight
  // counted as selected, wait, dispatch_stall and branch_resolving (kSampleColumns' order).
  bool sampled = false;
  double sampled_cycles[kSampleReasons] = {};
  // The same per instruction class (which instructions the selected and waiting cycles sit on: the
  // HMMAs of a loop wait at the tensor pipe's pace, its integer instructions far less; docs/sm-sharing.md).
  double sampled_by_class[static_cast<int>(IssueClass::kCount)][kSampleReasons] = {};
  // The loop's own wait on shared reads (shared_read_exposure.h), over the instructions of the path
  // the warps take (executed at least every other iteration; all of them without an export).
  double shared_exposed_reads = 0, shared_hidden_cycles = 0;
  // The same for special-register reads (S2R, S2UR) the loop re-reads every iteration.
  double special_exposed_reads = 0, special_hidden_cycles = 0;
  // Issue cycles per iteration lost to register-bank conflicts (register_banks.h), each
  // instruction's weighted by its executed count.
  double bank_conflict_cycles = 0;
  double total_instructions() const;
  double total_stall_cycles() const;
};

// The issue profile of the hot loop that order-from-asm finds in `sass_path` (kernel: a name
// substring, "" = the first with global loads); `executed_csv` ("" = none) weights each instruction
// by its executed count per iteration (the loop's closing branch counts the iterations).
IssueProfile sass_issue_profile(const std::string& sass_path, const std::string& kernel, const std::string& executed_csv,
                                int section = 1);

}  // namespace gms
