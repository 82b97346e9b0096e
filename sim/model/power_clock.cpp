#include "model/power_clock.h"

#include <algorithm>

namespace gms {

double clock_under_load(const GpuConfig& gpu, const SimResult& r) {
  if (gpu.clock_drop_full_wgmma <= 0 && gpu.clock_drop_per_dram_tbps <= 0 && gpu.clock_drop_per_l2_tbps <= 0) return 0;
  // clock.sm_tensor: load_configs put it into sm_clock for tensor-core GEMMs; a run simulated again
  // at the clock it was timed at (simulate()) has a lower sm_clock and keeps clock.sm_tensor as base.
  const double tensor_base = gpu.sm_clock_tensor > 0 ? gpu.sm_clock_tensor : gpu.sm_clock;
  const double cycles = static_cast<double>(ticks_to_whole_cycles(r.end) + gpu.launch.kernel_overhead);
  if (cycles <= 0) return 0;
  const bool wgmma = r.shape.mma_class == "wgmma";
  const double wgmma_activity =
      wgmma && r.sm_active_ticks > 0 ? std::min(1.0, r.tensor_busy_ticks / (r.sm_active_ticks * gpu.sm.subpartitions)) : 0.0;
  // wgmma kernels sit on their own line, where the L2's traffic costs power too (fit_power_clock.py:
  // the records' clocks at one activity differ with their L2 reads, the mma.sync records' do not).
  const bool own_line = wgmma && gpu.clock_sm_wgmma > 0;
  const double base = own_line ? gpu.clock_sm_wgmma : tensor_base;
  // Read TB/s at clock f is bytes * f / cycles / 1e12: f = (base - w) / (1 + d * dram / cycles / 1e12 + l * l2 / ...).
  const double dram_per_hz = static_cast<double>(r.dram_read_bytes) / cycles / 1e12;
  const double l2_per_hz =
      own_line ? static_cast<double>(r.mem.l2_read_sectors) * static_cast<double>(gpu.l2.sector) / cycles / 1e12 : 0.0;
  const double f = (base - gpu.clock_drop_full_wgmma * wgmma_activity) /
                   (1.0 + gpu.clock_drop_per_dram_tbps * dram_per_hz + gpu.clock_drop_per_l2_tbps * l2_per_hz);
  return std::clamp(f, 0.25 * tensor_base, tensor_base);
}

}  // namespace gms
