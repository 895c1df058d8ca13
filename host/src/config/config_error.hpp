// config_error.hpp - an error in an experiment file, a --set override or a --param word, located as
// file:line:column.
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace gsdk::host {

class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// "file:line:column: message" for a node's source (overrides carry their own pseudo-file name).
inline std::string located(const toml::source_region& where, const std::string& message) {
  const std::string file = where.path ? *where.path : std::string("<config>");
  return fmt::format("{}:{}:{}: {}", file, where.begin.line, where.begin.column, message);
}

} // namespace gsdk::host
