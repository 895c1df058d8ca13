// command_line_document.hpp - an experiment document made from a command's options instead of a file (`gsdk perft`,
// `gsdk match`): each value is parsed from the text the user typed and located at its option, so the checks that
// read an experiment file read it too, each range checked in one place, and their messages name the option
// ("--games 0 (command line): 'games' in [match] = 0 is out of range ...").
#pragma once

#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace gsdk::host {

// `text` as a TOML string value, quoted so that any bytes (a board with quotes, a spec with '=') stay one string.
std::string toml_string(std::string_view text);

// Sets `key` of `table` to the TOML value `toml_text` (an integer's digits, toml_string(...), true), located at
// `origin` (command_line_origin(option, value)). Throws ConfigError naming `origin` when the text is not a value.
void set_option_value(toml::table& table, std::string_view key, const std::string& toml_text,
                      const std::string& origin);

// The same, appended to `array`.
void push_option_value(toml::array& array, const std::string& toml_text, const std::string& origin);

} // namespace gsdk::host
