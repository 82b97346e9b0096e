#pragma once
// Output files that are either complete or absent: a failed run never leaves half a file.
#include <filesystem>
#include <string>

namespace gms {

// Writes `text` next to `path` and renames it into place; ConfigError when it cannot (the temporary
// file is removed).
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// The whole file as bytes ("" when it cannot be read).
std::string read_file(const std::filesystem::path& path);

}  // namespace gms
