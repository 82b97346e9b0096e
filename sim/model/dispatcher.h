#pragma once
// Which SM receives the next CTA (launch indices are handed out 0, 1, 2, ... in order). A named policy.
#include <memory>
#include <string>
#include <vector>

#include "config/gpu_config.h"

namespace gms {

class Dispatcher {
 public:
  virtual ~Dispatcher() = default;
  // `free_slots[sm]` CTAs each SM can still take; `last` the SM that got the previous CTA (-1: none).
  // Returns an SM with a free slot, or -1 when none has one.
  virtual int pick(const std::vector<int>& free_slots, int last) const = 0;
};

// "round_robin": the next SM after the last one with a free slot (the hardware's breadth-first fill);
// "greedy": the first SM with a free slot (fills one SM before the next). "Next" and "first" follow
// `order` (every SM id once: launch.sm_order), or SM ids when it is empty.
std::unique_ptr<Dispatcher> make_dispatcher(const std::string& name, const std::vector<int>& order = {});

// A validated GPU's launch.sm_order as SM ids (empty: SM-id order).
std::vector<int> sm_order_of(const GpuConfig& gpu);

}  // namespace gms
