#pragma once
// CSV cells as RFC 4180 writes them: the ncu exports the calibration reads and the sweep CSVs the
// CLI writes and resumes from.
#include <string>
#include <vector>

namespace gms {

// The cell as CSV text: quoted (with "" for ") when it holds a comma, quote, newline or space.
std::string csv_quote(const std::string& cell);

// The cells of one record (quotes removed, "" -> ", '\r' outside quotes dropped). `complete`, when
// given, is set false if the record ends inside a quote.
std::vector<std::string> split_csv(const std::string& record, bool* complete = nullptr);

}  // namespace gms
