#include "workload/gemm_kernel.h"

#include <algorithm>

#include "common/error.h"
#include "common/int_math.h"
#include "workload/device_heap.h"

namespace gms {
namespace {

// Phases of a warp's program.
enum Phase { kPrologue = 0, kMainLoop = 1, kEpilogue = 2, kDone = 3 };

int c_element_bytes(const GemmConfig& cfg) {
  return cfg.c_dtype == "auto" ? (cfg.dtype == "fp32" ? 4 : 2) : dtype_bytes(cfg.c_dtype);
}

// Every way out of the main loop comes here: the epilogue counts its store blocks in c.step.
void enter_epilogue(WarpCursor& c) {
  c.phase = kEpilogue;
  c.step = 0;
  c.sub = 0;
}

// Steps inside one main-loop iteration, pipelined (stages > 1) and unbuffered (stages == 1); both
// take kStepCount sub-steps so the loop counter is shared.
enum Step { kWaitTile = 0, kSync = 1, kLoadA = 2, kLoadB = 3, kMma = 4, kSyncAfter = 5, kStepCount = 6 };
enum UnbufferedStep { kUbLoadA = 0, kUbLoadB = 1, kUbWait = 2, kUbSync = 3, kUbMma = 4, kUbSyncAfter = 5 };
// Scoreboard slots of the data path: K-tile copies use 0 .. stages-1, then these.
constexpr int kReadSlot0 = kMaxSlots - 4;  // ldmatrix results, alternating per K step
constexpr int kMmaSlot0 = kMaxSlots - 2;   // wgmma completion, alternating per K tile
// Spill reloads: a slot the data path's own loads leave free (wgmma reads no ldmatrix; mma.sync no wgmma).
int spill_slot(bool wgmma) { return wgmma ? kReadSlot0 : kMmaSlot0; }

// A coalesced epilogue of the tensor-core data path stages C through shared memory, tile.n / 32
// instructions of each kind per warp and round (gemm_epilogue.h); 0 = not staged.
int staged_epilogue_per_round(const GemmConfig& cfg, const GpuConfig& gpu) {
  if (cfg.epilogue != "coalesced" || !gemm_uses_tensor_cores(cfg, gpu) || resolved_gemm_mma(cfg) == "none") return 0;
  return static_cast<int>(std::max<std::int64_t>(1, cfg.tile.n / 32));
}

}  // namespace

bool gemm_uses_tensor_cores(const GemmConfig& cfg, const GpuConfig& gpu) {
  return cfg.dtype != "fp32" || gpu.sm.tensor_tf32_flops_per_cycle > 0;
}

int GemmKernel::registers_needed(const GemmConfig& cfg) {
  int threads = cfg.warps * 32;
  int acc = static_cast<int>(static_cast<std::int64_t>(cfg.tile.m) * cfg.tile.n / threads);  // fp32 accumulators
  int operands = std::max(8, static_cast<int>(static_cast<std::int64_t>(cfg.tile.m + cfg.tile.n) * 16 *
                                              dtype_bytes(cfg.dtype) / 4 / threads));
  return acc + operands + 32;
}

int GemmKernel::estimate_registers(const GemmConfig& cfg) { return std::min(255, registers_needed(cfg)); }

GemmKernel::GemmKernel(const GemmConfig& cfg, const GpuConfig& gpu, const std::string& base_dir)
    : cfg_(cfg),
      warp_size_(gpu.sm.warp_size),
      ea_(dtype_bytes(cfg.dtype)),
      ec_(c_element_bytes(cfg)),
      epilogue_(cfg.epilogue, ec_, gpu.sm.warp_size, staged_epilogue_per_round(cfg, gpu), kReadSlot0) {
  k_tiles_ = cdiv(cfg.k, cfg.tile.k);
  a_base_ = device_heap::kBase;
  b_base_ = device_heap::align_up(a_base_ + static_cast<Addr>(cfg.m * cfg.k * ea_));
  c_base_ = device_heap::align_up(b_base_ + static_cast<Addr>(cfg.k * cfg.n * ea_));
  pipe_ = gemm_uses_tensor_cores(cfg, gpu) ? Pipe::kTensor : Pipe::kFma;
  warp_flops_ = 2.0 * cfg.tile.m * cfg.tile.n * cfg.tile.k / cfg.warps;

  if (cfg.order != "auto") {
    std::string why;
    body_steps_ = gemm_order_steps(cfg.order);
    auto tokens = parse_order(cfg.order, body_steps_, &why, false);
    SIM_ASSERT(tokens.has_value(), "GEMM order '" << cfg.order << "' passed validation: " << why);
    body_ = *tokens;
  }
  shape_.tiles_m = cdiv(cfg.m, cfg.tile.m);
  shape_.tiles_n = cdiv(cfg.n, cfg.tile.n);
  order_ = make_cta_order(cfg.cta_order, shape_.tiles_m, shape_.tiles_n, base_dir);
  shape_.grid_ctas = order_->size();
  shape_.ctas = cfg.cta_limit > 0 ? std::min(cfg.cta_limit, shape_.grid_ctas) : shape_.grid_ctas;
  shape_.warps_per_cta = cfg.warps;
  shape_.math_dtype = cfg.dtype;
  shape_.registers_per_thread = cfg.registers_per_thread > 0 ? cfg.registers_per_thread : estimate_registers(cfg);
  shape_.shared_carveout = cfg.shared_carveout;
  take_lone_profile(shape_, cfg.issue);
  shape_.shared_mem_per_cta =
      static_cast<std::int64_t>(cfg.stages) * (cfg.tile.m + cfg.tile.n) * cfg.tile.k * ea_;

  const std::string mma = resolved_gemm_mma(cfg);
  if (mma == "none" || pipe_ != Pipe::kTensor) return;
  data_path_ = true;
  plan_ = plan_mma(cfg, gpu, mma);
  shape_.mma_class = mma;
  shape_.tensor_rate = mma_class_rate(gpu, cfg.dtype, mma);
  shape_.shared_mem_per_cta = static_cast<std::int64_t>(cfg.stages) * plan_.shared_bytes_per_stage;
  // One K tile (stages >= 2; stages 1 loads its own tile first, then waits):
  //   mma_sync: wait for tile kt's copies; barrier; prefetch tile kt+S-1; per 32-byte K step s:
  //             ldmatrix of step s+1 issued before the HMMAs of step s (the compiler's order)
  //   wgmma:    wait; barrier; wgmma on tile kt (asynchronous); wgmma.wait_group 1 (tile kt-1's
  //             MMAs done, so its buffer can be refilled); prefetch tile kt+S-1 (Triton's loop)
  //   spilled:  (gemm_spill.h) wait; per HGMMA group: store the frame chunk it displaces, reload its
  //             own, wait (a barrier after the first), its MMAs to completion; barrier; prefetch.
  //             mma.sync: the chunk swapped after the prefetch, before the ldmatrix of step 0.
  spill_ = plan_gemm_spill(cfg, gpu, plan_);
  local_base_ = device_heap::align_up(c_base_ + static_cast<Addr>(cfg.m * cfg.n * ec_)) + device_heap::kAlign;
  const bool spilled = spill_.frame_bytes > 0;
  mma_parts_ = plan_.wgmma && spilled ? spill_.groups : 1;
  auto& v = tile_steps_;
  if (cfg.stages == 1) v = {{Micro::kCopyA}, {Micro::kCopyB}};
  v.push_back({Micro::kWaitCopy});
  if (plan_.wgmma && spilled) {  // the compiled spilling loop (gemm_spill.h): synchronous MMA groups
    for (int g = 0; g < spill_.groups; ++g) {
      v.insert(v.end(), {{Micro::kSpillStore, g}, {Micro::kSpillLoad, g}, {Micro::kWaitSpill, g}});
      if (g == 0) v.push_back({Micro::kBarrier});
      v.insert(v.end(), {{Micro::kMma, g}, {Micro::kWaitMmaNow, g}});
    }
    v.push_back({Micro::kBarrier});  // every warp's MMAs read the stage before it is refilled
    if (cfg.stages > 1) v.insert(v.end(), {{Micro::kCopyA}, {Micro::kCopyB}});
  } else if (plan_.wgmma) {
    v.push_back({Micro::kBarrier});
    v.push_back({Micro::kMma});
    v.push_back({Micro::kWaitMma});
    if (cfg.stages > 1) v.insert(v.end(), {{Micro::kCopyA}, {Micro::kCopyB}});
  } else {
    v.push_back({Micro::kBarrier});
    // The compiled loop issues its integer and address run (the instructions the steps here do not
    // model) after the barrier, its LDGSTS late in it, then the ldmatrix and HMMA run (the SASS order
    // in docs/sm-sharing.md): one block, which a neighbour's MMAs interleave with as they do on silicon.
    if (cfg.issue.instructions > 0) v.push_back({Micro::kIntegerRun});
    if (cfg.stages > 1) v.insert(v.end(), {{Micro::kCopyA}, {Micro::kCopyB}});
    if (spilled) v.insert(v.end(), {{Micro::kSpillStore, 0}, {Micro::kSpillLoad, 0}, {Micro::kWaitSpill, 0}});
    v.push_back({Micro::kRead, 0});
    for (int s = 0; s < plan_.k_steps; ++s) {
      if (s + 1 < plan_.k_steps) v.push_back({Micro::kRead, s + 1});
      v.push_back({Micro::kWaitRead, s});
      v.push_back({Micro::kMma, s});
    }
  }
  if (cfg.stages == 1) v.push_back({Micro::kBarrier});  // the single buffer is refilled next
  // One HMMA's interval in the tensor pipe of a sub-partition (cycles), as the engine times it.
  const double interval = shape_.tensor_rate > 0 && plan_.mma_instructions > 0
                              ? plan_.flops / plan_.mma_instructions * gpu.sm.subpartitions / shape_.tensor_rate
                              : 1.0;
  plan_issue(v, one_wavefront_shared_latency(gpu.sm), static_cast<double>(gpu.sm.special_register_latency), interval,
             fetch_cycles_per_instruction(gpu.sm, cfg_.issue.instructions));
}

// The compiled loop's issue profile: the instructions the steps above do not model issue as the
// mma.sync loop's integer run, or among wgmma's MMAs (spread evenly over the steps), and every
// instruction of the loop holds its warp the loop's mean stall count (mma.sync: less the HMMAs' pacing).
void GemmKernel::plan_issue(const std::vector<Step>& steps, double shared_latency_cycles, double special_latency_cycles,
                            double mma_interval_cycles, double fetch_cycles) {
  if (cfg_.issue.instructions == 0) return;
  std::uint32_t modelled = 0, mma_steps = 0;
  const bool integer_run = std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.op == Micro::kIntegerRun; });
  for (const Step& s : steps) switch (s.op) {
      case Micro::kCopyA: modelled += plan_.copy_instructions_a; break;
      case Micro::kCopyB: modelled += plan_.copy_instructions_b; break;
      case Micro::kBarrier: modelled += 1; break;
      case Micro::kRead: modelled += plan_.ldsm[static_cast<size_t>(s.k_step)]; break;
      case Micro::kMma:
        modelled += plan_.wgmma ? static_cast<std::uint32_t>(plan_.k_steps) * plan_.mma_instructions /
                                      static_cast<std::uint32_t>(mma_parts_)
                                : plan_.mma_instructions;
        ++mma_steps;
        break;
      case Micro::kSpillStore: modelled += spill_.chunk((s.k_step + spill_.groups - 1) % spill_.groups).instructions; break;
      case Micro::kSpillLoad: modelled += spill_.chunk(s.k_step).instructions; break;
      default: break;
    }
  const auto given = static_cast<std::uint32_t>(cfg_.issue.instructions);
  if (given < modelled)
    throw ConfigError("workload issue.instructions = " + std::to_string(given) + ": the data path alone issues " +
                      std::to_string(modelled) + " warp instructions per K tile (copies, ldmatrix, MMAs, barriers)");
  const std::uint32_t other = given - modelled;
  if (integer_run)  // the mma.sync loop: one run of them (above)
    integer_run_ = other;
  else
    for (std::uint32_t i = 0; i < mma_steps; ++i)
      other_per_mma_.push_back(static_cast<std::uint32_t>((static_cast<std::uint64_t>(other) * (i + 1)) / mma_steps -
                                                          (static_cast<std::uint64_t>(other) * i) / mma_steps));
  issue_hold_ = issue_hold_per_instruction(cfg_.issue, shared_latency_cycles, special_latency_cycles, fetch_cycles);
  if (!integer_run || issue_hold_.floor <= 0) return;
  // The HMMAs follow one another at the tensor pipe's interval, and the profile counts that pacing as
  // their `wait` (Nsight, the loop alone: 0.79 of the 1.67 wait cycles per issued instruction sit on
  // HMMAs). The MMA blocks take it from the pipe; the floor of the other blocks keeps only the rest.
  const double n = cfg_.issue.instructions, per_cycle = static_cast<double>(kTicksPerCycle);
  const double hmmas = static_cast<double>(plan_.mma_instructions) * plan_.k_steps;
  const double floor = issue_hold_.floor * n / per_cycle;  // cycles per K tile
  const double paced = std::min(floor - n, hmmas * std::max(0.0, mma_interval_cycles - 1.0));
  mma_hold_ = issue_hold_;
  mma_hold_.floor = per_cycle;
  issue_hold_.floor = (floor - hmmas - paced) * per_cycle / (n - hmmas);
}

