#pragma once
// Launch index -> output tile. A named policy: row_major, column_major, grouped (Triton's
// GROUP_SIZE_M formula), grouped_n (the same along N), custom (a list read from a file).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/workload_config.h"
#include "workload/program.h"

namespace gms {

std::vector<std::string> cta_order_kinds();

class CtaOrder {
 public:
  virtual ~CtaOrder() = default;
  virtual TileCoord tile(std::int64_t pid) const = 0;
  virtual std::int64_t size() const = 0;  // launches this order defines
};

// A warp's cursor at the start of launch `launch_index`: its tile by `order`, phase 0.
WarpCursor cursor_at(const CtaOrder& order, std::int64_t launch_index, int warp);

// Throws ConfigError for a bad custom file (named with line numbers).
std::unique_ptr<CtaOrder> make_cta_order(const CtaOrderConfig& cfg, std::int64_t tiles_m, std::int64_t tiles_n,
                                         const std::string& base_dir);

}  // namespace gms
