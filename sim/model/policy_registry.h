#pragma once
// Names of the swappable policies. Each kind has a small interface (see warp_scheduler.h,
// dispatcher.h, address_map.h, tag_array.h); this is the one list a new policy is added to.
#include <memory>
#include <string>
#include <vector>

namespace gms {

enum class PolicyKind { kWarpScheduler, kDispatch, kReplacement, kL2Hash };

std::vector<std::string> policy_names(PolicyKind kind);

}  // namespace gms
