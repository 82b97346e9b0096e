#pragma once
// The approximate mode's arithmetic (Engine::set_sample_waves, `--sample-waves`): what a run's
// counters were at two retirements, and the whole grid's result extrapolated from them linearly in
// retired CTAs. The engine decides when to take the snapshots; this room only does the counting.
#include <cstdint>

#include "common/types.h"
#include "model/engine.h"
#include "model/memory_system.h"

namespace gms {

struct CountSnapshot {
  Tick t = 0;
  std::uint64_t warp_instructions = 0, mma_instructions = 0, dram_read = 0, dram_write = 0;
  double warp_ticks_resident = 0, flops = 0, tensor_busy_ticks = 0;
  double sm_active = 0;  // sum over SMs of (t - their first CTA's start)
  SharedCounters shared;
  MemCounters mem;
  StallAccounting stalls;
};

// `r` and `mem` as they are at tick t; `sm_active` as CountSnapshot defines it.
CountSnapshot snapshot_counts(const SimResult& r, const MemorySystem& mem, double sm_active, Tick t);

// Sets r's time and every counter to b's plus f x (b - a): f = CTAs not simulated / CTAs retired
// between the snapshots. Only the CTAs that finished keep their records.
void extrapolate_counts(SimResult& r, const CountSnapshot& a, const CountSnapshot& b, double f);

}  // namespace gms
