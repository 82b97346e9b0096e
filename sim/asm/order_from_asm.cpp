#include "asm/order_from_asm.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/text_file.h"

namespace gms {
namespace {

struct Line {
  std::optional<AsmOp> op;
  std::string label;                 // a branch target defined on this line
  std::vector<std::string> targets;  // branch targets named on this line
};

struct Function {
  std::string name;
  int first = 0, last = 0;  // 0-based, inclusive
};

bool has(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }

std::optional<AsmOp> classify_ptx(const std::string& op) {
  if (op.rfind("ld.global", 0) == 0 || op.rfind("ldu.global", 0) == 0 ||
      (op.rfind("cp.async", 0) == 0 && !has(op, "commit") && !has(op, "wait")))
    return AsmOp::kGlobalLoad;
  if (op.rfind("ld.shared", 0) == 0 || op.rfind("st.shared", 0) == 0 || op.rfind("ldmatrix", 0) == 0)
    return AsmOp::kShared;
  if (op.rfind("ld.local", 0) == 0 || op.rfind("st.local", 0) == 0) return AsmOp::kLocal;
  if (op.rfind("st.global", 0) == 0) return AsmOp::kGlobalStore;
  if (op.rfind("atom.", 0) == 0 || op.rfind("red.", 0) == 0) return AsmOp::kAtomic;
  if (op.rfind("mma", 0) == 0 || op.rfind("wmma.mma", 0) == 0 || op.rfind("wgmma.mma", 0) == 0)
    return AsmOp::kCompute;
  static const char* math[] = {"fma.", "mul.", "add.", "sub.", "mad."};
  bool fp = has(op, ".f32") || has(op, ".f16") || has(op, ".bf16") || has(op, ".f64");
  for (const char* m : math)
    if (op.rfind(m, 0) == 0 && fp) return AsmOp::kCompute;
  return std::nullopt;
}

std::optional<AsmOp> classify_sass(const std::string& op) {
  auto starts = [&](const char* p) { return op.rfind(p, 0) == 0; };
  if (starts("LDGSTS") || starts("LDG") || starts("UTMALDG")) return AsmOp::kGlobalLoad;
  if (starts("LDSM") || starts("LDS") || starts("STS")) return AsmOp::kShared;
  if (starts("LDL") || starts("STL")) return AsmOp::kLocal;
  if (starts("STG")) return AsmOp::kGlobalStore;
  if (starts("RED") || starts("ATOM")) return AsmOp::kAtomic;
  static const char* math[] = {"FFMA", "FMUL", "FADD", "HFMA2", "HMUL2", "HADD2", "HMMA", "HGMMA", "DFMA", "DMUL",
                               "DADD", "QGMMA"};
  for (const char* m : math)
    if (starts(m)) return AsmOp::kCompute;
  return std::nullopt;
}

std::optional<AsmOp> classify_amdgcn(const std::string& op) {
  auto starts = [&](const char* p) { return op.rfind(p, 0) == 0; };
  if (starts("global_load") || starts("flat_load")) return AsmOp::kGlobalLoad;
  if (starts("global_atomic") || starts("flat_atomic") || starts("buffer_atomic")) return AsmOp::kAtomic;
  if (starts("global_store") || starts("flat_store")) return AsmOp::kGlobalStore;
  if (starts("ds_")) return AsmOp::kShared;
  // gfx9 spills through scratch buffer instructions (or scratch_* on gfx9.x with flat scratch).
  if (starts("buffer_load") || starts("buffer_store") || starts("scratch_")) return AsmOp::kLocal;
  static const char* math[] = {"v_fma_f", "v_fmac_f", "v_mac_f", "v_mad_f", "v_mul_f", "v_add_f", "v_sub_f",
                               "v_pk_fma", "v_pk_mul_f", "v_pk_add_f", "v_dot", "v_mfma", "v_fma_mix"};
  for (const char* m : math)
    if (starts(m)) return AsmOp::kCompute;
  return std::nullopt;
}

std::optional<AsmOp> classify_llir(const std::string& s) {
  if (has(s, " asm ") || has(s, "asm sideeffect")) {
    if (has(s, "ld.global")) return AsmOp::kGlobalLoad;
    if (has(s, "st.global")) return AsmOp::kGlobalStore;
    if (has(s, "atom.") || has(s, "red.")) return AsmOp::kAtomic;
    if (has(s, "ld.shared") || has(s, "st.shared")) return AsmOp::kShared;
    return std::nullopt;
  }
  if (has(s, "atomicrmw") || has(s, "cmpxchg")) return AsmOp::kAtomic;
  bool load = has(s, "= load ");
  bool store = s.find("store ") != std::string::npos && s.find_first_not_of(" \t") == s.find("store ");
  if (load || store) {
    if (has(s, "addrspace(3)")) return AsmOp::kShared;
    if (has(s, "addrspace(5)")) return AsmOp::kLocal;
    return load ? AsmOp::kGlobalLoad : AsmOp::kGlobalStore;
  }
  if (has(s, "= fmul ") || has(s, "= fadd ") || has(s, "= fsub ") || has(s, "@llvm.fma.") || has(s, "@llvm.fmuladd."))
    return AsmOp::kCompute;
  return std::nullopt;
}

AsmFormat detect(const std::string& path, const std::vector<std::string>& lines, const std::string& name) {
  if (name == "ptx") return AsmFormat::kPtx;
  if (name == "sass") return AsmFormat::kSass;
  if (name == "amdgcn") return AsmFormat::kAmdgcn;
  if (name == "llir") return AsmFormat::kLlvmIr;
  if (name != "auto") throw ConfigError("--format " + name + ": expected auto, ptx, sass, amdgcn or llir");
  const std::string stem = path.size() > 3 && path.compare(path.size() - 3, 3, ".xz") == 0 ? path.substr(0, path.size() - 3) : path;
  auto ends = [&](const char* e) {
    std::string s(e);
    return stem.size() >= s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0;
  };
  if (ends(".ptx")) return AsmFormat::kPtx;
  if (ends(".sass")) return AsmFormat::kSass;
  if (ends(".amdgcn")) return AsmFormat::kAmdgcn;
  if (ends(".llir") || ends(".ll")) return AsmFormat::kLlvmIr;
  for (const auto& l : lines) {
    if (has(l, ".entry ") || has(l, ".version ")) return AsmFormat::kPtx;
    if (has(l, "Function : ")) return AsmFormat::kSass;
    if (has(l, "s_endpgm") || has(l, ".amdgcn_target")) return AsmFormat::kAmdgcn;
    if (l.rfind("define ", 0) == 0) return AsmFormat::kLlvmIr;
  }
  throw ConfigError(path + ": not PTX, SASS (cuobjdump -sass), AMDGCN assembly or LLVM IR (give --format to force one)");
}

std::vector<Function> find_functions(AsmFormat f, const std::vector<std::string>& lines) {
  std::vector<Function> out;
  static const std::regex ptx_entry(R"(\.(entry|func)\s+(\([^)]*\)\s*)?([A-Za-z_$][\w$]*))");
  static const std::regex sass_fn(R"(Function : (\S+))");
  static const std::regex gcn_fn(R"(^([A-Za-z_][\w.$]*):)");
  static const std::regex llir_fn(R"re(^define .*@"?([\w.$]+)"?\()re");
  std::smatch m;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    const std::string& l = lines[i];
    if (f == AsmFormat::kPtx && std::regex_search(l, m, ptx_entry)) {
      int j = i;
      while (j < static_cast<int>(lines.size()) && lines[j] != "}") ++j;
      out.push_back({m[3], i, std::min(j, static_cast<int>(lines.size()) - 1)});
      i = j;
    } else if (f == AsmFormat::kSass && std::regex_search(l, m, sass_fn)) {
      if (!out.empty()) out.back().last = i - 1;
      out.push_back({m[1], i, static_cast<int>(lines.size()) - 1});
    } else if (f == AsmFormat::kAmdgcn && std::regex_search(l, m, gcn_fn) && l[0] != '.' &&
               i + 1 < static_cast<int>(lines.size()) && has(lines[i + 1], "%bb.0")) {
      int j = i;
      while (j < static_cast<int>(lines.size()) && !has(lines[j], ".Lfunc_end")) ++j;
      out.push_back({m[1], i, std::min(j, static_cast<int>(lines.size()) - 1)});
      i = j;
    } else if (f == AsmFormat::kLlvmIr && std::regex_search(l, m, llir_fn)) {
      int j = i;
      while (j < static_cast<int>(lines.size()) && lines[j] != "}") ++j;
      out.push_back({m[1], i, std::min(j, static_cast<int>(lines.size()) - 1)});
      i = j;
    }
  }
  return out;
}

Line parse_line(AsmFormat f, const std::string& l) {
  Line out;
  std::smatch m;
  switch (f) {
    case AsmFormat::kPtx: {
      static const std::regex label(R"(^\s*([$\w]+):)"), bra(R"(\bbra(\.uni)?\s+([$\w]+)\s*;)"),
          op(R"(^\s*(@!?%\w+\s+)?([a-z][\w.]*))");
      if (std::regex_search(l, m, label)) out.label = m[1];
      if (std::regex_search(l, m, bra)) out.targets.push_back(m[2]);
      std::string t = l.substr(0, l.find("//"));
      if (std::regex_search(t, m, op) && t.find_first_not_of(" \t") != std::string::npos && t[t.find_first_not_of(" \t")] != '.')
        out.op = classify_ptx(m[2]);
      break;
    }
    case AsmFormat::kSass: {
      static const std::regex ins(R"(/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*))"),
          bra(R"(\b(BRA|BRX)\b[^;]*0x([0-9a-f]+))");
      if (std::regex_search(l, m, ins)) {
        out.label = "0x" + std::string(m[1]).erase(0, std::string(m[1]).find_first_not_of('0'));
        if (out.label == "0x") out.label = "0x0";
        out.op = classify_sass(m[3]);
        std::smatch b;
        if (std::regex_search(l, b, bra)) {
          std::string t = std::string(b[2]).erase(0, std::string(b[2]).find_first_not_of('0'));
          out.targets.push_back("0x" + (t.empty() ? std::string("0") : t));
        }
      }
      break;
    }
    case AsmFormat::kAmdgcn: {
      static const std::regex label(R"(^(\.LBB\w+):)"), bra(R"(^\s+s_(c?branch\w*)\s+(\.LBB\w+))"),
          op(R"(^\s+([a-z_][a-z0-9_]*))");
      if (std::regex_search(l, m, label)) out.label = m[1];
      if (std::regex_search(l, m, bra)) out.targets.push_back(m[2]);
      if (std::regex_search(l, m, op)) out.op = classify_amdgcn(m[1]);
      break;
    }
    case AsmFormat::kLlvmIr: {
      static const std::regex label(R"(^([\w.]+):)"), target(R"(label %([\w.]+))");
      if (std::regex_search(l, m, label)) out.label = m[1];
      if (l.find_first_not_of(" \t") != std::string::npos && l.compare(l.find_first_not_of(" \t"), 3, "br ") == 0)
        for (std::sregex_iterator it(l.begin(), l.end(), target), end; it != end; ++it) out.targets.push_back((*it)[1]);
      out.op = classify_llir(l);
      break;
    }
  }
  return out;
}

// Tracks pointers derived from allocas (through addrspacecast, getelementptr, bitcast, phi or select)
// and turns loads and stores through them into local-memory traffic: unoptimised or generic-pointer
// IR reaches private arrays through plain `ptr` values.
void reclassify_private(const std::string& l, std::set<std::string>& priv, Line& line) {
  static const std::regex def(R"re(^\s*(%[\w.]+) = (alloca|addrspacecast|getelementptr|bitcast|phi|select)\b(.*))re"),
      use(R"re((%[\w.]+))re"), load_ptr(R"re(= load [^,]+, ptr(?: addrspace\(\d+\))? (%[\w.]+))re"),
      store_ptr(R"re(^\s*store [^,]+, ptr(?: addrspace\(\d+\))? (%[\w.]+))re");
  std::smatch m;
  if (std::regex_search(l, m, def)) {
    if (m[2] == "alloca") {
      priv.insert(m[1]);
    } else {
      std::string rest = m[3];
      for (std::sregex_iterator it(rest.begin(), rest.end(), use), end; it != end; ++it)
        if (priv.count((*it)[1])) {
          priv.insert(m[1]);
          break;
        }
    }
  }
  if ((std::regex_search(l, m, load_ptr) || std::regex_search(l, m, store_ptr)) && priv.count(m[1]))
    line.op = AsmOp::kLocal;
}

}  // namespace

