#pragma once
// A sweep: the cartesian product of axes of --set values (and of GPU files), each point simulated
// on its own. Shared by `gpumemsim sweep` (threads, or ranks under mpirun), the Python module and
// `recommend`. A point's row is a pure function of the point, so any split of the points over
// threads or processes gives the same rows; rows are assembled in grid order.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "api/simulation.h"

namespace gms {

struct SweepAxis {
  std::string key;                  // "gpu" or a --set key ("workload.warps")
  std::vector<std::string> values;  // the key's values, in the order given
};

// "workload.warps=1,2,4" -> {workload.warps, [1,2,4]}; ConfigError for a malformed axis.
SweepAxis parse_sweep_axis(const std::string& text);

struct SweepSpec {
  ConfigInputs base;               // the first GPU, the workload and the fixed --set overrides
  std::vector<SweepAxis> axes;     // the first axis slowest, the last fastest
  std::vector<std::string> metrics;  // metric names to tabulate, in order
};

// The metrics `gpumemsim sweep` tabulates when none are named.
std::vector<std::string> default_sweep_metrics();

struct SweepPoint {
  std::vector<std::string> values;  // one per axis
  ConfigInputs inputs;              // base + this point's values
};

// Every point in grid order. Each point's configuration is loaded once here so a typo in any value
// fails (ConfigError) before any simulation starts.
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);

struct SweepRow {
  std::vector<std::string> values;
  std::vector<double> metrics;       // NaN where the run has no such metric
  std::map<std::string, double> all;  // every metric of the run (empty when error is set)
  std::string error;                 // a ConfigError raised by the simulation itself, else ""
};

// Simulates one point. A ConfigError of the simulation (e.g. a tile that does not fit) becomes the
// row's error; the sweep goes on.
SweepRow run_sweep_point(const SweepSpec& spec, const SweepPoint& point);

// CSV: axes' keys, the metrics, then "error". Numbers are printed with 8 significant digits, so the
// text of a row is as deterministic as the simulation.
std::string sweep_csv_header(const SweepSpec& spec);
std::string sweep_csv_row(const SweepRow& row);
// The same rows as a Markdown table (from the CSV rows, so both files always agree).
std::string sweep_markdown(const SweepSpec& spec, const std::vector<std::string>& csv_rows);
// Text that identifies a sweep (GPU, workload, overrides, axes, metrics): a partial CSV is resumed
// only by the sweep that wrote it.
std::string sweep_fingerprint(const SweepSpec& spec);
// The rows a partial CSV (header + rows in any order, perhaps cut off mid-row by a kill) already
// holds, by point index. Only complete rows of this sweep's shape count; a header that differs from
// this sweep's is a ConfigError (the partial file belongs to another sweep).
std::map<std::size_t, std::string> finished_sweep_rows(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                                       const std::string& partial_csv);

}  // namespace gms
