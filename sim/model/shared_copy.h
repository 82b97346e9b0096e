#pragma once
// Copies from global into shared memory that bypass L1 (cp.async.cg, LDGSTS.BYPASS) are fetched
// per 32-byte shared sector they write: a global sector whose bytes land in two shared sectors (its
// destination is 16 bytes off the sector alignment of its source, as in a tile whose rows are
// padded by 16 bytes) is delivered by L2 twice and looked up twice, and the L1's t-stage counts one
// sector per shared sector written. Measured on the H100 (gms-ldgsts-ubench,
// validate/results/h100/ldgsts/): rows shifted by 16 B receive 2.0x the requested sectors and count
// 1.25x in the t-stage; the WMMA GEMM's 80 B- and 272 B-pitched tiles 1.5x and 1.19x. Through L1
// (cp.async.ca) the L1 serves the second fetch: no extra sectors.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "common/types.h"

namespace gms {

struct SharedCopySectors {
  std::uint32_t twice = 0;   // sectors of the line delivered a second time (bit i = sector i)
  std::uint32_t written = 0;  // shared sectors the line's bytes are written to (t-stage sectors)
  // Sectors whose first byte lands in a later 128-byte line of shared memory than the line's first
  // byte does: where the L1 asks for them in a request of their own (l1.copy_request_per_shared_line).
  std::uint32_t next_shared_line = 0;
};

constexpr std::uint64_t kSharedLineBytes = 128;

// The bytes [lo, hi) of the line at `line` (lo, hi absolute addresses within one line) are written to
// shared memory starting at shared byte offset `dest` (of byte lo).
inline SharedCopySectors shared_copy_sectors(Addr line, Addr lo, Addr hi, std::uint64_t dest, std::uint32_t sector) {
  SharedCopySectors s;
  if (hi <= lo) return s;
  // Shared offset of global byte g: g + shift (mod sector); only the residue matters. The sector is
  // a power of two (gpu_schema): shifts and masks, not divisions, on this per-line path.
  const int sh = std::countr_zero(sector);
  const std::uint64_t m = sector - 1;
  const std::uint64_t shift = (dest + sector - (lo & m)) & m;
  auto shared_sector = [&](Addr g) { return (g + shift) >> sh; };
  s.written = static_cast<std::uint32_t>(shared_sector(hi - 1) - shared_sector(lo) + 1);
  const Addr first = (lo - line) >> sh, last = (hi - 1 - line) >> sh;
  // Shared lines: only whether a byte's destination passed a 128-byte boundary after byte lo's.
  const std::uint64_t room = kSharedLineBytes - (dest & (kSharedLineBytes - 1));  // bytes to the next boundary
  if (hi - lo > room) {
    for (Addr i = first; i <= last; ++i) {
      const Addr a = std::max<Addr>(lo, line + i * sector);
      if (a - lo >= room) s.next_shared_line |= 1u << i;
    }
  }
  if (shift == 0) return s;
  for (Addr i = first; i <= last; ++i) {
    const Addr a = std::max<Addr>(lo, line + i * sector), b = std::min<Addr>(hi, line + (i + 1) * sector);
    if (shared_sector(b - 1) != shared_sector(a)) s.twice |= 1u << i;
  }
  return s;
}

}  // namespace gms
