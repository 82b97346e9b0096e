#pragma once
// `gpumemsim recommend --report`: the searched space as one picture. Rows are the tilings (GEMM:
// BLOCK_MxBLOCK_NxBLOCK_K; GEMV: BLOCK_N x BLOCK_K), columns the launch choices (warps and stages;
// GEMV: warps and load order); each cell is the predicted time of its best candidate over what is
// left (GROUP_SIZE_M), relative to the first pick, with the time written in; cells recommend left
// out are grey with the reason (smem, warps, ...). The first pick is outlined.
#include <string>
#include <vector>

#include "recommend/recommend.h"
#include "report/plots.h"

namespace gms {

struct CategoryGrid {
  std::vector<std::string> rows, cols;  // labels in natural order ("64x128x64" before "128x64x32")
  Grid grid;                            // time / first pick's time (NaN: left out); label: "52.4" or "smem"
  int best_row = -1, best_col = -1;     // the first pick's cell
};

// Splits each candidate label "<row> <col...> [g<N>]" of the recommend result into its cell.
CategoryGrid recommend_space_grid(const RecommendResult& r);

// Draws the grid with row and column labels and a colour bar; returns where its cells are.
GridLayout draw_category_figure(const std::string& path, ImageFormat fmt, const Figure& fig, const CategoryGrid& g,
                                const ColorScale& scale);

}  // namespace gms
