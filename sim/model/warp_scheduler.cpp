#include "model/warp_scheduler.h"

#include <algorithm>

#include "common/error.h"

namespace gms {
namespace {

class GreedyThenOldest final : public WarpScheduler {
 public:
  int pick(const std::vector<WarpView>& w, int last, Tick) const override {
    if (last >= 0 && last < static_cast<int>(w.size()) && w[last].eligible) return last;
    int best = -1;
    for (int i = 0; i < static_cast<int>(w.size()); ++i)
      if (w[i].eligible && (best < 0 || w[i].age < w[best].age)) best = i;
    return best;
  }
};

class LooseRoundRobin final : public WarpScheduler {
 public:
  int pick(const std::vector<WarpView>& w, int last, Tick) const override {
    int n = static_cast<int>(w.size());
    for (int k = 1; k <= n; ++k) {
      int i = ((last < 0 ? -1 : last) + k) % n;
      if (i < 0) i += n;
      if (w[i].eligible) return i;
    }
    return -1;
  }
};

// Silicon's sub-partition (H200, gms-issue-trace-ubench): of warps that each want the port, two to four of one CTA
// share it evenly, and so do one warp each of two CTAs; of four CTAs' warps the three oldest share it evenly and the
// youngest waits until one of them is done, though the three leave a few idle cycles between them; of two CTAs with
// two warps each, the older CTA's warps take a third each and the younger's two the last third. So: three places,
// taken by the oldest warps - by their CTA's age, a CTA's own warps by when they last issued, so that they rotate
// through its places - counting only warps whose next instruction is ready within a short stall (a SASS stall count is
// at most 15 cycles; a warp that waits longer - on global or shared memory (--waits: the youngest of four CTAs then
// runs as fast as the others) or at a barrier - leaves its place to the next). The places take turns:
// each CTA's turn comes by when its places were last all used (the p-th latest issue of its warps that want one, for
// p places), its warp that issued longest ago taking it.
class OldestThree final : public WarpScheduler {
 public:
  static constexpr int kPlaces = 3;
  static constexpr Tick kShortStall = cycles_to_ticks(16);

  int pick(const std::vector<WarpView>& w, int, Tick now) const override {
    auto ahead = [&](int a, int b) {  // a takes a place before b
      if (w[a].cta_age != w[b].cta_age) return w[a].cta_age < w[b].cta_age;
      if (w[a].last_issue != w[b].last_issue) return w[a].last_issue < w[b].last_issue;
      return w[a].age < w[b].age;
    };
    auto wants = [&](int i) { return w[i].ready != kNever && w[i].ready <= now + kShortStall; };
    int place[kPlaces];
    int n = 0;
    for (int i = 0; i < static_cast<int>(w.size()); ++i) {
      if (!wants(i)) continue;
      int at = n < kPlaces ? n++ : kPlaces;  // insertion into the first kPlaces by `ahead`
      while (at > 0 && ahead(i, place[at - 1])) {
        if (at < kPlaces) place[at] = place[at - 1];
        --at;
      }
      if (at < kPlaces) place[at] = i;
    }
    // A CTA's turn: the p-th latest issue of its warps that want a place, for its p places.
    auto turn = [&](std::uint64_t cta) {
      int places = 0;
      for (int k = 0; k < n; ++k) places += w[place[k]].cta_age == cta;
      Tick latest[kPlaces];  // the CTA's kPlaces latest issues, latest first (p <= kPlaces)
      int m = 0;
      for (int j = 0; j < static_cast<int>(w.size()); ++j) {
        if (!wants(j) || w[j].cta_age != cta) continue;
        int at = m < kPlaces ? m++ : kPlaces;
        while (at > 0 && w[j].last_issue > latest[at - 1]) {
          if (at < kPlaces) latest[at] = latest[at - 1];
          --at;
        }
        if (at < kPlaces) latest[at] = w[j].last_issue;
      }
      return latest[places - 1];
    };
    int best = -1;
    Tick best_turn = 0;
    for (int k = 0; k < n; ++k) {
      const int i = place[k];
      if (!w[i].eligible) continue;
      const Tick t = turn(w[i].cta_age);
      if (best < 0 || t < best_turn || (t == best_turn && ahead(i, best))) best = i, best_turn = t;
    }
    return best;
  }
};

// Silicon's older CTA takes more of the port than a younger one but not all of it (the issue trace above: two CTAs of
// two warps each split it 2/3 : 1/3), and a block of many instructions cannot take turns instruction by instruction
// (oldest_three at the block grain hands the places to whichever warps are ready soon, and the CTAs run in step).
// So the share is kept as a count: each warp's pass grows by the instructions it issues over its weight, the
// eligible warp with the lowest pass issues, and a warp that was not eligible is brought up to the pass of the one
// picked, so that a stall earns no slots for later.
class CtaShare final : public WarpScheduler {
 public:
  explicit CtaShare(double younger_cta_share) : younger_(younger_cta_share) {}

  int pick(const std::vector<WarpView>& w, int, Tick) const override {
    int best = -1;
    for (int i = 0; i < static_cast<int>(w.size()); ++i) {
      if (!w[i].eligible) continue;
      if (best < 0 || w[i].pass < w[best].pass || (w[i].pass == w[best].pass && w[i].age < w[best].age)) best = i;
    }
    return best;
  }
  bool counts_issue() const override { return true; }
  void issued(std::vector<WarpView>& w, int pick, std::uint32_t instructions) const override {
    WarpView& p = w[static_cast<size_t>(pick)];
    // Its CTA's rank among the CTAs with an eligible warp (0 = the oldest): one step lower in weight per rank.
    double weight = 1;
    std::uint64_t counted[kMaxRanks];
    int ranked = 0;
    for (const WarpView& v : w) {
      if (!v.eligible || v.cta_age >= p.cta_age) continue;
      bool seen = false;
      for (int k = 0; k < ranked; ++k) seen |= counted[k] == v.cta_age;
      if (seen || ranked == kMaxRanks) continue;
      counted[ranked++] = v.cta_age;
      weight *= younger_;
    }
    for (WarpView& v : w) v.pass = std::max(v.pass, p.pass);  // no slots banked while not eligible
    p.pass += instructions / weight;
  }

 private:
  static constexpr int kMaxRanks = 64;  // a sub-partition holds at most 64 warps
  double younger_;
};

}  // namespace

std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name, double younger_cta_share) {
  if (name == "gto") return std::make_unique<GreedyThenOldest>();
  if (name == "cta_share") return std::make_unique<CtaShare>(younger_cta_share);
  if (name == "lrr") return std::make_unique<LooseRoundRobin>();
  if (name == "oldest_three") return std::make_unique<OldestThree>();
  SIM_ASSERT(false, "unknown warp scheduler '" << name << "' passed config validation");
}

}  // namespace gms
