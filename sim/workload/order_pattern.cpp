#include "workload/order_pattern.h"

#include <algorithm>
#include <sstream>

namespace gms {

std::optional<std::vector<OrderToken>> parse_order(const std::string& text, int steps, std::string* why,
                                                   bool load_before_compute) {
  std::vector<OrderToken> out;
  if (text == "llcc" || text == "lclc") {
    for (int s = 0; s < steps; ++s) {
      if (text == "lclc") {
        out.push_back({true, s});
        out.push_back({false, s});
      } else {
        out.push_back({true, s});
      }
    }
    if (text == "llcc")
      for (int s = 0; s < steps; ++s) out.push_back({false, s});
    return out;
  }
  std::istringstream in(text);
  std::vector<int> loaded(steps, 0), computed(steps, 0);
  for (std::string tok; in >> tok;) {
    char kind = tok.empty() ? '?' : tok[0];
    int step = -1;
    try {
      size_t used = 0;
      step = std::stoi(tok.substr(1), &used);
      if (used + 1 != tok.size()) step = -1;
    } catch (const std::exception&) {
      step = -1;
    }
    if ((kind != 'L' && kind != 'C') || step < 0) {
      *why = "'" + tok + "' is not Li or Ci (in \"" + text + "\"; or use llcc / lclc)";
      return std::nullopt;
    }
    if (step >= steps) {
      *why = "'" + tok + "' names step " + std::to_string(step) + " but k_steps is " + std::to_string(steps);
      return std::nullopt;
    }
    if (kind == 'L') {
      if (loaded[step]++) {
        *why = "step " + std::to_string(step) + " is loaded twice";
        return std::nullopt;
      }
    } else {
      if (!loaded[step] && load_before_compute) {
        *why = "C" + std::to_string(step) + " comes before L" + std::to_string(step);
        return std::nullopt;
      }
      if (computed[step]++) {
        *why = "step " + std::to_string(step) + " is computed twice";
        return std::nullopt;
      }
    }
    out.push_back({kind == 'L', step});
  }
  for (int s = 0; s < steps; ++s)
    if (!loaded[s] || !computed[s]) {
      *why = "step " + std::to_string(s) + " is never " + (loaded[s] ? "computed" : "loaded") + " (\"" + text + "\")";
      return std::nullopt;
    }
  return out;
}

int gemm_order_steps(const std::string& text) {
  std::istringstream in(text);
  int hi = -1;
  for (std::string tok; in >> tok;) {
    if (tok.size() < 2 || (tok[0] != 'L' && tok[0] != 'C')) return 0;
    try {
      hi = std::max(hi, std::stoi(tok.substr(1)));
    } catch (const std::exception&) {
      return 0;
    }
  }
  return hi + 1;
}

int max_live_steps(const std::vector<OrderToken>& order) {
  int live = 0, best = 0;
  for (const auto& t : order) {
    live += t.load ? 1 : -1;
    best = std::max(best, live + (t.load ? 0 : 1));
  }
  return best;
}

}  // namespace gms
