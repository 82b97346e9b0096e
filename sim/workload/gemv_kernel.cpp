#include "workload/gemv_kernel.h"

#include <algorithm>

#include "common/error.h"
#include "common/int_math.h"
#include "workload/device_heap.h"

namespace gms {

EvictHint GemvKernel::hint_of(const std::string& s) {
  return s == "first" ? EvictHint::kFirst : s == "last" ? EvictHint::kLast : EvictHint::kNormal;
}

int GemvKernel::estimate_registers(const GemvConfig& cfg, int warp_size, int live_steps) {
  const int threads = cfg.warps * warp_size;
  const int vectors_per_step = std::max(1, cfg.block_k * cfg.block_n / 8 / threads);  // 16-byte W vectors
  const int column_groups_per_thread = std::max(1, cfg.block_n / 8 / threads);
  const int x_per_step = std::max(1, vectors_per_step / column_groups_per_thread);  // one x value per row
  const int acc = 8 * column_groups_per_thread;
  return live_steps * (4 * vectors_per_step + x_per_step) + acc + 24;
}

GemvKernel::GemvKernel(const GemvConfig& cfg, const GpuConfig& gpu) : cfg_(cfg), warp_size_(gpu.sm.warp_size) {
  e_ = dtype_bytes(cfg.dtype);
  ey_ = cfg.reduction == "atomic_fp16" ? 2 : 4;
  grid_n_ = cdiv(cfg.n, cfg.block_n);
  grid_k_ = cdiv(cfg.k, static_cast<std::int64_t>(cfg.block_k) * cfg.k_steps);
  std::string why;
  auto order = parse_order(cfg.order, cfg.k_steps, &why);
  SIM_ASSERT(order.has_value(), "order '" << cfg.order << "' passed validation: " << why);
  order_ = *order;
  x_base_ = device_heap::kBase;
  w_base_ = device_heap::align_up(x_base_ + static_cast<Addr>(cfg.m * cfg.k * e_));
  y_base_ = device_heap::align_up(w_base_ + static_cast<Addr>(cfg.k * cfg.n * e_));
  local_base_ = device_heap::align_up(y_base_ + static_cast<Addr>(cfg.m * cfg.n * ey_)) + device_heap::kAlign;

  // A compiled window counts 16-byte vectors per lane, as the SASS does; the program moves rows.
  const int vector_bytes = 16 * warp_size_;  // one vector per lane: what a warp's LDG.128 moves
  const int row_bytes = cfg.block_n * e_;
  if (cfg.loads_in_flight > 0) {
    rows_per_unit_ = std::max(1, vector_bytes / row_bytes);
    window_units_ = std::max(1, cfg.loads_in_flight / static_cast<int>(cdiv(row_bytes, vector_bytes)));
    SIM_ASSERT(window_units_ <= 16,
               "window of " << window_units_ << " units passed validation (loads_in_flight " << cfg.loads_in_flight << ")");
  }
  // A compiled window holds its vectors (4 registers each) and one x value per row, whatever the order.
  const int column_groups = std::max(1, cfg.block_n / 8 / (cfg.warps * warp_size_));
  int regs = cfg.registers_per_thread > 0 ? cfg.registers_per_thread
             : cfg.loads_in_flight > 0
                 ? cfg.loads_in_flight * 4 + window_units_ * rows_per_unit_ + 8 * column_groups + 24
                 : estimate_registers(cfg, warp_size_, max_live_steps(order_));
  // Per K step: an explicit frame is spread over the steps; the estimate overflows every step.
  spill_bytes_per_thread_ = cfg.loads_in_flight > 0 ? 0  // a compiled window: the rows live in registers
                            : cfg.spill_bytes_per_thread >= 0
                                ? static_cast<int>((cfg.spill_bytes_per_thread + cfg.k_steps - 1) / cfg.k_steps)
                                : std::max(0, regs - gpu.sm.max_registers_per_thread) * 4;
  // What the compiled code stores and loads through the frame (the frame once, unless the SASS says more).
  auto per_step = [&](std::int64_t bytes) {
    return bytes > 0 ? static_cast<int>((bytes + cfg.k_steps - 1) / cfg.k_steps) : spill_bytes_per_thread_;
  };
  spill_stored_per_step_ = spill_bytes_per_thread_ > 0 ? per_step(cfg.spill_stored_per_thread) : 0;
  spill_loaded_per_step_ = spill_bytes_per_thread_ > 0 ? per_step(cfg.spill_loaded_per_thread) : 0;
  if (!cfg.local_program.empty()) {  // the compiled body replaces the steps' passes
    program_ = parse_local_program(cfg.local_program, "workload local_program");
    const std::int64_t vectors = cfg.k_steps * warp_vector_loads(cdiv(cfg.block_k, cfg.warps), row_bytes, warp_size_);
    if (program_.w_loads != vectors)
      throw ConfigError("workload local_program: " + std::to_string(program_.w_loads) + " W loads; a warp of " +
                        std::to_string(warp_size_) + " lanes loads " + std::to_string(vectors) + " 16-byte vectors a lane");
    SIM_ASSERT((program_.x_loads == cfg.k_steps || program_.x_loads == program_.w_loads) &&
                   (cfg.spill_bytes_per_thread > 0 || program_.line_end == 0),
               "local program passed validation with " << program_.x_loads << " x loads, frame " << cfg.spill_bytes_per_thread
                                                       << ", lines up to " << program_.line_end);
    take_start_reads_out_of_program(cfg.start_special_reads);
    std::int64_t w = 0, x = 0;
    for (const LocalStep& st : program_.steps) {
      program_w_before_.push_back(w);
      program_x_before_.push_back(x);
      if (st.kind == LocalStep::Kind::kWLoad) w += st.count;
      if (st.kind == LocalStep::Kind::kXLoad) ++x;
    }
    frame_warp_bytes_ = static_cast<std::uint64_t>(std::max<std::int64_t>(0, cfg.spill_bytes_per_thread)) * warp_size_;
    spill_bytes_per_thread_ = spill_stored_per_step_ = spill_loaded_per_step_ = 0;
  }
  shape_.tiles_m = grid_k_;
  shape_.tiles_n = grid_n_;
  shape_.grid_ctas = grid_n_ * grid_k_;
  shape_.ctas = shape_.grid_ctas;
  shape_.warps_per_cta = cfg.warps;
  shape_.registers_per_thread = regs;
  shape_.shared_carveout = cfg.shared_carveout;
  shape_.shared_mem_per_cta = static_cast<std::int64_t>(cfg.warps) * warp_size_ * 8 * 4;  // cross-warp reduction
  shape_.math_dtype = "fp32";  // gemlite casts to fp32 and multiplies on the FMA pipes
  reduction_ = reduction_shape();
}

// The compiled code's first instructions include its start S2Rs (records_add_gemv_sass.py counts those before
// the first LDG); the warp issues them itself (kStart, as MIO instructions), so the program's other
// instructions before its first load hold them once too many.
void GemvKernel::take_start_reads_out_of_program(std::int64_t start_reads) {
  std::int64_t left = start_reads;
  auto& steps = program_.steps;
  for (std::size_t i = 0; i < steps.size() && left > 0; ++i) {
    LocalStep& st = steps[i];
    if (st.kind != LocalStep::Kind::kOther && st.kind != LocalStep::Kind::kMath) break;  // a load or a wait
    if (st.kind != LocalStep::Kind::kOther) continue;
    const std::int64_t taken = std::min<std::int64_t>(left, st.count);
    st.count -= static_cast<std::uint32_t>(taken);
    program_.other_instructions -= taken;
    left -= taken;
  }
  if (left > 0)
    throw ConfigError("workload local_program: its other instructions before the first load (C) hold " +
                      std::to_string(start_reads - left) + " of the " + std::to_string(start_reads) +
                      " start_special_reads the compiled code issues there");
  std::erase_if(steps, [](const LocalStep& st) { return st.kind == LocalStep::Kind::kOther && st.count == 0; });
}

TileCoord GemvKernel::tile_of(std::int64_t launch_index) const {
  return {launch_index / grid_n_, launch_index % grid_n_};  // (K chunk, N block): x is the fastest axis
}

double GemvKernel::compulsory_bytes() const {
  return static_cast<double>(cfg_.m * cfg_.k + cfg_.k * cfg_.n) * e_ + static_cast<double>(cfg_.m * cfg_.n) * ey_;
}

void GemvKernel::start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const {
  TileCoord t = tile_of(launch_index);
  c = WarpCursor{};
  c.cta = launch_index;
  c.tile_m = t.m;
  c.tile_n = t.n;
  c.warp = warp;
  c.phase = cfg_.start_special_reads > 0 ? kStart : program_.steps.empty() ? kBody : kProgram;
}

Instr GemvKernel::load(Addr base, std::uint32_t rows, std::uint32_t row_bytes, std::uint64_t stride, int slot,
                       bool bypass, EvictHint hint) const {
  Instr in;
  in.op = Op::kLoad;
  in.slot = static_cast<std::uint8_t>(slot);
  in.bypass_l1 = bypass;
  in.hint = hint;
  in.region = Region{base, rows, row_bytes, stride};
  std::uint64_t bytes = static_cast<std::uint64_t>(rows) * row_bytes;
  in.issue_cycles = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (bytes + warp_size_ * 16 - 1) / (warp_size_ * 16)));
  return in;
}

