#pragma once
// Address -> L2 slice, set within the slice, and DRAM channel. The slice hash is a named policy.
#include <cstdint>
#include <memory>
#include <string>

#include "common/fast_mod.h"
#include "common/types.h"

namespace gms {

// Maps a line index (address / line size) to one of `slices` slices.
class SliceHash {
 public:
  virtual ~SliceHash() = default;
  virtual std::uint32_t slice(std::uint64_t line_index) const = 0;
};

// "linear": consecutive lines on consecutive slices; "xor": bit groups folded by XOR (the
// reverse-engineered NVIDIA style), then reduced to the slice count; "mix": a strong integer hash.
std::unique_ptr<SliceHash> make_slice_hash(const std::string& name, std::uint32_t slices);

// Maps a 64-bit value onto [0, n) without division (Lemire's multiply-shift); `h` must be well mixed.
inline std::uint32_t reduce_range(std::uint32_t h, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(h) * n) >> 32);
}

inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// Set of a line inside its slice: a hash, so that the slice hash's bits do not alias the set bits.
inline std::uint32_t hashed_set(std::uint64_t line_index, std::uint32_t sets) {
  return reduce_range(static_cast<std::uint32_t>(mix64(line_index) >> 32), sets);
}

class ChannelMap {
 public:
  ChannelMap(std::uint32_t channels, std::uint64_t interleave_bytes);
  std::uint32_t channel(Addr addr) const;

 private:
  FastMod64 channels_;
  int shift_;
};

}  // namespace gms
