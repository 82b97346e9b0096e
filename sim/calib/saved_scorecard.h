#pragma once
// A scorecard written earlier by `compare --json` - docs/results/GPU-compare.json.xz, every record of
// one GPU replayed on a device machine's CPUs. Its simulated metrics stand in for the replays: targets
// over hundreds of full-size replays are checked in seconds (`compare --simulated`), and a few fresh
// replays tell whether it is still this model's (`compare --expect-simulated`; the simulator is
// deterministic, so the same model gives the same numbers to the last bit on any machine).
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "calib/measured.h"
#include "calib/replay.h"

namespace gms {

struct SavedCase {
  MetricValues measured, simulated;  // the metrics the card compared (those silicon measured)
};

struct SavedScorecard {
  std::string path;
  std::string gpu;  // the GPU description's name it was replayed on
  // How it was replayed (compare's --sample-waves and --set; a card written before 2026-11-30 has
  // neither field: exact, no overrides - the what-if cards of that time name theirs in their _env.txt).
  int sample_waves = 0;
  std::vector<std::string> overrides;
  std::map<std::pair<std::string, std::string>, SavedCase> cases;  // (record set, case) ->
};

// Reads a `compare --json` file, plain or .xz. Throws ConfigError naming the file when it cannot be
// read or is not such a file.
SavedScorecard load_saved_scorecard(const std::string& path);

// Parts of one scorecard (compare --json runs over some record sets each, e.g. the sets a change moved, beside the
// card of the others): one card holding every part's cases, a later part's case replacing an earlier one's. Throws
// ConfigError unless the parts are of one GPU and were made the same way (--sample-waves, --set).
SavedScorecard merge_scorecards(const std::vector<SavedScorecard>& parts);

// Takes out of the card's overrides those that `restates_preset` says the --gpu description already has (its
// value, rendered, is the preset's): a part replayed with `--set gpu.K=V` before the preset took V is the preset's
// own replay and joins the preset's card. Which ones it took out, as "--set K=V" words, for the user.
std::vector<std::string> drop_restated_overrides(SavedScorecard& card,
                                                 const std::function<bool(const std::string&)>& restates_preset);

// Throws ConfigError unless the card was replayed with `sample_waves` and `overrides` (in any order):
// a replay compares with a card only when both were made the same way.
void require_made_as(const SavedScorecard& card, int sample_waves, const std::vector<std::string>& overrides);

// The card's simulated metrics for `cases`, in their order. Throws ConfigError naming the first case
// the card lacks, or whose measurement differs from the record's (the record changed after the card
// was made: the card must be made again).
std::vector<MetricValues> saved_results(const SavedScorecard& card, const std::vector<MeasuredCase>& cases);

// Where fresh replays of `cases` differ from the card, one line per (case, metric) the card holds:
// "gemm/gemm_8192x8192x8192_grouped8 gpu__time_duration.sum: saved 2.1e+06, now 2.2e+06". Values equal
// to 1e-12 relative count as equal (the card's JSON holds each double to its last digit).
std::vector<std::string> differences_from(const SavedScorecard& card, const std::vector<MeasuredCase>& cases,
                                          const std::vector<MetricValues>& fresh);

}  // namespace gms
