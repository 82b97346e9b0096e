#include "workload/tiled_gemm_kernel.h"

#include <algorithm>

#include "access/bank_model.h"
#include "common/error.h"
#include "layout/partition.h"
#include "workload/device_heap.h"

namespace gms {
namespace {

constexpr int kElem = 4;        // fp32
constexpr int kCopySlot0 = 0;   // copy slots 0 and 1 (double buffering), shared-read slots 2 and 3
constexpr int kReadSlot0 = 2;

}  // namespace

int TiledGemmKernel::estimate_registers(const TiledGemmConfig& cfg) {
  const int threads = cfg.threads_m * cfg.threads_n;
  const int tm = cfg.tile.m / cfg.threads_m, tn = cfg.tile.n / cfg.threads_n;
  const int staged = (cfg.tile.m + cfg.tile.n) * cfg.tile.k / threads;  // LDG -> STS staging
  return std::min(255, tm * tn + tm + tn + (cfg.copy_async ? 0 : staged) + 24);
}

TiledGemmKernel::TiledGemmKernel(const TiledGemmConfig& cfg, const GpuConfig& gpu, const std::string& base_dir)
    : cfg_(cfg) {
  threads_ = cfg.threads_m * cfg.threads_n;
  warps_ = threads_ / gpu.sm.warp_size;
  SIM_ASSERT(warps_ * gpu.sm.warp_size == threads_, "threads " << threads_ << " not whole warps");
  tm_ = cfg.tile.m / cfg.threads_m;
  tn_ = cfg.tile.n / cfg.threads_n;
  lda_ = cfg.tile.m + cfg.smem_pad;
  ldb_ = cfg.tile.n + cfg.smem_pad;
  k_tiles_ = cfg.k / cfg.tile.k;
  chunks_ = std::min(cfg.tile.k, 4);
  while (cfg.tile.k % chunks_) --chunks_;
  a_base_ = device_heap::kBase;
  b_base_ = device_heap::align_up(a_base_ + static_cast<Addr>(cfg.m * cfg.k * kElem));
  c_base_ = device_heap::align_up(b_base_ + static_cast<Addr>(cfg.n * cfg.k * kElem));
  copy_a_ = static_cast<std::uint32_t>(static_cast<std::int64_t>(cfg.tile.m) * cfg.tile.k / (threads_ * cfg.copy_vector));
  copy_b_ = static_cast<std::uint32_t>(static_cast<std::int64_t>(cfg.tile.n) * cfg.tile.k / (threads_ * cfg.copy_vector));
  ffma_per_chunk_ = static_cast<std::uint32_t>(tm_ * tn_ * (cfg.tile.k / chunks_));
  plan_data_path(gpu);

  if (cfg.issue.instructions > 0) {
    // The compiled loop's count: what the data path does not issue are the other instructions.
    const std::uint32_t modelled = modelled_per_k_tile();
    const auto given = static_cast<std::uint32_t>(cfg.issue.instructions);
    if (given < modelled)
      throw ConfigError("workload issue.instructions = " + std::to_string(given) + ": the data path alone issues " +
                        std::to_string(modelled) + " warp instructions per K tile (FFMAs, copies, shared reads, barriers)");
    other_per_k_tile_ = given - modelled;
    issue_hold_ = issue_hold_per_instruction(cfg.issue, one_wavefront_shared_latency(gpu.sm),
                                             static_cast<double>(gpu.sm.special_register_latency),
                                             fetch_cycles_per_instruction(gpu.sm, cfg.issue.instructions));
  } else if (cfg.other_instructions_per_k_tile >= 0) {
    other_per_k_tile_ = static_cast<std::uint32_t>(cfg.other_instructions_per_k_tile);
  } else {
    // Rough: unrolled SIMT inner loops carry ~8 % integer work per FFMA, each copy instruction
    // ~5 of address arithmetic (sm_90 SASS of the seed-002 ladder); better: the measured count.
    const std::uint32_t copies = (copy_a_ + copy_b_) * (cfg.copy_async ? 1 : 2);
    other_per_k_tile_ = ffma_per_k_tile() * 8 / 100 + 5 * copies + 10;
  }

  // The K-tile program (see next()): copy, make it visible, then chunks of shared reads + FFMAs,
  // each chunk's reads issued before the previous chunk's math (the compiler's software pipelining).
  auto compute = [&](std::vector<Step>& v) {
    v.push_back({Micro::kRead, 0});
    for (int c = 0; c < chunks_; ++c) {
      if (c + 1 < chunks_) v.push_back({Micro::kRead, c + 1});
      v.push_back({Micro::kWaitRead, c});
      v.push_back({Micro::kMath, c});
    }
  };
  if (cfg.stages == 2) {
    prologue_ = {{Micro::kCopyA}, {Micro::kCopyB}};
    body_ = {{Micro::kCopyA}, {Micro::kCopyB}, {Micro::kWaitCopy}, {Micro::kBarrier}};
  } else if (cfg.copy_async) {
    body_ = {{Micro::kCopyA}, {Micro::kCopyB}, {Micro::kWaitCopy}, {Micro::kBarrier}};
  } else {  // LDG + STS, per operand in batches of `copy.batch` loads, each waited for before its stores
    for (bool b : {false, true}) {
      const std::uint32_t total = b ? copy_b_ : copy_a_;
      auto& starts = batch_starts_[b ? 1 : 0];
      starts = {0};
      for (std::uint32_t n : copy_batches(total, cfg.copy_batch > 0 ? static_cast<std::uint32_t>(cfg.copy_batch) : total))
        starts.push_back(starts.back() + n);
      for (int k = 0; k + 1 < static_cast<int>(starts.size()); ++k) {
        body_.push_back({b ? Micro::kCopyB : Micro::kCopyA, k, b});
        body_.push_back({Micro::kWaitCopy, k, b});
        body_.push_back({Micro::kStore, k, b});
      }
    }
    body_.push_back({Micro::kBarrier});
  }
  compute(body_);
  body_.push_back({Micro::kBarrier});

  shape_.tiles_m = cfg.m / cfg.tile.m;
  shape_.tiles_n = cfg.n / cfg.tile.n;
  order_ = make_cta_order(cfg.cta_order, shape_.tiles_m, shape_.tiles_n, base_dir);
  shape_.grid_ctas = order_->size();
  shape_.ctas = cfg.cta_limit > 0 ? std::min(cfg.cta_limit, shape_.grid_ctas) : shape_.grid_ctas;
  shape_.warps_per_cta = warps_;
  shape_.math_dtype = "fp32";
  shape_.simt_math = true;
  shape_.registers_per_thread = cfg.registers_per_thread > 0 ? cfg.registers_per_thread : estimate_registers(cfg);
  shape_.shared_carveout = cfg.shared_carveout;
  take_lone_profile(shape_, cfg.issue);
  shape_.shared_mem_per_cta = static_cast<std::int64_t>(cfg.stages) * cfg.tile.k * (lda_ + ldb_) * kElem;
}

// Runs the access analyser over one K tile: the copy's shared stores and every thread's shared
// reads, per warp.
void TiledGemmKernel::plan_data_path(const GpuConfig& gpu) {
  BankGeometry geo;
  geo.warp_size = static_cast<std::uint32_t>(gpu.sm.warp_size);
  const Swizzle swz = parse_swizzle(cfg_.smem_swizzle, "smem.swizzle");
  plans_.assign(static_cast<size_t>(warps_), WarpPlan{});
  // GMEM -> SMEM: TiledCopy thr (extent/vector, threads*vector/extent) x val (vector, 1).
  auto store_pattern = [&](int extent, int ld) {
    const int v = cfg_.copy_vector;
    Layout tensor(IntTuple::tuple({IntTuple::integer(extent), IntTuple::integer(cfg_.tile.k)}),
                  IntTuple::tuple({IntTuple::integer(1), IntTuple::integer(ld)}));
    Layout thr = Layout::column_major(IntTuple::tuple({IntTuple::integer(extent / v), IntTuple::integer(threads_ * v / extent)}));
    Layout val = Layout::column_major(IntTuple::tuple({IntTuple::integer(v), IntTuple::integer(1)}));
    CopyShape cs{kElem, static_cast<std::uint32_t>(kElem * v), swz, 0};
    return pattern_from_partition(tiled_copy_partition(tensor, thr, val), cs, MemSpace::kShared, AccessOp::kStore);
  };
  bool first = true;
  for (const AccessPattern& p : {store_pattern(cfg_.tile.m, lda_), store_pattern(cfg_.tile.n, ldb_)}) {
    for (const auto& r : analyse_access(p, geo).instructions) {
      plans_[r.warp].store_wavefronts += r.wavefronts;
      plans_[r.warp].store_conflicts += r.bank_conflicts();
      if (first) {
        plans_[r.warp].store_wavefronts_a += r.wavefronts;
        plans_[r.warp].store_conflicts_a += r.bank_conflicts();
      }
    }
    first = false;
  }
  // Shared reads: thread t reads rows of A by t % threads.m and columns of B by t / threads.m.
  const int rv = cfg_.read_vector;
  auto read_pattern = [&](int per_thread, int ld, int lanes_along, bool by_row) {
    AccessPattern p;
    p.space = MemSpace::kShared;
    p.op = AccessOp::kLoad;
    p.width_bytes = static_cast<std::uint32_t>(kElem * rv);
    p.threads = static_cast<std::uint32_t>(threads_);
    for (int k = 0; k < cfg_.tile.k; ++k)
      for (int i = 0; i < per_thread / rv; ++i) {
        std::vector<std::int64_t> row(static_cast<size_t>(threads_));
        for (int t = 0; t < threads_; ++t) {
          int q = by_row ? t % cfg_.threads_m : t / cfg_.threads_m;
          int e = rv == 1 ? q + i * lanes_along : 4 * q + i * 4 * lanes_along;
          row[static_cast<size_t>(t)] = swz(e + static_cast<std::int64_t>(k) * ld) * kElem;
        }
        p.byte_offsets.push_back(std::move(row));
      }
    return p;
  };
  const int per_k_a = tm_ / rv, per_k_b = tn_ / rv;
  const int k_per_chunk = cfg_.tile.k / chunks_;
  for (auto& pl : plans_) {
    pl.chunk_reads.assign(static_cast<size_t>(chunks_), 0);
    pl.chunk_wavefronts.assign(static_cast<size_t>(chunks_), 0);
    pl.chunk_conflicts.assign(static_cast<size_t>(chunks_), 0);
  }
  for (auto [p, per_k] : {std::pair{read_pattern(tm_, lda_, cfg_.threads_m, true), per_k_a},
                          std::pair{read_pattern(tn_, ldb_, cfg_.threads_n, false), per_k_b}}) {
    check_pattern(p);
    for (const auto& r : analyse_access(p, geo).instructions) {
      auto chunk = static_cast<size_t>(static_cast<int>(r.instruction) / per_k / k_per_chunk);
      WarpPlan& pl = plans_[r.warp];
      pl.chunk_reads[chunk] += 1;
      pl.chunk_wavefronts[chunk] += r.wavefronts;
      pl.chunk_conflicts[chunk] += r.bank_conflicts();
      pl.read_instructions += 1;
      pl.read_wavefronts += r.wavefronts;
      pl.read_conflicts += r.bank_conflicts();
    }
  }
  for (auto& pl : plans_) pl.copy_instructions = copy_a_ + copy_b_;
}

std::uint32_t TiledGemmKernel::modelled_per_k_tile() const {
  std::uint64_t reads = 0;
  for (const WarpPlan& pl : plans_) reads += pl.read_instructions;
  const std::uint32_t copies = (copy_a_ + copy_b_) * (cfg_.copy_async ? 1 : 2);  // LDGSTS, or LDG + STS
  constexpr std::uint32_t kBarriers = 2;  // after the copy, after the math
  return ffma_per_k_tile() + copies + static_cast<std::uint32_t>(reads / plans_.size()) + kBarriers;
}

std::vector<std::uint32_t> TiledGemmKernel::copy_batches(std::uint32_t total, std::uint32_t unroll) {
  std::vector<std::uint32_t> out;
  if (total == 0) return out;
  unroll = std::max<std::uint32_t>(1, unroll);
  const std::uint32_t rest = total % unroll;
  if (rest > 0) out.push_back(1);
  if (rest > 1) out.push_back(rest - 1);
  for (std::uint32_t k = 0; k < total / unroll; ++k) out.push_back(unroll);
  return out;
}

double TiledGemmKernel::compulsory_bytes() const {
  return static_cast<double>(cfg_.m * cfg_.k + cfg_.n * cfg_.k + cfg_.m * cfg_.n) * kElem;
}

double TiledGemmKernel::flops() const { return 2.0 * cfg_.m * cfg_.n * cfg_.k; }

Region TiledGemmKernel::warp_share(Region whole, int warp) const {
  auto r0 = static_cast<std::uint32_t>(static_cast<std::uint64_t>(whole.rows) * warp / warps_);
  auto r1 = static_cast<std::uint32_t>(static_cast<std::uint64_t>(whole.rows) * (warp + 1) / warps_);
  whole.base += r0 * whole.stride;
  whole.rows = r1 - r0;
  return whole;
}

// The extent x BK tile at (e0, K tile kt) of an operand stored extent-major (element (e, k) at
// e + k * extent_total: rows of k) or k-major (at k + e * K: rows of e), the warp's share of its rows.
Region TiledGemmKernel::operand_tile(Addr base, std::int64_t extent_total, int extent, bool extent_major, std::int64_t e0,
                                     std::int64_t kt, int warp) const {
  const std::int64_t k0 = kt * cfg_.tile.k;
  if (extent_major)
    return warp_share({base + static_cast<Addr>((k0 * extent_total + e0) * kElem), static_cast<std::uint32_t>(cfg_.tile.k),
                       static_cast<std::uint32_t>(extent * kElem), static_cast<std::uint64_t>(extent_total * kElem)},
                      warp);
  return warp_share({base + static_cast<Addr>((e0 * cfg_.k + k0) * kElem), static_cast<std::uint32_t>(extent),
                     static_cast<std::uint32_t>(cfg_.tile.k * kElem), static_cast<std::uint64_t>(cfg_.k * kElem)},
                    warp);
}

Region TiledGemmKernel::a_tile(const WarpCursor& c, std::int64_t kt) const {
  return operand_tile(a_base_, cfg_.m, cfg_.tile.m, cfg_.layout_a == "m_major", c.tile_m * cfg_.tile.m, kt, c.warp);
}

Region TiledGemmKernel::b_tile(const WarpCursor& c, std::int64_t kt) const {
  return operand_tile(b_base_, cfg_.n, cfg_.tile.n, cfg_.layout_b == "n_major", c.tile_n * cfg_.tile.n, kt, c.warp);
}

void TiledGemmKernel::start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const {
  c = cursor_at(*order_, launch_index, warp);
  c.phase = prologue_.empty() ? 1 : 0;
}

bool TiledGemmKernel::emit(const WarpCursor& c, const Step& s, std::int64_t kt, Instr& out) const {
  const WarpPlan& pl = plans_[static_cast<size_t>(c.warp)];
  const bool prefetching = cfg_.stages == 2 && c.phase == 1;  // the body copies tile kt + 1
  const std::int64_t copy_kt = prefetching ? kt + 1 : kt;
  out = Instr{};
  switch (s.op) {
    case Micro::kCopyA:
    case Micro::kCopyB: {
      if (copy_kt >= k_tiles_) return false;
      const bool a = s.op == Micro::kCopyA;
      const std::uint32_t total = a ? copy_a_ : copy_b_;
      std::uint32_t first = 0, count = total;
      const auto& starts = batch_starts_[a ? 0 : 1];
      out.op = Op::kLoad;
      out.region = a ? a_tile(c, copy_kt) : b_tile(c, copy_kt);
      if (!cfg_.copy_async) {  // this batch's share of the warp's rows
        first = starts[static_cast<size_t>(s.chunk)];
        count = starts[static_cast<size_t>(s.chunk) + 1] - first;
        const std::uint32_t rows = out.region.rows;
        const std::uint32_t r0 = rows * first / total, r1 = rows * (first + count) / total;
        out.region.base += r0 * out.region.stride;
        out.region.rows = r1 - r0;
      }
      if (out.region.rows == 0 || count == 0) return false;
      const int stage = cfg_.stages == 2 ? static_cast<int>(copy_kt % 2) : 0;
      if (cfg_.copy_async && (a ? cfg_.layout_a == "m_major" : cfg_.layout_b == "n_major")) {
        // Rows of k land ld apart (every stage of A, then of B, as the ladder kernel lays them out);
        // the warp's share starts at its first row. Swizzles move whole 16-byte vectors, which keeps
        // each global sector's two halves in one shared sector, so only the padding matters here.
        const std::int64_t ld = static_cast<std::int64_t>(a ? lda_ : ldb_) * kElem, tile = static_cast<std::int64_t>(cfg_.tile.k) * ld;
        const std::int64_t first_row = static_cast<std::int64_t>(cfg_.tile.k) * c.warp / warps_;  // as in warp_share
        out.region.shared_pitch = static_cast<std::uint32_t>(ld);
        out.region.shared_dest = (a ? 0 : cfg_.stages * static_cast<std::int64_t>(cfg_.tile.k) * lda_ * kElem) + stage * tile + first_row * ld;
      }
      out.slot = static_cast<std::uint8_t>(kCopySlot0 + stage);
      out.issue_cycles = count;
      out.bypass_l1 = cfg_.copy_async;  // cp.async.cg skips L1; plain LDG caches
      out.async_copy = cfg_.copy_async;
      if (cfg_.copy_async)  // the shared-memory side of LDGSTS: this operand's store wavefronts
        out.wavefronts = a ? pl.store_wavefronts_a : pl.store_wavefronts - pl.store_wavefronts_a;
      return true;
    }
    case Micro::kWaitCopy:
      out.op = Op::kWait;
      out.slot = static_cast<std::uint8_t>(kCopySlot0 + (cfg_.stages == 2 ? kt % 2 : 0));
      return true;
    case Micro::kStore: {
      const std::uint32_t total = s.b ? copy_b_ : copy_a_;
      const auto& starts = batch_starts_[s.b ? 1 : 0];
      const std::uint32_t first = starts[static_cast<size_t>(s.chunk)];
      const std::uint32_t count = starts[static_cast<size_t>(s.chunk) + 1] - first;
      const std::uint32_t wf = s.b ? pl.store_wavefronts - pl.store_wavefronts_a : pl.store_wavefronts_a;
      const std::uint32_t cf = s.b ? pl.store_conflicts - pl.store_conflicts_a : pl.store_conflicts_a;
      out.op = Op::kSharedStore;
      out.issue_cycles = count;
      out.wavefronts = wf * (first + count) / total - wf * first / total;
      out.conflicts = cf * (first + count) / total - cf * first / total;
      return count > 0;
    }
    case Micro::kBarrier: out.op = Op::kBarrier; return true;
    case Micro::kRead:
      out.op = Op::kSharedLoad;
      out.slot = static_cast<std::uint8_t>(kReadSlot0 + s.chunk % 2);
      out.issue_cycles = pl.chunk_reads[static_cast<size_t>(s.chunk)];
      out.lane_bytes = static_cast<std::uint8_t>(kElem * cfg_.read_vector);
      out.wavefronts = pl.chunk_wavefronts[static_cast<size_t>(s.chunk)];
      out.conflicts = pl.chunk_conflicts[static_cast<size_t>(s.chunk)];
      return true;
    case Micro::kWaitRead:
      out.op = Op::kWait;
      out.slot = static_cast<std::uint8_t>(kReadSlot0 + s.chunk % 2);
      return true;
    case Micro::kMath: {
      out.op = Op::kCompute;
      out.pipe = Pipe::kFma;
      out.flops = 2.0 * ffma_per_chunk_ * 32;
      const std::uint32_t other = other_per_k_tile_ / chunks_ + (s.chunk < static_cast<int>(other_per_k_tile_ % chunks_));
      out.issue_cycles = ffma_per_chunk_ + other;
      return true;
    }
  }
  return false;
}

// Phases: 0 prologue (stages 2: copy tile 0), 1 K tiles, 2 epilogue (C stores), 3 exit.
void TiledGemmKernel::next(WarpCursor& c, Instr& out) const {
  while (true) {
    if (c.phase == 0) {
      if (c.sub >= static_cast<int>(prologue_.size())) {
        c.phase = 1;
        c.sub = 0;
        continue;
      }
      const Step& s = prologue_[static_cast<size_t>(c.sub++)];
      if (emit(c, s, 0, out)) return;
      continue;
    }
    if (c.phase == 1) {
      if (c.step >= k_tiles_) {
        c.phase = 2;
        continue;
      }
      const Step& s = body_[static_cast<size_t>(c.sub)];
      const std::int64_t kt = c.step;
      if (++c.sub == static_cast<int>(body_.size())) {
        c.sub = 0;
        ++c.step;
      }
      if (emit(c, s, kt, out)) {
        hold_for_issue(out, issue_hold_);  // other instructions are inside issue_cycles here
        return;
      }
      continue;
    }
    out = Instr{};
    if (c.phase == 2) {
      const std::int64_t m0 = c.tile_m * cfg_.tile.m, n0 = c.tile_n * cfg_.tile.n;
      out.op = Op::kStore;
      out.region = warp_share({c_base_ + static_cast<Addr>((n0 * cfg_.m + m0) * kElem), static_cast<std::uint32_t>(cfg_.tile.n),
                               static_cast<std::uint32_t>(cfg_.tile.m * kElem), static_cast<std::uint64_t>(cfg_.m * kElem)},
                              c.warp);
      out.issue_cycles = static_cast<std::uint32_t>(tm_ * tn_);
      c.phase = 3;
      if (out.region.rows > 0) return;
    }
    out.op = Op::kExit;
    return;
  }
}

}  // namespace gms
