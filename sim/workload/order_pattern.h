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

// Nullopt (and *why) unless every step is loaded once, then computed once after its load.
std::optional<std::vector<OrderToken>> parse_order(const std::string& text, int steps, std::string* why);

// The most steps whose loads are live (loaded, not yet computed) at once under this order.
int max_live_steps(const std::vector<OrderToken>& order);

}  // namespace gms
