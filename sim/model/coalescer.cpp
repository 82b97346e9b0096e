#include "model/coalescer.h"

#include <bit>

#include "common/error.h"

namespace gms {

namespace {

// Sector indices by shift (the GPU schema holds sectors and lines to powers of two): two 64-bit
// divisions per lane were the largest single cost of a trace replay's coalescing.
void add_lane(std::vector<LineRequest>& out, Addr first, std::uint32_t bytes, std::uint32_t line_bytes, int sector_shift) {
  const Addr line_mask = ~static_cast<Addr>(line_bytes - 1);
  const Addr last = first + bytes - 1;
  for (Addr line = first & line_mask; line <= last; line += line_bytes) {
    const Addr lo = first > line ? first : line, hi = last < line + line_bytes - 1 ? last : line + line_bytes - 1;
    const auto s_lo = static_cast<unsigned>((lo - line) >> sector_shift);
    const auto s_hi = static_cast<unsigned>((hi - line) >> sector_shift);
    const std::uint32_t mask = ((2u << s_hi) - 1u) & ~((1u << s_lo) - 1u);  // sectors s_lo..s_hi (s_hi <= 31)
    // Neighbouring lanes mostly touch the line the last one added; else a warp touches few lines: a
    // linear search keeps first-touch order without allocation churn. Lines are unique in `out`.
    if (!out.empty() && out.back().line == line) {
      out.back().sectors |= mask;
      continue;
    }
    bool merged = false;
    for (auto& r : out)
      if (r.line == line) {
        r.sectors |= mask;
        merged = true;
        break;
      }
    if (!merged) out.push_back({line, mask});
  }
}

int sector_shift_of(std::uint32_t line_bytes, std::uint32_t sector_bytes) {
  SIM_ASSERT(sector_bytes > 0 && std::has_single_bit(sector_bytes) && std::has_single_bit(line_bytes) &&
                 line_bytes % sector_bytes == 0 && line_bytes / sector_bytes <= 32,
             "line " << line_bytes << " sector " << sector_bytes);
  return std::countr_zero(sector_bytes);
}

}  // namespace

void coalesce_into(std::vector<LineRequest>& out, const Addr* lanes, std::uint32_t count, std::uint32_t bytes,
                   std::uint32_t line_bytes, std::uint32_t sector_bytes) {
  SIM_ASSERT(bytes > 0, "bytes " << bytes);
  const int shift = sector_shift_of(line_bytes, sector_bytes);
  out.clear();
  for (std::uint32_t lane = 0; lane < count; ++lane) add_lane(out, lanes[lane], bytes, line_bytes, shift);
}

std::vector<LineRequest> coalesce(const std::vector<Addr>& lanes, std::uint64_t active, std::uint32_t bytes,
                                  std::uint32_t line_bytes, std::uint32_t sector_bytes) {
  SIM_ASSERT(lanes.size() <= 64, lanes.size() << " lanes");
  SIM_ASSERT(bytes > 0, "bytes " << bytes);
  const int shift = sector_shift_of(line_bytes, sector_bytes);
  std::vector<LineRequest> out;
  for (size_t lane = 0; lane < lanes.size(); ++lane)
    if ((active >> lane) & 1) add_lane(out, lanes[lane], bytes, line_bytes, shift);
  return out;
}

}  // namespace gms
