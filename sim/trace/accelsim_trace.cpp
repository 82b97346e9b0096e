#include "trace/accelsim_trace.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "common/error.h"
#include "common/text_file.h"

namespace gms {
namespace {

// Hostile-input caps: real SASS has at most a handful of operands per instruction.
constexpr std::uint64_t kMaxOperands = 32;

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

template <class T>
bool parse_int(std::string_view t, T& v, int base = 10) {
  if (base == 16 && t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty()) return false;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v, base);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

struct Cursor {
  const std::vector<std::string_view>& tok;
  std::string_view file;
  std::int64_t line = -1;  // < 0: `file` is the whole location
  size_t i = 0;

  // The location is only spelled out when there is an error (a trace has millions of lines).
  [[noreturn]] void fail(const std::string& why) const {
    throw ConfigError(std::string(file) + (line >= 0 ? ":" + std::to_string(line) : std::string()) + ": " + why);
  }
  std::string_view next(const char* what) {
    if (i >= tok.size()) fail(std::string("instruction line ends before its ") + what);
    return tok[i++];
  }
  template <class T>
  T number(const char* what, int base = 10) {
    std::string_view t = next(what);
    T v{};
    if (!parse_int(t, v, base)) fail(std::string("bad ") + what + " '" + std::string(t) + "'");
    return v;
  }
  TraceRegister reg() {
    std::string_view t = next("register");
    TraceRegister r;
    size_t skip = 1;
    if (t.rfind("UR", 0) == 0) r.kind = TraceRegister::Kind::kUR, skip = 2;
    else if (t.rfind("UP", 0) == 0) r.kind = TraceRegister::Kind::kUP, skip = 2;
    else if (t.rfind("R", 0) == 0) r.kind = TraceRegister::Kind::kR;
    else if (t.rfind("P", 0) == 0) r.kind = TraceRegister::Kind::kP;
    else fail("bad register '" + std::string(t) + "' (R<n>, UR<n>, P<n> or UP<n>)");
    if (!parse_int(t.substr(skip), r.index)) fail("bad register '" + std::string(t) + "'");
    return r;
  }
};

const char* reg_prefix(TraceRegister::Kind k) {
  switch (k) {
    case TraceRegister::Kind::kUR: return "UR";
    case TraceRegister::Kind::kP: return "P";
    case TraceRegister::Kind::kUP: return "UP";
    default: return "R";
  }
}

bool parse_dim3(std::string_view v, Dim3& d) {
  v = trim(v);
  if (v.size() < 2 || v.front() != '(' || v.back() != ')') return false;
  v = v.substr(1, v.size() - 2);
  std::int64_t xyz[3];
  for (int k = 0; k < 3; ++k) {
    size_t comma = v.find(',');
    std::string_view part = trim(k < 2 ? v.substr(0, comma) : v);
    if ((k < 2 && comma == std::string_view::npos) || !parse_int(part, xyz[k]) || xyz[k] < 1 || xyz[k] > (1ll << 31))
      return false;
    if (k < 2) v.remove_prefix(comma + 1);
  }
  d = Dim3{xyz[0], xyz[1], xyz[2]};
  return true;
}

}  // namespace

int TraceInstr::active_lanes() const { return std::popcount(mask); }

std::string_view TraceInstr::base_opcode() const {
  std::string_view o = opcode;
  return o.substr(0, o.find('.'));
}

std::vector<std::string_view> opcode_modifiers(std::string_view opcode) {
  std::vector<std::string_view> mods;
  for (std::size_t dot = opcode.find('.'); dot != std::string_view::npos;) {
    std::size_t next = opcode.find('.', dot + 1);
    mods.push_back(opcode.substr(dot + 1, next == std::string_view::npos ? std::string_view::npos : next - dot - 1));
    dot = next;
  }
  return mods;
}

bool TraceInstr::has_modifier(std::string_view mod) const {
  for (std::string_view m : opcode_modifiers(opcode))
    if (m == mod) return true;
  return false;
}

TraceInstr parse_trace_instruction(std::string_view line, const std::string& where) {
  return parse_trace_instruction_at(line, where, -1);
}

TraceInstr parse_trace_instruction_at(std::string_view line, std::string_view file, std::int64_t line_number) {
  auto tok = split_ws(line);
  Cursor c{tok, file, line_number};
  TraceInstr in;
  in.pc = c.number<std::uint64_t>("PC", 16);
  in.mask = c.number<std::uint32_t>("active mask", 16);
  auto ndst = c.number<std::uint64_t>("destination count");
  if (ndst > kMaxOperands) c.fail("destination count " + std::to_string(ndst) + " exceeds " + std::to_string(kMaxOperands));
  for (std::uint64_t k = 0; k < ndst; ++k) in.dests.push_back(c.reg());
  in.opcode = std::string(c.next("opcode"));
  if (!(in.opcode[0] >= 'A' && in.opcode[0] <= 'Z')) c.fail("bad opcode '" + in.opcode + "'");
  auto nsrc = c.number<std::uint64_t>("source count");
  if (nsrc > kMaxOperands) c.fail("source count " + std::to_string(nsrc) + " exceeds " + std::to_string(kMaxOperands));
  for (std::uint64_t k = 0; k < nsrc; ++k) in.srcs.push_back(c.reg());
  in.mem_width = c.number<std::uint32_t>("memory width");
  if (in.mem_width > 1024) c.fail("memory width " + std::to_string(in.mem_width) + " bytes per lane is not a SASS access");
  if (in.mem_width > 0) {
    const int lanes = in.active_lanes();
    const int format = c.number<int>("address format");
    if (format == 0) {
      for (int l = 0; l < lanes; ++l) in.addresses.push_back(c.number<std::uint64_t>("address", 16));
    } else if (format == 1 || format == 2) {
      std::uint64_t a = c.number<std::uint64_t>("base address", 16);
      if (format == 1) {
        auto stride = c.number<std::int64_t>("stride");
        for (int l = 0; l < lanes; ++l) in.addresses.push_back(a + static_cast<std::uint64_t>(stride) * static_cast<std::uint64_t>(l));
      } else {
        if (lanes > 0) in.addresses.push_back(a);
        for (int l = 1; l < lanes; ++l) {
          a += static_cast<std::uint64_t>(c.number<std::int64_t>("address delta"));
          in.addresses.push_back(a);
        }
      }
    } else {
      c.fail("address format " + std::to_string(format) + " (0 list, 1 base+stride, 2 base+deltas)");
    }
  }
  if (c.i < tok.size()) in.immediate = c.number<std::int64_t>("immediate");  // version 5 adds it
  if (c.i < tok.size())
    c.fail("unexpected '" + std::string(tok[c.i]) + "' after the instruction (" + std::to_string(tok.size() - c.i) +
           " extra fields: does the address count match the active mask?)");
  return in;
}

std::string format_trace_instruction(const TraceInstr& in) {
  std::ostringstream os;
  os << std::hex << std::setfill('0');
  os.width(4);
  os << in.pc << ' ';
  os.width(8);
  os << in.mask << std::dec << ' ' << in.dests.size();
  for (const auto& r : in.dests) os << ' ' << reg_prefix(r.kind) << r.index;
  os << ' ' << in.opcode << ' ' << in.srcs.size();
  for (const auto& r : in.srcs) os << ' ' << reg_prefix(r.kind) << r.index;
  os << ' ' << in.mem_width;
  if (in.mem_width > 0) {
    const auto& a = in.addresses;
    bool strided = a.size() >= 2;
    for (size_t l = 2; strided && l < a.size(); ++l) strided = a[l] - a[l - 1] == a[1] - a[0];
    if (a.empty()) {
      os << " 0";
    } else if (strided || a.size() == 1) {
      os << " 1 0x" << std::hex << a[0] << std::dec << ' '
         << (a.size() >= 2 ? static_cast<std::int64_t>(a[1] - a[0]) : 0);
    } else {
      os << " 2 0x" << std::hex << a[0] << std::dec;
      for (size_t l = 1; l < a.size(); ++l) os << ' ' << static_cast<std::int64_t>(a[l] - a[l - 1]);
    }
  }
  os << ' ' << in.immediate;
  return os.str();
}

TraceKernelReader::TraceKernelReader(const std::string& path) : in_(open_text_file(path, "the kernel trace")), name_(path) {
  read_header();
}

TraceKernelReader::TraceKernelReader(std::unique_ptr<std::istream> in, const std::string& name)
    : in_(std::move(in)), name_(name) {
  read_header();
}

bool TraceKernelReader::getline(std::string& s) {
  if (has_pending_) {
    s = std::move(pending_);
    has_pending_ = false;
    return true;
  }
  if (!std::getline(*in_, s)) return false;
  ++line_;
  return true;
}

void TraceKernelReader::fail(const std::string& why) const {
  throw ConfigError(name_ + ":" + std::to_string(line_) + ": " + why);
}

void TraceKernelReader::read_header() {
  std::string s;
  bool saw_name = false, saw_version = false;
  while (getline(s)) {
    std::string_view t = trim(s);
    if (t.empty()) continue;
    if (t[0] == '#') {
      if (t.rfind("#BEGIN_TB", 0) == 0) {
        pending_ = s;
        has_pending_ = true;
        break;
      }
      continue;  // "#traces format = ..." and other comments
    }
    if (t[0] != '-') fail("expected a '-key = value' header line or #BEGIN_TB, got '" + std::string(t.substr(0, 40)) + "'");
    size_t eq = t.find('=');
    if (eq == std::string_view::npos) fail("header line without '='");
    std::string key(trim(t.substr(1, eq - 1)));
    std::string_view v = trim(t.substr(eq + 1));
    auto num = [&](auto& out, int base = 10) {
      if (!parse_int(v, out, base)) fail("bad value '" + std::string(v) + "' for -" + key);
    };
    TraceKernelHeader& h = header_;
    if (key == "kernel name") h.name = std::string(v), saw_name = true;
    else if (key == "kernel id") num(h.id);
    else if (key == "grid dim") { if (!parse_dim3(v, h.grid)) fail("bad -grid dim '" + std::string(v) + "'"); }
    else if (key == "block dim") { if (!parse_dim3(v, h.block)) fail("bad -block dim '" + std::string(v) + "'"); }
    else if (key == "shmem") num(h.shmem);
    else if (key == "nregs") num(h.nregs);
    else if (key == "binary version") num(h.binary_version);
    else if (key == "cuda stream id") num(h.cuda_stream);
    else if (key == "shmem base_addr") num(h.shmem_base, 16);
    else if (key == "local mem base_addr") num(h.local_base, 16);
    else if (key == "nvbit version") h.nvbit_version = std::string(v);
    else if (key == "accelsim tracer version") num(h.tracer_version), saw_version = true;
    else if (key == "enable lineinfo") { int b = 0; num(b); h.lineinfo = b != 0; }
    else fail("unknown header key '-" + key + "'");
  }
  if (!saw_name) fail("no '-kernel name' in the header: not an Accel-Sim kernel trace");
  if (!saw_version) fail("no '-accelsim tracer version' in the header");
  if (header_.tracer_version < 4 || header_.tracer_version > 5)
    fail("accelsim tracer version " + std::to_string(header_.tracer_version) + " is not supported (4 and 5 are)");
  if (header_.block.count() > 1024) fail("block of " + std::to_string(header_.block.count()) + " threads (at most 1024)");
}

bool TraceKernelReader::next_cta(TraceCta& cta) {
  std::string s;
  cta = TraceCta{};
  // Find #BEGIN_TB.
  while (true) {
    if (!getline(s)) return false;
    std::string_view t = trim(s);
    if (t.empty()) continue;
    if (t == "#BEGIN_TB") break;
    fail("expected #BEGIN_TB, got '" + std::string(t.substr(0, 40)) + "'");
  }
  const std::int64_t max_warps = (header_.block.count() + 31) / 32;
  bool have_block = false;
  TraceWarp* warp = nullptr;
  std::int64_t expected = -1;
  auto close_warp = [&] {
    if (warp && static_cast<std::int64_t>(warp->instrs.size()) != expected)
      fail("warp " + std::to_string(warp->warp) + " announced insts = " + std::to_string(expected) + " but holds " +
           std::to_string(warp->instrs.size()));
  };
  while (getline(s)) {
    std::string_view t = trim(s);
    if (t.empty()) continue;
    if (t == "#END_TB") {
      close_warp();
      if (!have_block) fail("#END_TB without 'thread block = x,y,z'");
      return true;
    }
    if (t.rfind("thread block", 0) == 0) {
      size_t eq = t.find('=');
      std::int64_t xyz[3] = {-1, -1, -1};
      std::string_view v = eq == std::string_view::npos ? std::string_view() : trim(t.substr(eq + 1));
      for (int k = 0; k < 3; ++k) {
        size_t comma = v.find(',');
        if ((k < 2) != (comma != std::string_view::npos) || !parse_int(trim(v.substr(0, comma)), xyz[k]) || xyz[k] < 0)
          fail("bad 'thread block' line (expected 'thread block = x,y,z')");
        if (k < 2) v.remove_prefix(comma + 1);
      }
      if (xyz[0] >= header_.grid.x || xyz[1] >= header_.grid.y || xyz[2] >= header_.grid.z)
        fail("thread block " + std::to_string(xyz[0]) + "," + std::to_string(xyz[1]) + "," + std::to_string(xyz[2]) +
             " is outside the grid");
      cta.x = static_cast<int>(xyz[0]), cta.y = static_cast<int>(xyz[1]), cta.z = static_cast<int>(xyz[2]);
      have_block = true;
      continue;
    }
    if (t.rfind("warp", 0) == 0 && t.find('=') != std::string_view::npos) {
      close_warp();
      int w = -1;
      if (!parse_int(trim(t.substr(t.find('=') + 1)), w) || w < 0 || w >= max_warps)
        fail("bad warp id (the block has " + std::to_string(max_warps) + " warps)");
      cta.warps.push_back(TraceWarp{w, {}});
      warp = &cta.warps.back();
      expected = -1;
      continue;
    }
    if (t.rfind("insts", 0) == 0 && t.find('=') != std::string_view::npos) {
      if (!warp || expected >= 0) fail("'insts =' outside a warp");
      if (!parse_int(trim(t.substr(t.find('=') + 1)), expected) || expected < 0) fail("bad instruction count");
      continue;
    }
    if (t[0] == '#') fail("unexpected '" + std::string(t.substr(0, 40)) + "' inside a thread block");
    if (!warp || expected < 0) fail("instruction before 'warp =' and 'insts ='");
    if (static_cast<std::int64_t>(warp->instrs.size()) >= expected)
      fail("warp " + std::to_string(warp->warp) + " holds more than its insts = " + std::to_string(expected));
    warp->instrs.push_back(parse_trace_instruction_at(t, name_, line_));
    warp->instrs.back().line = line_;
  }
  fail("the file ends inside a thread block (no #END_TB): truncated trace?");
}

std::vector<TraceCommand> read_kernels_list(const std::string& path_in) {
  namespace fs = std::filesystem;
  fs::path path(path_in);
  if (fs::is_directory(path)) path /= "kernelslist.g";
  std::ifstream f(path);
  if (!f) throw ConfigError(path.string() + ": cannot open (a kernelslist.g or the folder holding one)");
  std::vector<TraceCommand> out;
  std::string s;
  int line = 0;
  while (std::getline(f, s)) {
    ++line;
    std::string_view t = trim(s);
    if (t.empty() || t[0] == '#') continue;
    const std::string where = path.string() + ":" + std::to_string(line);
    if (t.rfind("Memcpy", 0) == 0) {
      auto c1 = t.find(','), c2 = t.rfind(',');
      TraceCommand c;
      c.kind = TraceCommand::Kind::kMemcpyHtoD;
      if (t.substr(0, c1) != "MemcpyHtoD" || c1 == c2 || !parse_int(trim(t.substr(c1 + 1, c2 - c1 - 1)), c.address, 16) ||
          !parse_int(trim(t.substr(c2 + 1)), c.bytes))
        throw ConfigError(where + ": expected 'MemcpyHtoD,<hex address>,<bytes>'");
      out.push_back(c);
      continue;
    }
    if (t.find(".traceg") == std::string_view::npos)
      throw ConfigError(where + ": '" + std::string(t) + "' is neither a MemcpyHtoD command nor a .traceg kernel file");
    TraceCommand c;
    c.kind = TraceCommand::Kind::kKernel;
    c.path = existing_or_xz((path.parent_path() / std::string(t)).string());  // or its .xz
    out.push_back(c);
  }
  return out;
}

std::vector<TraceCommand> read_trace_commands(const std::string& path) {
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

}  // namespace gms