std::int64_t GemvKernel::window_rows(const WarpCursor& c, int step) const {
  const std::int64_t k0 = c.tile_m * cfg_.block_k * cfg_.k_steps + static_cast<std::int64_t>(step) * cfg_.block_k;
  const std::int64_t rows_k = std::max<std::int64_t>(0, std::min<std::int64_t>(cfg_.block_k, cfg_.k - k0));
  return rows_k > c.warp ? (rows_k - c.warp + cfg_.warps - 1) / cfg_.warps : 0;
}

std::int64_t GemvKernel::window_units(const WarpCursor& c, int step) const {
  return cdiv(window_rows(c, step), static_cast<std::int64_t>(rows_per_unit_));
}

// A compiled window (K = window_units_ loads): x for every step, then the warp's W rows of all steps
// as one stream of units - units 0 .. K-1 loaded, then per unit u: wait for it, compute its rows,
// load unit u + K. A unit never spans two steps (its rows are W rows apart within one step).
// `step` counts units loaded (kWindowFill) or consumed (kWindow); `sub` the part of a unit.
bool GemvKernel::window_next(WarpCursor& c, Instr& out) const {
  const int K = window_units_;
  const std::int64_t n0 = c.tile_n * cfg_.block_n;
  const std::int64_t cols = std::min<std::int64_t>(cfg_.block_n, cfg_.n - n0);
  std::int64_t units = 0;  // in all steps
  for (int s = 0; s < cfg_.k_steps; ++s) units += window_units(c, s);
  // (first row of unit u within its step, its step, the rows it covers)
  auto locate = [&](std::int64_t u, int* step, std::int64_t* first, std::int64_t* count) {
    int s = 0;
    while (u >= window_units(c, s)) u -= window_units(c, s++);
    *step = s;
    *first = u * rows_per_unit_;
    *count = std::min<std::int64_t>(rows_per_unit_, window_rows(c, s) - *first);
  };
  auto row_load = [&](std::int64_t u) {
    int step = 0;
    std::int64_t first = 0, count = 0;
    locate(u, &step, &first, &count);
    const std::int64_t k = c.tile_m * cfg_.block_k * cfg_.k_steps + static_cast<std::int64_t>(step) * cfg_.block_k +
                           c.warp + first * cfg_.warps;
    return load(w_base_ + static_cast<Addr>((k * cfg_.n + n0) * e_), static_cast<std::uint32_t>(count),
                static_cast<std::uint32_t>(cols * e_), static_cast<std::uint64_t>(cfg_.warps * cfg_.n * e_), 0,
                cfg_.w_bypass_l1, hint_of(cfg_.evict_w));
  };
  if (c.phase == kBody) {  // x of every step (each warp reads it; L1 serves the others)
    if (c.sub < cfg_.k_steps) {
      const std::int64_t k0 = c.tile_m * cfg_.block_k * cfg_.k_steps + static_cast<std::int64_t>(c.sub) * cfg_.block_k;
      const std::int64_t rows_k = std::max<std::int64_t>(0, std::min<std::int64_t>(cfg_.block_k, cfg_.k - k0));
      ++c.sub;
      out = load(x_base_ + static_cast<Addr>(k0 * e_), static_cast<std::uint32_t>(cfg_.m), static_cast<std::uint32_t>(rows_k * e_),
                 static_cast<std::uint64_t>(cfg_.k * e_), kWindowXSlot, false, hint_of(cfg_.evict_x));
      return true;
    }
    c.phase = kWindowFill;
    c.step = 0;
    c.sub = 0;
    return false;
  }
  if (c.phase == kWindowFill) {
    if (c.step < std::min<std::int64_t>(K, units)) {
      out = row_load(c.step);
      out.slot = static_cast<std::uint8_t>(c.step % K);
      ++c.step;
      return true;
    }
    c.phase = kWindow;
    c.step = 0;
    c.sub = 0;
    return false;
  }
  const std::int64_t r = c.step;
  if (r >= units) {  // the epilogue
    begin_epilogue(c);
    return false;
  }
  const int sub = c.sub++;
  if (sub == 0 && r == 0) {
    out = Instr{};
    out.op = Op::kWait;
    out.slot = kWindowXSlot;
    return true;
  }
  if (sub <= 1) {
    c.sub = 2;
    out = Instr{};
    out.op = Op::kWait;
    out.slot = static_cast<std::uint8_t>(r % K);
    return true;
  }
  if (sub == 2) {
    int step = 0;
    std::int64_t first = 0, count = 0;
    locate(r, &step, &first, &count);
    out = Instr{};
    out.op = Op::kCompute;
    out.pipe = Pipe::kFma;
    out.flops = 2.0 * static_cast<double>(cfg_.m) * static_cast<double>(cols) * static_cast<double>(count);
    return true;
  }
  c.sub = 0;
  ++c.step;
  if (r + K < units) {
    out = row_load(r + K);
    out.slot = static_cast<std::uint8_t>((r + K) % K);
    return true;
  }
  return false;
}

