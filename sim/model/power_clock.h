#pragma once
// The SM clock a tensor-core kernel runs at. Hopper parts hold their boost only while the board's
// power allows: wgmma-heavy kernels and DRAM traffic pull it down (H100: 1.35-1.86 GHz across the
// validate GEMMs, ncu sm__cycles_elapsed / gpu__time_duration). The model is linear in the two loads
// the records show it depends on, and is applied after the run, holding the cycle count: the GEMMs
// it serves are bound by the SM side, whose cycles do not depend on the clock.
#include "config/gpu_config.h"
#include "model/engine.h"

namespace gms {

// clock.sm_tensor - drop_at_full_wgmma x wgmma activity - drop_per_dram_tbps x DRAM read TB/s (for
// wgmma kernels, with clock.sm_wgmma set: clock.sm_wgmma - the same two - drop_per_l2_tbps x L2 read
// TB/s), solved for the clock (the bandwidths themselves depend on it); at most clock.sm_tensor.
// Returns 0 when the GPU declares no drops (the clock stays what the run used).
double clock_under_load(const GpuConfig& gpu, const SimResult& r);

}  // namespace gms
