#pragma once
// Register-bank conflicts: the issue cycles an SM sub-partition loses reading an instruction's
// register operands. The register file has four banks (register n in bank n % 4); an instruction
// whose source registers include two in one bank reads them one after the other, and the issue
// stage loses a cycle for each extra read - for every warp of the sub-partition, not only the one
// issuing. A source the previous ALU instruction marked `.reuse` in the same operand slot comes from
// the operand reuse cache and is not read. Memory and MMA instructions in between leave the cache as
// it is: they do not read through the ALU's operand slots, and the compiler marks `.reuse` across
// them (seed 002's r3_bk32 loop: `FFMA R59, R32, R103.reuse, R59`, `LDS R38, [R30+0x4280]`,
// `FFMA R60, R33, R103.reuse, R60`) - which it would not do for a cache an LDS emptied.
//
// Measured on the H100 (gms-smem-ubench, validate/results/h100/smem/): 16 FFMA chains reading 1 or 2
// registers issue one FFMA per cycle per sub-partition (0.95 with the loop's own instructions);
// reading 3, 0.77 (197 FLOP per SM cycle) - the rule gives the loop's 67 instructions (64 FFMA) 87
// cycles, 188 FLOP (-5 %); a 2-bank rule would give 114 cycles, 144 FLOP.
// Applied to the ALU instructions only: the MMA and memory instructions read their operands through
// other paths, which nothing here measured.
#include <span>
#include <vector>

#include "asm/sass_issue.h"

namespace gms {

inline constexpr int kRegisterBanks = 4;

// Extra read cycles of `cur` whose previous ALU instruction is `prev` (nullptr: nothing cached).
int register_bank_conflicts(const SassInstruction* prev, const SassInstruction& cur);

// Per instruction of a loop `body` (its instructions in issue order; the back edge follows the last):
// its extra read cycles, the reuse cache coming from the ALU instruction before it - across the back
// edge for the first ones.
std::vector<int> loop_register_bank_conflicts_each(std::span<const SassInstruction> body);

// Conflict cycles per iteration of `body`: the sum of the above.
int loop_register_bank_conflicts(std::span<const SassInstruction> body);

}  // namespace gms