std::vector<std::string> read_asm_lines(const std::string& path) {
  if (!std::ifstream(path)) throw ConfigError(path + ": cannot open file");
  auto in = open_text_file(path);  // .xz listings decompress on the fly
  std::vector<std::string> lines;
  for (std::string l; std::getline(*in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
  }
  return lines;
}

const char* asm_format_name(AsmFormat f) {
  switch (f) {
    case AsmFormat::kPtx: return "PTX";
    case AsmFormat::kSass: return "SASS";
    case AsmFormat::kAmdgcn: return "AMDGCN";
    case AsmFormat::kLlvmIr: return "LLVM IR";
  }
  return "?";
}

int OrderExtract::count(AsmOp op) const {
  return static_cast<int>(std::count(kernel.ops.begin(), kernel.ops.end(), op));
}

std::string fold_order(const std::vector<AsmOp>& ops, int steps, bool pipelined) {
  const long n_load = std::count(ops.begin(), ops.end(), AsmOp::kGlobalLoad);
  const long n_math = std::count(ops.begin(), ops.end(), AsmOp::kCompute);
  std::vector<bool> loaded(steps, false), computed(steps, false);
  std::string out;
  auto emit = [&](char kind, int s) { out += (out.empty() ? "" : " ") + std::string(1, kind) + std::to_string(s); };
  long li = 0, ci = 0;
  for (AsmOp op : ops) {
    if (op == AsmOp::kGlobalLoad) {
      int s = static_cast<int>(li++ * steps / std::max(1L, n_load));
      if (!loaded[s]) loaded[s] = true, emit('L', s);
    } else if (op == AsmOp::kCompute) {
      int s = static_cast<int>(ci++ * steps / std::max(1L, n_math));
      for (int k = 0; k <= s && !pipelined; ++k)  // data must be there before it is used
        if (!loaded[k]) loaded[k] = true, emit('L', k);
      if (!computed[s]) computed[s] = true, emit('C', s);
    }
  }
  for (int s = 0; s < steps; ++s) {
    if (!loaded[s] && !pipelined) emit('L', s);
    if (!computed[s]) emit('C', s);
    if (!loaded[s] && pipelined) emit('L', s);
  }
  return out;
}

OrderExtract order_from_asm(const std::string& path, const std::string& format_name, const std::string& filter,
                            int steps) {
  return order_from_asm(read_asm_lines(path), path, format_name, filter, steps);
}

OrderExtract order_from_asm(const std::vector<std::string>& lines, const std::string& path, const std::string& format_name,
                            const std::string& filter, int steps) {
  if (steps < 0 || steps > 64) throw ConfigError("--steps " + std::to_string(steps) + ": expected 1 to 64 (0 = auto)");
  OrderExtract x;
  x.format = detect(path, lines, format_name);
  auto functions = find_functions(x.format, lines);
  if (functions.empty()) throw ConfigError(path + ": no kernel found in this " + std::string(asm_format_name(x.format)));
  for (const auto& f : functions) x.kernels.push_back(f.name);
  std::optional<AsmKernel> chosen;
  for (const auto& f : functions) {
    if (!filter.empty() && f.name.find(filter) == std::string::npos) continue;
    std::vector<Line> parsed;
    std::map<std::string, int> label_at;
    std::set<std::string> private_ptrs;  // LLVM IR: values derived from an alloca (thread-private memory)
    for (int i = f.first; i <= f.last; ++i) {
      parsed.push_back(parse_line(x.format, lines[i]));
      if (!parsed.back().label.empty()) label_at.emplace(parsed.back().label, i - f.first);
      if (x.format == AsmFormat::kLlvmIr) reclassify_private(lines[i], private_ptrs, parsed.back());
    }
    // Loops: backward branches. The hot loop holds most of the math and loads of its own; a
    // software-pipelined loop holds only 1/stages of the loads (the prologue issues the rest once),
    // so loads are not required to be mostly inside. When the compiler split loading and computing
    // into separate loops (into a private array, say), the math loop loads nothing, no loop is the
    // body, and the whole function is read in program order.
    int best_lo = 0, best_hi = static_cast<int>(parsed.size()) - 1, best_loads = -1;
    bool loop = false;
    auto loads_in = [&](int lo, int hi) {
      int n = 0, math = 0;
      for (int i = lo; i <= hi; ++i) {
        n += parsed[i].op == AsmOp::kGlobalLoad;
        math += parsed[i].op == AsmOp::kCompute;
      }
      return math > 0 ? n : 0;
    };
    int fn_loads = 0, fn_math = 0;
    for (const auto& p : parsed) {
      fn_loads += p.op == AsmOp::kGlobalLoad;
      fn_math += p.op == AsmOp::kCompute;
    }
    auto dominant = [&](int lo, int hi) {
      int n = 0, math = 0;
      for (int i = lo; i <= hi; ++i) {
        n += parsed[i].op == AsmOp::kGlobalLoad;
        math += parsed[i].op == AsmOp::kCompute;
      }
      return n > 0 && 2 * math >= fn_math;
    };
    for (int i = 0; i < static_cast<int>(parsed.size()); ++i)
      for (const auto& t : parsed[i].targets) {
        auto it = label_at.find(t);
        if (it == label_at.end() || it->second > i || !dominant(it->second, i)) continue;
        int n = loads_in(it->second, i);
        if (n > best_loads || (n == best_loads && i - it->second < best_hi - best_lo)) {
          best_lo = it->second, best_hi = i, best_loads = n, loop = true;
        }
      }
    if (!loop || best_loads == 0) best_lo = 0, best_hi = static_cast<int>(parsed.size()) - 1, loop = false;
    AsmKernel k{f.name, f.first + 1, f.last + 1, f.first + best_lo + 1, f.first + best_hi + 1, loop, {}};
    for (int i = best_lo; i <= best_hi; ++i)
      if (parsed[i].op) k.ops.push_back(*parsed[i].op);
    if (loop) {
      for (int i = 0; i < best_lo; ++i) k.prologue_loads += parsed[i].op == AsmOp::kGlobalLoad;
      const long per_iteration = std::count(k.ops.begin(), k.ops.end(), AsmOp::kGlobalLoad);
      if (per_iteration > 0)
        k.prefetch_distance = static_cast<int>((k.prologue_loads + per_iteration / 2) / per_iteration);
    }
    bool any_load = std::count(k.ops.begin(), k.ops.end(), AsmOp::kGlobalLoad) > 0;
    if (!filter.empty() || any_load) {
      chosen = k;
      break;
    }
  }
  if (!chosen) {
    std::string names;
    for (const auto& n : x.kernels) names += (names.empty() ? "" : ", ") + n;
    throw ConfigError(path + ": " + (filter.empty() ? "no kernel with global loads" : "no kernel matches '" + filter + "'") +
                      " (kernels: " + names + ")");
  }
  x.kernel = *chosen;
  if (std::count(x.kernel.ops.begin(), x.kernel.ops.end(), AsmOp::kGlobalLoad) == 0)
    throw ConfigError(path + ": kernel " + x.kernel.name + " has no global loads to order");
  // Auto: one step per iteration of a pipelined loop (an iteration is one K tile), else the GEMV's 2.
  x.steps = steps > 0 ? steps : (x.kernel.prefetch_distance > 0 ? 1 : 2);
  x.pattern = fold_order(x.kernel.ops, x.steps, x.kernel.prefetch_distance > 0);
  std::ostringstream runs;
  for (size_t i = 0; i < x.kernel.ops.size();) {
    size_t j = i;
    while (j < x.kernel.ops.size() && x.kernel.ops[j] == x.kernel.ops[i]) ++j;
    runs << (i ? " " : "") << static_cast<char>(x.kernel.ops[i]) << (j - i);
    i = j;
  }
  x.runs = runs.str();
  return x;
}

}  // namespace gms
