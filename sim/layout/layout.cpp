#include "layout/layout.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

#include "common/error.h"

namespace gms {

namespace {

// Layouts larger than this are not enumerated (injectivity checks, inverse tables): a CTA tile is
// thousands of elements, a whole matrix a few hundred million.
constexpr std::int64_t kMaxEnumerated = std::int64_t{1} << 26;

void flatten_into(const IntTuple& t, std::vector<std::int64_t>& out) {
  if (t.leaf) {
    out.push_back(t.value);
    return;
  }
  for (const auto& c : t.children) flatten_into(c, out);
}

// Colexicographic evaluation of a 1-D coordinate over flattened shape/stride.
std::int64_t eval_flat(std::int64_t i, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride) {
  std::int64_t idx = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    std::int64_t c = (k + 1 == shape.size()) ? i : i % shape[k];
    idx += c * stride[k];
    i /= shape[k];
  }
  return idx;
}

class TupleParser {
 public:
  TupleParser(const std::string& text, const std::string& what) : s_(text), what_(what) {}

  IntTuple parse_tuple() {
    skip_space();
    if (pos_ >= s_.size()) fail("expected a number or '('");
    if (s_[pos_] != '(') return IntTuple::integer(parse_int());
    ++pos_;
    std::vector<IntTuple> children;
    for (;;) {
      children.push_back(parse_tuple());
      skip_space();
      if (pos_ >= s_.size()) fail("expected ',' or ')'");
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ')') {
        ++pos_;
        break;
      }
      fail(std::string("expected ',' or ')', found '") + s_[pos_] + "'");
    }
    return IntTuple::tuple(std::move(children));
  }

  bool at_end() {
    skip_space();
    return pos_ >= s_.size();
  }
  bool consume(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw ConfigError(what_ + " '" + s_ + "': " + msg + " at column " + std::to_string(pos_ + 1));
  }

 private:
  std::int64_t parse_int() {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '_') ++pos_;  // CuTe prints static integers as _4
    bool negative = false;
    if (pos_ < s_.size() && s_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    size_t start = pos_;
    std::int64_t v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) fail("number too large");
      v = v * 10 + (s_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) {
      if (pos_ >= s_.size()) fail("expected a number");
      fail(std::string("expected a number, found '") + s_[pos_] + "'");
    }
    return negative ? -v : v;
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }

  const std::string& s_;
  const std::string& what_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<std::int64_t> IntTuple::flatten() const {
  std::vector<std::int64_t> out;
  flatten_into(*this, out);
  return out;
}

std::int64_t IntTuple::product() const {
  std::int64_t p = 1;
  for (auto v : flatten()) p *= v;
  return p;
}

std::string IntTuple::str() const {
  if (leaf) return std::to_string(value);
  std::string s = "(";
  for (size_t i = 0; i < children.size(); ++i) s += (i ? "," : "") + children[i].str();
  return s + ")";
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.leaf != b.leaf) return false;
  if (a.leaf) return true;
  if (a.children.size() != b.children.size()) return false;
  for (size_t i = 0; i < a.children.size(); ++i)
    if (!congruent(a.children[i], b.children[i])) return false;
  return true;
}

Layout::Layout(IntTuple shape, IntTuple stride) : shape_(std::move(shape)), stride_(std::move(stride)) {
  if (!congruent(shape_, stride_))
    throw ConfigError("layout " + shape_.str() + ":" + stride_.str() + ": the stride is not congruent to the shape");
  flat_shape_ = shape_.flatten();
  flat_stride_ = stride_.flatten();
  size_ = 1;
  for (auto s : flat_shape_) {
    if (s < 1) throw ConfigError("layout " + str() + ": shape entries must be >= 1");
    if (size_ > std::numeric_limits<std::int64_t>::max() / s) throw ConfigError("layout " + str() + ": too large");
    size_ *= s;
  }
}

