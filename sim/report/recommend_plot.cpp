#include "report/recommend_plot.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "common/error.h"

namespace gms {
namespace {

struct CellKey {
  std::string row, col;
};

// "128x256x64 w8 s3 g8" -> row "128x256x64", column "w8 s3" (the GROUP_SIZE_M is folded: the cell
// keeps its best); "BN256 BK64 w4 llcc" -> row "BN256 BK64", column "w4 llcc".
CellKey cell_of(const std::string& label, bool gemv) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < label.size();) {
    std::size_t j = label.find(' ', i);
    if (j == std::string::npos) j = label.size();
    if (j > i) words.push_back(label.substr(i, j - i));
    i = j + 1;
  }
  SIM_ASSERT(words.size() >= 3, "recommend label '" << label << "' has " << words.size() << " words");
  CellKey k;
  std::size_t first_col = gemv ? 2 : 1, end = gemv ? words.size() : words.size() - 1;
  for (std::size_t i = 0; i < first_col; ++i) k.row += (i ? " " : "") + words[i];
  for (std::size_t i = first_col; i < end; ++i) k.col += (i > first_col ? " " : "") + words[i];
  return k;
}

// Labels in their natural order: digit runs compare as numbers ("w4 s3" < "w4 s12" < "w8 s3").
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      const long long x = std::stoll(a.substr(i, i2 - i)), y = std::stoll(b.substr(j, j2 - j));
      if (x != y) return x < y;
      i = i2, j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// Sorted, de-duplicated names and the index of each input name among them.
std::vector<int> categorise(const std::vector<std::string>& names, std::vector<std::string>& sorted) {
  sorted = names;
  std::sort(sorted.begin(), sorted.end(), natural_less);
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<int> at;
  for (const auto& n : names)
    at.push_back(static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), n, natural_less) - sorted.begin()));
  return at;
}

std::string short_reason(const std::string& why) {
  if (why.find("shared") != std::string::npos) return "smem";
  if (why.find("warps") != std::string::npos) return "warps";
  return "n/a";
}

}  // namespace

CategoryGrid recommend_space_grid(const RecommendResult& r) {
  SIM_ASSERT(!r.ranked.empty(), "recommend result without a ranked candidate");
  const bool gemv = r.ranked.front().label.rfind("BN", 0) == 0;
  CategoryGrid g;
  // Rows and columns in natural order (ranked and excluded together name every cell).
  std::vector<const Candidate*> all;
  for (const auto& c : r.ranked) all.push_back(&c);
  for (const auto& c : r.excluded) all.push_back(&c);
  std::vector<std::string> row_of, col_of;
  for (const Candidate* c : all) {
    const CellKey k = cell_of(c->label, gemv);
    row_of.push_back(k.row);
    col_of.push_back(k.col);
  }
  const std::vector<int> rows = categorise(row_of, g.rows), cols = categorise(col_of, g.cols);
  std::vector<std::pair<int, int>> at;
  for (std::size_t i = 0; i < all.size(); ++i) at.push_back({rows[i], cols[i]});
  g.grid.rows = static_cast<int>(g.rows.size());
  g.grid.cols = static_cast<int>(g.cols.size());
  g.grid.v.assign(static_cast<std::size_t>(g.grid.rows) * g.grid.cols, std::numeric_limits<double>::quiet_NaN());
  g.grid.label.assign(g.grid.v.size(), "");
  const double best = r.ranked.front().time_ns;
  SIM_ASSERT(best > 0, "first pick " << r.ranked.front().label << " has time " << best);
  // Ranked candidates come fastest first: the first to reach a cell is its best.
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Candidate& c = *all[i];
    double& v = g.grid.at(at[i].first, at[i].second);
    std::string& label = g.grid.label[static_cast<std::size_t>(at[i].first) * g.grid.cols + at[i].second];
    if (c.excluded.empty()) {
      if (!std::isnan(v)) continue;
      v = c.time_ns / best;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f", c.time_ns / 1e3);
      label = buf;
    } else if (std::isnan(v) && label.empty()) {
      label = short_reason(c.excluded);
    }
  }
  g.best_row = at[0].first;
  g.best_col = at[0].second;
  return g;
}

GridLayout draw_category_figure(const std::string& path, ImageFormat fmt, const Figure& fig, const CategoryGrid& g,
                                const ColorScale& scale) {
  const double left = 130, top = 110, cell_w = 74, cell_h = 26;
  const int width = static_cast<int>(left + g.grid.cols * cell_w + 150);
  const int height = static_cast<int>(top + g.grid.rows * cell_h + 60);
  Canvas c(path, fmt, std::max(width, 820), height);
  c.text(20, 24, fig.title, 16, 0, true);
  c.text(20, 46, fig.subtitle, 11, 0, false, {0.3, 0.3, 0.3});
  GridLayout L{left, top, cell_w, cell_h};
  for (int col = 0; col < g.grid.cols; ++col) c.text(L.center_x(col), top - 12, g.cols[col], 11, 0.5, true);
  c.text(left + g.grid.cols * cell_w / 2, top - 34, fig.xlabel, 12, 0.5);
  for (int r = 0; r < g.grid.rows; ++r) {
    c.text(left - 8, L.center_y(r), g.rows[r], 11, 1, true);
    for (int col = 0; col < g.grid.cols; ++col) {
      const double v = g.grid.at(r, col);
      const Rgb fill = std::isnan(v) ? kMissingColor : scale.color(std::min(v, scale.hi));
      c.fill_rect(left + col * cell_w, top + r * cell_h, cell_w, cell_h, fill);
      c.stroke_rect(left + col * cell_w, top + r * cell_h, cell_w, cell_h, {1, 1, 1}, 1);
      const std::string& t = g.grid.label[static_cast<std::size_t>(r) * g.grid.cols + col];
      const Rgb ink = (!std::isnan(v) && fill[1] > 0.6) || std::isnan(v) ? Rgb{0, 0, 0} : Rgb{1, 1, 1};
      if (!t.empty()) c.text(L.center_x(col), L.center_y(r), t, 10, 0.5, false, ink);
    }
  }
  if (g.best_row >= 0)
    c.stroke_rect(left + g.best_col * cell_w + 1, top + g.best_row * cell_h + 1, cell_w - 2, cell_h - 2, {0, 0, 0}, 3);
  c.text(20, top + g.grid.rows * cell_h + 24, fig.ylabel, 11, 0, false, {0.3, 0.3, 0.3});
  // Colour bar: time relative to the first pick.
  const double bx = left + g.grid.cols * cell_w + 30, bh = std::max(80.0, g.grid.rows * cell_h);
  for (int i = 0; i < 64; ++i) {
    const double v = scale.hi - (scale.hi - scale.lo) * (i + 0.5) / 64;
    c.fill_rect(bx, top + bh * i / 64, 16, bh / 64 + 0.5, scale.color(v));
  }
  c.stroke_rect(bx, top, 16, bh, {0.2, 0.2, 0.2});
  char buf[32];
  std::snprintf(buf, sizeof buf, ">= %.2gx", scale.hi);
  c.text(bx + 22, top + 6, buf, 10);
  std::snprintf(buf, sizeof buf, "%.2gx", scale.lo);
  c.text(bx + 22, top + bh - 6, buf, 10);
  c.text(bx + 8, top + bh + 16, scale.label, 10, 0.5);
  c.finish();
  return L;
}

}  // namespace gms
