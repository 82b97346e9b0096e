#pragma once
// Template bodies of param.h (kept apart so the declarations read cleanly).
#include <set>
#include <sstream>

#include "common/error.h"

namespace gms {

template <class Cfg>
std::string Param<Cfg>::unit() const {
  switch (kind) {
    case ParamKind::kQuantity: return quantity_unit(quantity);
    case ParamKind::kBool: return "bool";
    case ParamKind::kString: return "text";
    case ParamKind::kChoice: return "choice";
  }
  return "";
}

template <class Cfg>
std::string Param<Cfg>::type_name() const {
  if (kind == ParamKind::kChoice) {
    std::string out;
    for (const auto& c : choices) out += (out.empty() ? "" : " | ") + c;
    return out;
  }
  return unit();
}

template <class Cfg>
std::string Param<Cfg>::format(const Cfg& c) const {
  if (kind == ParamKind::kQuantity) return format_quantity(get_number(c), quantity);
  return get_text(c);
}

namespace detail {

template <class Cfg>
void apply_scalar(const Param<Cfg>& p, Cfg& cfg, const std::string& text, const std::string& where,
                  const std::string& schema_name) {
  auto fail = [&](const std::string& why) {
    throw ConfigError(where + ": " + schema_name + " key '" + p.path + "': " + why);
  };
  switch (p.kind) {
    case ParamKind::kQuantity: {
      std::string why;
      auto v = parse_quantity(text, p.quantity, &why);
      if (!v) fail(why);
      if (p.min <= p.max && (*v < p.min || *v > p.max)) {
        std::ostringstream os;
        os << "value " << text << " is out of range [" << format_quantity(p.min, p.quantity) << ", "
           << format_quantity(p.max, p.quantity) << "]";
        fail(os.str());
      }
      p.set_number(cfg, *v);
      break;
    }
    case ParamKind::kBool:
      if (text == "true" || text == "yes" || text == "on")
        p.set_text(cfg, "true");
      else if (text == "false" || text == "no" || text == "off")
        p.set_text(cfg, "false");
      else
        fail("'" + text + "' is not a boolean (true/false)");
      break;
    case ParamKind::kString: p.set_text(cfg, text); break;
    case ParamKind::kChoice: {
      for (const auto& c : p.choices)
        if (c == text) {
          p.set_text(cfg, text);
          return;
        }
      std::string hint = did_you_mean(text, p.choices);
      std::string list;
      for (const auto& c : p.choices) list += (list.empty() ? "" : ", ") + c;
      fail("'" + text + "' is not one of " + list + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
  }
}

template <class Cfg>
void walk(const Schema<Cfg>& schema, const ConfigNode& node, const std::string& prefix, Bound<Cfg>& out,
          std::set<std::string>& seen, const std::vector<std::string>& ignored) {
  for (size_t i = 0; i < node.entries.size(); ++i) {
    const auto& [key, child] = node.entries[i];
    const SourceMark& kmark = node.key_marks[i];
    std::string path = prefix.empty() ? key : prefix + "." + key;
    if (prefix.empty() && std::find(ignored.begin(), ignored.end(), key) != ignored.end()) continue;
    const Param<Cfg>* param = nullptr;
    bool is_group = false;
    for (const auto& p : schema.params) {
      if (p.path == path) param = &p;
      if (p.path.size() > path.size() && p.path.compare(0, path.size() + 1, path + ".") == 0) is_group = true;
    }
    if (!param && !is_group) {
      std::vector<std::string> siblings, full;
      std::set<std::string> uniq;
      for (const auto& p : schema.params) {
        full.push_back(p.path);
        if (p.path.compare(0, prefix.size(), prefix) == 0 && (prefix.empty() || p.path[prefix.size()] == '.')) {
          std::string rest = p.path.substr(prefix.empty() ? 0 : prefix.size() + 1);
          std::string head = rest.substr(0, rest.find('.'));
          if (uniq.insert(head).second) siblings.push_back(prefix.empty() ? head : prefix + "." + head);
        }
      }
      // Keys the caller reads itself are known keys too: a typo of one is still a near miss.
      if (prefix.empty()) siblings.insert(siblings.end(), ignored.begin(), ignored.end());
      std::string hint = did_you_mean(path, siblings);
      if (hint.empty()) hint = did_you_mean(path, full);
      throw ConfigError(kmark.where() + ": unknown " + schema.name + " key '" + path + "'" +
                        (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    if (is_group) {
      if (child.kind != ConfigNode::Kind::kMap)
        throw ConfigError(child.mark.where() + ": " + schema.name + " key '" + path + "' must be a map of keys");
      walk(schema, child, path, out, seen, ignored);
      continue;
    }
    if (child.kind != ConfigNode::Kind::kScalar)
      throw ConfigError(child.mark.where() + ": " + schema.name + " key '" + path + "' needs a single value" +
                        (param->kind == ParamKind::kQuantity ? std::string(" in ") + quantity_unit(param->quantity)
                                                             : std::string()));
    apply_scalar(*param, out.value, child.scalar, child.mark.where(), schema.name);
    out.origins[path] = child.mark;
    seen.insert(path);
  }
}

}  // namespace detail

template <class Cfg>
Bound<Cfg> bind(const Schema<Cfg>& schema, const ConfigNode& doc, const std::vector<std::string>& ignored) {
  Bound<Cfg> out;
  for (const auto& p : schema.params) {
    if (p.default_text.empty() && p.kind != ParamKind::kString) continue;
    detail::apply_scalar(p, out.value, p.default_text, "default", schema.name);
    out.origins[p.path] = SourceMark{"default", 0, 0};
  }
  std::set<std::string> seen;
  detail::walk(schema, doc, "", out, seen, ignored);
  for (const auto& p : schema.params)
    if (p.required && !seen.count(p.path))
      throw ConfigError(doc.mark.file + ": " + schema.name + " key '" + p.path + "' is required (" +
                        p.description + ")");
  return out;
}

template <class Cfg>
std::string render_yaml(const Schema<Cfg>& schema, const Cfg& cfg) {
  std::ostringstream os;
  std::vector<std::string> open;  // currently open map path components
  for (const auto& p : schema.params) {
    std::vector<std::string> parts;
    std::stringstream ss(p.path);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    size_t common = 0;
    while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common]) ++common;
    open.resize(common);
    for (size_t i = common; i + 1 < parts.size(); ++i) {
      os << std::string(2 * i, ' ') << parts[i] << ":\n";
      open.push_back(parts[i]);
    }
    std::string value = p.format(cfg);
    bool quote = value.empty() || value.find_first_of(":#{}[],&*!|>'\"%@`") != std::string::npos;
    os << std::string(2 * (parts.size() - 1), ' ') << parts.back() << ": " << (quote ? "\"" + value + "\"" : value)
       << "\n";
  }
  return os.str();
}

template <class Cfg>
std::string render_docs_markdown(const Schema<Cfg>& schema) {
  std::ostringstream os;
  os << "| key | type / unit | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const auto& p : schema.params) {
    std::string range;
    if (p.kind == ParamKind::kQuantity && p.min <= p.max)
      range = format_quantity(p.min, p.quantity) + " .. " + format_quantity(p.max, p.quantity);
    std::string def = p.required ? "(required)" : p.default_text;
    std::string type = p.type_name();
    for (auto& c : type)
      if (c == '|') c = '/';
    os << "| `" << p.path << "` | " << type << " | " << (def.empty() ? "\"\"" : def) << " | " << range << " | "
       << p.description << " |\n";
  }
  return os.str();
}

}  // namespace gms
