#include "common/csv.h"

namespace gms {

std::string csv_quote(const std::string& cell) {
  if (cell.find_first_of(",\"\n ") == std::string::npos) return cell;
  std::string o = "\"";
  for (char c : cell) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::vector<std::string> split_csv(const std::string& record, bool* complete) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < record.size(); ++i) {
    const char c = record[i];
    if (quoted) {
      if (c == '"' && i + 1 < record.size() && record[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  if (complete) *complete = !quoted;
  return out;
}

}  // namespace gms
