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
};

struct WorkloadConfig {
  std::string kind;  // gemm
  std::string name;
  std::string source_dir;  // directory of the workload file, for relative paths
  GemmConfig gemm;
};

int dtype_bytes(const std::string& dtype);

}  // namespace gms
