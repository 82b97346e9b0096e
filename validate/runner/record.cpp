#include "record.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

namespace gmsv {

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += c;
    }
  }
  return o;
}

Timing summarize(std::vector<double> s) {
  Timing t;
  if (s.empty()) return t;
  std::sort(s.begin(), s.end());
  t.reps = static_cast<int>(s.size());
  t.min_ns = s.front();
  t.max_ns = s.back();
  size_t n = s.size();
  t.median_ns = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  return t;
}

std::string make_record(const std::string& case_name, const std::string& kind, const std::string& workload_json,
                        const std::map<std::string, double>& measured, const std::string& check_json,
                        const std::string& environment_json) {
  std::ostringstream os;
  os.precision(10);
  os << "{\"case\": \"" << json_escape(case_name) << "\", \"kind\": \"" << json_escape(kind)
     << "\", \"workload\": " << (workload_json.empty() ? "null" : workload_json) << ", \"measured\": {";
  bool first = true;
  for (const auto& [k, v] : measured) {
    os << (first ? "" : ", ") << "\"" << json_escape(k) << "\": ";
    if (std::isfinite(v))
      os << v;
    else
      os << "null";
    first = false;
  }
  os << "}, \"check\": " << (check_json.empty() ? "null" : check_json)
     << ", \"environment\": " << (environment_json.empty() ? "null" : environment_json) << "}";
  return os.str();
}

double relative_error(const std::vector<double>& got, const std::vector<double>& want) {
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    num += (got[i] - want[i]) * (got[i] - want[i]);
    den += want[i] * want[i];
  }
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

float half_bits_to_float(std::uint16_t h) {
  std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal
      int e = -1;
      do {
        ++e;
        man <<= 1;
      } while (!(man & 0x400));
      bits = sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 | (man & 0x3ff) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | man << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | man << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t float_to_half_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t man = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (man ? 0x200u : 0));
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<std::uint16_t>(sign);
    man |= 0x800000;
    int shift = 14 - exp;
    std::uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = sign | static_cast<std::uint32_t>(exp) << 10 | man >> 13;
  std::uint32_t rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;
  return static_cast<std::uint16_t>(half);
}

}  // namespace gmsv
