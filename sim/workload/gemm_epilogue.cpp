#include "workload/gemm_epilogue.h"

#include <algorithm>

#include "common/error.h"

namespace gms {

namespace {
constexpr std::uint32_t kLanesPerFragmentRow = 4;  // mma C layout: lanes 4r..4r+3 share row r
constexpr std::uint32_t kElementsPerLane = 2;      // adjacent columns 2(l % 4), 2(l % 4) + 1
constexpr std::uint32_t kCoalescedLaneBytes = 16;  // STG.E.128
}  // namespace

GemmEpilogue::GemmEpilogue(const std::string& mode, int c_bytes, int warp_size)
    : fragments_(mode == "fragments"),
      fragment_row_bytes_(kLanesPerFragmentRow * kElementsPerLane * static_cast<std::uint32_t>(c_bytes)),
      rows_per_instruction_(static_cast<std::uint32_t>(warp_size) / kLanesPerFragmentRow),
      warp_size_(warp_size) {
  SIM_ASSERT(mode == "fragments" || mode == "coalesced", "GEMM epilogue '" << mode << "' passed validation");
  SIM_ASSERT(c_bytes > 0 && warp_size >= static_cast<int>(kLanesPerFragmentRow),
             "C element bytes " << c_bytes << ", warp size " << warp_size);
}

int GemmEpilogue::blocks(const Region& c) const {
  if (!fragments_) return 1;
  return static_cast<int>(std::max<std::uint32_t>(1, (c.row_bytes + fragment_row_bytes_ - 1) / fragment_row_bytes_));
}

Instr GemmEpilogue::block(const Region& c, int i) const {
  Instr out;
  out.op = Op::kStore;
  out.region = c;
  if (!fragments_) {
    const std::uint64_t bytes = static_cast<std::uint64_t>(c.rows) * c.row_bytes;
    const std::uint64_t per_instruction = static_cast<std::uint64_t>(warp_size_) * kCoalescedLaneBytes;
    out.issue_cycles = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (bytes + per_instruction - 1) / per_instruction));
    return out;
  }
  // One column strip of fragment rows, every row of the warp's share: rows / 8 instructions.
  const std::uint32_t offset = static_cast<std::uint32_t>(i) * fragment_row_bytes_;
  SIM_ASSERT(i >= 0 && (offset < c.row_bytes || (i == 0 && c.row_bytes == 0)),
             "epilogue block " << i << " of a " << c.row_bytes << "-byte row");
  out.region.base = c.base + offset;
  out.region.row_bytes = std::min(fragment_row_bytes_, c.row_bytes - offset);
  out.issue_cycles = std::max<std::uint32_t>(1, (c.rows + rows_per_instruction_ - 1) / rows_per_instruction_);
  return out;
}

}  // namespace gms
