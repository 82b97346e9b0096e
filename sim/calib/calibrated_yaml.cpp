#include "calib/calibrated_yaml.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"

namespace gms {

std::string calibrated_yaml(const std::string& original_text, const std::string& original_name,
                            const std::vector<FittedValue>& values, const std::vector<std::string>& header_lines) {
  std::vector<std::string> lines;
  std::istringstream in(original_text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (const auto& v : values) {
    if (v.line < 1 || v.line > static_cast<int>(lines.size()))
      throw ConfigError(original_name + ": no line " + std::to_string(v.line) + " for " + v.path);
    std::string& l = lines[static_cast<size_t>(v.line - 1)];
    const std::string leaf = v.path.substr(v.path.rfind('.') + 1) + ":";
    auto at = l.find(leaf);
    if (at == std::string::npos)
      throw ConfigError(original_name + ":" + std::to_string(v.line) + ": expected key '" + leaf + "' for " + v.path);
    std::string comment;
    auto hash = l.find('#', at);
    if (hash != std::string::npos) comment = l.substr(hash + 1);
    while (!comment.empty() && comment.front() == ' ') comment.erase(comment.begin());
    std::string head = l.substr(0, at + leaf.size()) + " " + v.new_text;
    const size_t comment_col = std::max<size_t>(head.size() + 1, hash != std::string::npos ? hash : 35);
    head.resize(comment_col, ' ');
    l = head + "# calibrated (see header); was " + v.old_text + (comment.empty() ? "" : ": " + comment);
  }
  size_t insert_at = 0;  // after the file's opening comment block
  while (insert_at < lines.size() && !lines[insert_at].empty() && lines[insert_at][0] == '#') ++insert_at;
  std::vector<std::string> block;
  for (const auto& h : header_lines) block.push_back("# " + h);
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(insert_at), block.begin(), block.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace gms
