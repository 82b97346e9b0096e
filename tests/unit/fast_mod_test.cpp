#include "common/fast_mod.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace gms {
namespace {

// The slice, channel and set hashes take their remainders from FastMod64: it must equal `%` for every
// 64-bit numerator, or a speed change would move simulated numbers. Property test over the divisors
// the presets use (80 slices and channels, L1 sets of every carve-out, coalescer entries), the edges
// of the 32-bit range and random ones, against numerators spread over the whole 64-bit range.
TEST(FastMod64, EqualsTheRemainderForEveryNumerator) {
  std::mt19937_64 rng(20261129);
  std::vector<std::uint32_t> divisors = {1, 2, 3, 5, 7, 40, 64, 80, 96, 100, 104, 416, 448, 1000, 1024, 4095,
                                         65535, 65537, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (int i = 0; i < 200; ++i) {  // random divisors of every magnitude
    const std::uint32_t d = static_cast<std::uint32_t>(rng()) >> (rng() % 32);
    divisors.push_back(d > 0 ? d : 1);
  }
  for (std::uint32_t d : divisors) {
    const FastMod64 mod(d);
    ASSERT_EQ(mod.divisor(), d);
    auto check = [&](std::uint64_t a) { ASSERT_EQ(mod(a), a % d) << a << " mod " << d; };
    for (std::uint64_t a : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{d} - 1, std::uint64_t{d},
                            std::uint64_t{d} + 1, ~std::uint64_t{0}, ~std::uint64_t{0} - 1, std::uint64_t{1} << 63})
      check(a);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t r = rng();
      check(r);
      check(r >> (rng() % 64));            // every magnitude
      check((r / d) * d + (d - 1));        // just below a multiple
      check(0x7f0000000000ull / 128 + r % (1u << 24));  // line indices of the simulator's buffers
    }
  }
}

// A default-constructed one divides by 1 (a table with no entries still maps every line somewhere).
TEST(FastMod64, DefaultDividesByOne) {
  const FastMod64 mod;
  EXPECT_EQ(mod.divisor(), 1u);
  EXPECT_EQ(mod(12345), 0u);
}

}  // namespace
}  // namespace gms
