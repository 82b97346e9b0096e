#include "common/files.h"

#include <fstream>
#include <sstream>

#include "common/error.h"

namespace gms {

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw ConfigError(path.string() + ": cannot write");
    out << text;
    if (!out.flush()) throw ConfigError(path.string() + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw ConfigError(path.string() + ": cannot replace: " + ec.message());
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace gms
