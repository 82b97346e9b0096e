#include "config/workload_schema.h"

#include <filesystem>
#include <utility>

#include "common/error.h"
#include "layout/swizzle.h"
#include "workload/cta_order.h"
#include "workload/mma_data_path.h"
#include "workload/local_program.h"
#include "workload/order_pattern.h"

namespace gms {
namespace {

using Q = Quantity;
using W = WorkloadConfig;

Schema<WorkloadConfig> make_gemm_schema() {
  Schema<WorkloadConfig> s;
  s.name = "workload(gemm)";
  auto& p = s.params;
  p.push_back(choice_param<W>("kind", workload_kinds(), "gemm", "workload type",
                              [](W& c) -> auto& { return c.kind; }));
  p.push_back(text_param<W>("name", "", false, "label used in reports", [](W& c) -> auto& { return c.name; }));
  p.push_back(quantity_param<W>("m", Q::kInteger, "", 1, kUnboundedCount, "rows of A and C",
                                [](W& c) -> auto& { return c.gemm.m; }));
  p.push_back(quantity_param<W>("n", Q::kInteger, "", 1, kUnboundedCount, "columns of B and C",
                                [](W& c) -> auto& { return c.gemm.n; }));
  p.push_back(quantity_param<W>("k", Q::kInteger, "", 1, kUnboundedCount, "reduction length",
                                [](W& c) -> auto& { return c.gemm.k; }));
  p.push_back(choice_param<W>("dtype", {"fp16", "bf16", "fp32", "fp8"}, "fp16", "element type of A and B",
                              [](W& c) -> auto& { return c.gemm.dtype; }));
  p.push_back(choice_param<W>("c_dtype", {"auto", "fp16", "bf16", "fp32"}, "auto",
                              "element type of C (auto: fp32 for fp32 inputs, else fp16)",
                              [](W& c) -> auto& { return c.gemm.c_dtype; }));
  p.push_back(choice_param<W>("layout.a", {"row", "col"}, "row", "A[m][k] row-major (k contiguous) or column-major",
                              [](W& c) -> auto& { return c.gemm.layout_a; }));
  p.push_back(choice_param<W>("layout.b", {"row", "col"}, "row", "B[k][n] row-major (n contiguous) or column-major",
                              [](W& c) -> auto& { return c.gemm.layout_b; }));
  p.push_back(quantity_param<W>("tile.m", Q::kInteger, "128", 1, 4096, "CTA tile rows (BLOCK_SIZE_M)",
                                [](W& c) -> auto& { return c.gemm.tile.m; }));
  p.push_back(quantity_param<W>("tile.n", Q::kInteger, "128", 1, 4096, "CTA tile columns (BLOCK_SIZE_N)",
                                [](W& c) -> auto& { return c.gemm.tile.n; }));
  p.push_back(quantity_param<W>("tile.k", Q::kInteger, "64", 1, 4096, "K step per main-loop iteration",
                                [](W& c) -> auto& { return c.gemm.tile.k; }));
  p.push_back(quantity_param<W>("warps", Q::kInteger, "4", 1, 32, "warps per CTA",
                                [](W& c) -> auto& { return c.gemm.warps; }));
  p.push_back(quantity_param<W>("stages", Q::kInteger, "3", 1, 16, "K tiles in flight per CTA (pipelining depth)",
                                [](W& c) -> auto& { return c.gemm.stages; }));
  p.push_back(bool_param<W>("bypass_l1", true, "tile loads skip L1 (cp.async.cg / ld.global.cg)",
                            [](W& c) -> auto& { return c.gemm.bypass_l1; }));
  p.push_back(choice_param<W>("cta_order.kind", cta_order_kinds(), "row_major",
                              "launch index -> output tile mapping",
                              [](W& c) -> auto& { return c.gemm.cta_order.kind; }));
  p.push_back(quantity_param<W>("cta_order.group_m", Q::kInteger, "8", 1, 1 << 20,
                                "GROUP_SIZE_M of `grouped` (1 = row-major)",
                                [](W& c) -> auto& { return c.gemm.cta_order.group_m; }));
  p.push_back(quantity_param<W>("cta_order.group_n", Q::kInteger, "8", 1, 1 << 20,
                                "group width along N of `grouped_n` (1 = column-major)",
                                [](W& c) -> auto& { return c.gemm.cta_order.group_n; }));
  p.push_back(text_param<W>("cta_order.file", "", false,
                            "`custom`: file of 'tile_m tile_n' lines in launch order (relative to this file)",
                            [](W& c) -> auto& { return c.gemm.cta_order.file; }));
  p.push_back(quantity_param<W>("cta_limit", Q::kInteger, "0", 0, kUnboundedCount,
                                "simulate only the first N launches (0 = the whole grid)",
                                [](W& c) -> auto& { return c.gemm.cta_limit; }));
  p.push_back(quantity_param<W>("registers_per_thread", Q::kInteger, "0", 0, 1024,
                                "registers per thread (0 = estimated from the tile)",
                                [](W& c) -> auto& { return c.gemm.registers_per_thread; }));
  p.push_back(quantity_param<W>("shared_carveout", Q::kBytes, "-1B", -1, 1 << 30,
                                "the shared-memory carve-out the kernel launches with, one of the GPU's l1.carveouts (a "
                                "record: what its ncu profile implies, validate/scripts/records_add_carveout.py); L1 is "
                                "the rest of l1.unified_bytes. -1B = the driver's rule (l1.carveouts)",
                                [](W& c) -> auto& { return c.gemm.shared_carveout; }));
  p.push_back(quantity_param<W>("spill_bytes_per_thread", Q::kBytes, "-1B", -1, kUnboundedCount,
                                "local-memory frame per thread the main loop stores and reloads every K tile, as "
                                "compiled (Triton n_spills x 4, ptxas 'bytes stack frame'): chunks swapped in before "
                                "each MMA group, whose wgmma then completes before the next (mma_sync | wgmma). "
                                "-1B = estimated from the registers beyond the GPU's maximum (workload/gemm_spill.h); 0B = none",
                                [](W& c) -> auto& { return c.gemm.spill_bytes_per_thread; }));
  p.push_back(text_param<W>("order", "auto", false,
                            "main-loop order: auto (wait, barrier, prefetch, MMA per K tile) or a pattern over "
                            "consecutive K tiles, Li = prefetch for tile i, Ci = wait + barrier + MMA of tile i",
                            [](W& c) -> auto& { return c.gemm.order; }));
  p.push_back(choice_param<W>("mma", {"auto", "none", "mma_sync", "wgmma"}, "auto",
                              "tensor-core data path: mma_sync = cp.async tiles -> ldmatrix -> warp mma.sync (WMMA, "
                              "Ampere-style); wgmma = cp.async tiles read by asynchronous warpgroup MMAs (Hopper); "
                              "none = MMA blocks without the shared-memory side (the model before the SM data path); "
                              "auto = mma_sync for tensor-core dtypes",
                              [](W& c) -> auto& { return c.gemm.mma; }));
  p.push_back(choice_param<W>("copy", {"auto", "cp_async", "tma"}, "auto",
                              "how the data path's tiles reach shared memory: cp_async = every thread copies 16-byte "
                              "pieces (LDGSTS); tma = one thread per CTA issues bulk tensor copies (UTMALDG, boxes of at "
                              "most 256 x 256 elements: one per operand tile at Triton's tilings) that complete on an "
                              "mbarrier all warps wait on (Hopper: needs sm.tma_box_cycles); auto = cp_async",
                              [](W& c) -> auto& { return c.gemm.copy; }));
  p.push_back(quantity_param<W>("smem.pad", Q::kInteger, "0", 0, 64,
                                "elements of padding after each shared row of A and B (mma_sync; with smem.swizzle none)",
                                [](W& c) -> auto& { return c.gemm.smem_pad; }));
  p.push_back(text_param<W>("smem.swizzle", "auto", false,
                            "shared layout of the tiles: auto = conflict-free (swizzled, as Triton and CUTLASS lay "
                            "them out), none = plain rows (+ smem.pad), or a CuTe Swizzle<B,M,S> \"B,M,S\" on element offsets",
                            [](W& c) -> auto& { return c.gemm.smem_swizzle; }));
  p.push_back(choice_param<W>("epilogue", {"coalesced", "fragments"}, "coalesced",
                              "how the C tile is stored: coalesced = whole rows, 16 bytes a lane, the accumulators "
                              "staged through shared memory first where the tensor-core data path runs (Triton's "
                              "SASS: per round tile.n / 32 STS.128 and LDSM.x4 a warp between barriers); fragments = each warp stores its MMA "
                              "accumulators from registers (wmma::store_matrix_sync): one instruction per 8 rows x 4 "
                              "lanes x 2 elements, half sectors for a 16-bit C",
                              [](W& c) -> auto& { return c.gemm.epilogue; }));
  add_issue_profile_params(p, [](W& c) -> IssueProfileConfig& { return c.gemm.issue; },
                           "the ones the data path does not model (address arithmetic, loop control) issue among the "
                           "MMAs; 0 = only the modelled ones (mma_sync | wgmma)");
  return s;
}

Schema<WorkloadConfig> make_gemv_schema() {
  Schema<WorkloadConfig> s;
  s.name = "workload(gemv)";
  auto& p = s.params;
  p.push_back(choice_param<W>("kind", workload_kinds(), "gemv", "workload type", [](W& c) -> auto& { return c.kind; }));
  p.push_back(text_param<W>("name", "", false, "label used in reports", [](W& c) -> auto& { return c.name; }));
  p.push_back(quantity_param<W>("m", Q::kInteger, "1", 1, 64, "rows of x and y (1 for a GEMV)",
                                [](W& c) -> auto& { return c.gemv.m; }));
  p.push_back(quantity_param<W>("k", Q::kInteger, "", 1, kUnboundedCount, "reduction length (rows of W)",
                                [](W& c) -> auto& { return c.gemv.k; }));
  p.push_back(quantity_param<W>("n", Q::kInteger, "", 1, kUnboundedCount, "outputs (columns of W)",
                                [](W& c) -> auto& { return c.gemv.n; }));
  p.push_back(choice_param<W>("dtype", {"fp16", "bf16", "fp32", "fp8"}, "fp16", "element type of x and W",
                              [](W& c) -> auto& { return c.gemv.dtype; }));
  p.push_back(quantity_param<W>("block.n", Q::kInteger, "256", 8, 65536, "BLOCK_SIZE_N: columns per program",
                                [](W& c) -> auto& { return c.gemv.block_n; }));
  p.push_back(quantity_param<W>("block.k", Q::kInteger, "64", 1, 65536, "BLOCK_SIZE_K: rows of W per K step",
                                [](W& c) -> auto& { return c.gemv.block_k; }));
  p.push_back(quantity_param<W>("k_steps", Q::kInteger, "2", 1, 16, "BLOCK_SIZE_K steps per program (2 in gemlite)",
                                [](W& c) -> auto& { return c.gemv.k_steps; }));
  p.push_back(quantity_param<W>("warps", Q::kInteger, "4", 1, 32, "warps per program",
                                [](W& c) -> auto& { return c.gemv.warps; }));
  p.push_back(quantity_param<W>("registers_per_thread", Q::kInteger, "0", 0, 1024,
                                "registers per thread (0 = estimated from the loads the order keeps live)",
                                [](W& c) -> auto& { return c.gemv.registers_per_thread; }));
  p.push_back(quantity_param<W>("shared_carveout", Q::kBytes, "-1B", -1, 1 << 30,
                                "the shared-memory carve-out the kernel launches with, one of the GPU's l1.carveouts (a "
                                "record: what its ncu profile implies, validate/scripts/records_add_carveout.py); L1 is "
                                "the rest of l1.unified_bytes. -1B = the driver's rule (l1.carveouts)",
                                [](W& c) -> auto& { return c.gemv.shared_carveout; }));
  p.push_back(text_param<W>("order", "llcc", false,
                            "instruction order of a program: llcc, lclc, or a pattern like \"L0 L1 C0 C1\" "
                            "(Li: load step i, Ci: compute step i)",
                            [](W& c) -> auto& { return c.gemv.order; }));
  p.push_back(choice_param<W>("reduction", {"atomic_fp32", "atomic_fp16"}, "atomic_fp32",
                              "how partial results meet: reduction atomics at L2 in fp32 or fp16",
                              [](W& c) -> auto& { return c.gemv.reduction; }));
  p.push_back(quantity_param<W>("reduction_lane_elements", Q::kInteger, "8", 1, 64,
                                "consecutive outputs each lane adds with one atomic apiece, lanes that many "
                                "elements apart (gemlite's and the validate kernel's tl.atomic_add/atomicAdd "
                                "of 8 accumulators: 8); 1 = one coalesced atomic per warp-wide vector",
                                [](W& c) -> auto& { return c.gemv.reduction_lane_elements; }));
  p.push_back(quantity_param<W>("reduction_smem_wavefronts", Q::kInteger, "0", 0, 1 << 24,
                                "shared-memory wavefronts each warp spends on the program's in-CTA reduction "
                                "(partial sums across warps, layout conversion): half stored before the barrier, "
                                "half loaded after it, on the SM's shared-memory pipe. 0 = none. Compilers differ "
                                "by 10x here (Triton's cross-warp tl.sum: ~1,100 per warp at BLOCK_N 256, 4 warps); "
                                "take it from `gpumemsim access` on the reduction's lanes or from a profile",
                                [](W& c) -> auto& { return c.gemv.reduction_smem_wavefronts; }));
  p.push_back(quantity_param<W>("reduction_smem_stores", Q::kInteger, "-1", -1, 4096,
                                "shared stores (STS) each warp issues for the in-CTA reduction, as compiled (the "
                                "SASS: Triton's tl.sum at BLOCK_N 256, 4 warps: 34); the stored half of "
                                "reduction_smem_wavefronts is spread over them; 0 = none (the wavefronts are all loaded). -1 = one "
                                "store of the stored half",
                                [](W& c) -> auto& { return c.gemv.reduction_smem_stores; }));
  p.push_back(quantity_param<W>("reduction_smem_loads", Q::kInteger, "-1", -1, 4096,
                                "shared loads (LDS, LDSM) each warp issues for the reduction, as compiled; the loaded "
                                "half of the wavefronts is spread over them; 0 = none (all stored). -1 = one load of the loaded half",
                                [](W& c) -> auto& { return c.gemv.reduction_smem_loads; }));
  p.push_back(quantity_param<W>("reduction_smem_ldmatrix", Q::kInteger, "0", 0, 4096,
                                "of reduction_smem_loads, how many are ldmatrix (LDSM: Triton's last layout "
                                "conversion), counted as Nsight counts them (op_ldsm, not op_shared_ld); they "
                                "are the reduction's last loads",
                                [](W& c) -> auto& { return c.gemv.reduction_smem_ldmatrix; }));
  p.push_back(quantity_param<W>("reduction_barriers", Q::kInteger, "1", 1, 1024,
                                "CTA barriers each warp passes in the reduction, as compiled: the stores and loads "
                                "are spread evenly over that many rounds of stores, barrier, loads (a round's loads "
                                "waited for before the next round's stores)",
                                [](W& c) -> auto& { return c.gemv.reduction_barriers; }));
  p.push_back(quantity_param<W>("reduction_shuffles", Q::kInteger, "0", 0, 4096,
                                "warp shuffles (SHFL) each warp issues in the reduction, as compiled (Triton's tl.sum: "
                                "8-52). Each is an MIO instruction with one pass of the shared-memory data path, which "
                                "Nsight counts as a wavefront: they are part of reduction_smem_wavefronts, the rest "
                                "is spread over the stores and loads. 0 = none (shuffles, if any, issue as other "
                                "instructions)",
                                [](W& c) -> auto& { return c.gemv.reduction_shuffles; }));
  p.push_back(quantity_param<W>("reduction_shuffle_levels", Q::kInteger, "0", 0, 4096,
                                "shuffles on the reduction's longest dependency chain (through registers, and "
                                "through shared memory across a barrier): each level is a block of shuffles the "
                                "warp waits for before the next; the levels are spread over the rounds, the "
                                "shuffles over the levels. Required with reduction_shuffles",
                                [](W& c) -> auto& { return c.gemv.reduction_shuffle_levels; }));
  p.push_back(quantity_param<W>("start_special_reads", Q::kInteger, "0", 0, 64,
                                "special-register reads (S2R: thread and CTA index) each warp issues before its first "
                                "load, as compiled (Triton's GEMVs: 1-2). They are the warp's first MIO "
                                "instructions, which wait while the SM's MIO queue is busy "
                                "(sm.mio_start_backlog); 0 = the warp starts with its loads",
                                [](W& c) -> auto& { return c.gemv.start_special_reads; }));
  p.push_back(quantity_param<W>("instructions_per_warp", Q::kInteger, "0", 0, 1e9,
                                "instructions each warp executes, as compiled (a straight-line kernel: its SASS up "
                                "to EXIT). Those beyond the program's own loads, math, reduction and atomics "
                                "(conversions, shuffles, addresses) issue, one a cycle, after the last compute. "
                                "0 = the program's own only",
                                [](W& c) -> auto& { return c.gemv.instructions_per_warp; }));
  p.push_back(quantity_param<W>("spill_bytes_per_thread", Q::kBytes, "-1B", -1, kUnboundedCount,
                                "local-memory spill frame per thread (ptxas 'bytes stack frame', Triton n_spills x 4): "
                                "each byte stored after the loads and loaded back before the compute, spread over "
                                "the k steps. -1B = 4 bytes per register beyond the GPU's maximum, per step",
                                [](W& c) -> auto& { return c.gemv.spill_bytes_per_thread; }));
  p.push_back(quantity_param<W>("spill_traffic.stored", Q::kBytes, "0B", 0, kUnboundedCount,
                                "local bytes each thread stores (the SASS' STL count x width; a compiler stores a "
                                "slot more than once): spread over the k steps, each store after its step's loads "
                                "have arrived, within the frame's addresses. 0B = the frame once",
                                [](W& c) -> auto& { return c.gemv.spill_stored_per_thread; }));
  p.push_back(quantity_param<W>("spill_traffic.loaded", Q::kBytes, "0B", 0, kUnboundedCount,
                                "local bytes each thread loads back (the SASS' LDL count x width), before its step's "
                                "compute. 0B = the frame once",
                                [](W& c) -> auto& { return c.gemv.spill_loaded_per_thread; }));
  p.push_back(text_param<W>("local_program", "", false,
                             "the compiled spill traffic in program order, from its SASS "
                             "(validate/scripts/records_add_gemv_sass.py): x and W loads, each STL/LDL at its frame "
                             "line, scoreboard waits, math and other instructions (grammar: sim/workload/local_program.h); "
                             "without STL/LDL the compiled loads and waits alone (no frame: the loads in flight as the "
                             "SASS keeps them, where loads_in_flight is a window of the most). "
                             "Replaces the steps' store and load passes and the order: the body runs as compiled, "
                             "then the reduction. \"\" = none",
                             [](W& c) -> auto& { return c.gemv.local_program; }));
  p.push_back(choice_param<W>("evict.activations", {"normal", "first", "last"}, "last",
                              "eviction hint of x loads (Triton eviction_policy), honoured by L1 and L2",
                              [](W& c) -> auto& { return c.gemv.evict_x; }));
  p.push_back(choice_param<W>("evict.weights", {"normal", "first", "last"}, "first", "eviction hint of W loads",
                              [](W& c) -> auto& { return c.gemv.evict_w; }));
  p.push_back(bool_param<W>("weights_bypass_l1", false, "W loads skip L1 (ld.global.cg)",
                            [](W& c) -> auto& { return c.gemv.w_bypass_l1; }));
  p.push_back(quantity_param<W>("loads_in_flight", Q::kInteger, "0", 0, 32,
                                "16-byte W loads per lane (LDG.128) a warp keeps in flight, as the compiled kernel's "
                                "scoreboards show (validate/scripts/sass_loads_in_flight.py): the rows of all steps "
                                "stream through the window those loads cover (a load covers 2 rows of BLOCK_N 128 fp16; a "
                                "row of BLOCK_N 512 takes 2 loads), each consumed before the next is loaded, whatever "
                                "the order; at most 16 loads of rows; 0 = each K step's rows at once, where the order says",
                                [](W& c) -> auto& { return c.gemv.loads_in_flight; }));
  return s;
}

// A local program must fit the configuration it replays in: its frame, its loads, its traffic.
template <class Fail>
void validate_local_program(const GemvConfig& g, Fail&& fail) {
  LocalProgram p;
  try {
    p = parse_local_program(g.local_program, "the program");
  } catch (const ConfigError& e) {
    fail(e.what());
  }
  constexpr std::int64_t kLineBytesPerThread = 4;  // a line is one 4-byte slot of 32 lanes
  // Without spills (no S or L) the program is the compiled loads and waits alone and needs no frame.
  if (g.spill_bytes_per_thread <= 0 && p.line_end > 0)
    fail("a local program with spill stores or loads needs the frame it addresses (spill_bytes_per_thread)");
  if (p.line_end > 0 && p.line_end * kLineBytesPerThread > g.spill_bytes_per_thread)
    fail("it touches frame bytes up to " + std::to_string(p.line_end * kLineBytesPerThread) + " per thread, beyond the " +
         std::to_string(g.spill_bytes_per_thread) + "-byte frame");
  // x once per K step (this project's kernel, Triton's spilled 1-warp ones) or, as Triton's others load it, the
  // elements of each W load's rows (one x load per W load).
  if (p.x_loads != g.k_steps && p.x_loads != p.w_loads)
    fail(std::to_string(p.x_loads) + " x loads; the GEMV loads x once per K step (k_steps " + std::to_string(g.k_steps) +
         ") or once per W load (" + std::to_string(p.w_loads) + ")");
  // The listing is NVIDIA SASS: 32 lanes (the kernel checks again with the GPU's warp size).
  const std::int64_t expected =
      g.k_steps * warp_vector_loads((g.block_k + g.warps - 1) / g.warps, static_cast<std::int64_t>(g.block_n) * dtype_bytes(g.dtype), 32);
  if (p.w_loads != expected)
    fail(std::to_string(p.w_loads) + " W loads; a warp of this block loads " + std::to_string(expected) +
         " 16-byte vectors a lane (k_steps x rows per warp x vectors per row)");
  if (g.spill_stored_per_thread > 0 && g.spill_stored_per_thread != p.stored_lines * kLineBytesPerThread)
    fail("it stores " + std::to_string(p.stored_lines * kLineBytesPerThread) + " bytes a thread; spill_traffic.stored says " +
         std::to_string(g.spill_stored_per_thread));
  if (g.spill_loaded_per_thread > 0 && g.spill_loaded_per_thread != p.loaded_lines * kLineBytesPerThread)
    fail("it loads " + std::to_string(p.loaded_lines * kLineBytesPerThread) + " bytes a thread; spill_traffic.loaded says " +
         std::to_string(g.spill_loaded_per_thread));
}

void validate_gemv(const Bound<WorkloadConfig>& b, const std::string& file) {
  const GemvConfig& g = b.value.gemv;
  auto fail = [&](const std::string& key, const std::string& why) {
    throw ConfigError(where(b.origins, key, file) + ": workload key '" + key + "': " + why);
  };
  if (g.block_n % 8) fail("block.n", "must be a multiple of 8 (16-byte vectors of fp16)");
  if (g.block_n > g.n) fail("block.n", "block.n = " + std::to_string(g.block_n) + " exceeds n = " + std::to_string(g.n));
  if (static_cast<std::int64_t>(g.block_k) * g.k_steps > g.k)
    fail("block.k", "block.k x k_steps = " + std::to_string(g.block_k * g.k_steps) + " exceeds k = " + std::to_string(g.k));
  std::string why;
  if (!parse_order(g.order, g.k_steps, &why)) fail("order", why);
  if (g.loads_in_flight > 0) {
    const int vectors_per_row = std::max(1, (g.block_n * dtype_bytes(g.dtype) + 511) / 512);  // 32 lanes x 16 B
    if (g.loads_in_flight / vectors_per_row > 16)
      fail("loads_in_flight", std::to_string(g.loads_in_flight) + " vectors per lane are " +
                                  std::to_string(g.loads_in_flight / vectors_per_row) + " loads of rows at block.n " +
                                  std::to_string(g.block_n) + "; at most 16 are tracked");
  }
  if ((g.spill_stored_per_thread > 0 || g.spill_loaded_per_thread > 0) && g.spill_bytes_per_thread <= 0)
    fail(g.spill_stored_per_thread > 0 ? "spill_traffic.stored" : "spill_traffic.loaded",
         "spill traffic needs the frame it goes through (spill_bytes_per_thread)");
  if (g.reduction_shuffles > g.reduction_smem_wavefronts)
    fail("reduction_shuffles", std::to_string(g.reduction_shuffles) + " shuffles, but reduction_smem_wavefronts (which " +
                                   "counts their wavefronts, as Nsight does) is " + std::to_string(g.reduction_smem_wavefronts));
  if ((g.reduction_shuffles > 0) != (g.reduction_shuffle_levels > 0))
    fail(g.reduction_shuffles > 0 ? "reduction_shuffle_levels" : "reduction_shuffles",
         "reduction_shuffles and reduction_shuffle_levels go together (both 0, or both set)");
  if (g.reduction_shuffle_levels > g.reduction_shuffles)
    fail("reduction_shuffle_levels", "more levels than shuffles (" + std::to_string(g.reduction_shuffles) + ")");
  const int smem_wavefronts = g.reduction_smem_wavefronts - g.reduction_shuffles;  // the stores' and loads'
  if (smem_wavefronts > 0 && g.reduction_smem_stores == 0 && g.reduction_smem_loads == 0)
    fail("reduction_smem_stores", "the reduction's wavefronts need a store or a load to run on (both are 0)");
  if (g.reduction_smem_ldmatrix > std::max(0, g.reduction_smem_loads))
    fail("reduction_smem_ldmatrix", "more ldmatrix than the reduction's loads (reduction_smem_loads)");
  if (smem_wavefronts == 0 && (g.reduction_smem_stores > 0 || g.reduction_smem_loads > 0))
    fail(g.reduction_smem_stores > 0 ? "reduction_smem_stores" : "reduction_smem_loads",
         "shared instructions without reduction_smem_wavefronts (beyond the shuffles') to spread over them");
  if (g.loads_in_flight > 0 && g.spill_bytes_per_thread > 0)
    fail("loads_in_flight", "a compiled window keeps its rows in registers: it cannot be combined with a spill frame");
  if (g.loads_in_flight > 0 && !g.local_program.empty())
    fail("loads_in_flight", "a local program issues and waits on its loads as compiled: it replaces the window");
  if (!g.local_program.empty()) validate_local_program(g, [&](const std::string& why) { fail("local_program", why); });
}

void validate_gemm(const Bound<WorkloadConfig>& b, const std::string& file) {
  const GemmConfig& g = b.value.gemm;
  auto fail = [&](const std::string& key, const std::string& why) {
    throw ConfigError(where(b.origins, key, file) + ": workload key '" + key + "': " + why);
  };
  if (g.tile.m > g.m) fail("tile.m", "tile.m = " + std::to_string(g.tile.m) + " exceeds m = " + std::to_string(g.m));
  if (g.tile.n > g.n) fail("tile.n", "tile.n = " + std::to_string(g.tile.n) + " exceeds n = " + std::to_string(g.n));
  if (g.tile.k > g.k) fail("tile.k", "tile.k = " + std::to_string(g.tile.k) + " exceeds k = " + std::to_string(g.k));
  if (g.cta_order.kind == "custom" && g.cta_order.file.empty())
    fail("cta_order.file", "cta_order.kind custom needs a file of tile coordinates");
  if (g.cta_order.kind != "custom" && !g.cta_order.file.empty())
    fail("cta_order.file", "only used with cta_order.kind: custom");
  const std::string mma = resolved_gemm_mma(g);
  if (mma == "mma_sync" || mma == "wgmma") {
    if (g.order != "auto") fail("order", "order patterns model mma: none only; the " + mma + " data path has its own order");
    if (g.dtype == "fp32") fail("mma", mma + " takes fp16/bf16/fp8 tiles (fp32 GEMMs: mma none, TF32 rate)");
    const int kstep = 32 / dtype_bytes(g.dtype);
    if (g.tile.k % kstep) fail("tile.k", mma + " needs tile.k a multiple of " + std::to_string(kstep));
    WarpGrid wg = gemm_warp_grid(g);
    if (wg.tile_m == 0) fail("warps", mma + " cannot split a " + std::to_string(g.tile.m) + "x" + std::to_string(g.tile.n) +
                                          " tile over " + std::to_string(g.warps) + " warps into MMA-sized warp tiles");
    if (g.smem_swizzle != "auto" && g.smem_swizzle != "none") parse_swizzle(g.smem_swizzle, "smem.swizzle");
    if (g.copy == "tma" && (g.smem_pad != 0 || g.smem_swizzle != "auto"))
      fail("copy", "the TMA writes its boxes densely, swizzled by the copy engine: leave smem.pad and smem.swizzle unset");
  } else if (g.spill_bytes_per_thread > 0) {
    fail("spill_bytes_per_thread", "spills move through the tensor-core data path (mma: mma_sync | wgmma); this workload "
                                   "resolves to mma " + mma);
  } else if (g.copy == "tma") {
    fail("copy", "tma copies the tiles of the tensor-core data path (mma: mma_sync | wgmma); this workload resolves to mma " + mma);
  } else if (g.issue.instructions > 0 || g.issue.stall_cycles > 0) {
    fail(g.issue.instructions > 0 ? "issue.instructions" : "issue.stall_cycles",
         "the issue profile needs the tensor-core data path (mma: mma_sync | wgmma); this workload resolves to mma " + mma);
  }
  validate_issue_profile(g.issue, fail);
  if (g.order != "auto") {
    std::string why;
    auto steps = gemm_order_steps(g.order);
    auto tokens = steps > 0 ? parse_order(g.order, steps, &why, false) : std::nullopt;
    if (!tokens) fail("order", steps > 0 ? why : "'" + g.order + "' is not auto or an Li/Ci pattern");
    if (g.stages < 2) fail("order", "an order pattern needs stages >= 2 (prefetching); stages 1 has a fixed order");
    if (max_live_steps(*tokens) > g.stages - 1)
      fail("order", "the pattern keeps " + std::to_string(max_live_steps(*tokens)) +
                        " tiles of prefetch in flight; stages must be at least one more (now " + std::to_string(g.stages) + ")");
  }
}

}  // namespace

void add_issue_profile_params(std::vector<Param<WorkloadConfig>>& params,
                              IssueProfileConfig& (*profile)(WorkloadConfig&), const std::string& unmodelled) {
  params.push_back(quantity_param<W>("issue.instructions", Q::kInteger, "0", 0, 1 << 20,
                                     "warp instructions the compiled main loop executes per K tile (gpumemsim issue); " +
                                         unmodelled,
                                     [profile](W& c) -> auto& { return profile(c).instructions; }));
  params.push_back(quantity_param<W>("issue.stall_cycles", Q::kCycles, "0cycles", 0, 1 << 24,
                                     "sum of those instructions' stall counts per K tile (gpumemsim issue): the warp's own "
                                     "issue floor, Nsight's selected + wait; 0 = one cycle per instruction",
                                     [profile](W& c) -> auto& { return profile(c).stall_cycles; }));
  params.push_back(quantity_param<W>("issue.measured.wait", Q::kCycles, "0cycles", 0, 1 << 24,
                                     "measured: Nsight's wait per K tile and warp on a profile of this binary (gpumemsim "
                                     "issue --executed); replaces the stall counts' wait where the hardware's latencies "
                                     "exceed them; 0 = the stall counts",
                                     [profile](W& c) -> auto& { return profile(c).measured_wait_cycles; }));
  params.push_back(quantity_param<W>("issue.measured.dispatch_stall", Q::kCycles, "0cycles", 0, 1 << 24,
                                     "measured: Nsight's dispatch_stall per K tile and warp (gpumemsim issue --executed), "
                                     "spread over the loop's instructions; the model has no mechanism for it (with a lone profile, "
                                     "issue.measured.alone.*, it follows the warps resident beside each warp: "
                                     "sm.dispatch_stall_follows_residents)",
                                     [profile](W& c) -> auto& { return profile(c).dispatch_stall_cycles; }));
  params.push_back(quantity_param<W>("issue.measured.warps_per_scheduler", Q::kReal, "0", 0, 64,
                                     "measured: the warps resident per scheduler on that profile (Nsight's "
                                     "smsp__warps_active.avg.per_cycle_active)",
                                     [profile](W& c) -> auto& { return profile(c).profiled_warps_per_scheduler; }));
  params.push_back(quantity_param<W>("issue.measured.alone.dispatch_stall", Q::kCycles, "0cycles", 0, 1 << 24,
                                     "measured: Nsight's dispatch_stall per K tile and warp with one CTA an SM (the same "
                                     "binary, the SM's other CTA slots left empty); 0 = not measured",
                                     [profile](W& c) -> auto& { return profile(c).alone_dispatch_stall_cycles; }));
  params.push_back(quantity_param<W>("issue.measured.alone.warps_per_scheduler", Q::kReal, "0", 0, 64,
                                     "measured: the warps resident per scheduler on the lone profile",
                                     [profile](W& c) -> auto& { return profile(c).alone_warps_per_scheduler; }));
  params.push_back(quantity_param<W>("issue.measured.branch_resolving", Q::kCycles, "0cycles", 0, 1 << 24,
                                     "measured: Nsight's branch_resolving per K tile and warp (gpumemsim issue --executed), "
                                     "spread over the loop's instructions",
                                     [profile](W& c) -> auto& { return profile(c).branch_resolving_cycles; }));
  params.push_back(quantity_param<W>("issue.shared_reads.exposed", Q::kReal, "0", 0, 1 << 20,
                                     "shared reads per K tile whose first use waits on their data, the warp alone (gpumemsim "
                                     "issue walks the compiled loop): each costs the warp sm.shared_latency less "
                                     "issue.shared_reads.hidden, Nsight's short_scoreboard, which other warps may hide",
                                     [profile](W& c) -> auto& { return profile(c).shared_reads_exposed; }));
  params.push_back(quantity_param<W>("issue.shared_reads.hidden", Q::kCycles, "0cycles", 0, 1 << 12,
                                     "the part of a shared read's latency the compiled instruction order hides before the "
                                     "read's first use (gpumemsim issue)",
                                     [profile](W& c) -> auto& { return profile(c).shared_reads_hidden_cycles; }));
  params.push_back(quantity_param<W>("issue.special_reads.exposed", Q::kReal, "0", 0, 1 << 20,
                                     "special-register reads (S2R, S2UR) per K tile whose first use waits on them, the warp "
                                     "alone (gpumemsim issue walks the compiled loop): each costs the warp "
                                     "sm.special_register_latency less issue.special_reads.hidden, Nsight's short_scoreboard",
                                     [profile](W& c) -> auto& { return profile(c).special_reads_exposed; }));
  params.push_back(quantity_param<W>("issue.special_reads.hidden", Q::kCycles, "0cycles", 0, 1 << 12,
                                     "the part of a special-register read's latency the compiled instruction order hides "
                                     "before its first use (gpumemsim issue)",
                                     [profile](W& c) -> auto& { return profile(c).special_reads_hidden_cycles; }));
  params.push_back(quantity_param<W>("issue.register_bank_conflicts", Q::kCycles, "0cycles", 0, 1 << 24,
                                     "issue cycles per K tile and warp the sub-partition loses reading operands from one "
                                     "of the register file's 4 banks twice (gpumemsim issue, from the operands and reuse "
                                     "flags; sim/asm/register_banks.h): every warp of the sub-partition waits, Nsight "
                                     "counts the issuing warp's as dispatch_stall",
                                     [profile](W& c) -> auto& { return profile(c).register_bank_conflict_cycles; }));
}

void validate_issue_profile(const IssueProfileConfig& issue,
                            const std::function<void(const std::string&, const std::string&)>& fail) {
  if (issue.stall_cycles > 0 && issue.stall_cycles < issue.instructions)
    fail("issue.stall_cycles", "each instruction holds its warp at least one cycle: expected at least issue.instructions (" +
                                   std::to_string(issue.instructions) + ") cycles");
  // Every per-K-tile cycle count is spread over the loop's instructions.
  const std::pair<const char*, double> spread[] = {{"issue.stall_cycles", issue.stall_cycles},
                                                   {"issue.measured.wait", issue.measured_wait_cycles},
                                                   {"issue.measured.dispatch_stall", issue.dispatch_stall_cycles},
                                                   {"issue.measured.branch_resolving", issue.branch_resolving_cycles},
                                                   {"issue.measured.alone.dispatch_stall", issue.alone_dispatch_stall_cycles},
                                                   {"issue.shared_reads.exposed", issue.shared_reads_exposed},
                                                   {"issue.special_reads.exposed", issue.special_reads_exposed},
                                                   {"issue.register_bank_conflicts", issue.register_bank_conflict_cycles}};
  for (const auto& [key, cycles] : spread)
    if (cycles > 0 && issue.instructions == 0) fail(key, "needs issue.instructions (the count its cycles are spread over)");
  if (issue.alone_dispatch_stall_cycles > 0) {
    if (issue.dispatch_stall_cycles <= 0)
      fail("issue.measured.alone.dispatch_stall", "needs issue.measured.dispatch_stall (the kernel's, at its occupancy)");
    else if (issue.alone_warps_per_scheduler <= 0 || issue.profiled_warps_per_scheduler <= issue.alone_warps_per_scheduler)
      fail("issue.measured.alone.dispatch_stall",
           "needs issue.measured.alone.warps_per_scheduler and more issue.measured.warps_per_scheduler than it (now " +
               std::to_string(issue.alone_warps_per_scheduler) + " and " + std::to_string(issue.profiled_warps_per_scheduler) + ")");
  }
}

std::vector<std::string> workload_kinds() { return {"gemm", "gemv", "tiled_gemm", "trace"}; }

const Schema<WorkloadConfig>& workload_schema(const std::string& kind) {
  static const Schema<WorkloadConfig> gemm = make_gemm_schema();
  static const Schema<WorkloadConfig> gemv = make_gemv_schema();
  static const Schema<WorkloadConfig> tiled = make_tiled_gemm_schema();
  static const Schema<WorkloadConfig> trace = make_trace_schema();
  if (kind == "gemm") return gemm;
  if (kind == "gemv") return gemv;
  if (kind == "tiled_gemm") return tiled;
  if (kind == "trace") return trace;
  throw ConfigError("unknown workload kind '" + kind + "'");
}

Bound<WorkloadConfig> bind_workload(const ConfigNode& doc, const std::string& file) {
  const ConfigNode* kind = doc.find("kind");
  if (!kind) throw ConfigError(file + ": workload key 'kind' is required (one of: gemm, gemv, tiled_gemm, trace)");
  if (kind->kind != ConfigNode::Kind::kScalar)
    throw ConfigError(kind->mark.where() + ": workload key 'kind' needs a single value");
  auto kinds = workload_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind->scalar) == kinds.end()) {
    std::string hint = did_you_mean(kind->scalar, kinds);
    throw ConfigError(kind->mark.where() + ": workload key 'kind': '" + kind->scalar + "' is not a workload kind" +
                      (hint.empty() ? std::string(" (known: gemm, gemv, tiled_gemm, trace)") : " (did you mean '" + hint + "'?)"));
  }
  Bound<WorkloadConfig> b = bind(workload_schema(kind->scalar), doc);
  b.value.source_dir = std::filesystem::path(file).parent_path().string();
  if (b.value.kind == "gemm") validate_gemm(b, file);
  if (b.value.kind == "gemv") validate_gemv(b, file);
  if (b.value.kind == "tiled_gemm") validate_tiled_gemm(b, file);
  if (b.value.kind == "trace") validate_trace(b, file);
  return b;
}

int dtype_bytes(const std::string& dtype) {
  if (dtype == "fp8") return 1;
  if (dtype == "fp16" || dtype == "bf16") return 2;
  if (dtype == "fp32") return 4;
  throw ConfigError("unknown dtype '" + dtype + "'");
}

}  // namespace gms
