#include "model/address_map.h"

#include <bit>

#include "common/error.h"

namespace gms {
namespace {

class LinearHash final : public SliceHash {
 public:
  explicit LinearHash(std::uint32_t n) : n_(n) {}
  std::uint32_t slice(std::uint64_t line) const override { return n_(line); }

 private:
  FastMod64 n_;
};

// Folds 7-bit groups of the line index together, like the XOR trees found on NVIDIA parts; with a
// power-of-two slice count the low bits select the slice, otherwise the folded value is reduced.
class XorHash final : public SliceHash {
 public:
  explicit XorHash(std::uint32_t n) : n_(n), mod_(n), pow2_(std::has_single_bit(n)) {}
  std::uint32_t slice(std::uint64_t line) const override {
    std::uint64_t f = line ^ (line >> 7) ^ (line >> 14) ^ (line >> 21) ^ (line >> 28);
    if (pow2_) return static_cast<std::uint32_t>(f & (n_ - 1));
    return mod_(f ^ (line >> 3));
  }

 private:
  std::uint32_t n_;
  FastMod64 mod_;
  bool pow2_;
};

class MixHash final : public SliceHash {
 public:
  explicit MixHash(std::uint32_t n) : n_(n) {}
  std::uint32_t slice(std::uint64_t line) const override {
    return reduce_range(static_cast<std::uint32_t>(mix64(line ^ 0x5bd1e995ull)), n_);
  }

 private:
  std::uint32_t n_;
};

}  // namespace

std::unique_ptr<SliceHash> make_slice_hash(const std::string& name, std::uint32_t slices) {
  if (name == "linear") return std::make_unique<LinearHash>(slices);
  if (name == "xor") return std::make_unique<XorHash>(slices);
  if (name == "mix") return std::make_unique<MixHash>(slices);
  SIM_ASSERT(false, "unknown slice hash '" << name << "' passed config validation");
}

ChannelMap::ChannelMap(std::uint32_t channels, std::uint64_t interleave)
    : channels_(channels), shift_(std::countr_zero(interleave)) {}

std::uint32_t ChannelMap::channel(Addr addr) const {
  std::uint64_t chunk = addr >> shift_;
  std::uint64_t f = chunk ^ (chunk >> 9) ^ (chunk >> 17);
  return channels_(f);
}

}  // namespace gms
