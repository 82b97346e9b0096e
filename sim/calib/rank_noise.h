#pragma once
// How far silicon's own ranking of a group of kernels can be trusted, from the same measurement
// repeated over rounds (validate/scripts/device_repeat.sh): kernels whose times differ by less than
// their run-to-run spread have no silicon order, and a rank correlation against one measured round
// is capped by how well two rounds agree with each other. A model is scored on the pairs silicon
// does resolve.
#include <cstddef>
#include <utility>
#include <vector>

namespace gms {

struct RankNoise {
  std::size_t rounds = 0;       // rounds every kernel of the group has
  std::size_t kernels = 0;      // kernels with repeated rounds (a group's others were measured once)
  double silicon_self = 0;      // mean Spearman of time between every two rounds (the ceiling)
  double model_vs_median = 0;   // Spearman of the model's times against the rounds' medians
  std::size_t pairs = 0;        // kernel pairs in the group
  std::size_t resolved = 0;     // pairs whose time ranges over the rounds do not overlap
  double agreed = 0;            // of those, how many the model orders as silicon (a model tie counts 1/2)
  // The resolved pairs the model orders otherwise or ties: (silicon's faster kernel, the slower), as
  // indices into the kernels passed in.
  std::vector<std::pair<std::size_t, std::size_t>> missed;
  double agreed_fraction() const { return resolved ? agreed / static_cast<double>(resolved) : 0.0; }
};

// `rounds[i]`: kernel i's measured times over the rounds (>= 2 each, in round order); `model[i]`: its
// simulated time. Uses the first min(rounds) rounds of each kernel for the round-vs-round part.
RankNoise rank_noise(const std::vector<std::vector<double>>& rounds, const std::vector<double>& model);

}  // namespace gms
