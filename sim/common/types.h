#pragma once
// Strong-ish scalar types shared by the whole simulator.
#include <cstdint>
#include <limits>

namespace gms {

using Addr = std::uint64_t;
// Simulated time is kept in integer ticks so that fractional service times (32 B at 19.5 B/cycle)
// add up exactly and identically on every machine; a tick is 1/kTicksPerCycle of an SM cycle.
using Tick = std::uint64_t;
inline constexpr Tick kTicksPerCycle = 1024;
inline constexpr Tick kNever = std::numeric_limits<Tick>::max();

constexpr Tick cycles_to_ticks(std::uint64_t cycles) { return cycles * kTicksPerCycle; }
// The nearest tick to a duration of `x` >= 0 ticks (x + 0.5, truncated), through a signed 64-bit integer: one
// instruction where a double's conversion to an unsigned 64-bit one takes a compare, a branch and a subtraction
// (the bandwidth servers take it a few times per line request). Equal to static_cast<Tick>(x + 0.5) for any x in
// [0, 2^63).
constexpr Tick round_ticks(double x) { return static_cast<Tick>(static_cast<std::int64_t>(x + 0.5)); }
constexpr double ticks_to_cycles(Tick t) { return static_cast<double>(t) / kTicksPerCycle; }
// Rounds up: an operation that ends inside a cycle occupies that cycle.
constexpr std::uint64_t ticks_to_whole_cycles(Tick t) { return (t + kTicksPerCycle - 1) / kTicksPerCycle; }

}  // namespace gms
