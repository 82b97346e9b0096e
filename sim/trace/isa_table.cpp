#include "trace/isa_table.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "common/units.h"
#include "config/install_paths.h"
#include "config/param.h"
#include "trace/accelsim_trace.h"


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
    {"special_read", static_cast<int>(OpKind::kSpecialRead)},
};

constexpr Named kPipes[] = {
    {"tensor", static_cast<int>(Pipe::kTensor)}, {"fma", static_cast<int>(Pipe::kFma)},
    {"alu", static_cast<int>(Pipe::kAlu)},       {"fp64", static_cast<int>(Pipe::kFp64)},
    {"sfu", static_cast<int>(Pipe::kSfu)},       {"uniform", static_cast<int>(Pipe::kUniform)},
    {"branch", static_cast<int>(Pipe::kBranch)},
};

template <std::size_t N>
std::vector<std::string> names_of(const Named (&table)[N]) {
  std::vector<std::string> names;
  for (const Named& n : table) names.emplace_back(n.name);
  return names;
}

// Only called with a name the schema's choice list accepted.
template <std::size_t N>
int value_of(const Named (&table)[N], const std::string& name) {
  for (const Named& n : table)
    if (name == n.name) return n.value;
  SIM_ASSERT(false, "'" << name << "' passed the choice check but names nothing");
}

// The table's scalars and each class's keys are declared once, as every configuration is
// (config/param.h): defaults, units, ranges, unknown keys with did-you-mean at file:line:col.
struct IsaHeader {
  std::string arch;
  int compute_capability = 0;
  std::string source;
};

struct ClassSpec {
  std::string kind, pipe, l1;
  std::uint32_t latency = 0, interval = 1, taken = 0;
  double flops_per_lane = 0, flops_per_instruction = 0;
};

const Schema<IsaHeader>& header_schema() {
  static const Schema<IsaHeader> s = [] {
    using H = IsaHeader;
    Schema<H> s;
    s.name = "ISA table";
    s.params.push_back(text_param<H>("arch", "", true, "architecture name, e.g. sm_90", [](H& c) -> auto& { return c.arch; }));
    s.params.push_back(quantity_param<H>("compute_capability", Quantity::kInteger, "", 10, 200,
                                         "compute capability x 10, as a trace's binary version",
                                         [](H& c) -> auto& { return c.compute_capability; }));
    s.params.push_back(text_param<H>("source", "", false, "where the numbers come from", [](H& c) -> auto& { return c.source; }));
    return s;
  }();
  return s;
}

const Schema<ClassSpec>& class_schema() {
  static const Schema<ClassSpec> s = [] {
    using C = ClassSpec;
    Schema<C> s;
    s.name = "ISA class";
    auto kind = choice_param<C>("kind", names_of(kKinds), "", "kind of instruction", [](C& c) -> auto& { return c.kind; });
    kind.required = true;
    s.params.push_back(kind);
    s.params.push_back(choice_param<C>("pipe", names_of(kPipes), "", "pipe it occupies (ALU, tensor, control kinds)",
                                       [](C& c) -> auto& { return c.pipe; }));
    s.params.push_back(quantity_param<C>("latency", Quantity::kCycles, "0cycles", 0, 10000,
                                         "cycles from the pipe taking it to its result (ALU, tensor kinds)",
                                         [](C& c) -> auto& { return c.latency; }));
    s.params.push_back(quantity_param<C>("interval", Quantity::kCycles, "1cycles", 1, 10000,
                                         "cycles the pipe is busy per warp instruction", [](C& c) -> auto& { return c.interval; }));
    s.params.push_back(quantity_param<C>("flops_per_lane", Quantity::kReal, "0", 0, 64, "FLOP per active lane",
                                         [](C& c) -> auto& { return c.flops_per_lane; }));
    s.params.push_back(quantity_param<C>("flops_per_instruction", Quantity::kReal, "0", 0, 1e7,
                                         "tensor: FLOP per warp instruction (0 = from the opcode's shape)",
                                         [](C& c) -> auto& { return c.flops_per_instruction; }));
    s.params.push_back(quantity_param<C>("taken", Quantity::kCycles, "0cycles", 0, 10000,
                                         "control: cycles a taken branch keeps its warp from its next instruction (the "
                                         "fetch from the branch target; other warps issue meanwhile), Nsight's branch_resolving",
                                         [](C& c) -> auto& { return c.taken; }));
    s.params.push_back(choice_param<C>("l1", {"cache", "bypass"}, "cache", "global loads: through L1 or around it",
                                       [](C& c) -> auto& { return c.l1; }));
    return s;
  }();
  return s;
}

