#include "calib/scoring.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/error.h"
#include "stats/statistics.h"

namespace gms {

double metric_error(const std::string& metric, double measured, double simulated) {
  if (is_pct_metric(metric)) return simulated - measured;
  if (measured == 0) return simulated == 0 ? 0.0 : 100.0;
  return 100.0 * (simulated - measured) / measured;
}

const MetricSummary* Scorecard::find(const std::string& metric, const std::string& record_set) const {
  const std::vector<MetricSummary>* in = &metrics;
  if (!record_set.empty()) {
    auto it = metrics_by_set.find(record_set);
    if (it == metrics_by_set.end()) return nullptr;
    in = &it->second;
  }
  for (const auto& m : *in)
    if (m.metric == metric) return &m;
  return nullptr;
}

Scorecard score(const std::vector<MeasuredCase>& cases, const std::vector<MetricValues>& simulated,
                const std::vector<std::string>& launches) {
  SIM_ASSERT(cases.size() == simulated.size(), cases.size() << " cases, " << simulated.size() << " results");
  SIM_ASSERT(launches.empty() || launches.size() == cases.size(), launches.size() << " launch names, " << cases.size() << " cases");
  Scorecard card;
  // Each metric's mean error over the cases of `set` (every case where `set` is null).
  auto summarise = [&](const std::string* set, std::vector<MetricSummary>& into) {
    for (const auto& m : compared_metrics()) {
      MetricSummary s{m, 0, 0};
      for (size_t i = 0; i < cases.size(); ++i) {
        if (set && cases[i].record_set != *set) continue;
        auto meas = cases[i].measured.find(m);
        auto sim = simulated[i].find(m);
        if (meas == cases[i].measured.end() || sim == simulated[i].end()) continue;
        s.mean_abs_error += std::fabs(metric_error(m, meas->second, sim->second));
        ++s.n;
      }
      if (s.n == 0) continue;
      s.mean_abs_error /= static_cast<double>(s.n);
      into.push_back(s);
    }
  };
  summarise(nullptr, card.metrics);
  for (const auto& c : cases)
    if (!c.record_set.empty() && !card.metrics_by_set.count(c.record_set))
      summarise(&c.record_set, card.metrics_by_set[c.record_set]);
  // group -> launch -> (measured times' sum, simulated times' sum, silicon's rounds summed round by
  // round, cases, their names), launches in first-seen order.
  struct Launch {
    double measured = 0, simulated = 0;
    std::vector<double> rounds;
    int n = 0;
    std::string names;
  };
  std::map<std::string, std::vector<std::pair<std::string, Launch>>> groups;
  const std::string t = "gpu__time_duration.sum";
  auto add_error = [&](std::map<std::string, MetricSummary>& by, const std::string& key, double err) {
    MetricSummary& m = by[key];
    m.metric = t;
    m.mean_abs_error += std::fabs(err);  // a sum until the division below
    ++m.n;
  };
  for (size_t i = 0; i < cases.size(); ++i)
    if (cases[i].measured.count(t) && simulated[i].count(t)) {
      for (const std::string* g : {&cases[i].group, &cases[i].tiling_group}) {
        if (g->empty()) continue;
        auto& in = groups[*g];
        const std::string name = launches.empty() ? std::to_string(i) : launches[i];
        auto it = std::find_if(in.begin(), in.end(), [&](const auto& l) { return l.first == name; });
        if (it == in.end()) it = in.insert(in.end(), {name, Launch{}});
        Launch& l = it->second;
        l.measured += cases[i].measured.at(t);
        l.simulated += simulated[i].at(t);
        const std::vector<double>& r = cases[i].time_rounds;
        if (l.n == 0) l.rounds = r;  // the rounds both have, summed
        else {
          l.rounds.resize(std::min(l.rounds.size(), r.size()));
          for (size_t k = 0; k < l.rounds.size(); ++k) l.rounds[k] += r[k];
        }
        l.names += (l.n ? " = " : "") + cases[i].name;
        ++l.n;
        ++card.group_cases_n[*g];
      }
      const double err = metric_error(t, cases[i].measured.at(t), simulated[i].at(t));
      if (!cases[i].record_set.empty()) add_error(card.time_by_set, cases[i].record_set, err);
      add_error(card.time_by_group, cases[i].group, err);
    }
  for (auto* by : {&card.time_by_set, &card.time_by_group})
    for (auto& [k, m] : *by) m.mean_abs_error /= static_cast<double>(m.n);
  for (const auto& [g, in] : groups) {
    std::vector<double> measured, model, repeated_model;
    std::vector<std::vector<double>> rounds;
    std::vector<std::size_t> repeated;  // the launches with repeated rounds (all of a launch's cases have them)
    for (const auto& [name, l] : in) {
      measured.push_back(l.measured / l.n);
      model.push_back(l.simulated / l.n);
      if (l.rounds.size() >= 2) {
        rounds.push_back(l.rounds);
        for (double& x : rounds.back()) x /= l.n;
        repeated_model.push_back(model.back());
        repeated.push_back(card.group_cases[g].size());
      }
      card.group_cases[g].push_back(l.names);
    }
    card.group_sizes[g] = in.size();
    if (in.size() >= 3) card.spearman_time[g] = spearman(measured, model);
    // Silicon's repeated rounds, one launch's cases at their mean in each round (whether silicon
    // resolves two runs of one launch is not a ranking the model is asked for either) - over the
    // launches that have them, where at least three do (a group may join records measured once, such
    // as the padded WMMA kernel's beside the repeated orders).
    if (in.size() >= 3 && repeated.size() >= 3) {
      RankNoise n = rank_noise(rounds, repeated_model);
      for (auto& [fast, slow] : n.missed) fast = repeated[fast], slow = repeated[slow];
      card.rank_noise[g] = n;
    }
  }
  return card;
}

Requirement parse_requirement(const std::string& text) {
  Requirement r;
  r.text = text;
  auto bad = [&](const std::string& why) {
    return ConfigError("--require " + text + ": " + why +
                       " (expected METRIC[@SET]:mape<=X, METRIC[@SET]:mae<=X, spearman:GROUP>=X or resolved:GROUP>=X)");
  };
  auto colon = text.find(':');
  if (colon == std::string::npos) throw bad("no ':'");
  std::string head = text.substr(0, colon), rest = text.substr(colon + 1);
  auto op = rest.find_first_of("<>");
  if (op == std::string::npos || op + 1 >= rest.size() || rest[op + 1] != '=') throw bad("no <= or >=");
  r.at_most = rest[op] == '<';
  std::string what = rest.substr(0, op), number = rest.substr(op + 2);
  char* end = nullptr;
  r.bound = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0') throw bad("'" + number + "' is not a number");
  if (head == "spearman" || head == "resolved") {
    if (r.at_most) throw bad("a rank agreement is bounded from below (>=)");
    if (head == "resolved" && (r.bound < 0 || r.bound > 1)) throw bad("a fraction of pairs lies in 0..1");
    r.metric = head;
    r.group_prefix = what;
    return r;
  }
  if (const auto at = head.find('@'); at != std::string::npos) {
    r.record_set = head.substr(at + 1);
    head = head.substr(0, at);
    if (r.record_set.empty()) throw bad("no record set after '@'");
  }
  bool known = false;
  for (const auto& m : compared_metrics()) known |= m == head;
  if (!known) throw bad("'" + head + "' is not a compared metric");
  if (what != (is_pct_metric(head) ? "mae" : "mape"))
    throw bad(std::string("'") + head + "' is checked with " + (is_pct_metric(head) ? "mae (pp)" : "mape (%)"));
  if (!r.at_most) throw bad("an error is bounded from above (<=)");
  r.metric = head;
  return r;
}

std::vector<RequirementResult> check(const std::vector<Requirement>& reqs, const Scorecard& card) {
  std::vector<RequirementResult> out;
  char buf[160];
  for (const auto& r : reqs) {
    RequirementResult res{r.text, false, ""};
    if (r.metric == "spearman") {
      bool any = false, all = true;
      for (const auto& [g, rho] : card.spearman_time) {
        if (g.rfind(r.group_prefix, 0) != 0) continue;
        any = true;
        all &= rho >= r.bound;
        std::snprintf(buf, sizeof buf, "%s%s: %+.2f", res.reached.empty() ? "" : "; ", g.c_str(), rho);
        res.reached += buf;
      }
      res.passed = any && all;
      if (!any) res.reached = "no group of >= 3 cases starts with '" + r.group_prefix + "'";
    } else if (r.metric == "resolved") {
      bool any = false, all = true;
      for (const auto& [g, n] : card.rank_noise) {
        if (g.rfind(r.group_prefix, 0) != 0 || n.resolved == 0) continue;
        any = true;
        all &= n.agreed_fraction() >= r.bound;
        std::snprintf(buf, sizeof buf, "%s%s: %.3g of %zu", res.reached.empty() ? "" : "; ", g.c_str(), n.agreed, n.resolved);
        res.reached += buf;
      }
      res.passed = any && all;
      if (!any) res.reached = "no group starting with '" + r.group_prefix + "' has pairs resolved over repeated rounds";
    } else if (const MetricSummary* m = card.find(r.metric, r.record_set)) {
      res.passed = m->mean_abs_error <= r.bound;
      std::snprintf(buf, sizeof buf, "%s %.1f %s over %zu%s%s", is_pct_metric(r.metric) ? "mean |error|" : "MAPE",
                    m->mean_abs_error, is_pct_metric(r.metric) ? "pp" : "%", m->n,
                    r.record_set.empty() ? "" : " of ", r.record_set.c_str());
      res.reached = buf;
    } else {
      res.reached = r.record_set.empty() ? "not measured in these records"
                                         : "not measured in the records of set '" + r.record_set + "'";
    }
    out.push_back(res);
  }
  return out;
}

}  // namespace gms
