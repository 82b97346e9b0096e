#pragma once
// A parsed configuration document, independent of the YAML library: maps, sequences and scalar
// text, each with the file:line:col it came from so that every later error can point at it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gms {

struct SourceMark {
  std::string file;  // a path, or "--set" for command-line overrides
  int line = 0;      // 1-based; 0 when unknown
  int col = 0;
  std::string where() const;  // "file:line:col" (or just "file")
};

class ConfigNode {
 public:
  enum class Kind { kNull, kScalar, kMap, kSeq };

  Kind kind = Kind::kNull;
  std::string scalar;
  SourceMark mark;
  // kMap, in document order. Its own type (not std::pair) so that the vector may hold the still
  // incomplete ConfigNode: clang with libstdc++ rejects a pair of an incomplete type.
  struct Entry;
  std::vector<Entry> entries;
  std::vector<SourceMark> key_marks;                        // kMap, parallel to entries
  std::vector<ConfigNode> items;                            // kSeq

  const ConfigNode* find(std::string_view key) const;
  const SourceMark* key_mark(std::string_view key) const;
  // Sets the scalar at a dotted path, creating maps on the way (used by --set overrides).
  void set_path(const std::string& dotted, const std::string& value, const SourceMark& mark);
};

struct ConfigNode::Entry {
  std::string first;  // the key
  ConfigNode second;  // the value
};

// The only entry points to the YAML library. Both throw ConfigError with file:line:col.
ConfigNode read_yaml_file(const std::string& path);
ConfigNode read_yaml_text(const std::string& text, const std::string& name);

}  // namespace gms