Layout Layout::column_major(const IntTuple& shape) {
  std::int64_t running = 1;
  auto build = [&](auto&& self, const IntTuple& t) -> IntTuple {
    if (t.leaf) {
      IntTuple s = IntTuple::integer(running);
      running *= t.value;
      return s;
    }
    std::vector<IntTuple> c;
    for (const auto& ch : t.children) c.push_back(self(self, ch));
    return IntTuple::tuple(std::move(c));
  };
  IntTuple stride = build(build, shape);
  return Layout(shape, stride);
}

std::int64_t Layout::cosize() const {
  std::int64_t hi = 0;
  for (size_t k = 0; k < flat_shape_.size(); ++k) hi += (flat_shape_[k] - 1) * std::max<std::int64_t>(flat_stride_[k], 0);
  return hi + 1;
}

std::int64_t Layout::operator()(std::int64_t i) const {
  SIM_ASSERT(i >= 0 && i < size_, "coordinate " << i << " outside layout " << str());
  return eval_flat(i, flat_shape_, flat_stride_);
}

std::int64_t Layout::at(const std::vector<std::int64_t>& mode_coords) const {
  SIM_ASSERT(static_cast<int>(mode_coords.size()) == rank(), "rank " << mode_coords.size() << " coordinate for " << str());
  std::int64_t idx = 0;
  for (int m = 0; m < rank(); ++m) idx += mode(m)(mode_coords[static_cast<size_t>(m)]);
  return idx;
}

std::vector<std::int64_t> Layout::mode_coords(std::int64_t i) const {
  std::vector<std::int64_t> c;
  for (int m = 0; m < rank(); ++m) {
    std::int64_t s = shape_.mode(m).product();
    c.push_back(m + 1 == rank() ? i : i % s);
    i /= s;
  }
  return c;
}

bool Layout::injective() const {
  if (size_ > kMaxEnumerated) throw ConfigError("layout " + str() + ": too large to check (more than 2^26 elements)");
  std::vector<std::int64_t> idx(static_cast<size_t>(size_));
  for (std::int64_t i = 0; i < size_; ++i) idx[static_cast<size_t>(i)] = (*this)(i);
  std::sort(idx.begin(), idx.end());
  return std::adjacent_find(idx.begin(), idx.end()) == idx.end();
}

bool Layout::bijective() const {
  if (size_ > kMaxEnumerated) throw ConfigError("layout " + str() + ": too large to check (more than 2^26 elements)");
  std::vector<char> seen(static_cast<size_t>(size_), 0);
  for (std::int64_t i = 0; i < size_; ++i) {
    std::int64_t k = (*this)(i);
    if (k < 0 || k >= size_ || seen[static_cast<size_t>(k)]) return false;
    seen[static_cast<size_t>(k)] = 1;
  }
  return true;
}

std::vector<std::int64_t> Layout::inverse_table() const {
  SIM_ASSERT(bijective(), "inverse of a layout that is not a bijection: " << str());
  std::vector<std::int64_t> inv(static_cast<size_t>(size_));
  for (std::int64_t i = 0; i < size_; ++i) inv[static_cast<size_t>((*this)(i))] = i;
  return inv;
}

std::string Layout::str() const { return shape_.str() + ":" + stride_.str(); }

IntTuple parse_int_tuple(const std::string& text, const std::string& what) {
  TupleParser p(text, what);
  IntTuple t = p.parse_tuple();
  if (!p.at_end()) p.fail("unexpected text after the tuple");
  return t;
}

Layout parse_layout(const std::string& text, const std::string& what) {
  TupleParser p(text, what);
  IntTuple shape = p.parse_tuple();
  for (auto s : shape.flatten())
    if (s < 1) p.fail("shape entries must be >= 1");
  if (p.at_end()) return Layout::column_major(shape);
  if (!p.consume(':')) p.fail("expected ':' between shape and stride");
  IntTuple stride = p.parse_tuple();
  if (!p.at_end()) p.fail("unexpected text after the stride");
  if (!congruent(shape, stride))
    throw ConfigError(what + " '" + text + "': the stride " + stride.str() + " is not congruent to the shape " + shape.str());
  return Layout(shape, stride);
}

}  // namespace gms
