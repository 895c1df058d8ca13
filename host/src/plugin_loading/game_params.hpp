// game_params.hpp - a config's [params] table checked against a game's declared parameters.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "gsdk/gsdk_plugin.h"

namespace gsdk::host {

struct ResolvedParams {
  std::vector<gsdk_param_value> values; // one per declared parameter, declaration order
  std::deque<std::string> strings;      // storage the values' string pointers refer to
  nlohmann::json as_json;               // name -> value, for results files
};

// Throws ConfigError (file:line:column) for unknown names (listing the valid ones), wrong types and
// out-of-range values; missing parameters take their defaults.
ResolvedParams resolve_params(const gsdk_game& game, const toml::table& params);

// Parameters given on a command line as "name=value" words (value in TOML syntax; text that is not
// valid TOML is taken as a string), located as "--param[N]:1:column" (or another source name) so that
// resolve_params' messages point into the word. Throws ConfigError for a word without "name=".
toml::table params_from_assignments(const std::vector<std::string>& assignments,
                                    const std::string& source_name = "--param");

} // namespace gsdk::host
