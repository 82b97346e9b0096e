#include "model/dispatcher.h"

#include <utility>

#include "common/error.h"

namespace gms {
namespace {

// The visiting order and each SM's place in it; an empty order is SM-id order.
class Ordered {
 protected:
  explicit Ordered(const std::vector<int>& order) : order_(order), place_(order.size()) {
    for (size_t i = 0; i < order.size(); ++i) {
      SIM_ASSERT(order[i] >= 0 && static_cast<size_t>(order[i]) < order.size(), "SM " << order[i] << " in an order of "
                                                                                      << order.size());
      place_[static_cast<size_t>(order[i])] = static_cast<int>(i);
    }
  }
  int sm_at(int i) const { return order_.empty() ? i : order_[static_cast<size_t>(i)]; }
  int place_of(int sm) const { return order_.empty() || sm < 0 ? sm : place_[static_cast<size_t>(sm)]; }
  void check(size_t sms) const {
    SIM_ASSERT(order_.empty() || order_.size() == sms, "an order of " << order_.size() << " SMs for " << sms);
  }

 private:
  std::vector<int> order_, place_;
};

class RoundRobin final : public Dispatcher, Ordered {
 public:
  explicit RoundRobin(const std::vector<int>& order) : Ordered(order) {}
  int pick(const std::vector<int>& free, int last) const override {
    check(free.size());
    const int n = static_cast<int>(free.size());
    const int from = place_of(last);
    for (int k = 1; k <= n; ++k) {
      int i = (from + k) % n;
      if (i < 0) i += n;
      const int sm = sm_at(i);
      if (free[static_cast<size_t>(sm)] > 0) return sm;
    }
    return -1;
  }
};

class Greedy final : public Dispatcher, Ordered {
 public:
  explicit Greedy(const std::vector<int>& order) : Ordered(order) {}
  int pick(const std::vector<int>& free, int) const override {
    check(free.size());
    for (int i = 0; i < static_cast<int>(free.size()); ++i)
      if (free[static_cast<size_t>(sm_at(i))] > 0) return sm_at(i);
    return -1;
  }
};

}  // namespace

std::vector<int> sm_order_of(const GpuConfig& gpu) {
  std::string why;
  auto order = parse_sm_order(gpu.launch.sm_order, gpu.sm.count, &why);
  SIM_ASSERT(order, "launch.sm_order passed config validation: " << why);
  return std::move(*order);
}

std::unique_ptr<Dispatcher> make_dispatcher(const std::string& name, const std::vector<int>& order) {
  if (name == "round_robin") return std::make_unique<RoundRobin>(order);
  if (name == "greedy") return std::make_unique<Greedy>(order);
  SIM_ASSERT(false, "unknown dispatcher '" << name << "' passed config validation");
}

}  // namespace gms