double GemmKernel::compulsory_bytes() const {
  return static_cast<double>(cfg_.m * cfg_.k + cfg_.k * cfg_.n) * ea_ + static_cast<double>(cfg_.m * cfg_.n) * ec_;
}

double GemmKernel::flops() const { return 2.0 * cfg_.m * cfg_.n * cfg_.k; }

void GemmKernel::start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const {
  c = cursor_at(*order_, launch_index, warp);
  c.phase = cfg_.stages > 1 ? kPrologue : kMainLoop;
}

bool GemmKernel::emit(const WarpCursor& c, const Step& s, std::int64_t kt, Instr& out) const {
  const int S = cfg_.stages;
  const std::int64_t pre = S > 1 ? kt + S - 1 : kt;  // the tile this iteration's copies fetch
  out = Instr{};
  switch (s.op) {
    case Micro::kCopyA:
    case Micro::kCopyB: {
      if (pre >= k_tiles_) return false;
      const bool a = s.op == Micro::kCopyA;
      return tile_copy(c, a, pre, static_cast<int>(pre % S), out);
    }
    case Micro::kWaitCopy:
      out.op = Op::kWait;
      out.slot = static_cast<std::uint8_t>(kt % S);
      return true;
    case Micro::kBarrier: out.op = Op::kBarrier; return true;
    case Micro::kRead: {
      const auto k = static_cast<size_t>(s.k_step);
      out.op = Op::kSharedLoad;
      out.ldmatrix = true;
      out.lane_bytes = 16;  // ldmatrix.x4: four 32-bit registers a lane
      out.slot = static_cast<std::uint8_t>(kReadSlot0 + s.k_step % 2);
      out.issue_cycles = plan_.ldsm[k];
      out.wavefronts = plan_.ldsm_wavefronts[k];
      out.conflicts = plan_.ldsm_conflicts[k];
      return true;
    }
    case Micro::kWaitRead:
      out.op = Op::kWait;
      out.slot = static_cast<std::uint8_t>(kReadSlot0 + s.k_step % 2);
      return true;
    case Micro::kIntegerRun:  // a block of the loop's other instructions: the issue port, no FLOPs
      out.op = Op::kCompute;
      out.pipe = Pipe::kAlu;
      out.issue_cycles = integer_run_;
      return integer_run_ > 0;
    case Micro::kMma:
      out.op = Op::kCompute;
      out.pipe = Pipe::kTensor;
      if (!other_per_mma_.empty())
        out.other_instructions = other_per_mma_[plan_.wgmma && mma_parts_ == 1 ? 0 : static_cast<size_t>(s.k_step)];
      if (plan_.wgmma) {  // the K tile's warpgroup MMAs (or one spilled group's), asynchronous
        const auto parts = static_cast<std::uint32_t>(mma_parts_);
        out.async_mma = true;
        out.slot = static_cast<std::uint8_t>(kMmaSlot0 + kt % 2);
        out.flops = plan_.flops * plan_.k_steps / parts;
        out.issue_cycles = plan_.mma_instructions * static_cast<std::uint32_t>(plan_.k_steps) / parts;
        out.wavefronts = plan_.wgmma_operand_wavefronts * static_cast<std::uint32_t>(plan_.k_steps) / parts;
      } else {
        out.flops = plan_.flops;
        out.issue_cycles = plan_.mma_instructions;
      }
      return true;
    case Micro::kSpillStore:
    case Micro::kSpillLoad:
    case Micro::kWaitSpill:
    case Micro::kWaitMmaNow: return spill_step(c, s, kt, out);
    case Micro::kWaitMma:
      if (kt == 0) return false;
      out.op = Op::kWait;
      out.slot = static_cast<std::uint8_t>(kMmaSlot0 + (kt - 1) % 2);
      return true;
  }
  return false;
}

