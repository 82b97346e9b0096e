#include "layout/swizzle.h"

#include <cstdlib>
#include <regex>

#include "common/error.h"

namespace gms {

std::string Swizzle::str() const {
  if (identity()) return "none";
  return "Swizzle<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
}

Swizzle parse_swizzle(const std::string& text, const std::string& what) {
  if (text.empty() || text == "none") return {};
  // At most 3 digits each: the checks below bound them far lower, and atoi must not overflow.
  static const std::regex re(R"(^\s*(?:Swizzle\s*<)?\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(-?\d{1,3})\s*>?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re) || (text.find('<') != std::string::npos) != (text.find('>') != std::string::npos))
    throw ConfigError(what + " '" + text + "': expected B,M,S or Swizzle<B,M,S> (e.g. 3,3,3)");
  Swizzle s{std::atoi(m[1].str().c_str()), std::atoi(m[2].str().c_str()), std::atoi(m[3].str().c_str())};
  if (s.bits > 16 || s.base > 32 || std::abs(s.shift) > 32)
    throw ConfigError(what + " '" + text + "': B <= 16, M <= 32 and |S| <= 32");
  if (std::abs(s.shift) < s.bits) throw ConfigError(what + " '" + text + "': CuTe requires |S| >= B");
  return s;
}

}  // namespace gms
