#pragma once
// The CTAs of a kernel replayed from a file (an Accel-Sim trace, a .gmstrace): each is loaded when
// the engine first asks for it - in launch order, one at a time - and dropped when its last warp
// exits, so a trace of any size replays with only the resident CTAs in memory. The engine runs one
// kernel on one thread, so no locking.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "workload/program.h"

namespace gms {

struct CtaProgram {
  TileCoord tile;
  std::vector<std::vector<Instr>> warps;  // by warp id within the CTA, each ending with an exit
  std::vector<Addr> addresses;            // lane lists; Instr.lanes.addr points here
  int live_warps = 0;
};

class ResidentCtas {
 public:
  // The program of CTA `launch_index`; `load()` -> unique_ptr<CtaProgram> reads the next CTA of the
  // file when this one is not resident yet.
  template <class Load>
  CtaProgram& get(std::int64_t launch_index, Load&& load) {
    auto it = resident_.find(launch_index);
    if (it != resident_.end()) return *it->second;
    SIM_ASSERT(launch_index == read_, "the engine asked for CTA " << launch_index << " but the file is at " << read_);
    std::unique_ptr<CtaProgram> p = load();
    ++read_;
    return *resident_.emplace(launch_index, std::move(p)).first->second;
  }
  std::int64_t read() const { return read_; }  // CTAs loaded so far

  static void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) {
    c = WarpCursor{};
    c.cta = launch_index;
    c.warp = warp;
  }

  // The warp's next instruction; the CTA is dropped after its last warp's exit.
  void next(WarpCursor& c, Instr& out) {
    if (c.cta != last_cta_) {  // the engine often asks for the same CTA's warps in a row
      auto it = resident_.find(c.cta);
      SIM_ASSERT(it != resident_.end(), "warp " << c.warp << " of CTA " << c.cta << " runs after its CTA was dropped");
      last_cta_ = c.cta;
      last_ = it->second.get();
    }
    CtaProgram& p = *last_;
    const auto& stream = p.warps[static_cast<std::size_t>(c.warp)];
    SIM_ASSERT(c.step < static_cast<std::int64_t>(stream.size()), "warp " << c.warp << " ran past its exit");
    out = stream[static_cast<std::size_t>(c.step++)];
    if (out.op == Op::kExit && --p.live_warps == 0) {
      resident_.erase(c.cta);
      last_cta_ = -1;
    }
  }

 private:
  std::int64_t read_ = 0;
  std::unordered_map<std::int64_t, std::unique_ptr<CtaProgram>> resident_;
  std::int64_t last_cta_ = -1;  // the CTA next() found last
  CtaProgram* last_ = nullptr;
};

}  // namespace gms
