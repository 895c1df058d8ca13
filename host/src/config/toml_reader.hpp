// toml_reader.hpp - the one door through which TOML text (experiment files, --set values, --param words)
// reaches toml++: texts that toml++ 3.3.0 cannot read safely are refused first, with their line and column.
#pragma once

#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace gsdk::host {

// toml::parse(text, source), after a screen for the inputs on which Debian 12's toml++ (3.3.0) reaches
// __builtin_unreachable: a non-ASCII character where its lexer asks "is this whitespace?" (toml++ issues
// #190 and #295, fixed upstream in 2026 by pull request #305, after 3.3.0). Every such character is refused
// as a toml::parse_error located at it, so callers handle it like any other syntax error:
//   - outside strings and comments, where TOML 1.0 allows ASCII only (so the refusal loses no valid file), and
//     inside what only looks like a string: a quote within an unquoted value (`v = 1"§"`, which toml++ reads
//     ahead to the value's end) or right after a key;
//   - in a multi-line basic string, right after a backslash, or as the first character after a
//     line-ending backslash and the whitespace it removes (valid TOML that toml++ 3.3.0 cannot read).
toml::table parse_toml(std::string_view text, const std::string& source);

} // namespace gsdk::host
