#include "model/policy_registry.h"

namespace gms {

std::vector<std::string> policy_names(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kWarpScheduler: return {"gto", "lrr", "oldest_three", "cta_share"};
    case PolicyKind::kDispatch: return {"round_robin", "greedy"};
    case PolicyKind::kReplacement: return {"lru", "fifo", "random"};
    case PolicyKind::kL2Hash: return {"linear", "xor", "mix"};
  }
  return {};
}

}  // namespace gms
