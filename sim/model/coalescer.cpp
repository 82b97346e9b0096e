#include "model/coalescer.h"

#include "common/error.h"

namespace gms {

namespace {

void add_lane(std::vector<LineRequest>& out, Addr first, std::uint32_t bytes, std::uint32_t line_bytes,
              std::uint32_t sector_bytes) {
  const Addr line_mask = ~static_cast<Addr>(line_bytes - 1);
  const Addr last = first + bytes - 1;
  for (Addr line = first & line_mask; line <= last; line += line_bytes) {
    Addr lo = first > line ? first : line, hi = last < line + line_bytes - 1 ? last : line + line_bytes - 1;
    std::uint32_t mask = 0;
    for (Addr s = (lo - line) / sector_bytes; s <= (hi - line) / sector_bytes; ++s) mask |= 1u << s;
    // A warp touches few lines: a linear search keeps first-touch order without allocation churn.
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

}  // namespace

void coalesce_into(std::vector<LineRequest>& out, const Addr* lanes, std::uint32_t count, std::uint32_t bytes,
                   std::uint32_t line_bytes, std::uint32_t sector_bytes) {
  SIM_ASSERT(bytes > 0 && line_bytes % sector_bytes == 0, "bytes " << bytes << " line " << line_bytes);
  out.clear();
  for (std::uint32_t lane = 0; lane < count; ++lane) add_lane(out, lanes[lane], bytes, line_bytes, sector_bytes);
}

std::vector<LineRequest> coalesce(const std::vector<Addr>& lanes, std::uint64_t active, std::uint32_t bytes,
                                  std::uint32_t line_bytes, std::uint32_t sector_bytes) {
  SIM_ASSERT(lanes.size() <= 64, lanes.size() << " lanes");
  SIM_ASSERT(bytes > 0 && line_bytes % sector_bytes == 0, "bytes " << bytes << " line " << line_bytes);
  std::vector<LineRequest> out;
  for (size_t lane = 0; lane < lanes.size(); ++lane)
    if ((active >> lane) & 1) add_lane(out, lanes[lane], bytes, line_bytes, sector_bytes);
  return out;
}

}  // namespace gms
