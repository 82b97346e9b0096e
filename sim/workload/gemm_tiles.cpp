// Where a GEMM warp's instructions read and write: the A, B and C tiles of its CTA (masked at the
// matrices' edges, in either layout), the warp's share of each, and the loads and copies that move them
// (cp.async into a stage's shared rows, or TMA boxes). The program's order lives in gemm_kernel.cpp.
#include <algorithm>

#include "workload/gemm_kernel.h"

namespace gms {

Region GemmKernel::warp_share(Region whole, int warp) const {
  std::uint32_t r0 = static_cast<std::uint32_t>(static_cast<std::uint64_t>(whole.rows) * warp / cfg_.warps);
  std::uint32_t r1 = static_cast<std::uint32_t>(static_cast<std::uint64_t>(whole.rows) * (warp + 1) / cfg_.warps);
  whole.base += r0 * whole.stride;
  whole.rows = r1 - r0;
  if (whole.shared_dest >= 0) whole.shared_dest += static_cast<std::int64_t>(r0) * whole.shared_pitch;
  return whole;
}

// A[m][k]: tile rows m0.., columns k0..; masked at the matrix edge.
Region GemmKernel::a_region(const WarpCursor& c, std::int64_t kt) const { return warp_share(a_tile(c, kt), c.warp); }
Region GemmKernel::b_region(const WarpCursor& c, std::int64_t kt) const { return warp_share(b_tile(c, kt), c.warp); }

// The warp's share of a cp.async of tile kt into stage `slot`, with the shared rows it writes.
Region GemmKernel::copy_region(const WarpCursor& c, bool a, std::int64_t kt, int slot) const {
  Region r = a ? a_tile(c, kt) : b_tile(c, kt);
  r.shared_dest = a ? slot * plan_.shared_stage_a : cfg_.stages * plan_.shared_stage_a + slot * plan_.shared_stage_b;
  r.shared_pitch = a ? plan_.shared_pitch_a : plan_.shared_pitch_b;
  return warp_share(r, c.warp);
}

namespace {

// The (r0, c0) tile of rows x cols elements of an R x C matrix at `base` with `elem` bytes each: row-major
// (`row`: contiguous along C) is `rows` runs of cols elements, column-major `cols` runs of rows elements.
Region matrix_tile(Addr base, bool row, std::int64_t R, std::int64_t C, std::int64_t r0, std::int64_t c0,
                   std::int64_t rows, std::int64_t cols, int elem) {
  if (row)
    return {base + static_cast<Addr>((r0 * C + c0) * elem), static_cast<std::uint32_t>(rows),
            static_cast<std::uint32_t>(cols * elem), static_cast<std::uint64_t>(C * elem)};
  return {base + static_cast<Addr>((c0 * R + r0) * elem), static_cast<std::uint32_t>(cols),
          static_cast<std::uint32_t>(rows * elem), static_cast<std::uint64_t>(R * elem)};
}

}  // namespace

// A is M x K, B is K x N; each tile is clipped at the matrix's edge.
Region GemmKernel::a_tile(const WarpCursor& c, std::int64_t kt) const {
  const std::int64_t m0 = c.tile_m * cfg_.tile.m, k0 = kt * cfg_.tile.k;
  return matrix_tile(a_base_, cfg_.layout_a == "row", cfg_.m, cfg_.k, m0, k0,
                     std::min<std::int64_t>(cfg_.tile.m, cfg_.m - m0), std::min<std::int64_t>(cfg_.tile.k, cfg_.k - k0), ea_);
}

Region GemmKernel::b_tile(const WarpCursor& c, std::int64_t kt) const {
  const std::int64_t n0 = c.tile_n * cfg_.tile.n, k0 = kt * cfg_.tile.k;
  return matrix_tile(b_base_, cfg_.layout_b == "row", cfg_.k, cfg_.n, k0, n0,
                     std::min<std::int64_t>(cfg_.tile.k, cfg_.k - k0), std::min<std::int64_t>(cfg_.tile.n, cfg_.n - n0), ea_);
}

Region GemmKernel::c_region(const WarpCursor& c) const {
  std::int64_t m0 = c.tile_m * cfg_.tile.m, n0 = c.tile_n * cfg_.tile.n;
  std::int64_t rows = std::min<std::int64_t>(cfg_.tile.m, cfg_.m - m0);
  std::int64_t cols = std::min<std::int64_t>(cfg_.tile.n, cfg_.n - n0);
  Region r{c_base_ + static_cast<Addr>((m0 * cfg_.n + n0) * ec_), static_cast<std::uint32_t>(rows),
           static_cast<std::uint32_t>(cols * ec_), static_cast<std::uint64_t>(cfg_.n * ec_)};
  return warp_share(r, c.warp);
}

Instr GemmKernel::load(const Region& r, int slot) const {
  Instr in;
  in.op = Op::kLoad;
  in.slot = static_cast<std::uint8_t>(slot);
  in.bypass_l1 = cfg_.bypass_l1;
  std::uint64_t bytes = static_cast<std::uint64_t>(r.rows) * r.row_bytes;
  // 16-byte vector accesses per lane (cp.async.cg / LDG.128): one warp instruction per 512 B.
  in.issue_cycles = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (bytes + warp_size_ * 16 - 1) / (warp_size_ * 16)));
  in.region = r;
  return in;
}

// The copy of tile kt of A or B into stage `slot`: the warp's share by cp.async, or (copy: tma) the
// whole tile by warp 0's bulk tensor copies. False when this warp issues nothing for it.
bool GemmKernel::tile_copy(const WarpCursor& c, bool a, std::int64_t kt, int slot, Instr& out) const {
  if (plan_.tma) {  // one thread of warp 0 copies the whole tile; the other warps only wait for it
    if (c.warp != 0) return false;
    out = load(a ? a_tile(c, kt) : b_tile(c, kt), slot);
    out.async_copy = true;
    out.tma_boxes = static_cast<std::uint16_t>(a ? plan_.tma_boxes_a : plan_.tma_boxes_b);
    out.issue_cycles = out.tma_boxes;
    return out.region.rows > 0;
  }
  out = copy(copy_region(c, a, kt, slot), a ? plan_.copy_instructions_a : plan_.copy_instructions_b,
             a ? plan_.copy_wavefronts_a : plan_.copy_wavefronts_b, slot);
  return out.region.rows > 0;
}

// cp.async of a warp's share of a tile: `instructions` LDGSTS, their shared-side wavefronts.
Instr GemmKernel::copy(const Region& r, std::uint32_t instructions, std::uint32_t wavefronts, int slot) const {
  Instr in = load(r, slot);
  in.issue_cycles = std::max<std::uint32_t>(1, instructions);
  in.async_copy = true;
  in.wavefronts = wavefronts;
  return in;
}

}  // namespace gms
