#include "calib/saved_scorecard.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.h"
#include "common/text_file.h"

namespace gms {
namespace {

bool same_value(double a, double b) {
  return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

std::string case_name(const MeasuredCase& c) { return c.record_set + "/" + c.name; }

const SavedCase& saved_case(const SavedScorecard& card, const MeasuredCase& c) {
  auto it = card.cases.find({c.record_set, c.name});
  if (it == card.cases.end())
    throw ConfigError(card.path + ": has no case " + case_name(c) +
                      " (a record added after the scorecard was made: make it again, scripts/device_scorecard.sh)");
  return it->second;
}

}  // namespace

SavedScorecard load_saved_scorecard(const std::string& path) {
  SavedScorecard card;
  card.path = path;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(*open_text_file(path, "the scorecard"));
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(path + ": not JSON (" + e.what() + ")");
  }
  try {
    card.gpu = j.at("gpu").get<std::string>();
    card.sample_waves = j.value("sample_waves", 0);
    card.overrides = j.value("overrides", std::vector<std::string>{});
    for (const auto& c : j.at("cases")) {
      SavedCase& s = card.cases[{c.at("record_set").get<std::string>(), c.at("case").get<std::string>()}];
      for (const auto& [metric, v] : c.at("metrics").items()) {
        s.measured[metric] = v.at("measured").get<double>();
        s.simulated[metric] = v.at("simulated").get<double>();
      }
    }
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(path + ": not a `gpumemsim compare --json` scorecard (" + e.what() + ")");
  }
  if (card.cases.empty()) throw ConfigError(path + ": a scorecard without cases");
  return card;
}

SavedScorecard merge_scorecards(const std::vector<SavedScorecard>& parts) {
  SIM_ASSERT(!parts.empty(), "no scorecard to merge");
  SavedScorecard card = parts.front();
  for (size_t i = 1; i < parts.size(); ++i) {
    const SavedScorecard& p = parts[i];
    if (p.gpu != card.gpu) throw ConfigError(p.path + ": a scorecard of " + p.gpu + ", " + card.path + " one of " + card.gpu);
    require_made_as(p, card.sample_waves, card.overrides);
    card.path += " + " + p.path;
    for (const auto& [key, c] : p.cases) card.cases[key] = c;
  }
  return card;
}

std::vector<std::string> drop_restated_overrides(SavedScorecard& card,
                                                 const std::function<bool(const std::string&)>& restates_preset) {
  std::vector<std::string> dropped, kept;
  for (const auto& o : card.overrides) (restates_preset(o) ? dropped : kept).push_back(o);
  card.overrides = std::move(kept);
  return dropped;
}

void require_made_as(const SavedScorecard& card, int sample_waves, const std::vector<std::string>& overrides) {
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  if (card.sample_waves == sample_waves && sorted(card.overrides) == sorted(overrides)) return;
  auto how = [](int waves, const std::vector<std::string>& sets) {
    std::string s = waves > 0 ? "--sample-waves " + std::to_string(waves) : "exact replays";
    for (const auto& o : sets) s += " --set " + o;
    return s;
  };
  throw ConfigError(card.path + ": made with " + how(card.sample_waves, card.overrides) + ", this compare asks for " +
                    how(sample_waves, overrides) + ": replay it the way it was made");
}

std::vector<MetricValues> saved_results(const SavedScorecard& card, const std::vector<MeasuredCase>& cases) {
  std::vector<MetricValues> out;
  for (const auto& c : cases) {
    const SavedCase& s = saved_case(card, c);
    for (const auto& [metric, v] : s.measured) {
      auto m = c.measured.find(metric);
      if (m == c.measured.end() || !same_value(m->second, v)) {
        std::ostringstream msg;
        msg << card.path << ": case " << case_name(c) << " was scored against " << metric << " = " << v
            << ", its record now says "
            << (m == c.measured.end() ? std::string("nothing") : std::to_string(m->second))
            << " (the record changed after the scorecard was made: make it again, scripts/device_scorecard.sh)";
        throw ConfigError(msg.str());
      }
    }
    out.push_back(s.simulated);
  }
  return out;
}

std::vector<std::string> differences_from(const SavedScorecard& card, const std::vector<MeasuredCase>& cases,
                                          const std::vector<MetricValues>& fresh) {
  SIM_ASSERT(cases.size() == fresh.size(), cases.size() << " cases, " << fresh.size() << " results");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const SavedCase& s = saved_case(card, cases[i]);
    for (const auto& [metric, saved] : s.simulated) {
      auto now = fresh[i].find(metric);
      if (now != fresh[i].end() && same_value(now->second, saved)) continue;
      std::ostringstream line;
      line.precision(10);
      line << case_name(cases[i]) << " " << metric << ": saved " << saved << ", now ";
      if (now == fresh[i].end())
        line << "not simulated";
      else
        line << now->second;
      out.push_back(line.str());
    }
  }
  return out;
}

}  // namespace gms
