#pragma once
// Output files that are either complete or absent: a failed run never leaves half a file.
#include <filesystem>
#include <string>

namespace gms {

// Writes `text` next to `path` and renames it into place; ConfigError when it cannot.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace gms
