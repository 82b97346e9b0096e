#pragma once
// Typed, unit-carrying metrics named as Nsight Compute names them (where it has a name), so a user
// lines up a simulation and a profile metric by metric. Simulator-only metrics start "gpumemsim__".
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "model/engine.h"

namespace gms {

struct Metric {
  std::string name;
  double value = 0;
  std::string unit;  // "ns", "cycle", "byte", "sector", "%", "byte/second", "count", ...
  std::string description;
};

std::vector<Metric> compute_metrics(const SimResult& r, const GpuConfig& gpu, const Kernel& kernel);
const Metric* find_metric(const std::vector<Metric>& metrics, const std::string& name);

// Peak of the math pipe the kernel uses, FLOP per second for the whole GPU.
double math_peak_flops(const GpuConfig& gpu, const LaunchShape& shape);

}  // namespace gms
