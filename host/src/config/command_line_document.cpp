// command_line_document.cpp - values of an experiment document typed on the command line (command_line_document.hpp).
#include "config/command_line_document.hpp"

#include <sstream>

#include <fmt/format.h>

#include "config/config_error.hpp"
#include "config/toml_reader.hpp"

namespace gsdk::host {

namespace {

// The value of "v = <toml_text>", parsed with `origin` as its source: toml++ has no setter for a node's source, and
// a node keeps the one it was parsed with when it is moved into another table or array.
toml::table parsed_value(const std::string& toml_text, const std::string& origin) {
  try {
    return parse_toml("v = " + toml_text, origin);
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}: not a value: {}", origin, e.description()));
  }
}

} // namespace

std::string toml_string(std::string_view text) {
  std::ostringstream quoted;
  quoted << toml::toml_formatter(toml::value<std::string>(std::string(text)));
  return quoted.str();
}

void set_option_value(toml::table& table, std::string_view key, const std::string& toml_text,
                      const std::string& origin) {
  toml::table parsed = parsed_value(toml_text, origin);
  table.insert_or_assign(key, std::move(*parsed.get("v")));
}

void push_option_value(toml::array& array, const std::string& toml_text, const std::string& origin) {
  toml::table parsed = parsed_value(toml_text, origin);
  array.push_back(std::move(*parsed.get("v")));
}

} // namespace gsdk::host
