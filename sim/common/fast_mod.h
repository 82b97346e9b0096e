#pragma once
// a % d for any 64-bit a and a fixed 32-bit d, by multiplications instead of a 64-bit division: the
// slice, channel and set hashes take one per line request, and a 64-bit `div` costs 35-90 cycles on
// some hosts (Intel Cascade Lake: the SIMT ladder's L1 set and sector indices were 7 % of its replay).
// The remainder is exact for every a (Lemire, Kaser & Kurz, "Faster remainder by direct computation",
// 2019: a 128-bit fraction M = ceil(2^128 / d) covers 64-bit numerators for any d < 2^32).
#include <cstdint>

namespace gms {

__extension__ typedef unsigned __int128 FastModU128;  // GCC's and Clang's 128-bit integer (-Wpedantic: an extension)

class FastMod64 {
 public:
  FastMod64() = default;
  // d >= 1. For d = 1, M wraps to 0 and every remainder is 0, as it should be.
  explicit FastMod64(std::uint32_t d) : m_(~static_cast<FastModU128>(0) / d + 1), d_(d) {}
  std::uint32_t operator()(std::uint64_t a) const {
    const FastModU128 low = m_ * a;  // the fractional part of a / d, in 128 bits
    const auto lo = static_cast<std::uint64_t>(low), hi = static_cast<std::uint64_t>(low >> 64);
    // (low * d) >> 128, from two 64 x 32 products
    const FastModU128 carry = (static_cast<FastModU128>(lo) * d_) >> 64;
    return static_cast<std::uint32_t>((static_cast<FastModU128>(hi) * d_ + carry) >> 64);
  }
  std::uint32_t divisor() const { return d_; }

 private:
  FastModU128 m_ = 0;
  std::uint32_t d_ = 1;
};

}  // namespace gms
