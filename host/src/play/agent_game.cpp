// agent_game.cpp - an agent's own game instance from its spec's param.NAME=VALUE items.
#include "play/agent_game.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "config/config_error.hpp"
#include "play/agent_spec.hpp"

namespace gsdk::host {

namespace {

// The instance's values as a TOML table, so that the spec's items can be laid over them and the result
// checked like any other parameters.
toml::table params_table(const core::GameInstance& game) {
  toml::table table;
  for (const gsdk_param_value& v : game.values()) {
    switch (v.type) {
    case GSDK_PARAM_INT:
      table.insert(v.name, v.int_value);
      break;
    case GSDK_PARAM_REAL:
      table.insert(v.name, v.real_value);
      break;
    case GSDK_PARAM_BOOL:
      table.insert(v.name, v.int_value != 0);
      break;
    default:
      table.insert(v.name, std::string(v.string_value ? v.string_value : ""));
    }
  }
  return table;
}

} // namespace

AgentGame::AgentGame(const core::GameInstance& match_game, const std::string& spec) : match_game_(match_game) {
  const std::vector<std::string> assignments = agent_param_assignments(spec);
  if (assignments.empty()) return;
  toml::table table = params_table(match_game);
  try {
    const toml::table own = params_from_assignments(assignments, "agent param");
    resolve_params(match_game.game(), own); // names, types and ranges, with the item's columns in messages
    for (auto&& [key, value] : own) table.insert_or_assign(key, value);
    params_ = resolve_params(match_game.game(), table);
  } catch (const ConfigError& e) {
    throw std::invalid_argument(fmt::format("agent spec '{}': {}", spec, e.what()));
  }
  own_ = std::make_unique<core::GameInstance>(match_game.tables(), params_.values);
  if (own_->state_size() != match_game.state_size() || own_->max_moves() != match_game.max_moves() ||
      own_->score_range() != match_game.score_range())
    throw std::invalid_argument(fmt::format("agent spec '{}': these parameters change the game's states, moves or "
                                            "scores; an agent's own parameters may change only how it plays",
                                            spec));
}

} // namespace gsdk::host
