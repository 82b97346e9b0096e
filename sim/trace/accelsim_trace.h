#pragma once
// Accel-Sim's NVBit SASS traces (tracer versions 4 and 5): `kernelslist.g` names the commands
// (MemcpyHtoD lines) and the kernel trace files in order; each `kernel-N.traceg` has a `-key = value`
// header and then thread blocks (#BEGIN_TB ... #END_TB), each holding warps ("warp = W",
// "insts = N") and one line per warp instruction:
//   PC mask dest_num [dests] opcode src_num [srcs] mem_width [address_format addresses...] immediate
// mem_width 0 = no memory operand. Address formats (one address per active lane, in lane order):
//   0 = a list, 1 = base stride, 2 = base then one delta per further active lane.
// The reader streams: one thread block at a time, so a trace of gigabytes replays in bounded memory.
// Every malformed input is a ConfigError naming file:line; nothing is skipped silently.
#include <cstdint>
#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gms {

struct TraceRegister {
  enum class Kind : std::uint8_t { kR, kUR, kP, kUP } kind = Kind::kR;
  std::uint16_t index = 0;
  bool operator==(const TraceRegister&) const = default;
};

// SASS instructions of sm_70 and later are 16 bytes: a warp's next instruction at any other address followed a taken branch.
inline constexpr std::uint64_t kSassInstructionBytes = 16;

struct TraceInstr {
  std::uint64_t pc = 0;
  std::uint32_t mask = 0;  // active lanes
  std::vector<TraceRegister> dests, srcs;
  std::string opcode;      // full SASS opcode with modifiers, e.g. "LDG.E.128"
  std::uint32_t mem_width = 0;  // bytes per lane; 0 = no memory operand
  std::vector<std::uint64_t> addresses;  // one per active lane, in lane order (when mem_width > 0)
  std::int64_t immediate = 0;
  std::int64_t line = 0;  // where it was read (0: parsed from text); not part of equality
  bool operator==(const TraceInstr& o) const {
    return pc == o.pc && mask == o.mask && dests == o.dests && srcs == o.srcs && opcode == o.opcode &&
           mem_width == o.mem_width && addresses == o.addresses && immediate == o.immediate;
  }

  int active_lanes() const;
  std::string_view base_opcode() const;  // "LDG" of "LDG.E.128"
  bool has_modifier(std::string_view mod) const;  // "E", "128" of "LDG.E.128"
};

struct TraceWarp {
  int warp = 0;
  std::vector<TraceInstr> instrs;
};

struct TraceCta {
  int x = 0, y = 0, z = 0;
  std::vector<TraceWarp> warps;
};

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t count() const { return x * y * z; }
};

struct TraceKernelHeader {
  std::string name;
  int id = 0;
  Dim3 grid, block;
  std::int64_t shmem = 0;
  int nregs = 0;
  int binary_version = 0;  // compute capability x 10 (80 = sm_80, 90 = sm_90)
  int cuda_stream = 0;
  std::uint64_t shmem_base = 0, local_base = 0;
  std::string nvbit_version;
  int tracer_version = 0;
  bool lineinfo = false;
};

// The modifiers of a SASS opcode, in order: {"E", "128"} of "LDG.E.128".
std::vector<std::string_view> opcode_modifiers(std::string_view opcode);

// One instruction line (the text after an optional leading line number is not used: the traces
// hold none). `where` prefixes errors ("file:line").
TraceInstr parse_trace_instruction(std::string_view line, const std::string& where);
// The same with the location as file and line ("file:line" is built only for an error message).
TraceInstr parse_trace_instruction_at(std::string_view line, std::string_view file, std::int64_t line_number);
// The line an instruction parses from (address format chosen as Accel-Sim's tracer does: 1 when
// the lanes are equally spaced, else 2); parse_trace_instruction(format_trace_instruction(i)) == i.
std::string format_trace_instruction(const TraceInstr& in);

// Where a kernel's thread blocks come from: Accel-Sim text, or this project's binary trace.
class CtaSource {
 public:
  virtual ~CtaSource() = default;
  virtual const TraceKernelHeader& header() const = 0;
  // The next thread block, or false after the last.
  virtual bool next_cta(TraceCta& cta) = 0;
  virtual const std::string& name() const = 0;  // the file (or stream name) errors cite
};

// Streams one kernel trace file (plain, or xz-compressed when the name ends in .xz): the header at
// open, then thread blocks one at a time.
class TraceKernelReader final : public CtaSource {
 public:
  explicit TraceKernelReader(const std::string& path);
  // From any stream (tests, fuzzing); `name` is used in error messages.
  TraceKernelReader(std::unique_ptr<std::istream> in, const std::string& name);
  const TraceKernelHeader& header() const override { return header_; }
  bool next_cta(TraceCta& cta) override;
  std::int64_t line() const { return line_; }
  const std::string& name() const override { return name_; }

 private:
  bool getline(std::string& s);
  [[noreturn]] void fail(const std::string& why) const;
  void read_header();

  std::unique_ptr<std::istream> in_;
  std::string name_;
  std::int64_t line_ = 0;
  TraceKernelHeader header_;
  std::string pending_;  // a line read ahead
  bool has_pending_ = false;
};

struct TraceCommand {
  enum class Kind { kMemcpyHtoD, kKernel } kind = Kind::kKernel;
  std::uint64_t address = 0, bytes = 0;  // MemcpyHtoD
  std::string path;                      // kernel trace file (resolved against the list's folder; its .xz when only that exists)
};

// kernelslist.g (or a folder holding one): the commands in order.
std::vector<TraceCommand> read_kernels_list(const std::string& path);
// A kernelslist.g, its folder, or one kernel trace file (.traceg or .traceg.xz): the commands to run.
std::vector<TraceCommand> read_trace_commands(const std::string& path);

}  // namespace gms