// Sub-steps of one order token: a load token is [x load, W load, (wait, spill stores)], a compute token is
// [(spill loads), wait, compute].
void GemvKernel::next(WarpCursor& c, Instr& out) const {
  next_instruction(c, out);
  if (out.op != Op::kWait) c.issued += out.instructions_issued();
}

void GemvKernel::next_instruction(WarpCursor& c, Instr& out) const {
  const std::int64_t n0 = c.tile_n * cfg_.block_n;
  const std::int64_t cols = std::min<std::int64_t>(cfg_.block_n, cfg_.n - n0);
  const std::int64_t k_chunk0 = c.tile_m * cfg_.block_k * cfg_.k_steps;
  const int W = cfg_.warps;
  const std::uint64_t spill_warp_bytes = static_cast<std::uint64_t>(spill_bytes_per_thread_) * warp_size_;
  // A frame per launch (modulo 4,096 before: at 64 registers an H100 holds 4,224 one-warp CTAs).
  const Addr spill_base =
      local_base_ + static_cast<Addr>(c.cta * W + c.warp) * std::max<std::uint64_t>(spill_warp_bytes, 1) * cfg_.k_steps;
  while (true) {
    if (c.phase == kStart) {  // the thread and CTA index (S2R): the warp's first MIO instructions
      out = Instr{};
      out.op = Op::kSharedLoad;
      out.special_read = true;
      out.warp_start = true;
      out.issue_cycles = static_cast<std::uint32_t>(cfg_.start_special_reads);
      out.mio_burst = true;
      c.phase = program_.steps.empty() ? kBody : kProgram;
      return;
    }
    if (c.phase == kProgram) {
      if (program_next(c, out)) return;
      continue;
    }
    if (cfg_.loads_in_flight > 0 && (c.phase == kBody || c.phase == kWindowFill || c.phase == kWindow)) {
      if (window_next(c, out)) return;
      continue;
    }
    if (c.phase == kBody) {
      if (c.step >= static_cast<std::int64_t>(order_.size())) {
        begin_epilogue(c);
        continue;
      }
      const OrderToken& tok = order_[static_cast<size_t>(c.step)];
      const std::int64_t k0 = k_chunk0 + static_cast<std::int64_t>(tok.step) * cfg_.block_k;
      const std::int64_t rows_k = std::max<std::int64_t>(0, std::min<std::int64_t>(cfg_.block_k, cfg_.k - k0));
      const int sub = c.sub++;
      const Addr spill = spill_base + static_cast<Addr>(tok.step) * spill_warp_bytes;
      if (tok.load) {
        if (sub == 0) {
          out = load(x_base_ + static_cast<Addr>(k0 * e_), static_cast<std::uint32_t>(cfg_.m),
                     static_cast<std::uint32_t>(rows_k * e_), static_cast<std::uint64_t>(cfg_.k * e_), tok.step, false,
                     hint_of(cfg_.evict_x));
          return;
        }
        if (sub == 1) {
          std::int64_t my_rows = rows_k > c.warp ? (rows_k - c.warp + W - 1) / W : 0;
          out = load(w_base_ + static_cast<Addr>(((k0 + c.warp) * cfg_.n + n0) * e_), static_cast<std::uint32_t>(my_rows),
                     static_cast<std::uint32_t>(cols * e_), static_cast<std::uint64_t>(cfg_.n * e_) * W, tok.step,
                     cfg_.w_bypass_l1, hint_of(cfg_.evict_w));
          return;
        }
        if (sub == 2 && spill_warp_bytes > 0) {  // STL stores the loaded registers: they must have arrived
          out = Instr{};
          out.op = Op::kWait;
          out.slot = static_cast<std::uint8_t>(tok.step);
          return;
        }
        const std::uint64_t stored = static_cast<std::uint64_t>(spill_stored_per_step_) * warp_size_;
        if (sub >= 3 && spill_warp_bytes > 0 && static_cast<std::uint64_t>(sub - 3) * spill_warp_bytes < stored) {
          // The step's stores in frame-sized passes over the frame (a slot stored more than once).
          const std::uint64_t bytes = std::min(spill_warp_bytes, stored - static_cast<std::uint64_t>(sub - 3) * spill_warp_bytes);
          out = Instr{};
          out.op = Op::kStore;
          out.local = true;
          out.region = Region{spill, 1, static_cast<std::uint32_t>(bytes), 0};
          out.issue_cycles = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, bytes / (warp_size_ * 16)));
          return;
        }
      } else {
        const std::uint64_t loaded = static_cast<std::uint64_t>(spill_loaded_per_step_) * warp_size_;
        const int load_passes = spill_warp_bytes > 0 ? static_cast<int>((loaded + spill_warp_bytes - 1) / spill_warp_bytes) : 0;
        if (sub < load_passes) {  // the step's spill loads, in frame-sized passes
          const std::uint64_t bytes = std::min(spill_warp_bytes, loaded - static_cast<std::uint64_t>(sub) * spill_warp_bytes);
          out = load(spill, 1, static_cast<std::uint32_t>(bytes), 0, tok.step, false, EvictHint::kNormal);
          out.local = true;
          return;
        }
        if (sub <= load_passes) {
          out = Instr{};
          out.op = Op::kWait;
          out.slot = static_cast<std::uint8_t>(tok.step);
          c.sub = load_passes + 1;
          return;
        }
        if (sub == load_passes + 1) {
          out = Instr{};
          out.op = Op::kCompute;
          out.pipe = Pipe::kFma;
          out.flops = 2.0 * static_cast<double>(cfg_.m) * rows_k * cols / W;
          return;
        }
      }
      c.sub = 0;
      ++c.step;
      continue;
    }
    if (c.phase == kOther) {  // the compiled code's instructions the program has not issued
      c.phase = reduction_round_start();
      const std::int64_t rest = cfg_.instructions_per_warp - c.issued - epilogue_instructions(c);
      if (rest > 0) {
        out = Instr{};
        out.op = Op::kCompute;
        out.pipe = Pipe::kAlu;
        out.issue_cycles = static_cast<std::uint32_t>(rest);
        return;
      }
      continue;
    }
    if (c.phase == kShuffle || c.phase == kSmemStore || c.phase == kSync || c.phase == kSmemLoad) {
      if (reduction_next(c, out)) return;
      continue;
    }
    if (c.phase == kReduce) {
      // One warp instruction per (row of y, lane element e): lanes own `v` consecutive outputs, so
      // instruction e touches every v-th output (v = 1: the whole row in one coalesced instruction).
      const int v = cfg_.reduction_lane_elements;
      const std::int64_t row = c.sub / v, e = c.sub % v;
      if (row >= cfg_.m) {
        c.phase = kExitPhase;
        continue;
      }
      ++c.sub;
      const std::uint32_t instructions = reduce_instructions(cols, e);
      if (instructions == 0) continue;
      const std::int64_t lanes = (cols - e + v - 1) / v;
      out = Instr{};
      out.op = Op::kReduce;
      out.region = Region{y_base_ + static_cast<Addr>((row * cfg_.n + n0 + e) * ey_), static_cast<std::uint32_t>(lanes),
                          static_cast<std::uint32_t>(v == 1 ? cols * ey_ : ey_),
                          static_cast<std::uint64_t>(v * ey_)};
      if (v == 1) out.region.rows = 1;
      out.issue_cycles = instructions;
      return;
    }
    out = Instr{};
    out.op = Op::kExit;
    return;
  }
}

}  // namespace gms
