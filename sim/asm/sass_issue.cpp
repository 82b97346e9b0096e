#include "asm/sass_issue.h"

#include <algorithm>
#include <array>
#include <regex>
#include <span>
#include <sstream>

#include "asm/order_from_asm.h"
#include "asm/register_banks.h"
#include "asm/shared_read_exposure.h"
#include "common/csv.h"
#include "common/error.h"

namespace gms {
namespace {

// "@!P0 BRA `(.L_x_3) ;" -> "BRA"; "HMMA.16816.F32 R4, ..." -> "HMMA.16816.F32".
std::string opcode_of(const std::string& text) {
  size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos) return "";
  if (text[i] == '@') {
    i = text.find_first_of(" \t", i);
    if (i == std::string::npos) return "";
    i = text.find_first_not_of(" \t", i);
    if (i == std::string::npos) return "";
  }
  size_t j = text.find_first_of(" \t;", i);
  return text.substr(i, j == std::string::npos ? std::string::npos : j - i);
}

std::string base_of(const std::string& opcode) { return opcode.substr(0, opcode.find('.')); }

// What follows the opcode of "[@P] OPCODE operands ;", trimmed.
std::string operands_of(const std::string& text, const std::string& opcode) {
  size_t i = text.find_first_not_of(" \t");
  if (i != std::string::npos && text[i] == '@') i = text.find_first_of(" \t", i);  // past the predicate
  const size_t at = opcode.empty() || i == std::string::npos ? std::string::npos : text.find(opcode, i);
  if (at == std::string::npos) return "";
  std::string rest = text.substr(at + opcode.size());
  const size_t semi = rest.find(';');
  if (semi != std::string::npos) rest.resize(semi);
  const size_t a = rest.find_first_not_of(" \t"), b = rest.find_last_not_of(" \t");
  return a == std::string::npos ? "" : rest.substr(a, b - a + 1);
}

}  // namespace

std::vector<SassInstruction> parse_sass_instructions(const std::vector<std::string>& lines, int first, int last,
                                                     const std::string& file) {
  static const std::regex ins(R"(^\s*/\*([0-9a-fA-F]{4,8})\*/\s+([^;]*;)\s*/\*\s*0x([0-9a-fA-F]{16})\s*\*/)"),
      word(R"(^\s*/\*\s*0x([0-9a-fA-F]{16})\s*\*/\s*$)");
  std::vector<SassInstruction> out;
  first = std::max(first, 1);
  last = std::min(last, static_cast<int>(lines.size()));
  std::smatch m, w;
  for (int i = first; i <= last; ++i) {
    const std::string& l = lines[static_cast<size_t>(i - 1)];
    if (!std::regex_search(l, m, ins)) continue;
    if (i >= static_cast<int>(lines.size()) || !std::regex_search(lines[static_cast<size_t>(i)], w, word))
      throw ConfigError(file + ":" + std::to_string(i + 1) +
                        ": expected the instruction's second 64-bit word (/* 0x... */) on the next line; give the "
                        "listing exactly as cuobjdump -sass prints it (sm_70 or newer)");
    SassInstruction s;
    s.line = i;
    s.offset = static_cast<std::uint32_t>(std::stoul(m[1], nullptr, 16));
    s.opcode = opcode_of(m[2]);
    s.operands = operands_of(m[2], s.opcode);
    const std::uint64_t hi = std::stoull(w[1], nullptr, 16);
    // Control bits 105-125 of the 128-bit instruction = bits 41-61 of its second word.
    s.stall = static_cast<int>((hi >> 41) & 0xF);
    s.yield = ((hi >> 45) & 1) != 0;
    s.write_barrier = static_cast<int>((hi >> 46) & 7);
    s.read_barrier = static_cast<int>((hi >> 49) & 7);
    s.wait_mask = static_cast<int>((hi >> 52) & 0x3F);
    out.push_back(std::move(s));
    ++i;
  }
  return out;
}

namespace {

// "1,234" or "" (a sample column left empty) as a number; -1 when it is not one.
double count_of(std::string t) {
  t.erase(std::remove(t.begin(), t.end(), ','), t.end());
  if (t.empty()) return -1;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  return *end == '\0' && v >= 0 ? v : -1;
}

}  // namespace

const char* const kSampleColumns[kSampleReasons] = {"stall_selected", "stall_wait", "stall_dispatch",
                                                    "stall_branch_resolving"};

