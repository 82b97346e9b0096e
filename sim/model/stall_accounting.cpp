#include "model/stall_accounting.h"

namespace gms {

const char* warp_state_name(WarpState s) {
  switch (s) {
    case WarpState::kSelected: return "selected";
    case WarpState::kNotSelected: return "not_selected";
    case WarpState::kLongScoreboard: return "long_scoreboard";
    case WarpState::kBarrier: return "barrier";
    case WarpState::kMathPipeThrottle: return "math_pipe_throttle";
    case WarpState::kShortScoreboard: return "short_scoreboard";
    case WarpState::kWait: return "wait";
    case WarpState::kDispatchStall: return "dispatch_stall";
    case WarpState::kBranchResolving: return "branch_resolving";
    case WarpState::kDrain: return "drain";
    case WarpState::kMioThrottle: return "mio_throttle";
    case WarpState::kLgThrottle: return "lg_throttle";
    case WarpState::kNoInstruction: return "no_instruction";
    case WarpState::kCount: break;
  }
  return "?";
}

void StallAccounting::write_csv(std::ostream& os) const {
  os << "sm,warp_slot,launch_index,state,start_cycle,end_cycle\n";
  for (const auto& s : segments_)
    os << traced_sm_ << ',' << s.warp << ',' << s.cta << ',' << warp_state_name(s.state) << ','
       << static_cast<double>(s.from) / kTicksPerCycle << ',' << static_cast<double>(s.to) / kTicksPerCycle << '\n';
}

void StallAccounting::write_barriers_csv(std::ostream& os) const {
  os << "sm,launch_index,release_cycle\n";
  for (const auto& r : releases_) os << traced_sm_ << ',' << r.cta << ',' << static_cast<double>(r.at) / kTicksPerCycle << '\n';
}

}  // namespace gms