// The spilled loop's own steps: frame chunks by launch index and warp (a line is one 4-byte slot of
// every lane, as ptxas lays local memory out), through L1 (l1.local_stores says how it keeps stores).
bool GemmKernel::spill_step(const WarpCursor& c, const Step& s, std::int64_t kt, Instr& out) const {
  const int wgmma_slot = kMmaSlot0 + static_cast<int>(kt % 2), reload_slot = spill_slot(plan_.wgmma);
  if (s.op == Micro::kWaitMmaNow || s.op == Micro::kWaitSpill) {
    out.op = Op::kWait;
    out.slot = static_cast<std::uint8_t>(s.op == Micro::kWaitMmaNow ? wgmma_slot : reload_slot);
    return true;
  }
  const bool store = s.op == Micro::kSpillStore;
  const GemmSpillPlan::Chunk part = spill_.chunk(store ? (s.k_step + spill_.groups - 1) % spill_.groups : s.k_step);
  out = frame_access(c, part.offset, part.bytes, store);
  return true;
}

Instr GemmKernel::frame_access(const WarpCursor& c, std::int64_t offset, std::int64_t bytes, bool store) const {
  const auto lanes = static_cast<std::int64_t>(warp_size_);
  const Addr frame = local_base_ + static_cast<Addr>((c.cta * cfg_.warps + c.warp) * spill_.frame_bytes * lanes);
  Instr in;
  in.op = store ? Op::kStore : Op::kLoad;
  in.local = true;
  if (!store) in.slot = static_cast<std::uint8_t>(spill_slot(plan_.wgmma));
  in.region = Region{frame + static_cast<Addr>(offset * lanes), 1, static_cast<std::uint32_t>(bytes * lanes), 0};
  in.issue_cycles = GemmSpillPlan::instructions(bytes);
  return in;
}

