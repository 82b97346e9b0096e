#include "model/gpc_share.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.h"
#include "model/dispatcher.h"
#include "model/gpc_layout.h"

namespace gms {

std::vector<double> gpc_wait_scales(const std::vector<int>& gpc_sms, int sm_count, double ratio,
                                    const std::vector<int>& order) {
  const std::vector<int> gpc = sm_gpcs(gpc_sms, sm_count, order);
  if (gpc.empty()) return {};
  SIM_ASSERT(ratio >= 1, "a GPC share ratio under 1: " << ratio);
  const auto [lo, hi] = std::minmax_element(gpc_sms.begin(), gpc_sms.end());
  // Equal GPCs: nobody is ahead, whatever the ratio.
  const double a = *lo == *hi ? 0.0 : std::log(ratio) / std::log(static_cast<double>(*hi) / *lo);
  std::vector<double> out(gpc.size());
  for (size_t sm = 0; sm < gpc.size(); ++sm)
    out[sm] = std::pow(static_cast<double>(gpc_sms[static_cast<size_t>(gpc[sm])]) / *hi, a);
  return out;
}

GpcShare::GpcShare(const GpuConfig& gpu, double dram_bytes_per_cycle) {
  if (gpu.dram.gpc_share_backlog <= 0) return;
  // A line's round trip past the unloaded miss by more than the backlog's time at the DRAM's rate.
  unloaded_ = cycles_to_ticks(gpu.dram.latency);
  after_ = static_cast<Tick>(static_cast<double>(gpu.dram.gpc_share_backlog) * kTicksPerCycle / dram_bytes_per_cycle + 0.5);
  std::string why;
  const auto sizes = parse_gpc_sms(gpu.icnt.gpc_sms, &why);
  SIM_ASSERT(sizes && !sizes->empty(), "dram.gpc_share_backlog without a valid icnt.gpc_sms: " << why);
  scale_ = gpc_wait_scales(*sizes, gpu.sm.count, gpu.dram.gpc_share_ratio, sm_order_of(gpu));
}

Tick GpcShare::shared(int sm, Tick start, Tick back) {
  const Tick over = back - start;
  if (over <= unloaded_ + after_) return back;
  // The factors relative to the recent deep-queue requests' mean: the waits of a queue's requesters keep
  // their sum (SMs of one GPC size alone: all 1).
  const double own = scale_[static_cast<std::size_t>(sm)];
  mix_ += (own - mix_) / 1024;
  return start + unloaded_ + round_ticks(static_cast<double>(over - unloaded_) * (own / mix_));
}

}  // namespace gms
