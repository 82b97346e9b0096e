#pragma once
// Plain, stateless description of a workload (what the kernel does), filled from YAML.
#include <cstdint>
#include <string>

namespace gms {

struct TileShape {
  int m = 0, n = 0, k = 0;
};

// The compiled main loop's issue profile per warp and K tile (`gpumemsim issue`, sim/asm/sass_issue.h):
// warp instructions executed (0 = only those the data path models) and the sum of their stall counts.
struct IssueProfileConfig {
  int instructions = 0;
  double stall_cycles = 0;  // cycles; 0 = one cycle per instruction
  // Measured per K tile and warp by Nsight's warp-state samples on a profile of the same binary
  // (gpumemsim issue --executed): `wait` when the compiler's stall counts under-state the latencies
  // (0 = use stall_cycles), and the issue-stage stalls the model has no mechanism for.
  double measured_wait_cycles = 0;
  double dispatch_stall_cycles = 0;
  double branch_resolving_cycles = 0;
  // The profile's warps resident per scheduler (Nsight's smsp__warps_active per active cycle), and the
  // same binary's dispatch_stall and warps with one CTA an SM (0 = not measured): the measured stall
  // then follows the warps resident beside a warp (sm.dispatch_stall_follows_residents).
  double profiled_warps_per_scheduler = 0;
  double alone_dispatch_stall_cycles = 0;
  double alone_warps_per_scheduler = 0;
  // The loop's own wait on shared reads (gpumemsim issue: sim/asm/shared_read_exposure.h): reads per
  // K tile whose wait is exposed, and the part of each one's latency the instruction order hides.
  double shared_reads_exposed = 0;
  double shared_reads_hidden_cycles = 0;
  // The same for special-register reads (S2R, S2UR) the loop re-reads, at sm.special_register_latency.
  double special_reads_exposed = 0;
  double special_reads_hidden_cycles = 0;
  // Issue cycles per K tile the sub-partition loses to register-bank conflicts (sim/asm/register_banks.h).
  double register_bank_conflict_cycles = 0;
};

struct CtaOrderConfig {
  std::string kind = "row_major";  // row_major | column_major | grouped | grouped_n | custom
  int group_m = 8;                 // Triton's GROUP_SIZE_M for `grouped`
  int group_n = 8;                 // the same along N for `grouped_n`
  std::string file;                // `custom`: tile coordinates, resolved against the workload file
};

struct GemmConfig {
  std::int64_t m = 0, n = 0, k = 0;
  std::string dtype = "fp16";    // fp16 | bf16 | fp32 | fp8
  std::string c_dtype = "auto";  // auto = fp32 for fp32 inputs, else fp16
  std::string layout_a = "row";  // row: A[m][k] contiguous in k; col: contiguous in m
  std::string layout_b = "row";  // row: B[k][n] contiguous in n; col: contiguous in k
  TileShape tile;
  int warps = 4;
  int stages = 3;
  bool bypass_l1 = true;  // cp.async.cg / ld.global.cg tile loads
  CtaOrderConfig cta_order;
  std::int64_t cta_limit = 0;  // simulate only the first N launches (0 = all)
  int registers_per_thread = 0;  // 0 = estimated from the tile
  std::int64_t shared_carveout = -1;  // shared-memory carve-out it launches with; -1 = the GPU's rule
  std::int64_t spill_bytes_per_thread = -1;  // local frame the main loop swaps every K tile; -1 = estimated
  // Main-loop body: "auto" = Triton's pipeline (wait, barrier, prefetch, MMA per K tile), or an
  // order pattern over consecutive K tiles ("L0 L1 C0 C1": prefetch for two tiles, then both MMAs).
  std::string order = "auto";
  std::string mma = "auto";          // auto | none | mma_sync | wgmma (see workload_schema.cpp)
  std::string copy = "auto";         // auto (= cp_async) | cp_async | tma: how tiles reach shared memory
  int smem_pad = 0;                  // elements after each shared row (smem_swizzle none)
  std::string smem_swizzle = "auto"; // auto (conflict-free) | none | "B,M,S"
  std::string epilogue = "coalesced";  // coalesced | fragments: how C leaves the SM (workload/gemm_epilogue.h)
  IssueProfileConfig issue;
};

// Split-K GEMV (seed 001, gemlite's revsplitK): y[m x n] += x[m x k] . W[k x n], each program doing
// k_steps BLOCK_K-deep steps of a BLOCK_N-wide column block and reducing its partial result.
struct GemvConfig {
  std::int64_t m = 1, k = 0, n = 0;
  std::string dtype = "fp16";        // of x and W
  int block_n = 256, block_k = 64;
  int k_steps = 2;
  int warps = 4;
  int registers_per_thread = 0;      // 0 = estimated from the order's live loads
  std::int64_t shared_carveout = -1;  // shared-memory carve-out it launches with; -1 = the GPU's rule
  std::string order = "llcc";        // llcc | lclc | "L0 L1 C0 C1" style pattern
  std::string reduction = "atomic_fp32";  // atomic_fp32 | atomic_fp16
  int reduction_lane_elements = 8;   // consecutive outputs one lane adds, one atomic each
  int reduction_smem_wavefronts = 0; // shared-memory wavefronts per warp of the in-CTA reduction
  int reduction_smem_stores = -1;    // its STS instructions per warp, as compiled (-1 = one)
  int reduction_smem_loads = -1;     // its LDS/LDSM instructions per warp, as compiled (-1 = one)
  int reduction_smem_ldmatrix = 0;   // of those, LDSM (counted as ldmatrix, last in the reduction)
  int reduction_barriers = 1;        // its CTA barriers per warp: the rounds of stores, barrier, loads
  int reduction_shuffles = 0;        // its warp shuffles (SHFL) per warp: MIO instructions, one wavefront each
  int reduction_shuffle_levels = 0;  // shuffles on its longest dependency chain (each waited for)
  int start_special_reads = 0;       // S2R each warp issues before its first load: its first MIO instructions
  std::int64_t instructions_per_warp = 0;  // all a warp executes, as compiled (0 = only the program's own)
  std::int64_t spill_bytes_per_thread = -1;  // local-memory frame; -1 = registers beyond the maximum
  std::int64_t spill_stored_per_thread = 0;  // local bytes stored per thread (STL); 0 = the frame once
  std::int64_t spill_loaded_per_thread = 0;  // local bytes loaded per thread (LDL); 0 = the frame once
  std::string local_program;         // the compiled spill traffic in program order (workload/local_program.h); "" = none
  std::string evict_x = "last";      // normal | first | last (activations)
  std::string evict_w = "first";     // weights
  bool w_bypass_l1 = false;          // weight loads skip L1 (ld.global.cg)
  int loads_in_flight = 0;           // 16-byte W loads per lane in flight, as compiled (0 = a K step's rows at once)
};

// Seed 002's CuTe-style SIMT GEMM (fp32 FFMA), every data-path choice explicit: the GMEM -> SMEM copy
// (TiledCopy thr (BM/vector, T*vector/BM) x val (vector,1), LDG+STS or cp.async), the shared layouts
// (column padding, swizzle), the thread layout of C (local_partition tC(threads.m, threads.n)), the
// shared reads (scalar, or 4 contiguous rows per LDS.128: explicit register blocking), stages.
struct TiledGemmConfig {
  std::int64_t m = 0, n = 0, k = 0;
  std::string layout_a = "m_major";  // m_major: A(m,k) at m + k*M (CuTe's "N"); k_major: at k + m*K
  std::string layout_b = "n_major";  // n_major: B(n,k) at n + k*N (CuTe's "T"); k_major
  TileShape tile;
  int threads_m = 8, threads_n = 8;  // tC: thread t owns rows t % threads.m (+ i*threads.m), columns t / threads.m
  int copy_vector = 1;               // elements per copy instruction: 1 (32-bit) or 4 (128-bit)
  bool copy_async = false;           // cp.async (LDGSTS) instead of LDG + STS
  int copy_batch = 0;                // LDG + STS: loads a thread has in flight before their stores (0 = all)
  int smem_pad = 0;                  // elements of padding after each shared column
  std::string smem_swizzle = "none"; // CuTe Swizzle<B,M,S> on shared element offsets
  std::string mma = "simt";          // simt: fp32 FFMA (tensor-core tiles: kind gemm)
  int read_vector = 1;               // 1: scalar LDS; 4: LDS.128 of 4 contiguous rows (register blocking)
  int stages = 1;                    // 1, or 2 = double buffering (needs copy.async)
  CtaOrderConfig cta_order;
  std::int64_t cta_limit = 0;
  int registers_per_thread = 0;      // 0 = estimated; the compiler's number (ptxas -v) is better
  std::int64_t shared_carveout = -1;  // shared-memory carve-out it launches with; -1 = the GPU's rule
  int other_instructions_per_k_tile = -1;  // per warp: integer/address/loop instructions (-1 = estimated)
  IssueProfileConfig issue;                // instructions given: the other instructions follow from them
};

// kind: trace - kernels replayed from an Accel-Sim trace (sim/workload/trace_kernel.h).
struct TraceWorkloadConfig {
  std::string path;                         // kernelslist.g, the folder holding it, or one kernel-N.traceg
  std::string kernels = "all";              // all, or kernel ids "1,3"
  std::string l2_between_kernels = "keep";  // keep (as the program runs) | flush (as ncu profiles by default)
  std::string isa = "auto";                 // ISA table; auto = configs/isa/sm_<binary version>.yaml
  std::int64_t cta_limit = 0;               // per kernel: replay only the first N thread blocks (0 = all)
  bool memcpy_to_l2 = true;                 // MemcpyHtoD commands leave their bytes in L2
};

struct WorkloadConfig {
  std::string kind;  // gemm | gemv | tiled_gemm | trace
  std::string name;
  std::string source_dir;  // directory of the workload file, for relative paths
  GemmConfig gemm;
  GemvConfig gemv;
  TiledGemmConfig tiled;
  TraceWorkloadConfig trace;
};

int dtype_bytes(const std::string& dtype);

}  // namespace gms
