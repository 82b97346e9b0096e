#include "workload/gemm_epilogue.h"

#include <algorithm>

#include "common/error.h"
#include "common/int_math.h"

namespace gms {

namespace {
constexpr std::uint32_t kLanesPerFragmentRow = 4;  // mma C layout: lanes 4r..4r+3 share row r
constexpr std::uint32_t kElementsPerLane = 2;      // adjacent columns 2(l % 4), 2(l % 4) + 1
constexpr std::uint32_t kCoalescedLaneBytes = 16;  // STG.E.128
// STS.128 and LDSM.16.M88.4 both move 512 bytes a warp in four 128-byte wavefronts; the staging is
// laid out conflict-free (the H100's 128x256 Triton records: 512 wavefronts of each per CTA, the
// instructions' 4 x 128 exactly; where CTAs share an SM silicon counts 30-90 % more, differently for
// two CTA orders of the same addresses, which no address pattern explains - likely the other CTAs'
// copies landing in the same banks). ldmatrix reads 16-bit matrices: a 32-bit C reads its rows back
// with LDS.128 instead (no such kernel measured), the same bytes per instruction.
constexpr std::uint32_t kStagedWavefronts = 4;
// Staged blocks of a round: its stores, a barrier, its reads, a barrier (not after the last round).
enum StagedPart { kStage = 0, kStageSync = 1, kReadBack = 2, kReuseSync = 3, kPartsPerRound = 4 };
}  // namespace

GemmEpilogue::GemmEpilogue(const std::string& mode, int c_bytes, int warp_size, int staged_per_round, int read_slot)
    : fragments_(mode == "fragments"),
      read_ldmatrix_(c_bytes == 2),
      fragment_row_bytes_(kLanesPerFragmentRow * kElementsPerLane * static_cast<std::uint32_t>(c_bytes)),
      rows_per_instruction_(static_cast<std::uint32_t>(warp_size) / kLanesPerFragmentRow),
      warp_size_(warp_size),
      per_round_(mode == "fragments" ? 0 : static_cast<std::uint32_t>(std::max(0, staged_per_round))),
      read_slot_(read_slot) {
  SIM_ASSERT(mode == "fragments" || mode == "coalesced", "GEMM epilogue '" << mode << "' passed validation");
  SIM_ASSERT(c_bytes > 0 && warp_size >= static_cast<int>(kLanesPerFragmentRow),
             "C element bytes " << c_bytes << ", warp size " << warp_size);
  SIM_ASSERT(read_slot >= 0 && read_slot < kMaxSlots, "epilogue read slot " << read_slot);
}

std::uint32_t GemmEpilogue::staged_instructions(const Region& c) const {
  if (per_round_ == 0) return 0;
  const std::uint64_t bytes = static_cast<std::uint64_t>(c.rows) * c.row_bytes;
  return static_cast<std::uint32_t>(cdiv(bytes, static_cast<std::uint64_t>(warp_size_) * kCoalescedLaneBytes));
}

std::uint32_t GemmEpilogue::rounds(const Region& c) const {
  const std::uint32_t n = staged_instructions(c);
  return n == 0 ? 0 : static_cast<std::uint32_t>(cdiv(n, per_round_));
}

int GemmEpilogue::blocks(const Region& c) const {
  if (fragments_)
    return static_cast<int>(std::max<std::uint32_t>(1, (c.row_bytes + fragment_row_bytes_ - 1) / fragment_row_bytes_));
  const std::uint32_t r = rounds(c);
  // Staged: the rounds less the last one's reuse barrier, a wait for the reads, the row stores.
  return r == 0 ? 1 : static_cast<int>(r * kPartsPerRound - 1 + 2);
}

Instr GemmEpilogue::block(const Region& c, int i) const {
  if (!fragments_) {
    const int staged_blocks = blocks(c) - 1;
    SIM_ASSERT(i >= 0 && i <= staged_blocks, "epilogue block " << i << " of " << staged_blocks + 1);
    return i < staged_blocks ? staged(c, i) : row_stores(c);
  }
  // One column strip of fragment rows, every row of the warp's share: rows / 8 instructions.
  Instr out;
  out.op = Op::kStore;
  out.region = c;
  const std::uint32_t offset = static_cast<std::uint32_t>(i) * fragment_row_bytes_;
  SIM_ASSERT(i >= 0 && (offset < c.row_bytes || (i == 0 && c.row_bytes == 0)),
             "epilogue block " << i << " of a " << c.row_bytes << "-byte row");
  out.region.base = c.base + offset;
  out.region.row_bytes = std::min(fragment_row_bytes_, c.row_bytes - offset);
  out.issue_cycles = std::max<std::uint32_t>(1, (c.rows + rows_per_instruction_ - 1) / rows_per_instruction_);
  return out;
}

Instr GemmEpilogue::row_stores(const Region& c) const {
  Instr out;
  out.op = Op::kStore;
  out.region = c;
  const std::uint64_t bytes = static_cast<std::uint64_t>(c.rows) * c.row_bytes;
  const std::uint64_t per_instruction = static_cast<std::uint64_t>(warp_size_) * kCoalescedLaneBytes;
  out.issue_cycles = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, cdiv(bytes, per_instruction)));
  return out;
}

Instr GemmEpilogue::staged(const Region& c, int i) const {
  Instr out;
  const std::uint32_t total = staged_instructions(c), r = rounds(c);
  if (static_cast<std::uint32_t>(i) == r * kPartsPerRound - 1) {  // every read back before the row stores
    out.op = Op::kWait;
    out.slot = static_cast<std::uint8_t>(read_slot_);
    return out;
  }
  const std::uint32_t round = static_cast<std::uint32_t>(i) / kPartsPerRound;
  const std::uint32_t count = std::min(per_round_, total - round * per_round_);
  switch (i % kPartsPerRound) {
    case kStage:
      out.op = Op::kSharedStore;
      break;
    case kReadBack:
      out.op = Op::kSharedLoad;
      out.ldmatrix = read_ldmatrix_;
      out.slot = static_cast<std::uint8_t>(read_slot_);
      break;
    default:  // kStageSync, kReuseSync
      out.op = Op::kBarrier;
      return out;
  }
  out.issue_cycles = count;
  out.wavefronts = count * kStagedWavefronts;
  out.mio_burst = true;  // the SASS issues each round's STS.128 / LDSM back to back
  return out;
}

}  // namespace gms
