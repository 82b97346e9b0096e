#include "common/files.h"

#include <fstream>

#include "common/error.h"

namespace gms {

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw ConfigError(tmp.string() + ": cannot write");
    out << text;
    if (!out) throw ConfigError(tmp.string() + ": write failed");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace gms
