// overrides.cpp - --set overrides applied to the parsed experiment document.
#include "config/overrides.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "config/config_error.hpp"
#include "config/quoted_value.hpp"
#include "config/toml_reader.hpp"

namespace gsdk::host {

void apply_override(toml::table& doc, const std::string& text, const std::string& origin) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set {}: expected key=value, e.g. playouts.count=1000", quote_value(text)));
  const std::string path = text.substr(0, eq);
  const std::string value_text = text.substr(eq + 1);
  const std::string& source = origin;
  // "v" padded to the key's width puts the value at the column it has in `text`.
  std::string prefix(eq + 1, ' ');
  prefix.front() = 'v';
  prefix.back() = '=';
  toml::table parsed;
  try {
    parsed = parse_toml(prefix + value_text, source);
  } catch (const toml::parse_error&) {
    std::string quoted = "\"";
    for (char ch : value_text) quoted += (ch == '"' || ch == '\\') ? std::string("\\") + ch : std::string(1, ch);
    try {
      parsed = parse_toml(prefix + quoted + "\"", source);
    } catch (const toml::parse_error&) {
      parsed = toml::table{{"v", value_text}};
    }
  }
  toml::table* target = &doc;
  std::vector<std::string> keys;
  std::vector<toml::source_region> key_sources;
  for (size_t begin = 0;;) {
    const size_t end = std::min(path.find('.', begin), path.size());
    keys.push_back(path.substr(begin, end - begin));
    toml::source_region where;
    where.begin = where.end = {1, static_cast<toml::source_index>(begin + 1)};
    where.path = std::make_shared<const std::string>(source);
    key_sources.push_back(std::move(where));
    if (end == path.size()) break;
    begin = end + 1;
  }
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    toml::node* child = target->get(keys[i]);
    if (!child) {
      // A table made by toml::parse carries a source (toml++ has no setter), so an error about the table
      // itself ("[run] does not apply ...") points at its key in the override, not at <config>:0:0.
      const size_t column = static_cast<size_t>(key_sources[i].begin.column - 1);
      toml::table made = parse_toml(std::string(column, ' ') + "[v]", source);
      target->insert(toml::key(keys[i], key_sources[i]), std::move(*made.get("v")));
      child = target->get(keys[i]);
    }
    if (!child->is_table())
      throw ConfigError(fmt::format("--set {}: {} is not a table", quote_value(text), quote_value(keys[i], '\'')));
    target = child->as_table();
  }
  target->insert_or_assign(toml::key(keys.back(), key_sources.back()), std::move(*parsed.get("v")));
}

} // namespace gsdk::host
