#pragma once
// Instruction order of a K loop body: which step's loads and computes come when. "llcc" (load-load-
// compute-compute, what Triton emitted on the Z100 in seed 001), "lclc" (interleaved), or an
// explicit pattern "L0 L1 C0 C1" for any number of steps; `gpumemsim order-from-asm` emits these.
#include <optional>
#include <string>
#include <vector>

namespace gms {

struct OrderToken {
  bool load = false;  // false: compute
  int step = 0;
};

// Nullopt (and *why) unless every step is loaded once and computed once - after its load when
// `load_before_compute` (GEMV: Li loads step i's data). In a GEMM body Li prefetches a later tile,
// so there a compute may come first.
std::optional<std::vector<OrderToken>> parse_order(const std::string& text, int steps, std::string* why,
                                                   bool load_before_compute = true);

// Steps a free-standing pattern names (highest index + 1), or 0 when it is not an Li/Ci pattern.
int gemm_order_steps(const std::string& text);

// The most steps whose loads are live (loaded, not yet computed) at once under this order.
int max_live_steps(const std::vector<OrderToken>& order);

}  // namespace gms
