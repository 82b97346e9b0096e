#pragma once
// The L1TEX data path's view of one memory pattern: per warp-level instruction, how many shared-
// memory wavefronts it needs (bank conflicts) or how many global requests and sectors it sends, and
// the totals under Nsight Compute's metric names.
//
// Shared memory (NVIDIA, Volta and later): 32 banks of 4 bytes; a wavefront reads one word per
// bank. A warp instruction's lanes are cut into groups (blocks of at most 256 delivered bytes, split
// in half when their address slots - distinct addresses per quad of lanes for loads, active lanes for
// stores - exceed 128 / width; ldmatrix: one group per matrix); lanes of a group reading the same
// word share it (broadcast), and a group takes as many wavefronts as its busiest bank has distinct
// words. Bank conflicts are the wavefronts beyond one per group. Fitted
// and held out lane by lane against H100 silicon (validate/access, docs/shared-memory.md).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "access/access_pattern.h"

namespace gms {

struct BankGeometry {
  std::uint32_t banks = 32;
  std::uint32_t bank_bytes = 4;
  std::uint32_t wavefront_bytes = 128;
  std::uint32_t line_bytes = 128;    // global: L1 line
  std::uint32_t sector_bytes = 32;   // global: sector
  std::uint32_t warp_size = 32;
};

struct InstructionAccess {
  std::uint32_t warp = 0, instruction = 0, active_lanes = 0;
  std::uint32_t phases = 0;            // shared: lane groups (wavefronts without conflicts)
  std::uint32_t wavefronts = 0;        // shared
  std::uint32_t conflict_ways = 0;     // shared: distinct words in the busiest bank of the worst phase
  std::uint32_t banks_touched = 0;     // shared: distinct banks over the instruction
  std::uint32_t requests = 0;          // global
  std::uint32_t sectors = 0;           // global
  // Per lane: first bank (shared) or sector index within its line (global); -1 inactive.
  std::vector<int> lane_bank;
  // Per lane: its bank holds another distinct word in the same phase (drawn highlighted).
  std::vector<bool> lane_conflicted;

  std::uint32_t bank_conflicts() const { return wavefronts - phases; }
};

struct AccessTotals {
  std::uint64_t instructions = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t bank_conflicts = 0;
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
};

struct AccessAnalysis {
  std::vector<InstructionAccess> instructions;  // warp-major, then instruction
  AccessTotals totals;
  // The totals for one execution by the CTA under Nsight Compute names, in a fixed order.
  std::vector<std::pair<std::string, double>> metrics;
};

InstructionAccess analyse_instruction(const AccessPattern& p, std::uint32_t warp, std::uint32_t instruction,
                                      const BankGeometry& g = {});
AccessAnalysis analyse_access(const AccessPattern& p, const BankGeometry& g = {});

// The Nsight Compute names this pattern's totals are reported under, in the order analyse_access
// lists them (instructions, then wavefronts + conflicts or requests + sectors).
std::vector<std::string> access_metric_names(MemSpace space, AccessOp op);

}  // namespace gms
