#include "model/gpc_layout.h"

#include <numeric>
#include <string>

#include "common/error.h"
#include "model/dispatcher.h"

namespace gms {

std::vector<int> sm_gpcs(const std::vector<int>& gpc_sms, int sm_count, const std::vector<int>& order) {
  if (gpc_sms.empty()) return {};
  SIM_ASSERT(std::accumulate(gpc_sms.begin(), gpc_sms.end(), 0) == sm_count,
             "GPC sizes do not add up to the SM count (" << sm_count << ")");
  SIM_ASSERT(order.empty() || static_cast<int>(order.size()) == sm_count,
             "an SM order of " << order.size() << " for " << sm_count << " SMs");
  const int gpcs = static_cast<int>(gpc_sms.size());
  std::vector<int> room = gpc_sms;
  std::vector<int> out(static_cast<size_t>(sm_count), -1);
  int g = 0;
  for (int i = 0; i < sm_count; ++i) {  // the i-th SM the dispatcher visits
    // A TPC's second SM joins its first one's GPC while that has room; otherwise, and at each new TPC,
    // the next GPC with room.
    const bool new_tpc = i % 2 == 0 || room[static_cast<size_t>(g)] == 0;
    if (new_tpc && i > 0) g = (g + 1) % gpcs;
    while (room[static_cast<size_t>(g)] == 0) g = (g + 1) % gpcs;
    out[static_cast<size_t>(order.empty() ? i : order[static_cast<size_t>(i)])] = g;
    --room[static_cast<size_t>(g)];
  }
  return out;
}

std::vector<int> sm_gpcs(const GpuConfig& gpu) {
  std::string why;
  const auto sizes = parse_gpc_sms(gpu.icnt.gpc_sms, &why);
  SIM_ASSERT(sizes, "icnt.gpc_sms passed config validation: " << why);
  return sm_gpcs(*sizes, gpu.sm.count, sm_order_of(gpu));
}

}  // namespace gms
