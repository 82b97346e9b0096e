#include "workload/mma_data_path.h"

#include <algorithm>

#include "access/bank_model.h"
#include "common/error.h"
#include "layout/swizzle.h"

namespace gms {
namespace {

constexpr int kStepBytes = 32;     // one HMMA.16816 / ldmatrix.x4 K step: 16 fp16 = 32 bytes of K
constexpr int kCopyBytes = 16;     // cp.async of 16 bytes per lane
constexpr int kWarpgroup = 4;      // warps per wgmma warpgroup
constexpr int kWgmmaM = 64, kWgmmaMaxN = 256;
constexpr int kTmaBoxMax = 256;    // a bulk tensor copy's box: at most 256 elements in each dimension

// Shared tile of `rows` x `cols` elements, row pitch `ld` (padding included), element offsets swizzled.
struct SmemTile {
  int rows = 0, cols = 0, ld = 0;
  Swizzle swizzle;
  std::int64_t byte(int r, int c_bytes, int elem) const {
    return swizzle(static_cast<std::int64_t>(r) * ld + c_bytes / elem) * elem + c_bytes % elem;
  }
};

// ldmatrix.x4 of a 16-row x 32-byte block at (r0, c0 bytes): lane l gives the address of row
// (l/8 % 2)*8 + l%8, column bytes (l/16)*16 (the four 8x8 matrices of an HMMA.16816 operand).
std::vector<std::int64_t> ldsm_lanes(const SmemTile& t, int r0, int c0, int elem) {
  std::vector<std::int64_t> lanes(32);
  for (int l = 0; l < 32; ++l) lanes[l] = t.byte(r0 + (l / 8 % 2) * 8 + l % 8, c0 + (l / 16) * 16, elem);
  return lanes;
}

}  // namespace

std::string resolved_gemm_mma(const GemmConfig& cfg) {
  if (cfg.mma != "auto") return cfg.mma;
  // An order pattern (order-from-asm) describes the abstract pipeline: no data path under it.
  return cfg.dtype == "fp32" || cfg.order != "auto" ? "none" : "mma_sync";
}

std::string compiler_mma_class(const GemmConfig& cfg, const GpuConfig& gpu) {
  if (cfg.dtype == "fp32") return "none";
  const bool v3 = gpu.sm.wgmma_fraction > 0 && cfg.warps % kWarpgroup == 0 && cfg.tile.m % kWgmmaM == 0 &&
                  cfg.tile.n % 8 == 0;
  return v3 ? "wgmma" : "mma_sync";
}

WarpGrid gemm_warp_grid(const GemmConfig& cfg) {
  WarpGrid g;
  const std::string mma = resolved_gemm_mma(cfg);
  if (mma == "wgmma") {
    if (cfg.warps % kWarpgroup) return g;
    const int groups = cfg.warps / kWarpgroup;
    g.parts_m = std::max(1, std::min(groups, cfg.tile.m / kWgmmaM));
    while (groups % g.parts_m) --g.parts_m;
    g.parts_n = groups / g.parts_m;
    if (cfg.tile.m % (g.parts_m * kWgmmaM) || cfg.tile.n % (g.parts_n * 8)) return {};
  } else {
    // Split the longer side first while the warp tile stays a multiple of 16 (Triton's warpsPerCTA).
    g.parts_m = g.parts_n = 1;
    while (g.parts_m * g.parts_n < cfg.warps) {
      const bool m_ok = cfg.tile.m % (g.parts_m * 2 * 16) == 0, n_ok = cfg.tile.n % (g.parts_n * 2 * 16) == 0;
      if (m_ok && (cfg.tile.m / g.parts_m >= cfg.tile.n / g.parts_n || !n_ok)) g.parts_m *= 2;
      else if (n_ok) g.parts_n *= 2;
      else return {};
    }
    if (g.parts_m * g.parts_n != cfg.warps || cfg.tile.m % (g.parts_m * 16) || cfg.tile.n % (g.parts_n * 16)) return {};
  }
  g.tile_m = cfg.tile.m / g.parts_m;
  g.tile_n = cfg.tile.n / g.parts_n;
  return g;
}

double mma_class_rate(const GpuConfig& gpu, const std::string& dtype, const std::string& mma) {
  const SmConfig& sm = gpu.sm;
  const double rate = tensor_flops_per_cycle(sm, dtype);
  if (mma == "wgmma") return rate * sm.wgmma_fraction;
  if (mma == "mma_sync" && sm.mma_sync_fp16_flops_per_cycle > 0 && sm.tensor_fp16_flops_per_cycle > 0)
    return rate * sm.mma_sync_fp16_flops_per_cycle / sm.tensor_fp16_flops_per_cycle;
  return rate;
}

int wgmma_groups(const WarpGrid& grid) {
  return grid.tile_m / kWgmmaM * ((grid.tile_n + kWgmmaMaxN - 1) / kWgmmaMaxN);
}

MmaPlan plan_mma(const GemmConfig& cfg, const GpuConfig& gpu, const std::string& mma) {
  SIM_ASSERT(mma == "mma_sync" || mma == "wgmma", "plan_mma(" << mma << ")");
  if (mma == "wgmma" && gpu.sm.wgmma_fraction <= 0)
    throw ConfigError("workload mma: wgmma needs a GPU with warpgroup MMAs; '" + gpu.name +
                      "' has none (sm.wgmma_fraction is 0): use mma: mma_sync");
  const int elem = dtype_bytes(cfg.dtype);
  const WarpGrid grid = gemm_warp_grid(cfg);
  SIM_ASSERT(grid.tile_m > 0, "warp grid of a validated gemm workload is empty");
  MmaPlan p;
  p.wgmma = mma == "wgmma";
  p.k_per_step = kStepBytes / elem;
  p.k_steps = cfg.tile.k / p.k_per_step;
  const bool plain = cfg.smem_swizzle == "none";
  const Swizzle swz = plain || cfg.smem_swizzle == "auto" ? Swizzle{} : parse_swizzle(cfg.smem_swizzle, "smem.swizzle");
  const bool conflict_free = cfg.smem_swizzle == "auto";
  const int pad = conflict_free ? 0 : cfg.smem_pad;
  // Shared tiles as the global rows arrive: A row-major -> [BM][BK], column-major -> [BK][BM]; B alike.
  const bool a_rows_m = cfg.layout_a == "row", b_rows_k = cfg.layout_b == "row";
  SmemTile sa{a_rows_m ? cfg.tile.m : cfg.tile.k, a_rows_m ? cfg.tile.k : cfg.tile.m, 0, swz};
  SmemTile sb{b_rows_k ? cfg.tile.k : cfg.tile.n, b_rows_k ? cfg.tile.n : cfg.tile.k, 0, swz};
  sa.ld = sa.cols + pad;
  sb.ld = sb.cols + pad;
  p.shared_pitch_a = static_cast<std::uint32_t>(sa.ld * elem);
  p.shared_pitch_b = static_cast<std::uint32_t>(sb.ld * elem);
  p.shared_stage_a = static_cast<std::int64_t>(sa.rows) * p.shared_pitch_a;
  p.shared_stage_b = static_cast<std::int64_t>(sb.rows) * p.shared_pitch_b;
  p.shared_bytes_per_stage = p.shared_stage_a + p.shared_stage_b;

  BankGeometry geo;
  geo.warp_size = static_cast<std::uint32_t>(gpu.sm.warp_size);
  const int threads = cfg.warps * gpu.sm.warp_size;
  // cp.async: thread t copies 16-byte chunks t, t + threads, ... of the tile in row order.
  auto copies = [&](const SmemTile& t, std::uint32_t& instr, std::uint32_t& wf) {
    const int chunks_per_row = t.cols * elem / kCopyBytes;
    const int chunks = t.rows * chunks_per_row;
    const int per_thread = (chunks + threads - 1) / threads;
    instr = static_cast<std::uint32_t>(per_thread);  // per warp (every warp copies its lanes' chunks)
    if (conflict_free) {
      wf = instr * static_cast<std::uint32_t>(gpu.sm.warp_size * kCopyBytes / 128);
      return;
    }
    AccessPattern ap;
    ap.space = MemSpace::kShared;
    ap.op = AccessOp::kStore;
    ap.width_bytes = kCopyBytes;
    ap.threads = static_cast<std::uint32_t>(threads);
    for (int i = 0; i < per_thread; ++i) {
      std::vector<std::int64_t> row(static_cast<size_t>(threads), kInactiveLane);
      for (int th = 0; th < threads; ++th) {
        const int c = th + i * threads;
        if (c < chunks) row[static_cast<size_t>(th)] = t.byte(c / chunks_per_row, (c % chunks_per_row) * kCopyBytes, elem);
      }
      ap.byte_offsets.push_back(std::move(row));
    }
    // Per warp: the CTA's total shared by its warps (they copy equal shares).
    wf = static_cast<std::uint32_t>((analyse_access(ap, geo).totals.wavefronts + cfg.warps - 1) / cfg.warps);
  };
  if (cfg.copy == "tma") {
    if (gpu.sm.tma_box_cycles == 0)
      throw ConfigError("workload copy: tma needs a GPU with a Tensor Memory Accelerator; '" + gpu.name +
                        "' has none (sm.tma_box_cycles is 0): use copy: cp_async");
    // One box per operand tile where it fits the box limit (Triton's descriptors: one UTMALDG per
    // operand and K tile in the SASS of all three tilings, validate/results/h100/tma).
    auto boxes = [&](const SmemTile& t) {
      return static_cast<std::uint32_t>(((t.cols + kTmaBoxMax - 1) / kTmaBoxMax) * ((t.rows + kTmaBoxMax - 1) / kTmaBoxMax));
    };
    p.tma = true;
    p.tma_boxes_a = p.copy_instructions_a = boxes(sa);
    p.tma_boxes_b = p.copy_instructions_b = boxes(sb);
  } else {
    copies(sa, p.copy_instructions_a, p.copy_wavefronts_a);
    copies(sb, p.copy_instructions_b, p.copy_wavefronts_b);
  }

  if (p.wgmma) {
    p.mma_instructions = static_cast<std::uint32_t>(wgmma_groups(grid));
    p.flops = 2.0 * grid.tile_m * grid.tile_n * p.k_per_step / kWarpgroup;
    const std::int64_t m_blocks = grid.tile_m / kWgmmaM, n_chunks = (grid.tile_n + kWgmmaMaxN - 1) / kWgmmaMaxN;
    const std::int64_t bytes = m_blocks * (n_chunks * kWgmmaM + grid.tile_n) * kStepBytes;
    p.wgmma_operand_wavefronts = static_cast<std::uint32_t>((bytes / kWarpgroup + 127) / 128);
    return p;
  }
  // mma.sync: per K step, the warp's A fragments (tile_m / 16 ldmatrix.x4) and B fragments
  // (tile_n / 16), then (tile_m / 16) x (tile_n / 8) HMMA.16816. Banks from warp 0's addresses.
  p.mma_instructions = static_cast<std::uint32_t>(grid.tile_m / 16 * (grid.tile_n / 8));
  p.flops = 2.0 * grid.tile_m * grid.tile_n * p.k_per_step;
  const std::uint32_t per_step = static_cast<std::uint32_t>(grid.tile_m / 16 + grid.tile_n / 16);
  for (int s = 0; s < p.k_steps; ++s) {
    p.ldsm.push_back(per_step);
    if (conflict_free) {
      p.ldsm_wavefronts.push_back(per_step * 4);
      p.ldsm_conflicts.push_back(0);
      continue;
    }
    AccessPattern ap;
    ap.space = MemSpace::kShared;
    ap.op = AccessOp::kLdmatrix;
    ap.width_bytes = 16;
    ap.ldsm_matrices = 4;
    ap.threads = static_cast<std::uint32_t>(gpu.sm.warp_size);
    const int kb = s * kStepBytes;  // K offset of this step in bytes
    for (int i = 0; i < grid.tile_m / 16; ++i)  // A: rows m (row-major) or rows k (column-major, .trans)
      ap.byte_offsets.push_back(a_rows_m ? ldsm_lanes(sa, i * 16, kb, elem)
                                         : ldsm_lanes(sa, s * p.k_per_step, i * 16 * elem, elem));
    for (int j = 0; j < grid.tile_n / 16; ++j)  // B: rows k (row-major, .trans) or rows n
      ap.byte_offsets.push_back(b_rows_k ? ldsm_lanes(sb, s * p.k_per_step, j * 16 * elem, elem)
                                         : ldsm_lanes(sb, j * 16, kb, elem));
    check_pattern(ap);
    const AccessTotals t = analyse_access(ap, geo).totals;
    p.ldsm_wavefronts.push_back(static_cast<std::uint32_t>(t.wavefronts));
    p.ldsm_conflicts.push_back(static_cast<std::uint32_t>(t.bank_conflicts));
  }
  return p;
}

}  // namespace gms
