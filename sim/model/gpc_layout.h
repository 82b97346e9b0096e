#pragma once
// Which GPC each SM sits in. Hopper's SMs pair up in TPCs and TPCs group into GPCs of unequal sizes
// (floor-swept parts: the H100 SXM's 132 SMs read as two GPCs of 12 and six of 18 in the stamped
// Triton GEMMs, validate/results/h100/triton_cta_times). The hardware numbers SMs so that consecutive
// IDs - and the CTAs its dispatcher hands out in order - spread over several GPCs; the model does the
// same: TPCs join GPCs round robin in the dispatcher's visiting order (launch.sm_order), skipping GPCs
// that are full.
#include <vector>

#include "config/gpu_config.h"

namespace gms {

// `gpc_sms`: SMs per GPC (their sum is `sm_count`); `order`: the SMs in the dispatcher's visiting order
// (empty: SM ids). Returns the GPC of each SM, by SM id; empty when `gpc_sms` is.
std::vector<int> sm_gpcs(const std::vector<int>& gpc_sms, int sm_count, const std::vector<int>& order = {});

// The same for a validated GPU: icnt.gpc_sms laid over launch.sm_order.
std::vector<int> sm_gpcs(const GpuConfig& gpu);

}  // namespace gms
