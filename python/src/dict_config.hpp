// dict_config.hpp - an experiment given to gsdk.run() as a dict: its TOML text, which the CLI's parser then reads
// as it reads a file, so a dict is checked and reported exactly as the same keys in a file are.
#pragma once

#include <string>

namespace gsdk::python {

// The name errors in a dict's experiment are located in ("<dict>:3:9: ...", lines of dict_as_toml's text).
inline constexpr const char* kDictSource = "<dict>";

// The TOML text of a dict serialised as JSON (json.dumps): tables for objects, arrays for lists, and strings,
// integers, floats and booleans as themselves. Throws host::ConfigError for a value TOML has no form of (None,
// an integer beyond 64 bits) naming its dotted key.
std::string dict_as_toml(const std::string& json_text);

} // namespace gsdk::python
