#pragma once
// Where each warp's time goes, classified as Nsight Compute's warp states: issuing ("selected"),
// eligible but not picked ("not_selected"), waiting for loaded data ("long_scoreboard"), at a
// barrier ("barrier"), waiting for or occupying a busy math pipe ("math_pipe_throttle"). Optionally
// keeps the segments of one SM's warps for a timeline CSV, and when its CTAs' barriers released (a
// barrier that no warp waited at leaves no segment, yet it divides a warp's loop into phases).
#include <array>
#include <cstdint>
#include <ostream>
#include <vector>

#include "common/types.h"

namespace gms {

enum class WarpState : int {
  kSelected,
  kNotSelected,
  kLongScoreboard,
  kBarrier,
  kMathPipeThrottle,
  kShortScoreboard,  // waiting for shared-memory (MIO) data
  kWait,             // waiting on a fixed-latency dependency (an ALU result)
  kDispatchStall,    // the issue stage could not dispatch (measured per loop: workload issue.measured.*)
  kBranchResolving,  // waiting for a branch target (measured per loop, likewise)
  kDrain,            // exited, waiting until the L2 has taken its stores and reductions
  kMioThrottle,      // its next shared-memory instruction finds the MIO queue full (sm.mio_queue_*)
  kLgThrottle,       // its store's data has not left the SM yet (icnt.stores_wait_for_way_out)
  kNoInstruction,    // its next instructions are not fetched yet (a loop past the instruction cache)
  kCount
};
const char* warp_state_name(WarpState s);  // the Nsight name part, e.g. "long_scoreboard"

class StallAccounting {
 public:
  void set_traced_sm(int sm) { traced_sm_ = sm; }
  // The warp's time in state s, [from, to); a segment of the timeline if its SM is the traced one.
  void add(int sm, int warp_slot, std::int64_t cta, WarpState s, Tick from, Tick to) {
    add_untraced(s, from, to);
    if (to > from && sm == traced_sm_) segments_.push_back({warp_slot, cta, s, from, to});
  }
  // The same without the warp's place, for a run that traces no SM (add() would keep no segment).
  void add_untraced(WarpState s, Tick from, Tick to) {
    if (to > from) total_[static_cast<int>(s)] += to - from;
  }
  // A barrier of CTA `cta` (its launch index) on SM `sm` let its warps go at t; kept for the traced SM.
  void add_barrier_release(int sm, std::int64_t cta, Tick t) {
    if (sm == traced_sm_) releases_.push_back({cta, t});
  }
  void add_active(Tick t) { active_ += t; }
  Tick total(WarpState s) const { return total_[static_cast<int>(s)]; }  // summed over every warp
  double pct(WarpState s) const {
    return active_ > 0 ? 100.0 * static_cast<double>(total_[static_cast<int>(s)]) / static_cast<double>(active_) : 0;
  }
  bool traced() const { return traced_sm_ >= 0; }
  // Adds another run's time (the next kernel of a sequence; its segments keep their own times).
  void merge(const StallAccounting& o) {
    for (int s = 0; s < static_cast<int>(WarpState::kCount); ++s) total_[s] += o.total_[s];
    active_ += o.active_;
    if (o.traced_sm_ >= 0) traced_sm_ = o.traced_sm_;
    segments_.insert(segments_.end(), o.segments_.begin(), o.segments_.end());
    releases_.insert(releases_.end(), o.releases_.begin(), o.releases_.end());
  }
  // A sampled run: this run's totals plus f x what they grew since `earlier` (the same run, sooner).
  void extrapolate(const StallAccounting& earlier, double f) {
    for (int s = 0; s < static_cast<int>(WarpState::kCount); ++s)
      total_[s] += static_cast<Tick>(static_cast<double>(total_[s] - earlier.total_[s]) * f + 0.5);
    active_ += static_cast<Tick>(static_cast<double>(active_ - earlier.active_) * f + 0.5);
  }
  void write_csv(std::ostream& os) const;           // warps.csv: the traced SM's segments
  void write_barriers_csv(std::ostream& os) const;  // barriers.csv: its CTAs' barrier releases, in time order

 private:
  struct Segment {
    int warp;
    std::int64_t cta;
    WarpState state;
    Tick from, to;
  };
  std::array<Tick, static_cast<int>(WarpState::kCount)> total_{};
  Tick active_ = 0;
  int traced_sm_ = -1;
  std::vector<Segment> segments_;
  struct Release {
    std::int64_t cta;
    Tick at;
  };
  std::vector<Release> releases_;
};

}  // namespace gms
