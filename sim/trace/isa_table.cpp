#include "trace/isa_table.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "common/units.h"
#include "config/param.h"

#ifndef GPUMEMSIM_CONFIGS_DIR
#define GPUMEMSIM_CONFIGS_DIR ""
#endif

namespace gms {
namespace {

struct Named {
  const char* name;
  int value;
};

constexpr Named kKinds[] = {
    {"alu", static_cast<int>(OpKind::kAlu)},
    {"tensor", static_cast<int>(OpKind::kTensor)},
    {"control", static_cast<int>(OpKind::kControl)},
    {"global_load", static_cast<int>(OpKind::kGlobalLoad)},
    {"global_store", static_cast<int>(OpKind::kGlobalStore)},
    {"global_atomic", static_cast<int>(OpKind::kGlobalAtomic)},
    {"global_reduce", static_cast<int>(OpKind::kGlobalReduce)},
    {"local_load", static_cast<int>(OpKind::kLocalLoad)},
    {"local_store", static_cast<int>(OpKind::kLocalStore)},
    {"generic_load", static_cast<int>(OpKind::kGenericLoad)},
    {"generic_store", static_cast<int>(OpKind::kGenericStore)},
    {"shared_load", static_cast<int>(OpKind::kSharedLoad)},
    {"shared_store", static_cast<int>(OpKind::kSharedStore)},
    {"shared_atomic", static_cast<int>(OpKind::kSharedAtomic)},
    {"ldmatrix", static_cast<int>(OpKind::kLdmatrix)},
    {"async_copy", static_cast<int>(OpKind::kAsyncCopy)},
    {"async_wait", static_cast<int>(OpKind::kAsyncWait)},
    {"barrier", static_cast<int>(OpKind::kBarrier)},
    {"exit", static_cast<int>(OpKind::kExit)},
};

constexpr Named kPipes[] = {
    {"tensor", static_cast<int>(Pipe::kTensor)}, {"fma", static_cast<int>(Pipe::kFma)},
    {"alu", static_cast<int>(Pipe::kAlu)},       {"fp64", static_cast<int>(Pipe::kFp64)},
    {"sfu", static_cast<int>(Pipe::kSfu)},       {"uniform", static_cast<int>(Pipe::kUniform)},
    {"branch", static_cast<int>(Pipe::kBranch)},
};

template <std::size_t N>
int lookup(const Named (&table)[N], const ConfigNode& node, const char* what) {
  std::vector<std::string> names;
  for (const Named& n : table) {
    if (node.scalar == n.name) return n.value;
    names.emplace_back(n.name);
  }
  std::string hint = did_you_mean(node.scalar, names);
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw ConfigError(node.mark.where() + ": '" + node.scalar + "' is not a " + what +
                    (hint.empty() ? " (known: " + known + ")" : " (did you mean '" + hint + "'?)"));
}

const ConfigNode& scalar(const ConfigNode& n, const std::string& key) {
  if (n.kind != ConfigNode::Kind::kScalar) throw ConfigError(n.mark.where() + ": '" + key + "' needs a single value");
  return n;
}

void reject_unknown(const ConfigNode& map, const std::vector<std::string>& known, const std::string& what) {
  for (std::size_t i = 0; i < map.entries.size(); ++i) {
    const std::string& key = map.entries[i].first;
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string hint = did_you_mean(key, known);
    throw ConfigError(map.key_marks[i].where() + ": unknown " + what + " key '" + key + "'" +
                      (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
}

double number(const ConfigNode& n, const std::string& key, Quantity q, double lo, double hi) {
  std::string why;
  auto v = parse_quantity(scalar(n, key).scalar, q, &why);
  if (!v) throw ConfigError(n.mark.where() + ": '" + key + "': " + why);
  if (*v < lo || *v > hi)
    throw ConfigError(n.mark.where() + ": '" + key + "' = " + n.scalar + " is outside " + format_quantity(lo, q) + " .. " +
                      format_quantity(hi, q));
  return *v;
}

OpClass read_class(const std::string& name, const ConfigNode& n) {
  if (n.kind != ConfigNode::Kind::kMap) throw ConfigError(n.mark.where() + ": class '" + name + "' must be a map");
  reject_unknown(n, {"kind", "pipe", "latency", "interval", "flops_per_lane", "flops_per_instruction", "l1"}, "class");
  OpClass c;
  c.name = name;
  const ConfigNode* kind = n.find("kind");
  if (!kind) throw ConfigError(n.mark.where() + ": class '" + name + "' needs a 'kind'");
  c.kind = static_cast<OpKind>(lookup(kKinds, scalar(*kind, "kind"), "kind of instruction"));
  const bool computes = c.kind == OpKind::kAlu || c.kind == OpKind::kTensor || c.kind == OpKind::kControl;
  if (const ConfigNode* p = n.find("pipe")) c.pipe = static_cast<Pipe>(lookup(kPipes, scalar(*p, "pipe"), "pipe"));
  else if (computes) throw ConfigError(n.mark.where() + ": class '" + name + "' needs a 'pipe'");
  if (const ConfigNode* l = n.find("latency")) c.latency = static_cast<std::uint32_t>(number(*l, "latency", Quantity::kCycles, 0, 10000));
  else if (c.kind == OpKind::kAlu || c.kind == OpKind::kTensor)
    throw ConfigError(n.mark.where() + ": class '" + name + "' needs a 'latency'");
  if (const ConfigNode* i = n.find("interval")) c.interval = static_cast<std::uint32_t>(number(*i, "interval", Quantity::kCycles, 1, 10000));
  if (const ConfigNode* f = n.find("flops_per_lane")) c.flops_per_lane = number(*f, "flops_per_lane", Quantity::kReal, 0, 64);
  if (const ConfigNode* f = n.find("flops_per_instruction"))
    c.flops_per_instruction = number(*f, "flops_per_instruction", Quantity::kReal, 0, 1e7);
  if (const ConfigNode* l = n.find("l1")) {
    const std::string& v = scalar(*l, "l1").scalar;
    if (v != "cache" && v != "bypass") throw ConfigError(l->mark.where() + ": 'l1' is cache or bypass, not '" + v + "'");
    c.bypass_l1 = v == "bypass";
  }
  return c;
}

bool valid_opcode_key(const std::string& s) {
  if (s.empty() || !(s[0] >= 'A' && s[0] <= 'Z')) return false;
  for (char ch : s)
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == 'x')) return false;
  return s.back() != '.';
}

}  // namespace

const char* op_kind_name(OpKind k) {
  for (const Named& n : kKinds)
    if (n.value == static_cast<int>(k)) return n.name;
  return "?";
}

IsaTable IsaTable::from_document(const ConfigNode& doc) {
  if (doc.kind != ConfigNode::Kind::kMap) throw ConfigError(doc.mark.where() + ": an ISA table is a map");
  reject_unknown(doc, {"arch", "compute_capability", "source", "classes", "opcodes"}, "ISA table");
  IsaTable t;
  const ConfigNode* arch = doc.find("arch");
  const ConfigNode* cc = doc.find("compute_capability");
  const ConfigNode* classes = doc.find("classes");
  const ConfigNode* opcodes = doc.find("opcodes");
  if (!arch || !cc || !classes || !opcodes)
    throw ConfigError(doc.mark.where() + ": an ISA table needs arch, compute_capability, classes and opcodes");
  t.arch_ = scalar(*arch, "arch").scalar;
  t.compute_capability_ = static_cast<int>(number(*cc, "compute_capability", Quantity::kInteger, 10, 200));
  if (const ConfigNode* s = doc.find("source")) t.source_ = scalar(*s, "source").scalar;
  if (classes->kind != ConfigNode::Kind::kMap) throw ConfigError(classes->mark.where() + ": 'classes' must be a map");
  std::vector<std::string> class_names;
  for (const auto& [name, node] : classes->entries) {
    t.classes_.push_back(read_class(name, node));
    class_names.push_back(name);
  }
  if (opcodes->kind != ConfigNode::Kind::kMap) throw ConfigError(opcodes->mark.where() + ": 'opcodes' must be a map");
  for (std::size_t i = 0; i < opcodes->entries.size(); ++i) {
    const auto& [op, node] = opcodes->entries[i];
    if (!valid_opcode_key(op))
      throw ConfigError(opcodes->key_marks[i].where() + ": '" + op + "' is not a SASS opcode (upper case, e.g. LDG or HMMA.16816)");
    const std::string& cls = scalar(node, op).scalar;
    auto it = std::find(class_names.begin(), class_names.end(), cls);
    if (it == class_names.end()) {
      std::string hint = did_you_mean(cls, class_names);
      throw ConfigError(node.mark.where() + ": opcode " + op + " names class '" + cls + "', which the table does not define" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    if (!t.opcodes_.emplace(op, static_cast<std::size_t>(it - class_names.begin())).second)
      throw ConfigError(opcodes->key_marks[i].where() + ": opcode " + op + " is listed twice");
  }
  return t;
}

IsaTable IsaTable::load(const std::string& path) { return from_document(read_yaml_file(path)); }

const OpClass* IsaTable::find(std::string_view opcode) const {
  std::string key(opcode);
  while (true) {
    auto it = opcodes_.find(key);
    if (it != opcodes_.end()) return &classes_[it->second];
    auto dot = key.rfind('.');
    if (dot == std::string::npos) return nullptr;
    key.resize(dot);
  }
}

double tensor_flops_from_opcode(std::string_view opcode) {
  // The first modifier that reads as a shape: "16816" (m16 n8 k16, mma.sync style) or "64x128x16".
  std::size_t pos = opcode.find('.');
  while (pos != std::string_view::npos) {
    std::size_t end = opcode.find('.', pos + 1);
    std::string_view mod = opcode.substr(pos + 1, end == std::string_view::npos ? std::string_view::npos : end - pos - 1);
    double dims[3] = {0, 0, 0};
    int got = 0;
    if (mod.find('x') != std::string_view::npos) {
      std::size_t a = 0;
      for (; got < 3 && a <= mod.size(); ++got) {
        std::size_t b = mod.find('x', a);
        std::string part(mod.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) break;
        dims[got] = std::stod(part);
        if (b == std::string_view::npos) {
          ++got;
          break;
        }
        a = b + 1;
      }
      // A warpgroup instruction (HGMMA): each of its 4 warps executes it once.
      if (got == 3) return 2.0 * dims[0] * dims[1] * dims[2] / 4.0;
    } else if (mod == "16816") {
      return 2.0 * 16 * 8 * 16;
    } else if (mod == "1688") {
      return 2.0 * 16 * 8 * 8;
    } else if (mod == "884") {
      return 2.0 * 8 * 8 * 4 * 4;  // Volta: four 8x8x4 products per warp instruction
    } else if (mod == "16832") {
      return 2.0 * 16 * 8 * 32;
    }
    pos = end;
  }
  return 0;
}

std::string configs_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("GPUMEMSIM_CONFIGS"); env && *env) return env;
  return GPUMEMSIM_CONFIGS_DIR;
}

std::string isa_table_path(int compute_capability) {
  namespace fs = std::filesystem;
  const std::string dir = configs_dir();
  fs::path p = fs::path(dir) / "isa" / ("sm_" + std::to_string(compute_capability) + ".yaml");
  if (dir.empty() || !fs::exists(p))
    throw ConfigError("no ISA table for compute capability " + std::to_string(compute_capability) + " (looked for " +
                      p.string() + "; set GPUMEMSIM_CONFIGS to the configs folder, or name a table with the "
                      "workload key 'isa')");
  return p.string();
}

}  // namespace gms
