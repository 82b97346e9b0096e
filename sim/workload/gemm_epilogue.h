#pragma once
// How a GEMM's C tile leaves the SM (workload `epilogue`), as the instructions a warp issues.
//
//   coalesced: whole rows, 16 bytes a lane (STG.E.128), so every sector is written whole. A kernel
//              with the tensor-core data path stages its accumulators through shared memory first, in
//              rounds, as Triton's compiled wgmma GEMMs do (their SASS, validate/results/h100/issue):
//              per round each warp writes its fragments (STS.128), the CTA syncs, each warp reads rows
//              back (LDSM.16.M88.4), the CTA syncs before the buffer is reused; then the row stores.
//              Per warp: (its share of C) / 512 B instructions of each kind, tile.n / 32 of them per
//              round (128x128 w4: 16 in 4 rounds; 128x256 w8: 16 in 2; 64x128 w4: 8 in 2).
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
  // `mode`: "coalesced" or "fragments" (validated by the workload schema); `c_bytes`: bytes of a C
  // element. `staged_per_round` > 0 (coalesced only): shared-memory instructions of each kind a warp
  // issues per staging round; `read_slot`: the scoreboard slot the staged reads fill.
  GemmEpilogue(const std::string& mode, int c_bytes, int warp_size, int staged_per_round = 0, int read_slot = 0);

  // Blocks the warp issues for its share `c` of the C tile (at least one).
  int blocks(const Region& c) const;
  // Block i of them: the instructions, and for the stores the region they write.
  Instr block(const Region& c, int i) const;

  // Staging of the share `c` (0 without): its shared-memory instructions of each kind, in how many rounds.
  std::uint32_t staged_instructions(const Region& c) const;
  std::uint32_t rounds(const Region& c) const;

 private:
  Instr row_stores(const Region& c) const;
  Instr staged(const Region& c, int i) const;

  bool fragments_;
  bool read_ldmatrix_;  // staged read-back by ldmatrix (16-bit C) or LDS.128
  std::uint32_t fragment_row_bytes_;  // fragments: bytes of one row one instruction writes (4 lanes x 2 elements)
  std::uint32_t rows_per_instruction_;  // fragments: rows one instruction covers (warp size / 4)
  int warp_size_;
  std::uint32_t per_round_;  // staged shared instructions of each kind per round (0: not staged)
  int read_slot_;
};

}  // namespace gms
