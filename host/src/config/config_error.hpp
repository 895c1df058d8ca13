// config_error.hpp - an error in an experiment file, a --set override or a --param word, located as
// file:line:column.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace gsdk::host {

class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The pseudo-file name of a value given by a command-line option ("--device cpu (command line)"): errors
// about it name the option as typed, without a line and column that would mean nothing to the user.
inline std::string command_line_origin(const std::string& option, const std::string& value) {
  return fmt::format("{} {} (command line)", option, value);
}

// "file:line:column: message" for a node's source (overrides carry their own pseudo-file name; an option's
// value, command_line_origin's, is named alone).
inline std::string located(const toml::source_region& where, const std::string& message) {
  // A node made in memory (replay's parameters from a results file) has no source; its caller says where.
  if (!where.path && where.begin.line == 0) return message;
  const std::string file = where.path ? *where.path : std::string("<config>");
  if (file.ends_with(" (command line)")) return fmt::format("{}: {}", file, message);
  return fmt::format("{}:{}:{}: {}", file, where.begin.line, where.begin.column, message);
}

// An error about a value read earlier and refused later (by the game, or by the run): located at the value (`where`,
// its node's source()), or "file: message" at the experiment's `file` when the file does not hold it (a default).
inline std::string located_or_file(const std::optional<toml::source_region>& where, const std::string& file,
                                   const std::string& message) {
  return where ? located(*where, message) : fmt::format("{}: {}", file, message);
}

} // namespace gsdk::host
