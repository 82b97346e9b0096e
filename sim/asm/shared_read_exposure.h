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
//
// Special-register reads (S2R, S2UR: SR_TID.X, SR_LANEID, Hopper's SR_CgaCtaId for a shared address)
// are variable-latency too, and Nsight counts their consumers' wait as short_scoreboard as well; a
// loop short of registers re-reads them every iteration. The same walk gives their exposure.
#include <vector>

#include "asm/sass_issue.h"

namespace gms {

struct SharedReadExposure {
  double exposed_reads = 0;  // per iteration: S's slope (cycles of wait per cycle of latency)
  double hidden_cycles = 0;  // S(latency) ~ exposed_reads x (latency - hidden_cycles) above it
};

enum class VariableRead { kShared, kSpecialRegister };

// The warp's wait on reads of `kind` (shared: LDS, LDSM; special registers: S2R, S2UR) per
// iteration of `body` - the loop's instructions in issue order, the back edge after the last - at a
// read latency of `latency` cycles, in the steady state (reads in flight across the back edge
// count). Other variable-latency producers release their scoreboards at once: their waits are
// counted with their own kind (or are other stall reasons: global loads).
double read_wait(const std::vector<SassInstruction>& body, double latency, VariableRead kind);
inline double shared_read_wait(const std::vector<SassInstruction>& body, double latency) {
  return read_wait(body, latency, VariableRead::kShared);
}

// S at 32 and 64 cycles (an idle and a busy shared pipe: the H100 measures 29) as slope and start.
SharedReadExposure shared_read_exposure(const std::vector<SassInstruction>& body);
// The same for special-register reads, at 16 and 32 cycles (the H100 measures 25, 26 beside a busy
// shared pipe: validate/results/h100/sreg). Both are exact where the order hides no more than the
// lower latency (reads used later than that are partly hidden at both points).
SharedReadExposure special_read_exposure(const std::vector<SassInstruction>& body);

}  // namespace gms
