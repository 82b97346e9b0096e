// The one translation unit that includes yaml-cpp. Everything else sees ConfigNode.
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "common/error.h"
#include "config/config_tree.h"

namespace gms {
namespace {

SourceMark mark_of(const YAML::Mark& m, const std::string& file) {
  return SourceMark{file, m.line + 1, m.column + 1};
}

// Lookups go through const nodes only: yaml-cpp's non-const operator[] inserts keys.
ConfigNode convert(const YAML::Node& in, const std::string& file) {
  ConfigNode out;
  out.mark = mark_of(in.Mark(), file);
  switch (in.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: out.kind = ConfigNode::Kind::kNull; break;
    case YAML::NodeType::Scalar:
      out.kind = ConfigNode::Kind::kScalar;
      out.scalar = in.Scalar();
      break;
    case YAML::NodeType::Sequence:
      out.kind = ConfigNode::Kind::kSeq;
      for (const auto& item : in) out.items.push_back(convert(item, file));
      break;
    case YAML::NodeType::Map:
      out.kind = ConfigNode::Kind::kMap;
      for (const auto& kv : in) {
        const YAML::Node& key = kv.first;
        if (!key.IsScalar())
          throw ConfigError(mark_of(key.Mark(), file).where() + ": map keys must be plain names");
        std::string name = key.Scalar();
        if (out.find(name))
          throw ConfigError(mark_of(key.Mark(), file).where() + ": key '" + name + "' appears twice");
        out.entries.push_back(ConfigNode::Entry{name, convert(kv.second, file)});
        out.key_marks.push_back(mark_of(key.Mark(), file));
      }
      break;
  }
  return out;
}

ConfigNode parse(const std::string& text, const std::string& name) {
  try {
    const YAML::Node root = YAML::Load(text);
    ConfigNode node = convert(root, name);
    if (node.kind == ConfigNode::Kind::kNull) throw ConfigError(name + ": the document is empty");
    if (node.kind != ConfigNode::Kind::kMap)
      throw ConfigError(node.mark.where() + ": the document must be a map of keys");
    return node;
  } catch (const YAML::Exception& e) {
    throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                      ": malformed YAML: " + e.msg);
  }
}

}  // namespace

ConfigNode read_yaml_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open file");
  std::stringstream buf;
  buf << in.rdbuf();
  return parse(buf.str(), path);
}

ConfigNode read_yaml_text(const std::string& text, const std::string& name) { return parse(text, name); }

}  // namespace gms
