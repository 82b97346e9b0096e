// The GEMV's in-CTA reduction as compiled (workload reduction_*): rounds of shuffle levels, shared
// stores, a barrier and shared loads (warp 0 then sends the block's atomics: gemv_kernel.cpp), and the
// instruction counts the epilogue issues, which instructions_per_warp is measured against.
#include <algorithm>

#include "common/error.h"
#include "workload/gemv_kernel.h"

namespace gms {
namespace {
// Parts [lo, hi) of `total` spread over `parts` (the parts' shares sum to total).
std::int64_t share(std::int64_t total, std::int64_t parts, std::int64_t lo, std::int64_t hi) {
  return total * hi / parts - total * lo / parts;
}
}  // namespace

// A reduction round starts with its shuffles (those of the previous round's loads, or of the
// warp's own partial sums before the first stores), then its stores; without either, at its barrier.
int GemvKernel::reduction_round_start() const {
  const ReductionShape& shape = reduction_;
  return shape.shuffles > 0 ? kShuffle : shape.stores > 0 ? kSmemStore : kSync;
}

void GemvKernel::begin_epilogue(WarpCursor& c) const {
  c.phase = cfg_.instructions_per_warp > 0 ? kOther : reduction_round_start();
  c.step = 0;
  c.sub = 0;
}

std::uint32_t GemvKernel::reduce_instructions(std::int64_t cols, std::int64_t e) const {
  const int v = cfg_.reduction_lane_elements;
  const std::int64_t lanes = (cols - e + v - 1) / v;
  if (lanes <= 0) return 0;
  const std::int64_t per_instr = v == 1 ? warp_size_ * 16 / ey_ : warp_size_;  // v = 1: 16-byte vectors
  return static_cast<std::uint32_t>(std::max<std::int64_t>(1, (lanes + per_instr - 1) / per_instr));
}

GemvKernel::ReductionShape GemvKernel::reduction_shape() const {
  ReductionShape r;
  r.shuffles = cfg_.reduction_shuffles;
  r.shuffle_levels = cfg_.reduction_shuffle_levels;
  const std::int64_t wavefronts = cfg_.reduction_smem_wavefronts - r.shuffles;  // Nsight counts a shuffle as one
  if (wavefronts <= 0) return r;
  r.stores = cfg_.reduction_smem_stores < 0 ? 1 : cfg_.reduction_smem_stores;
  r.loads = cfg_.reduction_smem_loads < 0 ? 1 : cfg_.reduction_smem_loads;
  // Half stored, half loaded, unless the compiled code only loads (or only stores).
  r.store_wavefronts = r.loads == 0 ? wavefronts : r.stores == 0 ? 0 : (wavefronts + 1) / 2;
  r.load_wavefronts = wavefronts - r.store_wavefronts;
  SIM_ASSERT(r.stores > 0 || r.loads > 0, "reduction of " << wavefronts << " wavefronts without stores or loads passed validation");
  return r;
}

std::int64_t GemvKernel::epilogue_instructions(const WarpCursor& c) const {
  const ReductionShape& shape = reduction_;
  std::int64_t n = cfg_.reduction_barriers + 1 + shape.stores + shape.loads + shape.shuffles;  // barriers, EXIT, MIO ops
  if (c.warp == 0) {  // the block's atomics
    const std::int64_t cols = std::min<std::int64_t>(cfg_.block_n, cfg_.n - c.tile_n * cfg_.block_n);
    for (int e = 0; e < cfg_.reduction_lane_elements; ++e) n += cfg_.m * reduce_instructions(cols, e);
  }
  return n;
}

// Levels [L r / R, L (r + 1) / R) of round r (L levels, R rounds); level l issues its share of the
// shuffles as one block (a tree level's independent shuffles, back to back in the SASS), then waits
// for them: the next level shuffles their sums. `sub` counts 2 per level (the block, the wait).
bool GemvKernel::shuffle_next(WarpCursor& c, Instr& out) const {
  const ReductionShape& shape = reduction_;
  const std::int64_t rounds = cfg_.reduction_barriers, levels = shape.shuffle_levels;
  const std::int64_t first = levels * c.step / rounds, count = share(levels, rounds, c.step, c.step + 1);
  if (c.sub < 2 * count) {
    const std::int64_t level = first + c.sub / 2;
    out = Instr{};
    out.slot = kReduceSlot;
    if (c.sub++ % 2 == 1) {
      out.op = Op::kWait;
      return true;
    }
    const std::int64_t n = share(shape.shuffles, levels, level, level + 1);
    out.op = Op::kSharedLoad;
    out.shuffle = true;
    out.issue_cycles = static_cast<std::uint32_t>(n);
    out.wavefronts = static_cast<std::uint32_t>(n);
    out.mio_burst = true;
    return true;
  }
  c.phase = shape.stores > 0 ? kSmemStore : kSync;
  c.sub = 0;
  return false;
}

// Rounds r = 0 .. reduction_barriers - 1 of: the round's shuffle levels, its share of the stores, a
// barrier, its share of the loads, a wait for them; each share is one block of instructions issued
// back to back, as the SASS has them (one instruction each made the 1x8192x28672 sweep 2.8x slower
// to simulate). `step` is the round, `sub` the part of its loads (0 LDS, 1 LDSM, 2 the wait).
bool GemvKernel::reduction_next(WarpCursor& c, Instr& out) const {
  if (c.phase == kShuffle) return shuffle_next(c, out);
  const ReductionShape& shape = reduction_;
  const std::int64_t rounds = cfg_.reduction_barriers;
  const std::int64_t stores = shape.stores, loads = shape.loads;
  const std::int64_t r = c.step;
  if (c.phase == kSmemStore) {  // each warp's partial sums into shared memory, back to back
    const std::int64_t first = stores * r / rounds, count = share(stores, rounds, r, r + 1);
    c.phase = kSync;
    c.sub = 0;
    if (count > 0) {
      out = Instr{};
      out.op = Op::kSharedStore;
      out.issue_cycles = static_cast<std::uint32_t>(count);
      out.wavefronts = static_cast<std::uint32_t>(share(shape.store_wavefronts, stores, first, first + count));
      out.mio_burst = true;
      return true;
    }
  }
  if (c.phase == kSync) {  // partial sums of the warps meet in shared memory
    out = Instr{};
    out.op = Op::kBarrier;
    c.phase = kSmemLoad;
    c.sub = 0;
    return true;
  }
  // kSmemLoad: the other warps' partials back (the LDS, then the LDSM), then a wait for them
  const std::int64_t first = loads * r / rounds, count = share(loads, rounds, r, r + 1);
  const std::int64_t ldsm_from = loads - cfg_.reduction_smem_ldmatrix;
  while (c.sub < 2) {
    const bool ldsm = c.sub == 1;
    const std::int64_t lo = ldsm ? std::max(first, ldsm_from) : first;
    const std::int64_t hi = ldsm ? first + count : std::min(first + count, ldsm_from);
    ++c.sub;
    if (hi > lo) {
      out = Instr{};
      out.op = Op::kSharedLoad;
      out.slot = kReduceSlot;
      out.issue_cycles = static_cast<std::uint32_t>(hi - lo);
      out.wavefronts = static_cast<std::uint32_t>(share(shape.load_wavefronts, loads, lo, hi));
      out.ldmatrix = ldsm;
      out.mio_burst = true;
      return true;
    }
  }
  if (c.sub == 2 && count > 0) {
    out = Instr{};
    out.op = Op::kWait;
    out.slot = kReduceSlot;
    c.sub = 3;
    return true;
  }
  if (r + 1 < rounds) {
    c.phase = reduction_round_start();
    ++c.step;
  } else {
    c.phase = c.warp == 0 ? kReduce : kExitPhase;  // warp 0 sends the block's atomics
    c.step = 0;
  }
  c.sub = 0;
  return false;
}

}  // namespace gms
