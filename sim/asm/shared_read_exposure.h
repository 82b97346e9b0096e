#pragma once
// How much of a shared-memory read's latency a compiled loop leaves exposed to its own warp. A loop
// that uses an LDS result a few instructions after the load waits for the rest of the latency
// (Nsight's short_scoreboard); one that loads a step ahead never waits. Walking one warp alone
// through the loop - each instruction issuing after the previous one's stall count and after the
// scoreboards its wait mask names, a shared read releasing its scoreboard `latency` cycles after
// issue - gives the loop's own wait per iteration as a function of the read latency, S(latency).
//
// The timing model takes S as two numbers, so that a GPU with another shared latency replays the same
// loop: the reads whose wait is exposed (S's slope) and the latency the instruction order hides
// (where S starts). Both come from the compiled code alone; other warps hide part of these waits in
// the simulation, as they do on silicon.
#include <vector>

#include "asm/sass_issue.h"

namespace gms {

struct SharedReadExposure {
  double exposed_reads = 0;  // per iteration: S's slope (cycles of wait per cycle of latency)
  double hidden_cycles = 0;  // S(latency) ~ exposed_reads x (latency - hidden_cycles) above it
};

// The warp's wait on shared reads (LDS, LDSM) per iteration of `body` - the loop's instructions in
// issue order, the back edge after the last - at a read latency of `latency` cycles, in the steady
// state (reads in flight across the back edge count). Other variable-latency producers (global
// loads, S2R) release their scoreboards at once: their waits are other stall reasons.
double shared_read_wait(const std::vector<SassInstruction>& body, double latency);

// S at 32 and 64 cycles (an idle and a busy shared pipe: the H100 measures 29) as slope and start.
SharedReadExposure shared_read_exposure(const std::vector<SassInstruction>& body);

}  // namespace gms
