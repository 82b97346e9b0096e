// The lists a GPU value holds - the L1's carve-outs, the SMs of each GPC, the dispatcher's SM order -
// parsed from their text.
#include "common/csv.h"
#include "common/units.h"
#include "config/gpu_config.h"

#include <algorithm>
#include <cmath>

namespace gms {

namespace {

// One item of a comma-separated list, without the blanks around it.
std::string trimmed(std::string item) {
  item.erase(0, item.find_first_not_of(" \t"));
  item.erase(item.find_last_not_of(" \t") + 1);
  return item;
}

// One item of a list as a quantity of kind q: *item gets its trimmed text; nullopt and *why ("'ITEM' is not
// WHAT (the parser's reason)") when it does not parse or `fits` refuses its value.
template <class Fits>
std::optional<double> list_quantity(const std::string& raw, Quantity q, const char* what, Fits fits, std::string* item,
                                    std::string* why) {
  *item = trimmed(raw);
  std::string item_why;
  const auto v = parse_quantity(*item, q, &item_why);
  if (v && fits(*v)) return v;
  *why = "'" + *item + "' is not " + what + (item_why.empty() ? "" : " (" + item_why + ")");
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<std::int64_t>> parse_carveouts(const std::string& text, std::string* why) {
  std::vector<std::int64_t> out;
  if (text.empty()) return out;
  for (const std::string& raw : split_csv(text)) {
    std::string item;
    const auto v = list_quantity(raw, Quantity::kBytes, "a size in bytes", [](double x) { return x >= 0 && x <= 1e15; },
                                 &item, why);
    if (!v) return std::nullopt;
    const auto bytes = static_cast<std::int64_t>(*v);
    if (!out.empty() && bytes <= out.back()) {
      *why = "carve-outs must ascend: " + item + " after " + std::to_string(out.back()) + " B";
      return std::nullopt;
    }
    out.push_back(bytes);
  }
  return out;
}

std::optional<std::vector<int>> parse_gpc_sms(const std::string& text, std::string* why) {
  std::vector<int> out;
  if (text.empty()) return out;
  for (const std::string& raw : split_csv(text)) {
    std::string item;
    const auto v = list_quantity(
        raw, Quantity::kInteger, "a number of SMs (a whole number, 1 or more)",
        [](double x) { return x >= 1 && x <= 4096 && x == static_cast<double>(static_cast<int>(x)); }, &item, why);
    if (!v) return std::nullopt;
    out.push_back(static_cast<int>(*v));
  }
  return out;
}

std::optional<std::vector<double>> parse_latency_spread(const std::string& text, std::string* why) {
  std::vector<double> out;
  if (text.empty()) return out;
  for (const std::string& raw : split_csv(text)) {
    std::string item;
    const auto v = list_quantity(raw, Quantity::kCycles, "a latency in cycles", [](double x) { return std::fabs(x) <= 1e6; },
                                 &item, why);
    if (!v) return std::nullopt;
    if (!out.empty() && *v < out.back()) {
      *why = "quantiles must not fall: " + item + " after " + std::to_string(static_cast<long long>(out.back())) +
             " cycles";
      return std::nullopt;
    }
    out.push_back(*v);
  }
  if (out.size() < 2) {
    *why = "needs at least two quantiles (the 0 % and the 100 % point)";
    return std::nullopt;
  }
  return out;
}

// One SM id of launch.sm_order: digits only, below sm_count.
std::optional<int> sm_id(const std::string& item, int sm_count, std::string* why) {
  const bool digits = !item.empty() && item.size() <= 6 &&
                      item.find_first_not_of("0123456789") == std::string::npos;
  const int id = digits ? std::stoi(item) : -1;
  if (id < 0 || id >= sm_count) {
    // A preset's order names every SM of its own count: say how to drop it when sm.count is set apart.
    *why = "'" + item + "' is not an SM id (0 .. " + std::to_string(sm_count - 1) + ")" +
           (digits && id >= sm_count ? "; with another sm.count, set launch.sm_order empty (SM-id order) or name its SMs"
                                     : "");
    return std::nullopt;
  }
  return id;
}

std::optional<std::vector<int>> parse_sm_order(const std::string& text, int sm_count, std::string* why) {
  std::vector<int> out;
  if (text.empty()) return out;
  std::vector<char> seen(static_cast<size_t>(std::max(sm_count, 0)), 0);
  for (const std::string& raw : split_csv(text)) {
    const std::string item = trimmed(raw);
    const auto dash = item.find('-', 1);  // "a-b": a range; a leading '-' is no SM id
    const auto first = sm_id(item.substr(0, dash), sm_count, why);
    if (!first) return std::nullopt;
    const auto last = dash == std::string::npos ? first : sm_id(item.substr(dash + 1), sm_count, why);
    if (!last) return std::nullopt;
    const int step = *last >= *first ? 1 : -1;
    for (int id = *first;; id += step) {
      if (seen[static_cast<size_t>(id)]) {
        *why = "SM " + std::to_string(id) + " appears twice (in '" + item + "')";
        return std::nullopt;
      }
      seen[static_cast<size_t>(id)] = 1;
      out.push_back(id);
      if (id == *last) break;
    }
  }
  if (static_cast<int>(out.size()) != sm_count) {
    for (int id = 0; id < sm_count; ++id)
      if (!seen[static_cast<size_t>(id)]) {
        *why = "names " + std::to_string(out.size()) + " of the " + std::to_string(sm_count) + " SMs (SM " +
               std::to_string(id) + " is missing)";
        return std::nullopt;
      }
  }
  return out;
}

}  // namespace gms