ExecutedProfile executed_profile(const std::string& csv_text, const std::vector<SassInstruction>& function,
                                 const std::string& file, int nth) {
  if (nth < 1) throw ConfigError(file + ": section " + std::to_string(nth) + ": sections count from 1");
  int matching = 0;  // sections that list the same instructions
  struct Section {
    std::vector<std::string> opcodes;
    std::vector<std::string> counts;
    std::array<std::vector<double>, kSampleReasons> samples;  // -1: missing or not a number
    int line = 0;
  };
  std::vector<Section> sections;
  std::istringstream in(csv_text);
  int column = -1, source = -1, n = 0;
  std::array<int, kSampleReasons> sample_column{};
  for (std::string l; std::getline(in, l);) {
    ++n;
    std::vector<std::string> c = split_csv(l);
    if (c.empty()) continue;
    if (c[0] == "Kernel Name") {
      sections.push_back({});
      sections.back().line = n;
      column = source = -1;
      sample_column.fill(-1);
      continue;
    }
    if (c[0] == "Address") {
      for (size_t i = 0; i < c.size(); ++i) {
        if (c[i] == "Instructions Executed") column = static_cast<int>(i);
        if (c[i] == "Source") source = static_cast<int>(i);
        for (int r = 0; r < kSampleReasons; ++r)
          if (c[i] == kSampleColumns[r]) sample_column[static_cast<size_t>(r)] = static_cast<int>(i);
      }
      continue;
    }
    if (sections.empty() || column < 0 || source < 0 || static_cast<int>(c.size()) <= std::max(column, source)) continue;
    Section& s = sections.back();
    s.opcodes.push_back(base_of(opcode_of(c[static_cast<size_t>(source)])));
    s.counts.push_back(c[static_cast<size_t>(column)]);
    for (int r = 0; r < kSampleReasons; ++r) {
      const int k = sample_column[static_cast<size_t>(r)];
      s.samples[static_cast<size_t>(r)].push_back(k >= 0 && k < static_cast<int>(c.size()) ? count_of(c[static_cast<size_t>(k)]) : -1);
    }
  }
  for (const Section& s : sections) {
    if (s.opcodes.size() != function.size()) continue;
    bool same = true;
    for (size_t i = 0; i < function.size() && same; ++i) same = s.opcodes[i] == base_of(function[i].opcode);
    if (!same) continue;
    if (++matching < nth) continue;
    ExecutedProfile out;
    for (size_t i = 0; i < s.counts.size(); ++i) {
      const double v = count_of(s.counts[i]);
      if (v < 0)
        throw ConfigError(file + ": section at line " + std::to_string(s.line) + ", instruction " + std::to_string(i + 1) +
                          ": 'Instructions Executed' is '" + s.counts[i] + "', not a count");
      out.executed.push_back(v);
    }
    // Warp-state samples only when every reason's column is there and numeric (an export without
    // --section WarpStateStats / SourceCounters has none).
    bool sampled = true;
    for (const auto& column : s.samples) sampled = sampled && std::all_of(column.begin(), column.end(), [](double v) { return v >= 0; });
    if (sampled) out.samples = s.samples;
    return out;
  }
  if (matching > 0)
    throw ConfigError(file + ": section " + std::to_string(nth) + " asked for, but only " + std::to_string(matching) +
                      " of its kernel sections list the listing's instructions");
  throw ConfigError(file + ": no kernel section (of " + std::to_string(sections.size()) + ") lists the same " +
                    std::to_string(function.size()) +
                    " instructions as the listing's kernel; export it with ncu -i REPORT --page source --csv "
                    "--print-source sass from a profile of the same binary");
}

std::vector<double> executed_counts(const std::string& csv_text, const std::vector<SassInstruction>& function,
                                    const std::string& file) {
  return executed_profile(csv_text, function, file).executed;
}

const char* issue_class_name(IssueClass c) {
  switch (c) {
    case IssueClass::kMma: return "mma";
    case IssueClass::kLdsm: return "ldsm";
    case IssueClass::kSharedLoad: return "shared_load";
    case IssueClass::kSharedStore: return "shared_store";
    case IssueClass::kAsyncCopy: return "async_copy";
    case IssueClass::kGlobal: return "global";
    case IssueClass::kBarrier: return "barrier";
    case IssueClass::kOther: return "other";
    case IssueClass::kCount: break;
  }
  return "?";
}

