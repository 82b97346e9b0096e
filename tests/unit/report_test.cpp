// Report figures: decoded PNGs have the right size and known cells the right colours.
#include <cairo.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "access/access_spec.h"
#include "report/access_plot.h"
#include "report/plots.h"
#include "report/recommend_plot.h"
#include "report/report_writer.h"
#include "report/run_data.h"
#include "stats/report.h"
#include "test_util.h"

namespace gms {
namespace {

namespace fs = std::filesystem;

// Runs the real CLI once per configuration and returns the run directory.
fs::path seed_run(const std::string& order, const std::string& test_name) {
  auto dir = test::temp_dir("report_" + test_name + "_" + order);
  std::string cmd = std::string(GPUMEMSIM_BINARY) + " run -q --gpu " + test::source_path("configs/gpus/seed000-9sm.yaml") +
                    " --workload " + test::source_path("configs/workloads/seed000-" + order + ".yaml") +
                    " --timeline-bucket 200 --out " + (dir / "run").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return dir / "run";
}

struct Png {
  cairo_surface_t* s;
  explicit Png(const std::string& path) : s(cairo_image_surface_create_from_png(path.c_str())) {}
  ~Png() { cairo_surface_destroy(s); }
  bool ok() const { return cairo_surface_status(s) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(s); }
  int height() const { return cairo_image_surface_get_height(s); }
  std::array<int, 3> rgb(double x, double y) const {
    auto* row = cairo_image_surface_get_data(s) + static_cast<int>(y) * cairo_image_surface_get_stride(s);
    std::uint32_t px = reinterpret_cast<const std::uint32_t*>(row)[static_cast<int>(x)];
    return {static_cast<int>((px >> 16) & 255), static_cast<int>((px >> 8) & 255), static_cast<int>(px & 255)};
  }
};

std::array<int, 3> to255(const Rgb& c) {
  return {static_cast<int>(std::lround(c[0] * 255)), static_cast<int>(std::lround(c[1] * 255)),
          static_cast<int>(std::lround(c[2] * 255))};
}

void expect_near(std::array<int, 3> got, std::array<int, 3> want, const std::string& what) {
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], want[k], 2) << what << " channel " << k;
}

TEST(Report, TileHeatmapColoursKnownCells) {
  RunData run = load_run(seed_run("grouped", "cells").string());
  ASSERT_EQ(run.tiles_m, 9);
  ASSERT_EQ(run.tiles_n, 9);
  Grid g = tile_hit_rate_grid(run, false);
  // CTA 0 computes tile (0,0) first: every load misses. Tile (1,1) is launched after its A row and
  // B column were loaded by others: every load hits. Tile (8,8) is outside the first wave.
  EXPECT_EQ(g.at(0, 0), 0.0);
  EXPECT_EQ(g.at(1, 1), 100.0);
  EXPECT_TRUE(std::isnan(g.at(8, 8)));
  auto dir = test::temp_dir("report_cells");
  std::string path = (dir / "t.png").string();
  GridLayout L = draw_grid_figure(path, ImageFormat::kPng, Figure{"t", "", "x", "y"}, g, ColorScale{0, 100, false, "%"});
  Png png(path);
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png.width(), 900);
  EXPECT_EQ(png.height(), 760);
  expect_near(png.rgb(L.center_x(0), L.center_y(0)), {68, 1, 84}, "0 % cell (viridis start)");
  expect_near(png.rgb(L.center_x(1), L.center_y(1)), {253, 231, 37}, "100 % cell (viridis end)");
  expect_near(png.rgb(L.center_x(8), L.center_y(8)), to255(kMissingColor), "cell outside the simulated wave");
  expect_near(png.rgb(L.center_x(1), L.center_y(0)), to255(sequential_color(g.at(0, 1) / 100)), "cell (0,1)");
}

