#pragma once
// Plain, stateless description of a workload (what the kernel does), filled from YAML.
#include <cstdint>
#include <string>

namespace gms {

struct TileShape {
  int m = 0, n = 0, k = 0;
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
  // Main-loop body: "auto" = Triton's pipeline (wait, barrier, prefetch, MMA per K tile), or an
  // order pattern over consecutive K tiles ("L0 L1 C0 C1": prefetch for two tiles, then both MMAs).
  std::string order = "auto";
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
  std::string order = "llcc";        // llcc | lclc | "L0 L1 C0 C1" style pattern
  std::string reduction = "atomic_fp32";  // atomic_fp32 | atomic_fp16
  int reduction_lane_elements = 8;   // consecutive outputs one lane adds, one atomic each
  std::string evict_x = "last";      // normal | first | last (activations)
  std::string evict_w = "first";     // weights
  bool w_bypass_l1 = false;          // weight loads skip L1 (ld.global.cg)
};

struct WorkloadConfig {
  std::string kind;  // gemm | gemv
  std::string name;
  std::string source_dir;  // directory of the workload file, for relative paths
  GemmConfig gemm;
  GemvConfig gemv;
};

int dtype_bytes(const std::string& dtype);

}  // namespace gms
