#pragma once
// Writes a calibrated copy of a GPU description: the original text with each fitted value replaced
// on its own line (the old value and source kept in the comment) and a provenance header naming the
// records, the fitted parameters and the error before and after. Text in, text out: no YAML library
// is involved, so the user's layout and comments survive.
#include <string>
#include <vector>

namespace gms {

struct FittedValue {
  std::string path;      // dotted key, e.g. l2.slice_bytes_per_cycle
  int line = 0;          // 1-based line of the key in the original file
  std::string old_text;  // as the user would write it
  std::string new_text;
};

// Returns the new file text. Throws ConfigError when a line does not hold the expected key.
std::string calibrated_yaml(const std::string& original_text, const std::string& original_name,
                            const std::vector<FittedValue>& values, const std::vector<std::string>& header_lines);

}  // namespace gms