TEST(Report, SmTimeGridAccountsForEveryL2Access) {
  RunData run = load_run(seed_run("row-major", "smtime").string());
  TimeBins bins = time_bins(run, 7);
  EXPECT_LE(bins.cols, 7);
  Grid hit = sm_time_grid(run, false, bins);
  EXPECT_EQ(hit.rows, 9);
  std::uint64_t from_ctas = 0, from_timeline = 0;
  for (const auto& c : run.ctas) from_ctas += c.l2_hits + c.l2_misses;
  for (const auto& t : run.timeline) from_timeline += t.l2_hits + t.l2_misses;
  EXPECT_EQ(from_ctas, from_timeline);
  Grid dram = sm_time_grid(run, true, bins);
  double bytes = 0;
  for (double v : dram.v) bytes += v * 1e9 * bins.column_us * 1e-6;
  EXPECT_NEAR(bytes, run.metric("dram__bytes_read.sum"), 1.0);
}

TEST(Report, WritesEveryFigureInBothFormatsAndHtml) {
  RunData a = load_run(seed_run("row-major", "all").string()), b = load_run(seed_run("grouped", "all").string());
  auto dir = test::temp_dir("report_all");
  auto files = write_report(a, &b, (dir / "out").string(), ReportOptions{});
  for (const char* f : {"tiles_l2_hit.png", "tiles_l2_hit.svg", "sm_time_l2_hit.png", "sm_time_dram.svg",
                        "timeline.png", "timeline.svg", "compare_tiles.png", "compare_tiles.svg", "report.html"}) {
    EXPECT_TRUE(fs::exists(dir / "out" / f)) << f;
    EXPECT_GT(fs::file_size(dir / "out" / f), 1000u) << f;
  }
  EXPECT_FALSE(fs::exists(dir / "out.partial"));
  Png cmp((dir / "out" / "compare_tiles.png").string());
  EXPECT_EQ(cmp.width(), 1500);
}

TEST(Report, BadRunDirectoriesAreUserErrors) {
  auto dir = test::temp_dir("report_bad");
  EXPECT_THROW(load_run((dir / "nothing").string()), ConfigError);
  fs::path run = seed_run("grouped", "bad");
  test::write_file(run / "ctas.csv",
                   std::string(kCtaCsvHeader) + "\n0,0,x,0,0,1,1,1,,,\n");
  try {
    load_run(run.string());
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ctas.csv:2: 'x' is not a whole number"), std::string::npos) << e.what();
  }
  // A CTA without phase marks (no barrier, no global store) leaves their cells empty; a row short of
  // them is an error.
  test::write_file(run / "ctas.csv", std::string(kCtaCsvHeader) + "\n0,0,0,0,0,1,1,1,,,\n1,0,1,1,0,1,1,1,5,,7\n");
  EXPECT_EQ(load_run(run.string()).ctas.size(), 2u);
  // A table written before the start S2R's mark was added (no first_special_read_cycle) still reads.
  const std::string earlier(kCtaCsvHeader, std::string(kCtaCsvHeader).rfind(','));
  test::write_file(run / "ctas.csv", earlier + "\n0,0,0,0,0,1,1,1,,\n1,0,1,1,0,1,1,1,5,\n");
  EXPECT_EQ(load_run(run.string()).ctas.size(), 2u);
  test::write_file(run / "ctas.csv", std::string(kCtaCsvHeader) + "\n0,0,0,0,0,1,1,1\n");
  try {
    load_run(run.string());
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ctas.csv:2: expected 11 columns, found 8"), std::string::npos) << e.what();
  }
}

