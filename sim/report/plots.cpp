#include "report/plots.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "common/error.h"

namespace gms {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string fmt(double v, const char* f = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Draws grid + colour bar inside [x, y, w, h]; returns the cell layout.
GridLayout draw_grid(Canvas& c, double x, double y, double w, double h, const Grid& g, const ColorScale& s,
                     const Figure& f, bool bar) {
  double cell = std::min(w / std::max(1, g.cols), h / std::max(1, g.rows));
  double cw = g.cols * cell > w ? w / g.cols : cell, ch = cell;
  if (g.rows > 2 * g.cols) ch = std::max(1.0, h / g.rows);  // tall grids (SM x time): fill the height
  if (g.cols > 2 * g.rows) cw = std::max(1.0, w / g.cols), ch = std::min(h / g.rows, cw * 4 + 4);
  GridLayout L{x, y, cw, ch};
  for (int r = 0; r < g.rows; ++r)
    for (int col = 0; col < g.cols; ++col) {
      double v = g.at(r, col);
      c.fill_rect(x + col * cw, y + r * ch, cw + 0.01, ch + 0.01, std::isnan(v) ? kMissingColor : s.color(v));
    }
  c.stroke_rect(x, y, g.cols * cw, g.rows * ch, {0.2, 0.2, 0.2});
  if (!g.label.empty() && cw >= 24 && ch >= 18)
    for (int r = 0; r < g.rows; ++r)
      for (int col = 0; col < g.cols; ++col) {
        const std::string& t = g.label[static_cast<size_t>(r) * g.cols + col];
        if (t.empty()) continue;
        double v = g.at(r, col);
        Rgb ink = (!std::isnan(v) && s.color(v)[1] > 0.6) ? Rgb{0, 0, 0} : Rgb{1, 1, 1};
        auto nl = t.find('\n');
        double fs = std::min(11.0, ch / 3.2);
        c.text(L.center_x(col), L.center_y(r) - (nl == std::string::npos ? 0 : fs * 0.6), t.substr(0, nl), fs, 0.5,
               false, ink);
        if (nl != std::string::npos) c.text(L.center_x(col), L.center_y(r) + fs * 0.6, t.substr(nl + 1), fs, 0.5, false, ink);
      }
  // Axes: a few tick labels along each side.
  auto ticks = [](int n) {
    std::vector<int> t;
    int step = std::max(1, n / 8);
    for (int i = 0; i < n; i += step) t.push_back(i);
    return t;
  };
  for (int col : ticks(g.cols))
    c.text(f.x_tick_scale > 0 ? x + col * cw : L.center_x(col), y + g.rows * ch + 10,
           f.x_tick_scale > 0 ? fmt(col * f.x_tick_scale, "%.4g") : std::to_string(col), 10, 0.5);
  for (int r : ticks(g.rows)) c.text(x - 4, L.center_y(r), std::to_string(r), 10, 1);
  c.text(x + g.cols * cw / 2, y + g.rows * ch + 28, f.xlabel, 12, 0.5);
  c.text(x - 34, y + g.rows * ch / 2, f.ylabel, 12, 0.5, false, {0, 0, 0}, -M_PI / 2);
  if (bar) {
    double bx = x + g.cols * cw + 24, bh = std::min(300.0, g.rows * ch);
    for (int i = 0; i < 100; ++i) {
      double t = 1 - (i + 0.5) / 100;
      c.fill_rect(bx, y + i * bh / 100, 16, bh / 100 + 0.5, s.color(s.lo + t * (s.hi - s.lo)));
    }
    c.stroke_rect(bx, y, 16, bh, {0.2, 0.2, 0.2});
    for (int k = 0; k <= 4; ++k) {
      double v = s.hi - k * (s.hi - s.lo) / 4;
      c.text(bx + 20, y + k * bh / 4, fmt(v), 10);
    }
    c.text(bx + 8, y + bh + 14, s.label, 10, 0.5);
  }
  return L;
}

void header(Canvas& c, const Figure& f) {
  c.text(20, 18, f.title, 15, 0, true);
  if (!f.subtitle.empty()) c.text(20, 38, f.subtitle, 11, 0, false, {0.3, 0.3, 0.3});
}

}  // namespace

Rgb ColorScale::color(double v) const {
  if (diverging) {
    double m = std::max(std::fabs(lo), std::fabs(hi));
    return diverging_color(m > 0 ? v / m : 0);
  }
  return sequential_color(hi > lo ? (v - lo) / (hi - lo) : 0);
}

Grid tile_hit_rate_grid(const RunData& run, bool annotate) {
  Grid g{static_cast<int>(run.tiles_m), static_cast<int>(run.tiles_n), {}, {}};
  g.v.assign(static_cast<size_t>(g.rows) * g.cols, kNaN);
  if (annotate) g.label.assign(g.v.size(), "");
  for (const auto& c : run.ctas) {
    std::uint64_t n = c.l2_hits + c.l2_misses;
    g.at(static_cast<int>(c.tile_m), static_cast<int>(c.tile_n)) = n ? 100.0 * c.l2_hits / n : kNaN;
    if (annotate)
      g.label[static_cast<size_t>(c.tile_m) * g.cols + c.tile_n] =
          "#" + std::to_string(c.launch) + "\nSM" + std::to_string(c.sm);
  }
  return g;
}

TimeBins time_bins(const RunData& run, int max_cols) {
  if (run.timeline.empty() || run.bucket_cycles == 0)
    throw ConfigError(run.dir + ": no timeline.csv (run with --timeline-bucket N or --report)");
  std::uint64_t buckets = run.cycles / run.bucket_cycles + 1;
  TimeBins t;
  t.merge = (buckets + max_cols - 1) / max_cols;
  t.cols = static_cast<int>((buckets + t.merge - 1) / t.merge);
  t.column_us = static_cast<double>(run.bucket_cycles * t.merge) / run.sm_clock * 1e6;
  return t;
}

Grid sm_time_grid(const RunData& run, bool dram, const TimeBins& bins) {
  const int cols = bins.cols;
  std::vector<double> hit(static_cast<size_t>(run.sms) * cols, 0), miss(hit.size(), 0), bytes(hit.size(), 0);
  for (const auto& t : run.timeline) {
    if (t.sm < 0 || t.sm >= run.sms)
      throw ConfigError(run.dir + "/timeline.csv: SM " + std::to_string(t.sm) + " out of range");
    size_t i = static_cast<size_t>(t.sm) * cols + bins.column_of(t.bucket_start, run.bucket_cycles);
    hit[i] += t.l2_hits;
    miss[i] += t.l2_misses;
    bytes[i] += t.dram_bytes;
  }
  double seconds = bins.column_us * 1e-6;
  Grid g{run.sms, cols, std::vector<double>(hit.size(), kNaN), {}};
  for (size_t i = 0; i < hit.size(); ++i) {
    if (dram)
      g.v[i] = bytes[i] / seconds / 1e9;
    else if (hit[i] + miss[i] > 0)
      g.v[i] = 100.0 * hit[i] / (hit[i] + miss[i]);
  }
  return g;
}

GridLayout draw_grid_figure(const std::string& path, ImageFormat fmt_, const Figure& fig, const Grid& grid,
                            const ColorScale& scale) {
  Canvas c(path, fmt_, 900, 760);
  header(c, fig);
  GridLayout L = draw_grid(c, 70, 60, 720, 640, grid, scale, fig, true);
  c.finish();
  return L;
}

void draw_timeline_figure(const std::string& path, ImageFormat f, const Figure& fig, const RunData& run) {
  TimeBins bins = time_bins(run, 300);
  Grid dram = sm_time_grid(run, true, bins);
  // Whole-GPU series: DRAM bandwidth sums the SMs; the hit rate weighs buckets by their sectors.
  std::vector<double> bw(bins.cols, 0), rate(bins.cols, kNaN), h(bins.cols, 0), n(bins.cols, 0);
  for (const auto& t : run.timeline) {
    size_t col = bins.column_of(t.bucket_start, run.bucket_cycles);
    h[col] += t.l2_hits;
    n[col] += t.l2_hits + t.l2_misses;
  }
  for (int col = 0; col < bins.cols; ++col) {
    for (int sm = 0; sm < dram.rows; ++sm) bw[col] += dram.at(sm, col);
    if (n[col] > 0) rate[col] = 100.0 * h[col] / n[col];
  }
  Canvas c(path, f, 900, 420);
  header(c, fig);
  double x0 = 80, y0 = 60, w = 720, hgt = 290;
  double peak = std::max(1.0, *std::max_element(bw.begin(), bw.end()));
  c.stroke_rect(x0, y0, w, hgt, {0.2, 0.2, 0.2});
  for (int k = 0; k <= 4; ++k) {
    double yy = y0 + hgt - k * hgt / 4;
    c.line(x0, yy, x0 + w, yy, {0.9, 0.9, 0.9});
    c.text(x0 - 6, yy, fmt(peak * k / 4, "%.0f"), 10, 1, false, {0.13, 0.4, 0.67});
    c.text(x0 + w + 6, yy, fmt(25.0 * k, "%.0f"), 10, 0, false, {0.8, 0.3, 0.1});
  }
  auto plot = [&](const std::vector<double>& s, double scale, const Rgb& color) {
    bool pen = false;
    cairo_t* cr = c.cr();
    cairo_set_source_rgb(cr, color[0], color[1], color[2]);
    cairo_set_line_width(cr, 1.6);
    for (size_t i = 0; i < s.size(); ++i) {
      if (std::isnan(s[i])) {
        pen = false;
        continue;
      }
      double xx = x0 + (i + 0.5) * w / s.size(), yy = y0 + hgt - s[i] / scale * hgt;
      if (pen) cairo_line_to(cr, xx, yy);
      else cairo_move_to(cr, xx, yy);
      pen = true;
    }
    cairo_stroke(cr);
  };
  plot(bw, peak, {0.13, 0.4, 0.67});
  plot(rate, 100.0, {0.8, 0.3, 0.1});
  double total_us = run.cycles / run.sm_clock * 1e6;
  for (int k = 0; k <= 5; ++k) c.text(x0 + k * w / 5, y0 + hgt + 12, fmt(total_us * k / 5, "%.4g"), 10, 0.5);
  c.text(x0 + w / 2, y0 + hgt + 30, fig.xlabel, 12, 0.5);
  c.text(24, y0 + hgt / 2, "DRAM read bandwidth (GB/s)", 12, 0.5, false, {0.13, 0.4, 0.67}, -M_PI / 2);
  c.text(x0 + w + 50, y0 + hgt / 2, "L2 hit rate (%)", 12, 0.5, false, {0.8, 0.3, 0.1}, M_PI / 2);
  c.finish();
}

std::vector<GridLayout> draw_compare_figure(const std::string& path, ImageFormat f, const Figure& fig, const Grid& a,
                                            const Grid& b, const std::string& name_a, const std::string& name_b) {
  if (a.rows != b.rows || a.cols != b.cols)
    throw ConfigError("the two runs have different tile grids (" + std::to_string(a.rows) + "x" +
                      std::to_string(a.cols) + " and " + std::to_string(b.rows) + "x" + std::to_string(b.cols) + ")");
  Grid d{a.rows, a.cols, std::vector<double>(a.v.size(), kNaN), {}};
  double m = 1;
  for (size_t i = 0; i < d.v.size(); ++i) {
    d.v[i] = b.v[i] - a.v[i];
    if (!std::isnan(d.v[i])) m = std::max(m, std::fabs(d.v[i]));
  }
  Canvas c(path, f, 1500, 560);
  header(c, fig);
  ColorScale pct{0, 100, false, "L2 hit %"}, diff{-m, m, true, "B - A (pp)"};
  std::vector<GridLayout> out;
  Figure fa = fig, fb = fig, fd = fig;
  c.text(60, 64, "A: " + name_a, 12, 0, true);
  c.text(560, 64, "B: " + name_b, 12, 0, true);
  c.text(1060, 64, "difference B - A", 12, 0, true);
  out.push_back(draw_grid(c, 60, 80, 400, 400, a, pct, fa, true));
  out.push_back(draw_grid(c, 560, 80, 400, 400, b, pct, fb, true));
  out.push_back(draw_grid(c, 1060, 80, 360, 400, d, diff, fd, true));
  c.finish();
  return out;
}

}  // namespace gms
