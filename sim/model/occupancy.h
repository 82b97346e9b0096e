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
  std::int64_t l1_bytes = 0;     // the L1 the kernel runs with (l1_bytes_for)
};

// Throws ConfigError when not even one CTA fits (naming the resource and both sizes).
Occupancy compute_occupancy(const GpuConfig& gpu, const LaunchShape& shape);

// The L1 a kernel runs with: l1.size, or, where L1 and shared memory share one array
// (l1.unified_bytes), what is left of it beside its carve-out: the one the workload gives
// (shared_carveout, what ncu says a record ran with), else the driver's - the smallest of
// l1.carveouts that holds the shared memory (and its reserve) of l1.carveout_headroom x the CTAs the
// other limits let run (at most those the largest carve-out holds), the largest when none does (gms-carveout-ubench). Throws ConfigError for a
// given carve-out the GPU lacks or that cannot hold the CTA.
std::int64_t l1_bytes_for(const GpuConfig& gpu, const LaunchShape& shape, const Occupancy& occ);

}  // namespace gms