// Main loop of the tensor-core data path; writes kExit when the K tiles are done (the caller moves
// on to the epilogue, after the last wgmma has completed).
void GemmKernel::next_data_path(WarpCursor& c, Instr& out) const {
  while (true) {
    if (c.step >= k_tiles_) {
      out = Instr{};
      if (plan_.wgmma && c.sub == 0) {  // wgmma.wait_group 0: the epilogue reads the accumulators
        c.sub = 1;
        out.op = Op::kWait;
        out.slot = static_cast<std::uint8_t>(kMmaSlot0 + (k_tiles_ - 1) % 2);
        return;
      }
      if (spill_.frame_bytes > 0 && c.sub <= 2) {  // the spilled accumulators come back for the C tile
        const bool load = c.sub <= 1;
        c.sub = load ? 2 : 3;
        if (load) {
          out = frame_access(c, 0, spill_.frame_bytes, false);
        } else {
          out.op = Op::kWait;
          out.slot = static_cast<std::uint8_t>(spill_slot(plan_.wgmma));
        }
        return;
      }
      enter_epilogue(c);
      out.op = Op::kExit;
      return;
    }
    const Step& s = tile_steps_[static_cast<size_t>(c.sub)];
    const std::int64_t kt = c.step;
    if (++c.sub == static_cast<int>(tile_steps_.size())) {
      c.sub = 0;
      ++c.step;
    }
    if (emit(c, s, kt, out)) {
      hold_for_issue(out, s.op == Micro::kMma && mma_hold_.floor > 0 ? mma_hold_ : issue_hold_);
      return;
    }
  }
}

