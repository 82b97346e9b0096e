#include "calib/rank_noise.h"

#include <algorithm>

#include "common/error.h"
#include "stats/statistics.h"

namespace gms {

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

RankNoise rank_noise(const std::vector<std::vector<double>>& rounds, const std::vector<double>& model) {
  SIM_ASSERT(rounds.size() == model.size() && rounds.size() >= 2,
             rounds.size() << " kernels with rounds, " << model.size() << " simulated");
  RankNoise r;
  r.kernels = rounds.size();
  r.rounds = rounds[0].size();
  for (const auto& k : rounds) r.rounds = std::min(r.rounds, k.size());
  SIM_ASSERT(r.rounds >= 2, "a kernel has " << r.rounds << " rounds; the ceiling needs two");
  const std::size_t n = rounds.size();
  double sum = 0;
  std::size_t round_pairs = 0;
  for (std::size_t a = 0; a < r.rounds; ++a)
    for (std::size_t b = a + 1; b < r.rounds; ++b) {
      std::vector<double> x(n), y(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = rounds[i][a], y[i] = rounds[i][b];
      sum += spearman(x, y);
      ++round_pairs;
    }
  r.silicon_self = sum / static_cast<double>(round_pairs);
  std::vector<double> med(n);
  for (std::size_t i = 0; i < n; ++i) med[i] = median(rounds[i]);
  r.model_vs_median = spearman(med, model);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      ++r.pairs;
      const auto [lo_i, hi_i] = std::minmax_element(rounds[i].begin(), rounds[i].end());
      const auto [lo_j, hi_j] = std::minmax_element(rounds[j].begin(), rounds[j].end());
      const bool i_faster = *hi_i < *lo_j, j_faster = *hi_j < *lo_i;
      if (!i_faster && !j_faster) continue;
      ++r.resolved;
      const bool agrees = model[i] != model[j] && (model[i] < model[j]) == i_faster;
      if (agrees) r.agreed += 1.0;
      else if (model[i] == model[j]) r.agreed += 0.5;
      if (!agrees) r.missed.emplace_back(i_faster ? i : j, i_faster ? j : i);
    }
  return r;
}

}  // namespace gms
