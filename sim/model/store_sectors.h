#pragma once
// Which sectors a store writes only in part. A partly written sector costs the write path more than a
// whole one (icnt.partial_sector_write_slots): on the H100 one SM sends 0.50 half sectors a cycle
// against 0.96-1.00 whole ones, and all SMs together reach L2 with 0.25 against 0.50 a cycle, whatever
// the store's width (gms-store-ubench, validate/results/h100/store).
#include <algorithm>
#include <array>
#include <cstdint>

#include "common/error.h"
#include "common/types.h"

namespace gms {

// Sectors of [line, line + line_bytes) that the byte span [lo, hi) (inside the line) covers only in part.
inline std::uint32_t partial_sectors_of_span(Addr line, Addr lo, Addr hi, int sector_bytes) {
  const Addr s = static_cast<Addr>(sector_bytes);
  std::uint32_t partial = 0;
  if (lo % s != 0) partial |= 1u << ((lo - line) / s);
  if (hi % s != 0) partial |= 1u << ((hi - 1 - line) / s);
  return partial;
}

// Byte coverage of one line by a store's lanes, for lane lists (traces): the sectors of `mask` not
// every byte of which some lane wrote.
class LineCoverage {
 public:
  static constexpr int kMaxLineBytes = 1024;
  LineCoverage(Addr line, int line_bytes) : line_(line), line_bytes_(line_bytes) {
    SIM_ASSERT(line_bytes > 0 && line_bytes <= kMaxLineBytes, "line of " << line_bytes << " bytes");
  }
  void add(Addr at, std::uint32_t bytes) {
    const Addr lo = std::max(at, line_), hi = std::min(at + bytes, line_ + static_cast<Addr>(line_bytes_));
    for (Addr a = lo; a < hi; ++a) written_[a - line_] = 1;
  }
  std::uint32_t partial(std::uint32_t mask, int sector_bytes) const {
    std::uint32_t out = 0;
    for (int s = 0; s * sector_bytes < line_bytes_; ++s) {
      if (!((mask >> s) & 1)) continue;
      const auto* first = written_.data() + s * sector_bytes;
      if (std::find(first, first + sector_bytes, 0) != first + sector_bytes) out |= 1u << s;
    }
    return out;
  }

 private:
  Addr line_;
  int line_bytes_;
  std::array<std::uint8_t, kMaxLineBytes> written_{};
};

}  // namespace gms
