// The lists a GPU value holds - the L1's carve-outs, the SMs of each GPC - parsed from their text.
#include "common/csv.h"
#include "common/units.h"
#include "config/gpu_config.h"

namespace gms {

namespace {

// One item of a comma-separated list, without the blanks around it.
std::string trimmed(std::string item) {
  item.erase(0, item.find_first_not_of(" \t"));
  item.erase(item.find_last_not_of(" \t") + 1);
  return item;
}

}  // namespace

std::optional<std::vector<std::int64_t>> parse_carveouts(const std::string& text, std::string* why) {
  std::vector<std::int64_t> out;
  if (text.empty()) return out;
  for (const std::string& raw : split_csv(text)) {
    const std::string item = trimmed(raw);
    std::string item_why;
    const auto v = parse_quantity(item, Quantity::kBytes, &item_why);
    if (!v || *v < 0 || *v > 1e15) {
      *why = "'" + item + "' is not a size in bytes" + (item_why.empty() ? "" : " (" + item_why + ")");
      return std::nullopt;
    }
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
    const std::string item = trimmed(raw);
    std::string item_why;
    const auto v = parse_quantity(item, Quantity::kInteger, &item_why);
    if (!v || *v < 1 || *v > 4096 || *v != static_cast<double>(static_cast<int>(*v))) {
      *why = "'" + item + "' is not a number of SMs (a whole number, 1 or more)" +
             (item_why.empty() ? "" : " (" + item_why + ")");
      return std::nullopt;
    }
    out.push_back(static_cast<int>(*v));
  }
  return out;
}

}  // namespace gms
