#pragma once
// The GPU schema's declarations, split by part of the GPU (gpu_schema.cpp declares the rest and puts them in order).
#include <vector>

#include "common/units.h"
#include "config/gpu_config.h"
#include "config/param.h"

namespace gms {

// What every part's declarations write: the quantity kinds, the config, the upper bound of unbounded sizes.
namespace gpu_schema_parts {
using Q = Quantity;
using G = GpuConfig;
inline constexpr double kBig = 1e18;
}  // namespace gpu_schema_parts

// The SM's parameters (sm.*), appended to `p` in their documented order.
void add_sm_params(std::vector<Param<GpuConfig>>& p);

}  // namespace gms
