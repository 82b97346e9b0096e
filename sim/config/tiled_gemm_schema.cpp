// Schema and cross-field checks of `kind: tiled_gemm` (seed 002's CuTe-style SIMT GEMM).
#include <filesystem>

#include "common/error.h"
#include "config/workload_schema.h"
#include "layout/swizzle.h"
#include "workload/cta_order.h"

namespace gms {
namespace {

using Q = Quantity;
using W = WorkloadConfig;

}  // namespace

Schema<WorkloadConfig> make_tiled_gemm_schema() {
  Schema<WorkloadConfig> s;
  s.name = "workload(tiled_gemm)";
  auto& p = s.params;
  p.push_back(choice_param<W>("kind", workload_kinds(), "tiled_gemm", "workload type", [](W& c) -> auto& { return c.kind; }));
  p.push_back(text_param<W>("name", "", false, "label used in reports", [](W& c) -> auto& { return c.name; }));
  p.push_back(quantity_param<W>("m", Q::kInteger, "", 1, kUnboundedCount, "rows of A and C", [](W& c) -> auto& { return c.tiled.m; }));
  p.push_back(quantity_param<W>("n", Q::kInteger, "", 1, kUnboundedCount, "columns of B and C", [](W& c) -> auto& { return c.tiled.n; }));
  p.push_back(quantity_param<W>("k", Q::kInteger, "", 1, kUnboundedCount, "reduction length", [](W& c) -> auto& { return c.tiled.k; }));
  p.push_back(choice_param<W>("layout.a", {"m_major", "k_major"}, "m_major",
                              "A(m,k): m_major = at m + k*M (CuTe 'N', column-major), k_major = at k + m*K",
                              [](W& c) -> auto& { return c.tiled.layout_a; }));
  p.push_back(choice_param<W>("layout.b", {"n_major", "k_major"}, "n_major",
                              "B(n,k): n_major = at n + k*N (CuTe 'T'), k_major = at k + n*K",
                              [](W& c) -> auto& { return c.tiled.layout_b; }));
  p.push_back(quantity_param<W>("tile.m", Q::kInteger, "64", 4, 1024, "BM: CTA tile rows", [](W& c) -> auto& { return c.tiled.tile.m; }));
  p.push_back(quantity_param<W>("tile.n", Q::kInteger, "64", 4, 1024, "BN: CTA tile columns", [](W& c) -> auto& { return c.tiled.tile.n; }));
  p.push_back(quantity_param<W>("tile.k", Q::kInteger, "16", 1, 1024, "BK: K per shared-memory tile", [](W& c) -> auto& { return c.tiled.tile.k; }));
  p.push_back(quantity_param<W>("threads.m", Q::kInteger, "8", 1, 1024,
                                "tC rows: thread t computes rows t % threads.m + i * threads.m of the tile",
                                [](W& c) -> auto& { return c.tiled.threads_m; }));
  p.push_back(quantity_param<W>("threads.n", Q::kInteger, "8", 1, 1024, "tC columns: thread t computes columns t / threads.m + j * threads.n",
                                [](W& c) -> auto& { return c.tiled.threads_n; }));
  p.push_back(quantity_param<W>("copy.vector", Q::kInteger, "1", 1, 4,
                                "elements one thread copies GMEM -> SMEM per instruction: 1 (32-bit) or 4 (128-bit TiledCopy)",
                                [](W& c) -> auto& { return c.tiled.copy_vector; }));
  p.push_back(quantity_param<W>("copy.batch", Q::kInteger, "0", 0, 1024,
                                "LDG + STS copies: loads per thread in flight before their stores, as the compiler "
                                "emitted them (nvcc unrolls the copy loop by 4: LDG x4, STS x4); 0 = all loads first",
                                [](W& c) -> auto& { return c.tiled.copy_batch; }));
  p.push_back(bool_param<W>("copy.async", false, "copy with cp.async (LDGSTS) instead of LDG + STS",
                            [](W& c) -> auto& { return c.tiled.copy_async; }));
  p.push_back(quantity_param<W>("smem.pad", Q::kInteger, "0", 0, 64, "elements of padding after each shared column",
                                [](W& c) -> auto& { return c.tiled.smem_pad; }));
  p.push_back(text_param<W>("smem.swizzle", "none", false, "CuTe Swizzle<B,M,S> on shared element offsets, e.g. \"3,2,3\"",
                            [](W& c) -> auto& { return c.tiled.smem_swizzle; }));
  p.push_back(choice_param<W>("mma", {"simt"}, "simt", "math: simt = fp32 FFMA on the FMA pipe (mma.sync / wgmma: kind gemm)",
                              [](W& c) -> auto& { return c.tiled.mma; }));
  p.push_back(quantity_param<W>("read_vector", Q::kInteger, "1", 1, 4,
                                "shared reads: 1 = scalar LDS strided by threads.m; 4 = LDS.128 of 4 contiguous rows",
                                [](W& c) -> auto& { return c.tiled.read_vector; }));
  p.push_back(quantity_param<W>("stages", Q::kInteger, "1", 1, 2, "1 = single buffer, 2 = double buffering (cp.async)",
                                [](W& c) -> auto& { return c.tiled.stages; }));
  p.push_back(choice_param<W>("cta_order.kind", cta_order_kinds(), "row_major", "launch index -> output tile mapping",
                              [](W& c) -> auto& { return c.tiled.cta_order.kind; }));
  p.push_back(quantity_param<W>("cta_order.group_m", Q::kInteger, "8", 1, 1 << 20, "GROUP_SIZE_M of `grouped`",
                                [](W& c) -> auto& { return c.tiled.cta_order.group_m; }));
  p.push_back(quantity_param<W>("cta_limit", Q::kInteger, "0", 0, kUnboundedCount, "simulate only the first N launches (0 = the whole grid)",
                                [](W& c) -> auto& { return c.tiled.cta_limit; }));
  p.push_back(quantity_param<W>("registers_per_thread", Q::kInteger, "0", 0, 1024,
                                "registers per thread (0 = estimated; ptxas -v gives the real number)",
                                [](W& c) -> auto& { return c.tiled.registers_per_thread; }));
  p.push_back(quantity_param<W>("shared_carveout", Q::kBytes, "-1B", -1, 1 << 30,
                                "the shared-memory carve-out the kernel launches with, one of the GPU's l1.carveouts (a "
                                "record: what its ncu profile implies, validate/scripts/records_add_carveout.py); L1 is "
                                "the rest of l1.unified_bytes. -1B = the driver's rule (l1.carveouts)",
                                [](W& c) -> auto& { return c.tiled.shared_carveout; }));
  p.push_back(quantity_param<W>("other_instructions_per_k_tile", Q::kInteger, "-1", -1, 1e9,
                                "per warp and K tile: instructions that are neither FFMA nor memory (addresses, loop); "
                                "-1 = estimated; Nsight's smsp__inst_executed minus FFMA and memory gives the real number",
                                [](W& c) -> auto& { return c.tiled.other_instructions_per_k_tile; }));
  add_issue_profile_params(p, [](W& c) -> IssueProfileConfig& { return c.tiled.issue; },
                           "given, the instructions beyond the FFMAs, shared and global memory instructions and "
                           "barriers are the loop's other instructions (other_instructions_per_k_tile then stays -1)");
  return s;
}

void validate_tiled_gemm(const Bound<WorkloadConfig>& b, const std::string& file) {
  const TiledGemmConfig& g = b.value.tiled;
  auto fail = [&](const std::string& key, const std::string& why) {
    throw ConfigError(where(b.origins, key, file) + ": workload key '" + key + "': " + why);
  };
  const std::int64_t threads = static_cast<std::int64_t>(g.threads_m) * g.threads_n;
  if (threads % 32 || threads > 1024) fail("threads.n", "threads.m x threads.n = " + std::to_string(threads) + " must be a multiple of 32, at most 1024");
  if (g.tile.m % g.threads_m) fail("threads.m", "must divide tile.m");
  if (g.tile.n % g.threads_n) fail("threads.n", "must divide tile.n");
  // The data-path plan analyses every shared read of one K tile lane by lane: keep it a CTA's worth.
  const std::int64_t lanes = static_cast<std::int64_t>(g.tile.k) * (g.tile.m / g.threads_m + g.tile.n / g.threads_n) * threads;
  if (lanes > (std::int64_t{1} << 24))
    fail("tile.k", "tile.k x (rows + columns per thread) x threads = " + std::to_string(lanes) + " shared reads per K tile; at most 2^24");
  if (g.m % g.tile.m) fail("tile.m", "must divide m (no edge tiles in this kernel)");
  if (g.n % g.tile.n) fail("tile.n", "must divide n");
  if (g.k % g.tile.k) fail("tile.k", "must divide k");
  if (g.copy_vector != 1 && g.copy_vector != 4) fail("copy.vector", "1 or 4 elements");
  for (int extent : {g.tile.m, g.tile.n})
    if (extent % g.copy_vector || (static_cast<std::int64_t>(extent) * g.tile.k) % (threads * g.copy_vector))
      fail("copy.vector", "each thread must copy whole vectors: tile x tile.k must be a multiple of threads x copy.vector");
  if (g.copy_async && g.copy_vector != 4) fail("copy.async", "cp.async moves 16 bytes: needs copy.vector 4");
  if (g.stages == 2 && !g.copy_async) fail("stages", "double buffering here uses cp.async: set copy.async true");
  if (g.read_vector != 1 && g.read_vector != 4) fail("read_vector", "1 or 4");
  if (g.read_vector == 4 && ((g.tile.m / g.threads_m) % 4 || (g.tile.n / g.threads_n) % 4))
    fail("read_vector", "each thread's rows and columns must come in groups of 4");
  if (g.read_vector == 4 && g.smem_pad % 4) fail("smem.pad", "LDS.128 needs 16-byte aligned columns: a multiple of 4");
  if (g.copy_vector == 4 && g.smem_pad % 4) fail("smem.pad", "128-bit copies need 16-byte aligned columns: a multiple of 4");
  validate_issue_profile(g.issue, fail);
  if (g.issue.instructions > 0 && g.other_instructions_per_k_tile >= 0)
    fail("other_instructions_per_k_tile", "issue.instructions gives the loop's instructions, and these follow from them: give one of the two");
  try {
    parse_swizzle(g.smem_swizzle, "smem.swizzle");
  } catch (const ConfigError& e) {
    fail("smem.swizzle", e.what());
  }
}

}  // namespace gms
