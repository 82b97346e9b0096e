#include "asm/register_banks.h"

#include <array>
#include <cctype>
#include <string>

#include "common/error.h"

namespace gms {
namespace {

struct Source {
  int slot, reg;
  bool reuse;
};

// "R12" (not "UR12", "RZ" or "P0"), optionally ".reuse", at the start of each operand; the
// destination (the first operand) is not a source unless the instruction has none (stores).
std::vector<Source> sources(const SassInstruction& s) {
  std::vector<Source> out;
  std::vector<std::string> ops;
  std::string cur;
  for (char c : s.operands) {
    if (c == ',') {
      ops.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty() || !ops.empty()) ops.push_back(cur);
  for (size_t k = 1; k < ops.size(); ++k) {
    std::string o = ops[k];
    size_t i = o.find_first_not_of(" \t-|!~");
    if (i == std::string::npos || o[i] != 'R' || i + 1 >= o.size() || !std::isdigit(static_cast<unsigned char>(o[i + 1])))
      continue;
    size_t j = i + 1;
    int reg = 0;
    while (j < o.size() && std::isdigit(static_cast<unsigned char>(o[j])) && reg < 1000) reg = reg * 10 + (o[j++] - '0');
    out.push_back({static_cast<int>(k), reg, o.compare(j, 6, ".reuse") == 0});
  }
  return out;
}

bool reads_through_the_alu(const SassInstruction& s) { return classify_issue(s.opcode) == IssueClass::kOther; }

}  // namespace

int register_bank_conflicts(const SassInstruction* prev, const SassInstruction& cur) {
  if (!reads_through_the_alu(cur)) return 0;
  const std::vector<Source> now = sources(cur);
  SIM_ASSERT(!prev || reads_through_the_alu(*prev), "the reuse cache comes from an ALU instruction, not " << prev->opcode);
  const std::vector<Source> before = prev ? sources(*prev) : std::vector<Source>{};
  std::array<std::vector<int>, kRegisterBanks> read;  // distinct registers read per bank
  for (const Source& s : now) {
    bool cached = false;
    for (const Source& b : before) cached = cached || (b.reuse && b.slot == s.slot && b.reg == s.reg);
    if (cached) continue;
    auto& bank = read[static_cast<size_t>(s.reg % kRegisterBanks)];
    bool seen = false;
    for (int r : bank) seen = seen || r == s.reg;
    if (!seen) bank.push_back(s.reg);
  }
  int most = 0;
  for (const auto& bank : read) most = std::max(most, static_cast<int>(bank.size()));
  return most > 1 ? most - 1 : 0;
}

std::vector<int> loop_register_bank_conflicts_each(std::span<const SassInstruction> body) {
  std::vector<int> out(body.size(), 0);
  // The last ALU instruction of the body is the one before the first ones (the back edge).
  const SassInstruction* last_alu = nullptr;
  for (const SassInstruction& s : body)
    if (reads_through_the_alu(s)) last_alu = &s;
  for (size_t i = 0; i < body.size(); ++i) {
    if (!reads_through_the_alu(body[i])) continue;
    out[i] = register_bank_conflicts(last_alu, body[i]);
    last_alu = &body[i];
  }
  return out;
}

int loop_register_bank_conflicts(std::span<const SassInstruction> body) {
  int cycles = 0;
  for (int c : loop_register_bank_conflicts_each(body)) cycles += c;
  return cycles;
}

}  // namespace gms
