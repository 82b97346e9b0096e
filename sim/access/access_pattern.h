#pragma once
// What one CTA's threads do in one memory operation, instruction by instruction: per warp-level
// instruction and thread, the byte offset it accesses (or none). Built from a CuTe description
// (a partition, an element size, a copy width, a swizzle) or read from a lane list CSV
// (`thread,instruction,byte_offset`). The analyser (bank_model.h) turns it into wavefronts,
// conflicts, requests and sectors.
#include <cstdint>
#include <string>
#include <vector>

#include "layout/partition.h"
#include "layout/swizzle.h"

namespace gms {

enum class MemSpace { kShared, kGlobal };
enum class AccessOp { kLoad, kStore, kLdmatrix };

const char* mem_space_name(MemSpace s);
const char* access_op_name(AccessOp o);
MemSpace parse_mem_space(const std::string& s);
AccessOp parse_access_op(const std::string& s);

inline constexpr std::int64_t kInactiveLane = -1;

struct AccessPattern {
  MemSpace space = MemSpace::kShared;
  AccessOp op = AccessOp::kLoad;
  std::uint32_t width_bytes = 4;     // bytes per lane per instruction: 4, 8, 16 (ldmatrix: 16 = one row)
  std::uint32_t ldsm_matrices = 4;   // ldmatrix .x1/.x2/.x4: lanes 0 .. 8*matrices-1 give row addresses
  std::uint32_t threads = 0;         // threads per CTA
  // byte_offsets[instruction][thread]; kInactiveLane where the thread does not take part.
  std::vector<std::vector<std::int64_t>> byte_offsets;

  std::uint32_t warps() const { return (threads + 31) / 32; }
  std::uint32_t instructions() const { return static_cast<std::uint32_t>(byte_offsets.size()); }
};

// How a partition becomes instructions: consecutive values of a thread form one access of
// width_bytes (width_bytes / elem_bytes elements), which must be contiguous and aligned after the
// swizzle, as a vector instruction needs; otherwise ConfigError naming the thread and values.
struct CopyShape {
  std::uint32_t elem_bytes = 4;
  std::uint32_t width_bytes = 4;
  Swizzle swizzle;
  std::int64_t base_bytes = 0;  // byte address of element 0 (alignment matters for sectors)
};
AccessPattern pattern_from_partition(const Partition& part, const CopyShape& shape, MemSpace space, AccessOp op);

// Lane list CSV: header `thread,instruction,byte_offset`, one row per active lane and instruction;
// '#' comments allowed. Threads must be < threads_per_cta, offsets >= 0, no (thread, instruction)
// twice. Errors name file:line (ConfigError).
AccessPattern read_lane_list(const std::string& path, std::uint32_t threads_per_cta, MemSpace space, AccessOp op,
                             std::uint32_t width_bytes, std::uint32_t ldsm_matrices);
void parse_lane_list(const std::string& text, const std::string& source_name, AccessPattern& p);
// Writes the same CSV (what the validate kernel replays); atomically.
void write_lane_list(const std::string& path, const AccessPattern& p);
std::string lane_list_csv(const AccessPattern& p);

// Rejects what no instruction can do: widths other than 4/8/16 (16 for ldmatrix), misaligned lanes,
// ldmatrix lanes beyond 8*matrices. ConfigError.
void check_pattern(const AccessPattern& p);

}  // namespace gms
