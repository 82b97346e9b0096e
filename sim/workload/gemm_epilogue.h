#pragma once
// How a GEMM's C tile leaves the SM (workload `epilogue`), as the store instructions a warp issues.
//
//   coalesced: whole rows, 16 bytes a lane - the kernel stages its accumulators through shared memory
//              first (Triton: STS.128, then STG.E.128; CUTLASS), so every sector is written whole.
//   fragments: each warp stores its MMA accumulators straight from registers (wmma::store_matrix_sync,
//              mma.sync's C layout): lane l holds two adjacent elements of row l / 4, so one store
//              instruction covers 8 rows x 4 lanes x 2 elements - 16 bytes a row for a 16-bit C, half a
//              sector. The H100 profile of the project's WMMA GEMM shows it: 64 STG.E per warp and
//              1.9x the L2 write sectors of whole rows (validate/results/h100/issue, docs/calibration.md).
#include <cstdint>
#include <string>

#include "workload/program.h"

namespace gms {

class GemmEpilogue {
 public:
  // `mode`: "coalesced" or "fragments" (validated by the workload schema); `c_bytes`: bytes of a C element.
  GemmEpilogue(const std::string& mode, int c_bytes, int warp_size);

  // Store blocks the warp issues for its share `c` of the C tile (at least one).
  int blocks(const Region& c) const;
  // Block i of them: the region it writes and its warp instructions.
  Instr block(const Region& c, int i) const;

 private:
  bool fragments_;
  std::uint32_t fragment_row_bytes_;  // fragments: bytes of one row one instruction writes (4 lanes x 2 elements)
  std::uint32_t rows_per_instruction_;  // fragments: rows one instruction covers (warp size / 4)
  int warp_size_;
};

}  // namespace gms
