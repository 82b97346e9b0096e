#pragma once
// The report figures. Each writes one image (PNG or SVG) and returns where its cells were drawn so
// tests can look up the colour of a known cell.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "report/canvas.h"
#include "report/run_data.h"

namespace gms {

// Row-major grid of values; NaN marks a cell with no data (drawn grey).
struct Grid {
  int rows = 0, cols = 0;
  std::vector<double> v;
  std::vector<std::string> label;  // optional per-cell annotation ("" = none)
  double& at(int r, int c) { return v[static_cast<size_t>(r) * cols + c]; }
  double at(int r, int c) const { return v[static_cast<size_t>(r) * cols + c]; }
};

struct GridLayout {
  double x0 = 0, y0 = 0, cell_w = 0, cell_h = 0;
  double center_x(int col) const { return x0 + (col + 0.5) * cell_w; }
  double center_y(int row) const { return y0 + (row + 0.5) * cell_h; }
};

struct ColorScale {
  double lo = 0, hi = 1;
  bool diverging = false;
  std::string label;
  Rgb color(double v) const;
};

// Per output tile: L2 hit rate (%) of the loads of the CTA that computed it.
Grid tile_hit_rate_grid(const RunData& run, bool annotate);
// The run's timeline buckets merged `merge` at a time into at most `max_cols` columns.
struct TimeBins {
  int cols = 0;
  std::uint64_t merge = 1;
  double column_us = 0;
  size_t column_of(std::uint64_t bucket_start, std::uint64_t bucket_cycles) const {
    return std::min<size_t>(static_cast<size_t>(cols) - 1, bucket_start / bucket_cycles / merge);
  }
};
TimeBins time_bins(const RunData& run, int max_cols);
// Per SM and time column: L2 hit rate (%) or DRAM read GB/s.
Grid sm_time_grid(const RunData& run, bool dram, const TimeBins& bins);

struct Figure {
  std::string title, subtitle, xlabel, ylabel;
  double x_tick_scale = 0;  // > 0: column ticks are labelled col x scale (e.g. microseconds)
};

GridLayout draw_grid_figure(const std::string& path, ImageFormat fmt, const Figure& fig, const Grid& grid,
                            const ColorScale& scale);
// DRAM read bandwidth and L2 hit rate over the kernel's time.
void draw_timeline_figure(const std::string& path, ImageFormat fmt, const Figure& fig, const RunData& run);
// Two runs' tile grids and their difference (B - A, percentage points).
std::vector<GridLayout> draw_compare_figure(const std::string& path, ImageFormat fmt, const Figure& fig,
                                            const Grid& a, const Grid& b, const std::string& name_a,
                                            const std::string& name_b);

}  // namespace gms
