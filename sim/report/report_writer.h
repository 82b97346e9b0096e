#pragma once
// `gpumemsim heatmap` / `gpumemsim run --report`: every figure of a run (and optionally a second run
// to compare with) plus one self-contained HTML page.
#include <string>
#include <vector>

#include "report/run_data.h"

namespace gms {

struct ReportOptions {
  bool png = true, svg = true;
  bool annotate = false;  // launch index and SM in each tile (auto for grids up to 16x16)
  bool html = true;
};

// Writes into `out_dir` (created; files replaced). Everything is first rendered into a scratch
// directory beside it and moved into place only when all of it succeeded. Returns the files written.
std::vector<std::string> write_report(const RunData& run, const RunData* compare, const std::string& out_dir,
                                      const ReportOptions& opt);

}  // namespace gms
