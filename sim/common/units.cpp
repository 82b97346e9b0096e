#include "common/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace gms {
namespace {

struct UnitScale {
  const char* suffix;
  double scale;
};

const std::vector<UnitScale>& units_for(Quantity q) {
  static const std::vector<UnitScale> bytes = {{"B", 1},           {"KB", 1e3},         {"KiB", 1024.0},
                                               {"MB", 1e6},        {"MiB", 1048576.0},  {"GB", 1e9},
                                               {"GiB", 1073741824.0}, {"TB", 1e12},     {"TiB", 1099511627776.0}};
  static const std::vector<UnitScale> bandwidth = {
      {"B/s", 1},     {"KB/s", 1e3},          {"MB/s", 1e6},           {"GB/s", 1e9},
      {"TB/s", 1e12}, {"KiB/s", 1024.0},      {"MiB/s", 1048576.0},    {"GiB/s", 1073741824.0},
      {"TiB/s", 1099511627776.0}};
  static const std::vector<UnitScale> per_cycle = {{"B/cycle", 1}, {"B/clk", 1}};
  static const std::vector<UnitScale> freq = {{"Hz", 1}, {"kHz", 1e3}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  static const std::vector<UnitScale> cycles = {{"cycles", 1}, {"cycle", 1}, {"cyc", 1}};
  static const std::vector<UnitScale> real = {{"%", 0.01}};
  static const std::vector<UnitScale> none = {};
  switch (q) {
    case Quantity::kBytes: return bytes;
    case Quantity::kBandwidth: return bandwidth;
    case Quantity::kBytesPerCycle: return per_cycle;
    case Quantity::kFrequency: return freq;
    case Quantity::kCycles: return cycles;
    case Quantity::kReal: return real;
    case Quantity::kInteger: return none;
  }
  return none;
}

bool unit_required(Quantity q) { return q == Quantity::kBandwidth || q == Quantity::kFrequency; }

std::string unit_list(Quantity q) {
  std::string out;
  for (const auto& u : units_for(q)) out += (out.empty() ? "" : ", ") + std::string(u.suffix);
  return out;
}

}  // namespace

const char* quantity_unit(Quantity q) {
  switch (q) {
    case Quantity::kInteger: return "count";
    case Quantity::kReal: return "ratio";
    case Quantity::kBytes: return "bytes";
    case Quantity::kBandwidth: return "bytes/s";
    case Quantity::kBytesPerCycle: return "bytes/cycle";
    case Quantity::kFrequency: return "Hz";
    case Quantity::kCycles: return "cycles";
  }
  return "";
}

std::optional<double> parse_quantity(const std::string& raw, Quantity q, std::string* why) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '_') text += c;
  if (text.empty()) {
    *why = "empty value";
    return std::nullopt;
  }
  const char* begin = text.c_str();
  char* end = nullptr;
  double number = std::strtod(begin, &end);
  if (end == begin || std::isnan(number) || std::isinf(number)) {
    *why = "'" + raw + "' is not a number";
    return std::nullopt;
  }
  std::string suffix(end);
  double scale = 1;
  if (suffix.empty()) {
    if (unit_required(q)) {
      *why = "'" + raw + "' needs a unit (" + unit_list(q) + ")";
      return std::nullopt;
    }
  } else {
    bool found = false;
    for (const auto& u : units_for(q)) {
      if (suffix == u.suffix) {
        scale = u.scale;
        found = true;
        break;
      }
    }
    if (!found) {
      auto units = unit_list(q);
      *why = "'" + raw + "': unknown unit '" + suffix + "'" +
             (units.empty() ? std::string(" (a plain number is expected)") : " (expected one of " + units + ")");
      return std::nullopt;
    }
  }
  double value = number * scale;
  if (q == Quantity::kInteger || q == Quantity::kBytes || q == Quantity::kCycles) {
    if (std::fabs(value - std::round(value)) > 1e-6 * std::max(1.0, std::fabs(value))) {
      *why = "'" + raw + "' is not a whole number of " + quantity_unit(q);
      return std::nullopt;
    }
    value = std::round(value);
  }
  return value;
}

std::string format_quantity(double value, Quantity q) {
  char buf[64];
  auto fmt = [&](double v, const char* suffix) {
    std::snprintf(buf, sizeof buf, "%.6g%s", v, suffix);
    return std::string(buf);
  };
  switch (q) {
    case Quantity::kBytes: {
      const std::pair<double, const char*> exact[] = {
          {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
      for (auto [scale, suffix] : exact)
        if (value >= scale && std::fmod(value, scale) == 0) return fmt(value / scale, suffix);
      return fmt(value, "B");
    }
    case Quantity::kBandwidth:
      if (value >= 1e12) return fmt(value / 1e12, "TB/s");
      if (value >= 1e9) return fmt(value / 1e9, "GB/s");
      if (value >= 1e6) return fmt(value / 1e6, "MB/s");
      return fmt(value, "B/s");
    case Quantity::kBytesPerCycle: return fmt(value, "B/cycle");
    case Quantity::kFrequency:
      if (value >= 1e9) return fmt(value / 1e9, "GHz");
      if (value >= 1e6) return fmt(value / 1e6, "MHz");
      return fmt(value, "Hz");
    case Quantity::kCycles: return fmt(value, "cycles");
    case Quantity::kInteger: return fmt(value, "");
    case Quantity::kReal: return fmt(value, "");
  }
  return fmt(value, "");
}

}  // namespace gms
