#include "model/dispatcher.h"

#include "common/error.h"

namespace gms {
namespace {

class RoundRobin final : public Dispatcher {
 public:
  int pick(const std::vector<int>& free, int last) const override {
    int n = static_cast<int>(free.size());
    for (int k = 1; k <= n; ++k) {
      int sm = (last + k) % n;
      if (sm < 0) sm += n;
      if (free[sm] > 0) return sm;
    }
    return -1;
  }
};

class Greedy final : public Dispatcher {
 public:
  int pick(const std::vector<int>& free, int) const override {
    for (int sm = 0; sm < static_cast<int>(free.size()); ++sm)
      if (free[sm] > 0) return sm;
    return -1;
  }
};

}  // namespace

std::unique_ptr<Dispatcher> make_dispatcher(const std::string& name) {
  if (name == "round_robin") return std::make_unique<RoundRobin>();
  if (name == "greedy") return std::make_unique<Greedy>();
  SIM_ASSERT(false, "unknown dispatcher '" << name << "' passed config validation");
}

}  // namespace gms
