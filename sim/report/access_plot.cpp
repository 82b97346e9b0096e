#include "report/access_plot.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"

namespace gms {

namespace {

constexpr Rgb kConflict = {0.85, 0.1, 0.1};

// 32 distinguishable pastel hues, one per bank (or sector index).
Rgb bank_color(int bank) {
  if (bank < 0) return kMissingColor;
  double h = std::fmod(bank * 0.618033988749895, 1.0) * 6.0;
  double x = 1 - std::fabs(std::fmod(h, 2.0) - 1);
  Rgb c = h < 1 ? Rgb{1, x, 0} : h < 2 ? Rgb{x, 1, 0} : h < 3 ? Rgb{0, 1, x} : h < 4 ? Rgb{0, x, 1} : h < 5 ? Rgb{x, 0, 1} : Rgb{1, 0, x};
  for (auto& v : c) v = 0.55 + 0.45 * v;  // pastel: labels stay readable
  return c;
}

const InstructionAccess* find_instruction(const AccessAnalysis& a, std::uint32_t warp, std::uint32_t instr) {
  for (const auto& r : a.instructions)
    if (r.warp == warp && r.instruction == instr) return &r;
  return nullptr;
}

std::string totals_line(const AccessAnalysis& a) {
  std::string s;
  for (const auto& [name, v] : a.metrics) s += (s.empty() ? "" : "   ") + name + " = " + std::to_string(static_cast<long long>(v));
  return s;
}

}  // namespace

void draw_access_tile(const std::string& path, ImageFormat format, const CuteCopySpec& spec, const AccessPattern& p,
                      const AccessAnalysis& a, const std::string& title) {
  if (spec.tensor.rank() != 2 || spec.tensor.size() > 128 * 128) {
    draw_access_banks(path, format, p, a, title);
    return;
  }
  const auto rows = spec.tensor.mode(0).size(), cols = spec.tensor.mode(1).size();
  Partition part = partition_of(spec);
  const std::int64_t per_access = p.width_bytes / spec.copy.elem_bytes;
  // element offset -> (thread, value) of its first mover
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> mover;
  for (std::int64_t t = 0; t < part.threads; ++t)
    for (std::int64_t v = 0; v < part.values_per_thread; ++v) mover.emplace(part.offset(t, v), std::make_pair(t, v));
  const double cell_w = 44, cell_h = 30, x0 = 50, y0 = 60;
  // Wide enough for the title and the totals line even for a narrow tile.
  Canvas c(path, format, std::max(1100, static_cast<int>(x0 + cols * cell_w + 20)), static_cast<int>(y0 + rows * cell_h + 50));
  c.fill_rect(0, 0, c.width(), c.height(), {1, 1, 1});
  c.text(x0, 20, title, 12, 0, true);
  c.text(x0, 40, totals_line(a), 10);
  for (std::int64_t m = 0; m < rows; ++m) {
    c.text(x0 - 6, y0 + (m + 0.5) * cell_h, std::to_string(m), 9, 1);
    for (std::int64_t n = 0; n < cols; ++n) {
      double x = x0 + n * cell_w, y = y0 + m * cell_h;
      if (m == 0) c.text(x + cell_w / 2, y0 - 8, std::to_string(n), 9, 0.5);
      std::int64_t off = spec.tensor.at({m, n});
      auto it = mover.find(off);
      std::int64_t byte = spec.copy.base_bytes + spec.copy.swizzle(off) * spec.copy.elem_bytes;
      int bank = p.space == MemSpace::kShared ? static_cast<int>((byte / 4) % 32) : static_cast<int>((byte % 128) / 32);
      bool conflicted = false;
      std::string label = "-";
      if (it != mover.end()) {
        auto [t, v] = it->second;
        const InstructionAccess* r = find_instruction(a, static_cast<std::uint32_t>(t / 32), static_cast<std::uint32_t>(v / per_access));
        conflicted = r && r->lane_conflicted[static_cast<size_t>(t % 32)];
        label = "T" + std::to_string(t);
      }
      c.fill_rect(x, y, cell_w, cell_h, bank_color(it == mover.end() ? -1 : bank));
      c.stroke_rect(x, y, cell_w, cell_h, {0.4, 0.4, 0.4}, 0.5);
      if (conflicted) c.stroke_rect(x + 1.5, y + 1.5, cell_w - 3, cell_h - 3, kConflict, 2.5);
      c.text(x + cell_w / 2, y + cell_h * 0.33, label, 9, 0.5, true);
      c.text(x + cell_w / 2, y + cell_h * 0.72, (p.space == MemSpace::kShared ? "b" : "s") + std::to_string(bank), 8, 0.5);
    }
  }
  c.text(x0, y0 + rows * cell_h + 20,
         p.space == MemSpace::kShared ? "T = thread, b = bank of the element; red outline = lane in a bank conflict"
                                      : "T = thread, s = 32-byte sector within its 128-byte line",
         10);
  c.finish();
}

void draw_access_banks(const std::string& path, ImageFormat format, const AccessPattern& p, const AccessAnalysis& a,
                       const std::string& title) {
  const size_t rows = std::min<size_t>(a.instructions.size(), 64);
  const double cell_w = 34, cell_h = 22, x0 = 90, y0 = 60;
  const int units = p.space == MemSpace::kShared ? 32 : 4;
  Canvas c(path, format, std::max(1100, static_cast<int>(x0 + units * cell_w + 20)), static_cast<int>(y0 + rows * cell_h + 40));
  c.fill_rect(0, 0, c.width(), c.height(), {1, 1, 1});
  c.text(10, 20, title, 12, 0, true);
  c.text(10, 40, totals_line(a), 10);
  for (int b = 0; b < units; ++b) c.text(x0 + (b + 0.5) * cell_w, y0 - 8, (p.space == MemSpace::kShared ? "b" : "s") + std::to_string(b), 8, 0.5);
  for (size_t i = 0; i < rows; ++i) {
    const auto& r = a.instructions[i];
    double y = y0 + static_cast<double>(i) * cell_h;
    c.text(x0 - 6, y + cell_h / 2, "w" + std::to_string(r.warp) + " i" + std::to_string(r.instruction), 9, 1);
    for (int b = 0; b < units; ++b) {
      int lanes = 0;
      bool conflicted = false;
      for (size_t l = 0; l < r.lane_bank.size(); ++l)
        if (r.lane_bank[l] == b) {
          ++lanes;
          conflicted = conflicted || r.lane_conflicted[l];
        }
      double x = x0 + b * cell_w;
      c.fill_rect(x, y, cell_w, cell_h, lanes ? bank_color(b) : Rgb{1, 1, 1});
      c.stroke_rect(x, y, cell_w, cell_h, {0.6, 0.6, 0.6}, 0.5);
      if (conflicted) c.stroke_rect(x + 1.5, y + 1.5, cell_w - 3, cell_h - 3, kConflict, 2.5);
      if (lanes) c.text(x + cell_w / 2, y + cell_h / 2, std::to_string(lanes), 9, 0.5);
    }
  }
  c.text(10, y0 + static_cast<double>(rows) * cell_h + 20, "lanes whose access starts in each bank (sector), per warp instruction; red = conflict", 10);
  c.finish();
}

}  // namespace gms
