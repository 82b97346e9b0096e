#pragma once
// CuTe's Swizzle<B, M, S>: XORs the B bits found S places above bit M+... into the B bits at M, i.e.
//   yyy = ((1<<B)-1) << (M + max(0,S)),  offset ^ shift_right(offset & yyy, S)
// (a negative S shifts left). Applied to an element offset after the layout (CuTe's
// ComposedLayout<Swizzle, 0, Layout>). Swizzle<3,3,3> on fp16 XORs the 16-byte chunk of a 128-byte
// row with the row index: the layout that makes ldmatrix conflict-free.
#include <cstdint>
#include <string>

namespace gms {

struct Swizzle {
  int bits = 0, base = 0, shift = 0;  // B, M, S; bits == 0 is the identity

  std::int64_t operator()(std::int64_t offset) const {
    if (bits == 0) return offset;
    std::int64_t mask = ((std::int64_t{1} << bits) - 1) << (base + (shift > 0 ? shift : 0));
    std::int64_t y = offset & mask;
    return offset ^ (shift >= 0 ? (y >> shift) : (y << -shift));
  }
  bool identity() const { return bits == 0; }
  std::string str() const;
};

// "3,2,3", "Swizzle<3,2,3>" or "none". CuTe requires |S| >= B; errors are ConfigError (exit 2).
Swizzle parse_swizzle(const std::string& text, const std::string& what = "swizzle");

}  // namespace gms
