// overrides.hpp - `--set section.key=value`: one change to an experiment document before it is checked.
#pragma once

#include <cstddef>
#include <string>

#include <toml++/toml.h>

namespace gsdk::host {

// Applies "a.b=value" to `doc`: the value parsed as TOML, or taken as a string when it is not valid TOML.
// The value and the keys it creates carry the location "--set[N]:1:column" (N = index + 1, columns of the
// override's own text), so an error in an override is located like an error in the file. Throws
// ConfigError for text without "key=" or a path through a value that is not a table.
void apply_override(toml::table& doc, const std::string& text, size_t index);

} // namespace gsdk::host
