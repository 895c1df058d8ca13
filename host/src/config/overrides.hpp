// overrides.hpp - `--set section.key=value`: one change to an experiment document before it is checked.
#pragma once

#include <cstddef>
#include <string>

#include <toml++/toml.h>

namespace gsdk::host {

// Applies "a.b=value" to `doc`: the value parsed as TOML, or taken as a string when it is not valid TOML.
// The value, the keys and the tables it creates carry the location "<origin>:1:column" (columns of the
// override's own text), so an error in an override is located like an error in the file; `origin` is
// "--set[N]" for the N-th --set, or command_line_origin(...) for an option such as --device. Throws
// ConfigError for text without "key=" or a path through a value that is not a table.
void apply_override(toml::table& doc, const std::string& text, const std::string& origin);

} // namespace gsdk::host