// gpumemsim access --report: a lane in a bank conflict is outlined red, a conflict-free one is not.
TEST(Report, AccessTileOutlinesConflictingLanes) {
  auto dir = test::temp_dir("access_tile");
  auto draw = [&](const std::string& tensor, const std::string& name) {
    CuteCopySpec spec;
    spec.tensor = parse_layout(tensor);
    spec.threads = parse_layout("(32,1)");
    AccessPattern p = pattern_of(spec, MemSpace::kShared, AccessOp::kLoad);
    std::string path = (dir / (name + ".png")).string();
    draw_access_tile(path, ImageFormat::kPng, spec, p, analyse_access(p), name);
    return path;
  };
  // Column reads of a 32x32 fp32 tile: 32-way conflicts row-major, none padded to 33 words.
  Png conflicted(draw("(32,32):(32,1)", "rowmajor")), padded(draw("(32,32):(33,1)", "padded"));
  ASSERT_TRUE(conflicted.ok());
  ASSERT_TRUE(padded.ok());
  // Cell (0,0) starts at (50, 60) and is 44 x 30; the 2.5 px outline covers x 50.25-52.75: pixel 51.
  expect_near(conflicted.rgb(51, 75), {217, 26, 26}, "conflicting lane outline");
  auto p = padded.rgb(51, 75);
  EXPECT_FALSE(p[0] > 200 && p[1] < 60 && p[2] < 60) << "no red outline without a conflict";
}

// gpumemsim recommend --report: candidates fold into (tile, warps+stages) cells in natural order, a
// cell keeps its fastest GROUP_SIZE_M, left-out cells say why, and the first pick's cell is outlined.
TEST(Report, RecommendSpaceGridFoldsCandidatesIntoCells) {
  RecommendResult r;
  auto ranked = [&](const std::string& label, double ns) {
    Candidate c;
    c.label = label;
    c.time_ns = ns;
    r.ranked.push_back(c);
  };
  ranked("128x128x64 w8 s3 g8", 100e3);  // fastest first, as recommend() returns them
  ranked("128x128x64 w8 s3 g1", 110e3);  // same cell, slower order: folded away
  ranked("64x128x64 w4 s12 g8", 150e3);
  ranked("64x128x64 w4 s3 g8", 200e3);
  Candidate big;
  big.label = "128x256x64 w4 s3 g8";
  big.excluded = "does not fit: a CTA needs 233472 B of shared memory, the GPU allows 232448 B per CTA";
  r.excluded.push_back(big);
  const CategoryGrid g = recommend_space_grid(r);
  EXPECT_EQ(g.rows, (std::vector<std::string>{"64x128x64", "128x128x64", "128x256x64"}));
  EXPECT_EQ(g.cols, (std::vector<std::string>{"w4 s3", "w4 s12", "w8 s3"}));
  EXPECT_DOUBLE_EQ(g.grid.at(1, 2), 1.0);
  EXPECT_EQ(g.grid.label[1 * 3 + 2], "100.0");
  EXPECT_DOUBLE_EQ(g.grid.at(0, 1), 1.5);
  EXPECT_DOUBLE_EQ(g.grid.at(0, 0), 2.0);
  EXPECT_TRUE(std::isnan(g.grid.at(2, 0)));
  EXPECT_EQ(g.grid.label[2 * 3 + 0], "smem");
  EXPECT_TRUE(std::isnan(g.grid.at(2, 2)));  // never in the space: empty, grey
  EXPECT_EQ(g.grid.label[2 * 3 + 2], "");
  EXPECT_EQ(std::make_pair(g.best_row, g.best_col), std::make_pair(1, 2));

  auto dir = test::temp_dir("recommend_space");
  const ColorScale scale{1.0, 2.0, false, "time / first pick"};
  const auto path = (dir / "space.png").string();
  const GridLayout L = draw_category_figure(path, ImageFormat::kPng, Figure{"t", "s", "x", "y"}, g, scale);
  Png png(path);
  ASSERT_TRUE(png.ok());
  // A cell's colour away from its text; the first pick's black outline on its cell's edge.
  expect_near(png.rgb(L.x0 + 0 * L.cell_w + 4, L.y0 + 0 * L.cell_h + 4), to255(scale.color(2.0)), "64x128x64 w4 s3");
  expect_near(png.rgb(L.x0 + 2 * L.cell_w + 4, L.y0 + 2 * L.cell_h + 4), to255(kMissingColor), "left out");
  // The 3 px outline is centred 1 px inside the cell: pixel column +1 lies wholly under it.
  expect_near(png.rgb(L.x0 + 2 * L.cell_w + 1, L.center_y(1)), {0, 0, 0}, "first pick outline");
}

}  // namespace
}  // namespace gms
