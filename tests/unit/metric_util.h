#pragma once
// A run's metric by its Nsight name, as the tests that simulate read them: a missing name is a test
// failure (and reads as -1).
#include <gtest/gtest.h>

#include <string>

#include "api/simulation.h"
#include "stats/metrics.h"

namespace gms::test {

inline double metric(const LoadedConfigs& cfg, const RunOutput& run, const std::string& name) {
  auto m = compute_metrics(run.result, cfg.gpu.value, *run.kernel);
  const Metric* x = find_metric(m, name);
  EXPECT_NE(x, nullptr) << name;
  return x ? x->value : -1;
}

}  // namespace gms::test
