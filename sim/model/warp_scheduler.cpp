#include "model/warp_scheduler.h"

#include "common/error.h"

namespace gms {
namespace {

class GreedyThenOldest final : public WarpScheduler {
 public:
  int pick(const std::vector<WarpView>& w, int last) const override {
    if (last >= 0 && last < static_cast<int>(w.size()) && w[last].eligible) return last;
    int best = -1;
    for (int i = 0; i < static_cast<int>(w.size()); ++i)
      if (w[i].eligible && (best < 0 || w[i].age < w[best].age)) best = i;
    return best;
  }
};

class LooseRoundRobin final : public WarpScheduler {
 public:
  int pick(const std::vector<WarpView>& w, int last) const override {
    int n = static_cast<int>(w.size());
    for (int k = 1; k <= n; ++k) {
      int i = ((last < 0 ? -1 : last) + k) % n;
      if (i < 0) i += n;
      if (w[i].eligible) return i;
    }
    return -1;
  }
};

}  // namespace

std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name) {
  if (name == "gto") return std::make_unique<GreedyThenOldest>();
  if (name == "lrr") return std::make_unique<LooseRoundRobin>();
  SIM_ASSERT(false, "unknown warp scheduler '" << name << "' passed config validation");
}

}  // namespace gms
