#pragma once
// How many CTAs of a kernel fit on one SM, and which resource limits it.
#include <cstdint>
#include <string>

#include "config/gpu_config.h"
#include "workload/program.h"

namespace gms {

struct Occupancy {
  int ctas_per_sm = 0;
  int by_warps = 0, by_ctas = 0, by_registers = 0, by_shared_mem = 0;
  std::string limiter;  // "warps" | "ctas" | "registers" | "shared_mem"
  int registers_per_thread = 0;  // after clamping to the hardware limit
  int spilled_registers = 0;     // registers per thread beyond the limit
};

// Throws ConfigError when not even one CTA fits (naming the resource and both sizes).
Occupancy compute_occupancy(const GpuConfig& gpu, const LaunchShape& shape);

}  // namespace gms
