#pragma once
// The DRAM's share by GPC (dram.gpc_share_backlog, dram.gpc_share_ratio; issue 11). gms-gpc-ubench
// contention (validate/results/{h100,h200}/gpc): once 512 lines per SM are in flight and the DRAM's queue
// is deep, the SMs of the smaller GPCs get a fixed larger share of it, whatever the backlog beyond that;
// below it nobody is ahead. Here: a line whose round trip exceeds the unloaded miss by more than the
// backlog's time at the DRAM's rate waits its queueing time x its SM's factor (gpc_wait_scales), relative
// to the recent deep-queue requests' mean factor - a share, not a faster DRAM. The channels' bookings stay
// first come, first served; what moves is when an SM sees its data, and so how soon it asks again.
#include <vector>

#include "common/types.h"
#include "config/gpu_config.h"

namespace gms {

// Per SM, the factor its DRAM waits take beyond dram.gpc_share_backlog: 1 in the largest GPC,
// (n / n_max)^a in a GPC of n SMs, a such that the smallest GPC's SMs get `ratio` x the share of the
// largest's in a stream whose waits are all queue: ratio^-1 there. Empty when `gpc_sms` is.
std::vector<double> gpc_wait_scales(const std::vector<int>& gpc_sms, int sm_count, double ratio,
                                    const std::vector<int>& order = {});

class GpcShare {
 public:
  GpcShare() = default;  // off: first come, first served at any backlog
  // Off when gpu.dram.gpc_share_backlog is 0; `dram_bytes_per_cycle` is the DRAM's rate in SM cycles.
  GpcShare(const GpuConfig& gpu, double dram_bytes_per_cycle);

  // When SM `sm` sees the data of a line request issued at `start` that first come, first served is
  // back at `back`.
  Tick back_for(int sm, Tick start, Tick back) { return scale_.empty() ? back : shared(sm, start, back); }

 private:
  Tick shared(int sm, Tick start, Tick back);
  std::vector<double> scale_;  // per SM (empty: off)
  Tick unloaded_ = 0, after_ = 0;
  double mix_ = 1;  // the mean factor of the recent requests past the backlog
};

}  // namespace gms
