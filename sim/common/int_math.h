#pragma once
// Integer helpers the workloads share (counts of tiles, rounds and instructions).
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace gms {

// a / b rounded up, for a >= 0 and b > 0, computed in 64 bits (signed unless either is unsigned).
template <std::integral A, std::integral B>
constexpr auto cdiv(A a, B b) {
  using T = std::conditional_t<std::is_signed_v<std::common_type_t<A, B>>, std::int64_t, std::uint64_t>;
  return (static_cast<T>(a) + static_cast<T>(b) - 1) / static_cast<T>(b);
}

}  // namespace gms
