#pragma once
// A CuTe-compatible layout: a nested shape and a congruent nested stride map a coordinate to an
// index (an element offset). Coordinates are colexicographic: the leftmost mode varies fastest, so a
// 1-D coordinate i of a layout with flattened shape (s0, s1, ...) is (i % s0, i / s0 % s1, ...).
// Written from CuTe's documentation ("01_layout", "02_layout_algebra"), not from its code.
#include <cstdint>
#include <string>
#include <vector>

namespace gms {

// A nested tuple of integers: a leaf holds `value`, a node holds `children` (possibly one).
struct IntTuple {
  bool leaf = true;
  std::int64_t value = 0;
  std::vector<IntTuple> children;

  static IntTuple integer(std::int64_t v) { return IntTuple{true, v, {}}; }
  static IntTuple tuple(std::vector<IntTuple> c) { return IntTuple{false, 0, std::move(c)}; }
  // Top-level modes: a leaf is a rank-1 tuple of itself.
  int rank() const { return leaf ? 1 : static_cast<int>(children.size()); }
  const IntTuple& mode(int i) const { return leaf ? *this : children.at(static_cast<size_t>(i)); }
  std::vector<std::int64_t> flatten() const;
  std::int64_t product() const;  // of the flattened entries
  std::string str() const;       // CuTe's print form: 8, (16,4), ((4,2),8)
  bool operator==(const IntTuple& o) const = default;
};

// True when `a` and `b` have the same nesting (a stride must be congruent to its shape).
bool congruent(const IntTuple& a, const IntTuple& b);

class Layout {
 public:
  Layout() = default;
  // Throws ConfigError when the stride is not congruent to the shape or a shape entry is < 1.
  Layout(IntTuple shape, IntTuple stride);
  // The compact column-major ("LayoutLeft") layout of a shape: strides 1, s0, s0*s1, ...
  static Layout column_major(const IntTuple& shape);

  const IntTuple& shape() const { return shape_; }
  const IntTuple& stride() const { return stride_; }
  int rank() const { return shape_.rank(); }
  Layout mode(int i) const { return Layout(shape_.mode(i), stride_.mode(i)); }
  std::int64_t size() const { return size_; }
  // One past the largest index (layouts with non-negative strides; CuTe's cosize).
  std::int64_t cosize() const;

  // Index of the 1-D coordinate i in [0, size()).
  std::int64_t operator()(std::int64_t i) const;
  // Index of a coordinate given per top-level mode (each mode taking a 1-D coordinate).
  std::int64_t at(const std::vector<std::int64_t>& mode_coords) const;
  // The per-top-level-mode coordinates of 1-D coordinate i (the inverse of at() over the domain).
  std::vector<std::int64_t> mode_coords(std::int64_t i) const;

  // Every coordinate maps to a different index.
  bool injective() const;
  // A bijection onto [0, size()): what a thread layout must be to name each thread once.
  bool bijective() const;
  // For a bijective layout: index -> 1-D coordinate.
  std::vector<std::int64_t> inverse_table() const;

  std::string str() const;  // "(16,4):(1,16)"

 private:
  IntTuple shape_, stride_;
  std::vector<std::int64_t> flat_shape_, flat_stride_;
  std::int64_t size_ = 0;
};

// Parses CuTe's print form: "(16,4):(1,16)", "((4,2),8):((2,16),1)", "8:1", "(64,16)" (the stride
// defaults to column-major). Static markers "_4" are read as 4. Errors name `what` (e.g. the
// option) and the column: ConfigError, exit code 2.
Layout parse_layout(const std::string& text, const std::string& what = "layout");
IntTuple parse_int_tuple(const std::string& text, const std::string& what = "tuple");

}  // namespace gms
