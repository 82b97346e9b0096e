#pragma once
// Pictures of one access pattern (gpumemsim access --report): the tile with, per element, the thread
// that moves it and its shared-memory bank (or global sector), conflicting lanes outlined in red,
// like CuTe's print_latex plus banks; or, for a lane list, banks x instructions.
#include <string>

#include "access/access_spec.h"
#include "access/bank_model.h"
#include "report/canvas.h"

namespace gms {

void draw_access_tile(const std::string& path, ImageFormat format, const CuteCopySpec& spec, const AccessPattern& p,
                      const AccessAnalysis& a, const std::string& title);
void draw_access_banks(const std::string& path, ImageFormat format, const AccessPattern& p, const AccessAnalysis& a,
                       const std::string& title);

}  // namespace gms
