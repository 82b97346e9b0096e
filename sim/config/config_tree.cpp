#include "config/config_tree.h"

#include "common/error.h"

namespace gms {

std::string SourceMark::where() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const ConfigNode* ConfigNode::find(std::string_view key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

const SourceMark* ConfigNode::key_mark(std::string_view key) const {
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].first == key) return &key_marks[i];
  return nullptr;
}

void ConfigNode::set_path(const std::string& dotted, const std::string& value, const SourceMark& at) {
  ConfigNode* node = this;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    std::string key = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) throw ConfigError(at.where() + ": empty key in '" + dotted + "'");
    if (node->kind == Kind::kNull) node->kind = Kind::kMap;
    if (node->kind != Kind::kMap)
      throw ConfigError(at.where() + ": '" + dotted + "' goes through a value that is not a map");
    ConfigNode* child = nullptr;
    for (auto& [k, v] : node->entries)
      if (k == key) child = &v;
    if (!child) {
      node->entries.push_back(ConfigNode::Entry{key, ConfigNode{}});
      node->key_marks.push_back(at);
      child = &node->entries.back().second;
    }
    if (dot == std::string::npos) {
      child->kind = Kind::kScalar;
      child->scalar = value;
      child->mark = at;
      child->entries.clear();
      child->items.clear();
      return;
    }
    node = child;
    start = dot + 1;
  }
}

}  // namespace gms
