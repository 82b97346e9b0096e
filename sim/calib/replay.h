#pragma once
// Replays measured cases on a GPU description, in parallel, remembering what it has simulated:
// cases whose launches are identical (same kernel, same tile sequence - e.g. GROUP_M >= the tile
// rows and column-major) are simulated once, and a repeated parameter point costs nothing. The
// simulator is deterministic, so a remembered result is the result.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "api/simulation.h"
#include "calib/measured.h"
#include "common/parallel.h"

namespace gms {

using MetricValues = std::map<std::string, double>;

// What makes two launches the same simulation: every workload value but its name and CTA-order
// description, plus the tile sequence the order produces.
std::string launch_key(const LoadedConfigs& cfg);

// A case's expected replay cost, in L2 sector lookups as silicon counted them (its DRAM sectors when
// the record has no L2 counts; infinity when it has neither). Replayer hands out the costliest first.
double replay_cost(const MeasuredCase& c);

class Replayer {
 public:
  Replayer(std::string gpu_file, unsigned jobs) : gpu_file_(std::move(gpu_file)), jobs_(jobs) {}

  // Simulated metrics of every case under `overrides` ("gpu.KEY=V" / "workload.KEY=V").
  // `progress(done, total)` is called as simulations finish. With `keys`, per case what names its
  // simulation: cases with equal keys replayed as one (the same launches). Throws ConfigError for bad input.
  std::vector<MetricValues> run(const std::vector<MeasuredCase>& cases, const std::vector<std::string>& overrides,
                                const std::function<void(size_t, size_t)>& progress = {},
                                std::vector<std::string>* keys = nullptr);

  // The configuration a case replays with (for names, clocks and the resolved GPU).
  LoadedConfigs configs(const MeasuredCase& c, const std::vector<std::string>& overrides) const;

  // Per case, what names its simulation (run()'s `keys`), without simulating: cases whose results
  // come from elsewhere (a saved scorecard) still rank one launch once.
  std::vector<std::string> simulation_keys(const std::vector<MeasuredCase>& cases,
                                           const std::vector<std::string>& overrides) const;

  std::size_t simulations() const { return simulations_; }
  // Approximate replays (RunOptions::sample_waves; 0 = exact, the default); part of the memo key.
  void set_sample_waves(int waves) { sample_waves_ = waves; }

  // How the fresh simulations of a run() are spread (default: this process's threads). With MPI
  // ranks every rank gets every result, so a fit takes the same steps on all of them.
  void set_parallel_map(ParallelMap map) { map_ = std::move(map); }

 private:
  std::string simulation_key(const LoadedConfigs& cfg, const std::vector<std::string>& overrides) const;

  std::string gpu_file_;
  unsigned jobs_;
  std::map<std::string, MetricValues> memo_;  // overrides + launch key -> metrics
  std::size_t simulations_ = 0;
  int sample_waves_ = 0;
  ParallelMap map_ = local_parallel_map;
};

}  // namespace gms