OpClass read_class(const std::string& name, const ConfigNode& n) {
  if (n.kind != ConfigNode::Kind::kMap) throw ConfigError(n.mark.where() + ": class '" + name + "' must be a map");
  Bound<ClassSpec> b = bind(class_schema(), n);
  const ClassSpec& spec = b.value;
  OpClass c;
  c.name = name;
  c.kind = static_cast<OpKind>(value_of(kKinds, spec.kind));
  const bool computes = c.kind == OpKind::kAlu || c.kind == OpKind::kTensor || c.kind == OpKind::kControl;
  if (spec.pipe.empty() && computes) throw ConfigError(n.mark.where() + ": class '" + name + "' needs a 'pipe'");
  if (!spec.pipe.empty()) c.pipe = static_cast<Pipe>(value_of(kPipes, spec.pipe));
  if ((c.kind == OpKind::kAlu || c.kind == OpKind::kTensor || c.kind == OpKind::kSpecialRead) &&
      b.origins.at("latency").file == "default")
    throw ConfigError(n.mark.where() + ": class '" + name + "' needs a 'latency'");
  c.latency = spec.latency;
  c.interval = spec.interval;
  c.flops_per_lane = spec.flops_per_lane;
  c.flops_per_instruction = spec.flops_per_instruction;
  if (spec.taken > 0 && c.kind != OpKind::kControl)
    throw ConfigError(n.mark.where() + ": class '" + name + "': 'taken' is for control classes (branches)");
  c.taken = spec.taken;
  c.bypass_l1 = spec.l1 == "bypass";
  return c;
}

const ConfigNode& map_entry(const ConfigNode& doc, const char* key) {
  const ConfigNode* n = doc.find(key);
  if (!n) throw ConfigError(doc.mark.where() + ": an ISA table needs '" + key + "'");
  if (n->kind != ConfigNode::Kind::kMap) throw ConfigError(n->mark.where() + ": '" + key + "' must be a map");
  return *n;
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
  const Bound<IsaHeader> header = bind(header_schema(), doc, {"classes", "opcodes"});
  const ConfigNode& classes = map_entry(doc, "classes");
  const ConfigNode& opcodes = map_entry(doc, "opcodes");
  IsaTable t;
  t.arch_ = header.value.arch;
  t.compute_capability_ = header.value.compute_capability;
  t.source_ = header.value.source;
  std::vector<std::string> class_names;
  for (const auto& [name, node] : classes.entries) {
    t.classes_.push_back(read_class(name, node));
    class_names.push_back(name);
  }
  for (std::size_t i = 0; i < opcodes.entries.size(); ++i) {
    const auto& [op, node] = opcodes.entries[i];
    if (!valid_opcode_key(op))
      throw ConfigError(opcodes.key_marks[i].where() + ": '" + op + "' is not a SASS opcode (upper case, e.g. LDG or HMMA.16816)");
    if (node.kind != ConfigNode::Kind::kScalar) throw ConfigError(node.mark.where() + ": opcode " + op + " needs a class name");
    const std::string& cls = node.scalar;
    auto it = std::find(class_names.begin(), class_names.end(), cls);
    if (it == class_names.end()) {
      std::string hint = did_you_mean(cls, class_names);
      throw ConfigError(node.mark.where() + ": opcode " + op + " names class '" + cls + "', which the table does not define" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    if (!t.opcodes_.emplace(op, static_cast<std::size_t>(it - class_names.begin())).second)
      throw ConfigError(opcodes.key_marks[i].where() + ": opcode " + op + " is listed twice");
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
  // Warp-level MMA shapes (m, n, k), named by their digits: 16816 = m16n8k16.
  static constexpr std::pair<std::string_view, double> kWarpShapes[] = {
      {"16816", 2.0 * 16 * 8 * 16}, {"16832", 2.0 * 16 * 8 * 32}, {"1688", 2.0 * 16 * 8 * 8},
      {"884", 2.0 * 8 * 8 * 4 * 4}};  // Volta: four 8x8x4 products per warp instruction
  for (std::string_view mod : opcode_modifiers(opcode)) {
    for (const auto& [name, flops] : kWarpShapes)
      if (mod == name) return flops;
    // A warpgroup shape "64x128x16" (HGMMA): each of the group's 4 warps executes it once.
    unsigned m = 0, n = 0, k = 0;
    char rest = 0;
    if (std::sscanf(std::string(mod).c_str(), "%ux%ux%u%c", &m, &n, &k, &rest) == 3) return 2.0 * m * n * k / 4.0;
  }
  return 0;
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
