#include "workload/local_program.h"

#include <algorithm>

#include "common/error.h"

namespace gms {
namespace {

constexpr std::uint64_t kMaxLines = 1u << 22;   // a 16 MB frame per thread: far beyond any compiler's
constexpr std::uint64_t kMaxCount = 1u << 24;

class TokenReader {
 public:
  TokenReader(std::string_view token, const std::string& where, std::size_t index)
      : t_(token), where_(where), index_(index) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw ConfigError(where_ + ": token " + std::to_string(index_ + 1) + " '" + std::string(t_) + "': " + why);
  }
  bool at_end() const { return pos_ >= t_.size(); }
  bool take(char c) {
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!take(c)) fail(std::string("expected '") + c + "' before " + what);
  }
  std::uint64_t number(const char* what, std::uint64_t lo, std::uint64_t hi) {
    if (pos_ >= t_.size() || t_[pos_] < '0' || t_[pos_] > '9') fail(std::string("expected a number for ") + what);
    std::uint64_t v = 0;
    while (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') {
      v = v * 10 + static_cast<std::uint64_t>(t_[pos_++] - '0');
      if (v > hi) fail(std::string(what) + " above " + std::to_string(hi));
    }
    if (v < lo) fail(std::string(what) + " below " + std::to_string(lo));
    return v;
  }
  std::uint8_t scoreboard() {
    if (take('_')) return kNoScoreboard;
    return static_cast<std::uint8_t>(number("a scoreboard", 0, kSassScoreboards - 1));
  }
  void done() const {
    if (!at_end()) fail("unexpected '" + std::string(t_.substr(pos_)) + "'");
  }

 private:
  std::string_view t_;
  const std::string& where_;
  std::size_t index_;
  std::size_t pos_ = 1;  // after the kind letter
};

LocalStep parse_step(std::string_view token, const std::string& where, std::size_t index) {
  TokenReader r(token, where, index);
  LocalStep s;
  switch (token[0]) {
    case 'X':
      s.kind = LocalStep::Kind::kXLoad;
      s.scoreboard = r.scoreboard();
      break;
    case 'W':
      s.kind = LocalStep::Kind::kWLoad;
      s.count = static_cast<std::uint32_t>(r.number("the loads", 1, kMaxCount));
      r.expect('.', "the scoreboard");
      s.scoreboard = r.scoreboard();
      break;
    case 'S':
    case 'L':
      s.kind = token[0] == 'S' ? LocalStep::Kind::kStore : LocalStep::Kind::kLoad;
      s.first_line = static_cast<std::uint32_t>(r.number("the first line", 0, kMaxLines - 1));
      r.expect('+', "the line count");
      s.count = static_cast<std::uint32_t>(r.number("the line count", 1, kMaxLines - s.first_line));
      r.expect('/', "the instruction count");
      s.instructions = static_cast<std::uint32_t>(r.number("the instruction count", 1, s.count));
      if (s.kind == LocalStep::Kind::kLoad) {
        r.expect('.', "the scoreboard");
        s.scoreboard = r.scoreboard();
      }
      if (r.take('~')) s.others = static_cast<std::uint32_t>(r.number("the other instructions", 1, kMaxCount));
      break;
    case 'D':
      s.kind = LocalStep::Kind::kWait;
      s.scoreboard = static_cast<std::uint8_t>(r.number("the scoreboard mask", 1, (1u << kSassScoreboards) - 1));
      break;
    case 'F':
    case 'C':
      s.kind = token[0] == 'F' ? LocalStep::Kind::kMath : LocalStep::Kind::kOther;
      s.count = static_cast<std::uint32_t>(r.number("the instruction count", 1, kMaxCount));
      break;
    default:
      r.fail("unknown kind (X, W, S, L, D, F or C)");
  }
  r.done();
  return s;
}

void append_scoreboard(std::string& out, std::uint8_t sb) {
  out += sb == kNoScoreboard ? std::string("_") : std::to_string(sb);
}

}  // namespace

std::int64_t warp_vector_loads(std::int64_t rows, std::int64_t row_bytes, int warp_size) {
  const std::int64_t warp_bytes = 16 * static_cast<std::int64_t>(warp_size);
  const std::int64_t rows_per_load = std::max<std::int64_t>(1, warp_bytes / std::max<std::int64_t>(1, row_bytes));
  const std::int64_t loads_per_row = (row_bytes + warp_bytes - 1) / warp_bytes;
  return (rows + rows_per_load - 1) / rows_per_load * loads_per_row;
}

LocalProgram parse_local_program(std::string_view text, const std::string& where) {
  LocalProgram p;
  std::size_t pos = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (pos < text.size()) {
    while (pos < text.size() && blank(text[pos])) ++pos;
    std::size_t end = pos;
    while (end < text.size() && !blank(text[end])) ++end;
    if (end == pos) break;
    const LocalStep s = parse_step(text.substr(pos, end - pos), where, p.steps.size());
    pos = end;
    switch (s.kind) {
      case LocalStep::Kind::kXLoad: ++p.x_loads; break;
      case LocalStep::Kind::kWLoad: p.w_loads += s.count; break;
      case LocalStep::Kind::kStore:
      case LocalStep::Kind::kLoad:
        (s.kind == LocalStep::Kind::kStore ? p.stored_lines : p.loaded_lines) += s.count;
        p.line_end = std::max<std::int64_t>(p.line_end, static_cast<std::int64_t>(s.first_line) + s.count);
        p.local_instructions += s.instructions;
        p.other_instructions += s.others;
        break;
      case LocalStep::Kind::kMath: p.math_instructions += s.count; break;
      case LocalStep::Kind::kOther: p.other_instructions += s.count; break;
      case LocalStep::Kind::kWait: break;
    }
    p.steps.push_back(s);
  }
  if (p.steps.empty()) throw ConfigError(where + ": an empty program (no tokens)");
  return p;
}

std::string LocalProgram::str() const {
  std::string out;
  for (const LocalStep& s : steps) {
    if (!out.empty()) out += ' ';
    out += static_cast<char>(s.kind);
    switch (s.kind) {
      case LocalStep::Kind::kXLoad: append_scoreboard(out, s.scoreboard); break;
      case LocalStep::Kind::kWLoad:
        out += std::to_string(s.count) + '.';
        append_scoreboard(out, s.scoreboard);
        break;
      case LocalStep::Kind::kStore:
      case LocalStep::Kind::kLoad:
        out += std::to_string(s.first_line) + '+' + std::to_string(s.count) + '/' + std::to_string(s.instructions);
        if (s.kind == LocalStep::Kind::kLoad) {
          out += '.';
          append_scoreboard(out, s.scoreboard);
        }
        if (s.others > 0) out += '~' + std::to_string(s.others);
        break;
      case LocalStep::Kind::kWait: out += std::to_string(s.scoreboard); break;
      case LocalStep::Kind::kMath:
      case LocalStep::Kind::kOther: out += std::to_string(s.count); break;
    }
  }
  return out;
}

}  // namespace gms