IssueClass classify_issue(const std::string& opcode) {
  const std::string b = base_of(opcode);
  if (b == "HMMA" || b == "HGMMA" || b == "IMMA" || b == "IGMMA" || b == "QGMMA" || b == "DMMA" || b == "BMMA") return IssueClass::kMma;
  if (b == "LDSM") return IssueClass::kLdsm;
  if (b == "LDS") return IssueClass::kSharedLoad;
  if (b == "STS") return IssueClass::kSharedStore;
  if (b == "LDGSTS" || b == "UBLKCP" || b == "UTMALDG") return IssueClass::kAsyncCopy;
  if (b == "LDG" || b == "STG" || b == "RED" || b == "ATOM" || b == "ATOMG" || b == "LD" || b == "ST") return IssueClass::kGlobal;
  if (b == "BAR") return IssueClass::kBarrier;
  return IssueClass::kOther;
}

double IssueProfile::total_instructions() const {
  double s = 0;
  for (double v : instructions) s += v;
  return s;
}

double IssueProfile::total_stall_cycles() const {
  double s = 0;
  for (double v : stall_cycles) s += v;
  return s;
}

IssueProfile sass_issue_profile(const std::string& sass_path, const std::string& kernel, const std::string& executed_csv,
                                int section) {
  const std::vector<std::string> lines = read_asm_lines(sass_path);  // once: an .xz listing decompresses once
  const OrderExtract x = order_from_asm(lines, sass_path, "sass", kernel, 0);
  const auto function = parse_sass_instructions(lines, x.kernel.first_line, x.kernel.last_line, sass_path);
  IssueProfile p;
  p.kernel = x.kernel.name;
  p.body_first = x.kernel.body_first;
  p.body_last = x.kernel.body_last;
  p.loop = x.kernel.loop;
  std::vector<double> weight(function.size(), 1.0);
  size_t lo = function.size(), hi = 0;
  for (size_t i = 0; i < function.size(); ++i)
    if (function[i].line >= p.body_first && function[i].line <= p.body_last) lo = std::min(lo, i), hi = i;
  if (lo > hi) throw ConfigError(sass_path + ": kernel " + p.kernel + " has no instructions with control words in lines " +
                                 std::to_string(p.body_first) + "-" + std::to_string(p.body_last));
  if (!executed_csv.empty()) {
    std::string text;
    for (const std::string& l : read_asm_lines(executed_csv)) text += l + "\n";
    const ExecutedProfile ex = executed_profile(text, function, executed_csv, section);
    const std::vector<double>& counts = ex.executed;
    // The body's last instruction (the loop's closing branch) runs once per iteration of each warp.
    p.iterations = counts[hi];
    if (p.iterations <= 0)
      throw ConfigError(executed_csv + ": the loop of " + p.kernel + " never ran in this profile (its closing branch at /*" +
                        std::to_string(function[hi].offset) + "*/ executed 0 times)");
    for (size_t i = 0; i < counts.size(); ++i) weight[i] = counts[i] / p.iterations;
    p.executed = true;
    if (!ex.samples[kSampledSelected].empty()) {
      // A warp issues once a cycle while `selected`: the kernel's executed instructions over its
      // selected samples is the warp-cycles one sample stands for.
      double executed = 0, selected = 0;
      for (size_t i = 0; i < counts.size(); ++i) executed += counts[i], selected += ex.samples[kSampledSelected][i];
      if (selected > 0) {
        p.sampled = true;
        const double cycles_per_sample = executed / selected;
        for (int r = 0; r < kSampleReasons; ++r)
          for (size_t i = lo; i <= hi; ++i) {
            const double cycles = ex.samples[static_cast<size_t>(r)][i] * cycles_per_sample / p.iterations;
            p.sampled_cycles[r] += cycles;
            p.sampled_by_class[static_cast<int>(classify_issue(function[i].opcode))][r] += cycles;
          }
      }
    }
  }
  std::vector<SassInstruction> path;
  const std::vector<int> conflicts = loop_register_bank_conflicts_each(std::span(function).subspan(lo, hi - lo + 1));
  for (size_t i = lo; i <= hi; ++i) {
    const int c = static_cast<int>(classify_issue(function[i].opcode));
    p.instructions[c] += weight[i];
    // A stall count of 0 still spends the issue cycle.
    p.stall_cycles[c] += weight[i] * std::max(1, function[i].stall);
    if (weight[i] >= 0.5) path.push_back(function[i]);
    p.bank_conflict_cycles += weight[i] * conflicts[i - lo];
  }
  const SharedReadExposure e = shared_read_exposure(path);
  p.shared_exposed_reads = e.exposed_reads;
  p.shared_hidden_cycles = e.hidden_cycles;
  const SharedReadExposure sr = special_read_exposure(path);
  p.special_exposed_reads = sr.exposed_reads;
  p.special_hidden_cycles = sr.hidden_cycles;
  return p;
}

}  // namespace gms