// Program of one warp (S = stages, slot = K tile mod S):
//   prologue:  load A,B of tiles 0..S-2
//   for kt:    wait tile kt; barrier; load A,B of tile kt+S-1; MMA on tile kt   (S = 1: load, wait,
//              barrier, MMA, barrier)
//   epilogue:  store the warp's share of the C tile; exit
void GemmKernel::next(WarpCursor& c, Instr& out) const {
  const int S = cfg_.stages;
  while (true) {
    switch (c.phase) {
      case kPrologue: {
        std::int64_t tiles = std::min<std::int64_t>(S - 1, k_tiles_);
        if (c.step >= tiles) {
          c.phase = kMainLoop;
          c.step = 0;
          c.sub = 0;
          continue;
        }
        int slot = static_cast<int>(c.step % S);
        const bool a = c.sub == 0;
        const std::int64_t kt = c.step;
        c.sub = a ? 1 : 0;
        if (!a) ++c.step;
        if (!data_path_) {
          out = a ? load(a_region(c, kt), slot) : load(b_region(c, kt), slot);
          return;
        }
        if (tile_copy(c, a, kt, slot, out)) return;
        continue;  // nothing for this warp to issue (TMA: another warp copies)
      }
      case kMainLoop: {
        if (data_path_) {
          next_data_path(c, out);
          if (out.op != Op::kExit) return;
          continue;
        }
        if (!body_.empty()) {
          next_patterned(c, out);
          if (out.op != Op::kExit) return;
          continue;
        }
        if (c.step >= k_tiles_) {
          enter_epilogue(c);
          continue;
        }
        const std::int64_t kt = c.step;
        const int slot = static_cast<int>(kt % S);
        const int sub = c.sub;
        c.sub = sub + 1;
        if (c.sub == kStepCount) {
          c.sub = 0;
          ++c.step;
        }
        if (S == 1) {  // no prefetch: load, wait, sync, MMA, sync (the buffer is reused)
          switch (sub) {
            case kUbLoadA: out = load(a_region(c, kt), 0); return;
            case kUbLoadB: out = load(b_region(c, kt), 0); return;
            case kUbWait: out = Instr{}; out.op = Op::kWait; out.slot = 0; return;
            case kUbSync: out = Instr{}; out.op = Op::kBarrier; return;
            case kUbMma: break;
            case kUbSyncAfter: out = Instr{}; out.op = Op::kBarrier; return;
          }
        } else {
          const std::int64_t pre = kt + S - 1;
          switch (sub) {
            case kWaitTile: out = Instr{}; out.op = Op::kWait; out.slot = static_cast<std::uint8_t>(slot); return;
            case kSync: out = Instr{}; out.op = Op::kBarrier; return;
            case kLoadA:
              if (pre >= k_tiles_) continue;
              out = load(a_region(c, pre), static_cast<int>(pre % S));
              return;
            case kLoadB:
              if (pre >= k_tiles_) continue;
              out = load(b_region(c, pre), static_cast<int>(pre % S));
              return;
            case kMma: break;
            case kSyncAfter: continue;
          }
        }
        out = Instr{};
        out.op = Op::kCompute;
        out.pipe = pipe_;
        out.flops = warp_flops_;
        return;
      }
      case kEpilogue: {  // c.step counts the store blocks (every way in resets it)
        const Region share = c_region(c);
        out = epilogue_.block(share, static_cast<int>(c.step));
        if (++c.step == epilogue_.blocks(share)) c.phase = kDone;
        return;
      }
      default:
        out = Instr{};
        out.op = Op::kExit;
        return;
    }
  }
}

