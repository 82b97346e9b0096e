// The GEMV's compiled body (workload local_program): its global loads, spill stores and reloads,
// scoreboard waits and instructions in the SASS's order. A SASS scoreboard s is the warp's slot s
// (the steps' slots are not used in this mode); loads on no scoreboard go to a slot nothing waits on.
#include <algorithm>

#include "common/error.h"
#include "common/int_math.h"
#include "workload/gemv_kernel.h"

namespace gms {
namespace {
constexpr std::uint8_t kUntrackedSlot = 18;  // gemv_kernel.cpp uses 0..15, 16 and 17
std::uint8_t slot_of(std::uint8_t scoreboard) { return scoreboard == kNoScoreboard ? kUntrackedSlot : scoreboard; }
}  // namespace

GemvKernel::ProgramLoad GemvKernel::program_load_at(const WarpCursor& c, std::int64_t v) const {
  const std::int64_t warp_bytes = 16 * static_cast<std::int64_t>(warp_size_);
  const std::int64_t row_bytes = static_cast<std::int64_t>(cfg_.block_n) * e_;
  const std::int64_t rows_per_load = std::max<std::int64_t>(1, warp_bytes / row_bytes);
  const std::int64_t loads_per_row = cdiv(row_bytes, warp_bytes);
  const std::int64_t per_step = warp_vector_loads(cdiv(cfg_.block_k, cfg_.warps), row_bytes, warp_size_);
  ProgramLoad at;
  at.step = static_cast<int>(v / per_step);
  const std::int64_t in_step = v % per_step;
  at.first = in_step / loads_per_row * rows_per_load;
  at.rows = std::min(rows_per_load, window_rows(c, at.step) - at.first);
  const std::int64_t cols_bytes = std::min<std::int64_t>(cfg_.block_n, cfg_.n - c.tile_n * cfg_.block_n) * e_;
  at.lo = in_step % loads_per_row * warp_bytes;
  at.bytes = std::min(warp_bytes, cols_bytes - at.lo);
  at.k0 = c.tile_m * cfg_.block_k * cfg_.k_steps + static_cast<std::int64_t>(at.step) * cfg_.block_k;
  return at;
}

namespace {
Instr predicated_off() {  // past the matrix' edge: the predicated-off load issues, moves nothing
  Instr none;
  none.op = Op::kCompute;
  none.pipe = Pipe::kAlu;
  return none;
}
}  // namespace

Instr GemvKernel::program_w_load(const WarpCursor& c, std::int64_t v) const {
  const ProgramLoad at = program_load_at(c, v);
  if (at.rows <= 0 || at.bytes <= 0) return predicated_off();
  const std::int64_t k = at.k0 + c.warp + at.first * cfg_.warps;
  const std::int64_t n0 = c.tile_n * cfg_.block_n;
  return load(w_base_ + static_cast<Addr>((k * cfg_.n + n0) * e_ + at.lo), static_cast<std::uint32_t>(at.rows),
              static_cast<std::uint32_t>(at.bytes), static_cast<std::uint64_t>(cfg_.warps * cfg_.n * e_), 0, cfg_.w_bypass_l1,
              hint_of(cfg_.evict_w));
}

Instr GemvKernel::program_x_load(const WarpCursor& c, std::int64_t v) const {
  // One element of x a row, the same in every lane that reads it. Its sectors as silicon counts them (one per x load,
  // l1tex__t_sectors_pipe_lsu_mem_global_op_ld of every Triton record): the load's rows as consecutive k, the warp's own
  // block of them - the W rows keep their addresses.
  const ProgramLoad at = program_load_at(c, v);
  if (at.rows <= 0 || at.bytes <= 0) return predicated_off();
  const std::int64_t k = at.k0 + c.warp * cdiv(cfg_.block_k, cfg_.warps) + at.first;
  return load(x_base_ + static_cast<Addr>(k * e_), 1, static_cast<std::uint32_t>(at.rows * e_), 0, 0, false,
              hint_of(cfg_.evict_x));
}

// `step` is the program step, `sub` the part of it done: a W step's loads, a wait's scoreboards.
bool GemvKernel::program_next(WarpCursor& c, Instr& out) const {
  // Frames by launch index: at 64 registers 4,224 one-warp CTAs are resident at once on an H100.
  const Addr frame = local_base_ + static_cast<Addr>(c.cta * cfg_.warps + c.warp) * frame_warp_bytes_;
  while (c.step < static_cast<std::int64_t>(program_.steps.size())) {
    const std::size_t i = static_cast<std::size_t>(c.step);
    const LocalStep& s = program_.steps[i];
    const int sub = c.sub++;
    switch (s.kind) {
      case LocalStep::Kind::kXLoad: {
        if (sub > 0) break;
        if (program_.x_loads != cfg_.k_steps) {  // Triton's: the x of the rows of the W load with the same number
          out = program_x_load(c, program_x_before_[i]);
          if (out.op == Op::kLoad) out.slot = slot_of(s.scoreboard);
          return true;
        }
        const std::int64_t k0 = c.tile_m * cfg_.block_k * cfg_.k_steps + program_x_before_[i] * cfg_.block_k;
        const std::int64_t rows_k = std::max<std::int64_t>(0, std::min<std::int64_t>(cfg_.block_k, cfg_.k - k0));
        out = load(x_base_ + static_cast<Addr>(k0 * e_), static_cast<std::uint32_t>(cfg_.m), static_cast<std::uint32_t>(rows_k * e_),
                   static_cast<std::uint64_t>(cfg_.k * e_), slot_of(s.scoreboard), false, hint_of(cfg_.evict_x));
        return true;
      }
      case LocalStep::Kind::kWLoad:
        if (sub >= static_cast<int>(s.count)) break;
        out = program_w_load(c, program_w_before_[i] + sub);
        out.slot = slot_of(s.scoreboard);
        return true;
      case LocalStep::Kind::kStore:
      case LocalStep::Kind::kLoad: {
        if (sub > 0) break;
        const Addr line_bytes = 4 * static_cast<Addr>(warp_size_);  // a line: one 4-byte slot of every lane
        const Addr at = frame + s.first_line * line_bytes;
        const auto bytes = static_cast<std::uint32_t>(s.count * line_bytes);
        if (s.kind == LocalStep::Kind::kLoad) {
          out = load(at, 1, bytes, 0, slot_of(s.scoreboard), false, EvictHint::kNormal);
          out.local = true;
        } else {
          out = Instr{};
          out.op = Op::kStore;
          out.local = true;
          out.region = Region{at, 1, bytes, 0};
        }
        out.issue_cycles = s.instructions;
        out.other_instructions = s.others;
        return true;
      }
      case LocalStep::Kind::kWait: {
        int sb = sub;
        while (sb < kSassScoreboards && !(s.scoreboard >> sb & 1)) ++sb;
        if (sb >= kSassScoreboards) break;
        c.sub = sb + 1;
        out = Instr{};
        out.op = Op::kWait;
        out.slot = static_cast<std::uint8_t>(sb);
        return true;
      }
      case LocalStep::Kind::kMath:
      case LocalStep::Kind::kOther: {
        if (sub > 0) break;
        out = Instr{};
        out.op = Op::kCompute;
        out.issue_cycles = s.count;
        if (s.kind == LocalStep::Kind::kMath) {  // the warp's share of the block's FLOPs, spread by instruction
          const std::int64_t n0 = c.tile_n * cfg_.block_n;
          const double cols = static_cast<double>(std::min<std::int64_t>(cfg_.block_n, cfg_.n - n0));
          double rows = 0;
          for (int st = 0; st < cfg_.k_steps; ++st) {
            const std::int64_t k0 = c.tile_m * cfg_.block_k * cfg_.k_steps + static_cast<std::int64_t>(st) * cfg_.block_k;
            rows += static_cast<double>(std::max<std::int64_t>(0, std::min<std::int64_t>(cfg_.block_k, cfg_.k - k0)));
          }
          out.pipe = Pipe::kFma;
          out.flops = 2.0 * static_cast<double>(cfg_.m) * rows * cols / cfg_.warps * s.count /
                      static_cast<double>(program_.math_instructions);
        } else {
          out.pipe = Pipe::kAlu;
        }
        return true;
      }
    }
    ++c.step;
    c.sub = 0;
  }
  begin_epilogue(c);
  return false;
}

}  // namespace gms
