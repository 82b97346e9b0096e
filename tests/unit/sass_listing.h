#pragma once
// Test listings: one SASS instruction as cuobjdump -sass prints it, its control fields in the second word.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gms::test {

inline std::vector<std::string> listing(std::uint32_t offset, const std::string& text, int stall, int yield, int wb, int rb,
                                        int mask) {
  const std::uint64_t hi = (static_cast<std::uint64_t>(stall) << 41) | (static_cast<std::uint64_t>(yield) << 45) |
                           (static_cast<std::uint64_t>(wb) << 46) | (static_cast<std::uint64_t>(rb) << 49) |
                           (static_cast<std::uint64_t>(mask) << 52) | 0x1804u;
  char a[200], b[100];
  std::snprintf(a, sizeof a, "        /*%04x*/                   %s ;   /* 0x0000000c0804723c */", offset, text.c_str());
  std::snprintf(b, sizeof b, "                                   /* 0x%016llx */", static_cast<unsigned long long>(hi));
  return {a, b};
}

}  // namespace gms::test
