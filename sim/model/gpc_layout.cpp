#include "model/gpc_layout.h"

#include <numeric>

#include "common/error.h"

namespace gms {

std::vector<int> sm_gpcs(const std::vector<int>& gpc_sms, int sm_count) {
  if (gpc_sms.empty()) return {};
  SIM_ASSERT(std::accumulate(gpc_sms.begin(), gpc_sms.end(), 0) == sm_count,
             "GPC sizes do not add up to the SM count (" << sm_count << ")");
  const int gpcs = static_cast<int>(gpc_sms.size());
  std::vector<int> room = gpc_sms;
  std::vector<int> out(static_cast<size_t>(sm_count), -1);
  int g = 0;
  for (int sm = 0; sm < sm_count; ++sm) {
    // A TPC's second SM joins its first one's GPC while that has room; otherwise, and at each new TPC,
    // the next GPC with room.
    const bool new_tpc = sm % 2 == 0 || room[static_cast<size_t>(g)] == 0;
    if (new_tpc && sm > 0) g = (g + 1) % gpcs;
    while (room[static_cast<size_t>(g)] == 0) g = (g + 1) % gpcs;
    out[static_cast<size_t>(sm)] = g;
    --room[static_cast<size_t>(g)];
  }
  return out;
}

}  // namespace gms
