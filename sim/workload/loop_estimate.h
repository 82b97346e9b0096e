#pragma once
// What a compiled Triton wgmma main loop issues per warp and K tile beyond the data path the model builds
// (address arithmetic, predicates, loop control between the LDGSTS, barriers and HGMMAs): the workload's
// issue.instructions / issue.stall_cycles, estimated for a configuration no one has compiled yet (recommend's
// candidates). Records carry the exact profile of their own SASS instead (validate/scripts/records_add_issue.py).
#include <optional>

#include "config/workload_config.h"

namespace gms {

struct LoopIssueEstimate {
  int instructions = 0;  // warp instructions per K tile
  int stall_cycles = 0;  // the compiler's stall counts over them
};

// The Triton cp.async wgmma loop (mma: wgmma, copy: cp_async) from its copies per thread and K tile; nullopt for
// other loops (mma.sync, TMA, fp32), whose code the estimate was not taken from.
std::optional<LoopIssueEstimate> estimated_triton_loop_issue(const GemmConfig& cfg);

}  // namespace gms
