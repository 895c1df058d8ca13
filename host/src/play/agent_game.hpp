// agent_game.hpp - the game instance an agent searches with. By default the match's own; an agent spec's
// `param.NAME=VALUE` items give the agent its own values of some game parameters, for parameters that
// change how the agent plays (its playouts) and not the rules, e.g. one agent with exact endgame
// playouts against another without.
#pragma once

#include <memory>
#include <string>

#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"

namespace gsdk::host {

class AgentGame {
public:
  // The match's game with the spec's parameters applied over the match's values. Throws
  // std::invalid_argument naming the spec for an unknown parameter, a bad value, or values that change
  // the game's states or moves (which the agent would then not understand).
  AgentGame(const core::GameInstance& match_game, const std::string& spec);

  const core::GameInstance& game() const { return own_ ? *own_ : match_game_; }

private:
  const core::GameInstance& match_game_;
  ResolvedParams params_; // owns the strings own_'s values point to
  std::unique_ptr<core::GameInstance> own_;
};

} // namespace gsdk::host
