// game_params.cpp - validation of game parameters against the plugin's declarations.
#include "plugin_loading/game_params.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/config_error.hpp"
#include "config/quoted_value.hpp"
#include "config/toml_reader.hpp"
#include "report/near_miss.hpp"

namespace gsdk::host {

namespace {

const char* param_type_name(int32_t type) {
  switch (type) {
  case GSDK_PARAM_INT:
    return "an integer";
  case GSDK_PARAM_REAL:
    return "a number";
  case GSDK_PARAM_BOOL:
    return "a boolean";
  default:
    return "a string";
  }
}

} // namespace

ResolvedParams resolve_params(const gsdk_game& game, const toml::table& params) {
  ResolvedParams out;
  std::vector<std::string> names;
  for (uint32_t i = 0; i < game.param_count; ++i) names.emplace_back(game.params[i].name);
  const std::string valid = names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "));
  for (const auto& [key, node] : params) {
    bool known = false;
    for (uint32_t i = 0; i < game.param_count; ++i) known = known || key.str() == game.params[i].name;
    if (!known)
      throw ConfigError(located(key.source(), fmt::format("game '{}' has no parameter {}{}; valid parameters: {}",
                                                          game.name, quote_value(key.str(), '\''),
                                                          did_you_mean(std::string(key.str()), names), valid)));
  }
  for (uint32_t i = 0; i < game.param_count; ++i) {
    const gsdk_param_desc& d = game.params[i];
    gsdk_param_value v{};
    v.name = d.name;
    v.type = d.type;
    v.int_value = d.default_int;
    v.real_value = d.default_real;
    v.string_value = d.default_string;
    if (const toml::node* n = params.get(d.name)) {
      const auto wrong = [&] {
        return ConfigError(located(n->source(), fmt::format("parameter '{}' of game '{}' must be {}", d.name, game.name,
                                                            param_type_name(d.type))));
      };
      switch (d.type) {
      case GSDK_PARAM_INT:
        if (!n->is_integer()) throw wrong();
        v.int_value = n->as_integer()->get();
        break;
      case GSDK_PARAM_REAL:
        if (!n->is_number()) throw wrong();
        v.real_value = n->is_integer() ? static_cast<double>(n->as_integer()->get()) : n->as_floating_point()->get();
        break;
      case GSDK_PARAM_BOOL:
        if (!n->is_boolean()) throw wrong();
        v.int_value = n->as_boolean()->get() ? 1 : 0;
        break;
      default:
        if (!n->is_string()) throw wrong();
        out.strings.push_back(n->as_string()->get());
        v.string_value = out.strings.back().c_str();
      }
      const double numeric = d.type == GSDK_PARAM_REAL ? v.real_value : static_cast<double>(v.int_value);
      if ((d.type == GSDK_PARAM_INT || d.type == GSDK_PARAM_REAL) && (numeric < d.min_value || numeric > d.max_value))
        throw ConfigError(located(n->source(), fmt::format("parameter '{}' of game '{}' = {} is out of range [{}, {}]",
                                                           d.name, game.name, numeric, d.min_value, d.max_value)));
    }
    switch (d.type) {
    case GSDK_PARAM_INT:
      out.as_json[d.name] = v.int_value;
      break;
    case GSDK_PARAM_REAL:
      out.as_json[d.name] = v.real_value;
      break;
    case GSDK_PARAM_BOOL:
      out.as_json[d.name] = v.int_value != 0;
      break;
    default:
      out.as_json[d.name] = v.string_value ? v.string_value : "";
    }
    out.values.push_back(v);
  }
  if (out.as_json.is_null()) out.as_json = nlohmann::json::object();
  return out;
}

toml::table params_from_assignments(const std::vector<std::string>& assignments, const std::string& source_name) {
  toml::table params;
  for (size_t i = 0; i < assignments.size(); ++i) {
    const std::string& word = assignments[i];
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError(fmt::format("{} {}: expected name=value, e.g. stones=15", source_name, quote_value(word)));
    const std::string source = fmt::format("{}[{}]", source_name, i + 1);
    // Parsed as the TOML line "name=value" itself, so keys and values keep the word's columns.
    const std::string name = word.substr(0, eq);
    std::string quoted = "\"";
    for (char ch : word.substr(eq + 1))
      quoted += (ch == '"' || ch == '\\') ? std::string("\\") + ch : std::string(1, ch);
    toml::table parsed;
    try {
      parsed = parse_toml(word, source);
    } catch (const toml::parse_error&) {
      try {
        parsed = parse_toml(name + "=" + quoted + "\"", source);
      } catch (const toml::parse_error& e) {
        throw ConfigError(located(e.source(), fmt::format("{} is not a parameter name", quote_value(name, '\''))));
      }
    }
    for (auto&& [key, value] : parsed) params.insert_or_assign(key, std::move(value));
  }
  return params;
}

} // namespace gsdk::host
