// config_error.hpp - an error in an experiment file or a --set override, located as file:line:column.
#pragma once

#include <stdexcept>
#include <string>

#include <toml++/toml.h>

namespace gsdk::host {

class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// "file:line:column: message" for a node's source (overrides carry their own pseudo-file name).
std::string located(const toml::source_region& where, const std::string& message);

} // namespace gsdk::host
