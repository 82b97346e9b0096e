#pragma once
// Every configuration parameter is declared once, here-shaped: dotted path, kind, default, unit,
// range and meaning. The same declaration drives parsing, unknown-key rejection, `config show`,
// `config docs` and the resolved configuration written into stats.json.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/units.h"
#include "config/config_tree.h"

namespace gms {

enum class ParamKind { kQuantity, kBool, kString, kChoice };

template <class Cfg>
struct Param {
  std::string path;
  ParamKind kind = ParamKind::kQuantity;
  Quantity quantity = Quantity::kInteger;
  std::string default_text;  // parsed like user input; empty + required => must be given
  bool required = false;
  double min = 0, max = 0;  // inclusive range for quantities; min > max disables the check
  std::vector<std::string> choices;
  std::string description;
  std::function<void(Cfg&, double)> set_number;
  std::function<double(const Cfg&)> get_number;
  std::function<void(Cfg&, const std::string&)> set_text;  // kBool uses "true"/"false"
  std::function<std::string(const Cfg&)> get_text;

  std::string unit() const;
  std::string type_name() const;
  std::string format(const Cfg& c) const;  // value as a user would write it
};

template <class Cfg>
struct Schema {
  std::string name;  // "gpu", "workload(gemm)", ... used in messages
  std::vector<Param<Cfg>> params;
};

// Where each resolved value came from (file:line:col, "--set", or "default").
using Origins = std::map<std::string, SourceMark>;

template <class Cfg>
struct Bound {
  Cfg value{};
  Origins origins;
};

// ---- declaration helpers ---------------------------------------------------------------------
// The upper bound of a size that has none of its own (a matrix extent, a CTA limit).
inline constexpr double kUnboundedCount = 1e15;

// `access` is a captureless lambda returning a reference to the field: [](Cfg& c) -> auto& {...}.
template <class Cfg, class Access>
Param<Cfg> quantity_param(std::string path, Quantity q, std::string def, double min, double max,
                          std::string desc, Access access) {
  Param<Cfg> p;
  p.path = std::move(path);
  p.kind = ParamKind::kQuantity;
  p.quantity = q;
  p.required = def.empty();
  p.default_text = std::move(def);
  p.min = min;
  p.max = max;
  p.description = std::move(desc);
  p.set_number = [access](Cfg& c, double v) {
    auto& field = access(c);
    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
  };
  p.get_number = [access](const Cfg& c) { return static_cast<double>(access(const_cast<Cfg&>(c))); };
  return p;
}

template <class Cfg, class Access>
Param<Cfg> bool_param(std::string path, bool def, std::string desc, Access access) {
  Param<Cfg> p;
  p.path = std::move(path);
  p.kind = ParamKind::kBool;
  p.default_text = def ? "true" : "false";
  p.description = std::move(desc);
  p.set_text = [access](Cfg& c, const std::string& v) { access(c) = (v == "true"); };
  p.get_text = [access](const Cfg& c) { return std::string(access(const_cast<Cfg&>(c)) ? "true" : "false"); };
  return p;
}

template <class Cfg, class Access>
Param<Cfg> text_param(std::string path, std::string def, bool required, std::string desc, Access access) {
  Param<Cfg> p;
  p.path = std::move(path);
  p.kind = ParamKind::kString;
  p.default_text = std::move(def);
  p.required = required;
  p.description = std::move(desc);
  p.set_text = [access](Cfg& c, const std::string& v) { access(c) = v; };
  p.get_text = [access](const Cfg& c) { return access(const_cast<Cfg&>(c)); };
  return p;
}

template <class Cfg, class Access>
Param<Cfg> choice_param(std::string path, std::vector<std::string> choices, std::string def, std::string desc,
                        Access access) {
  Param<Cfg> p = text_param<Cfg>(std::move(path), std::move(def), false, std::move(desc), access);
  p.kind = ParamKind::kChoice;
  p.choices = std::move(choices);
  return p;
}

// ---- binding -------------------------------------------------------------------------------------
// Applies defaults, then every scalar of `doc` (whose root is the schema's root), rejecting unknown
// keys with a did-you-mean. Throws ConfigError naming file:line:col and the key.
template <class Cfg>
Bound<Cfg> bind(const Schema<Cfg>& schema, const ConfigNode& doc, const std::vector<std::string>& ignored_keys = {});

// Closest candidate by edit distance, or "" when nothing is close.
std::string did_you_mean(const std::string& key, const std::vector<std::string>& candidates);

// Human/JSON renderings of a bound configuration.
template <class Cfg>
std::string render_yaml(const Schema<Cfg>& schema, const Cfg& cfg);
template <class Cfg>
std::string render_docs_markdown(const Schema<Cfg>& schema);

// Error location for a key: its origin if known, else the document name.
std::string where(const Origins& origins, const std::string& path, const std::string& fallback);

}  // namespace gms

#include "config/param_impl.h"