// Main loop under an order pattern: iteration j covers K tiles j*u .. j*u+u-1 (u = body steps);
// token Li issues the prefetch loads of tile j*u+i+S-1, token Ci waits for tile j*u+i, syncs the
// CTA and runs its MMA. `c.sub` walks the tokens and their parts. Writes kExit into `out` when the
// loop is over (the caller moves on to the epilogue).
void GemmKernel::next_patterned(WarpCursor& c, Instr& out) const {
  const int S = cfg_.stages;
  const std::int64_t base = c.step * body_steps_;
  while (true) {
    if (base >= k_tiles_) {
      enter_epilogue(c);
      out = Instr{};
      out.op = Op::kExit;
      return;
    }
    const int token = c.sub / 4, part = c.sub % 4;
    if (token >= static_cast<int>(body_.size())) {
      c.sub = 0;
      ++c.step;
      next_patterned(c, out);
      return;
    }
    ++c.sub;
    const OrderToken& t = body_[static_cast<size_t>(token)];
    const std::int64_t kt = base + t.step;
    if (t.load) {
      const std::int64_t pre = kt + S - 1;
      if (pre >= k_tiles_ || part >= 2) continue;
      out = load(part == 0 ? a_region(c, pre) : b_region(c, pre), static_cast<int>(pre % S));
      return;
    }
    if (kt >= k_tiles_ || part == 3) continue;
    out = Instr{};
    if (part == 0) {
      out.op = Op::kWait;
      out.slot = static_cast<std::uint8_t>(kt % S);
    } else if (part == 1) {
      out.op = Op::kBarrier;
    } else {
      out.op = Op::kCompute;
      out.pipe = pipe_;
      out.flops = warp_flops_;
    }
    return;
  }
}

}  // namespace gms
