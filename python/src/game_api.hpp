// game_api.hpp - gsdk._gsdk.Game and gsdk._gsdk.State: any plugin's per-state rules from Python, in OpenSpiel's
// shape (new_initial_state, legal_actions, apply_action, clone, returns, ...), so a search can be written in Python.
// A state is its bytes and a shared reference to the loaded game, so states outlive the Game object they came from.
// Actions are the game's move codes where it has them (gsdk.move_codes.v1, the VectorEnv's actions), else the
// plugin's own move numbers; every action a caller passes is checked against the state's legal moves first, so a
// plugin never sees an illegal move from Python.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "loaded_game.hpp"

namespace gsdk::python {

using SharedGame = std::shared_ptr<const LoadedGame>;

class PyState {
public:
  PyState(SharedGame game, core::StateBlob bytes) : game_(std::move(game)), bytes_(std::move(bytes)) {}

  int32_t current_player() const;
  bool is_terminal() const;
  bool is_chance_node() const;
  std::vector<uint32_t> legal_actions() const;
  std::vector<std::pair<uint32_t, double>> chance_outcomes() const;
  void apply_action(uint32_t action);
  std::string action_to_string(uint32_t action) const;
  std::vector<float> returns() const;
  int64_t score() const;
  pybind11::object observation_tensor() const;
  PyState clone() const { return *this; }
  std::string to_string() const;
  pybind11::bytes state_bytes() const;
  bool equals(const PyState& other) const { return game_ == other.game_ && bytes_ == other.bytes_; }
  size_t hash() const;

  const SharedGame& game() const { return game_; }
  const core::StateBlob& bytes() const { return bytes_; }
  // The plugin's move of a legal action; std::invalid_argument naming `who`, the action and the legal ones else.
  uint32_t move_of_action(uint32_t action, const char* who) const;
  // The action of one of the state's legal moves.
  uint32_t action_of_move(uint32_t move) const;

private:
  struct Moves {
    std::vector<uint32_t> moves;
    std::vector<uint32_t> actions;
    std::vector<double> probabilities;
  };
  const core::GameInstance& instance() const { return game_->instance(); }
  Moves moves() const;

  SharedGame game_;
  core::StateBlob bytes_;
};

class PyGame {
public:
  PyGame(const std::string& name, const std::string& params_json, const std::vector<std::string>& plugin_dirs);

  PyState new_initial_state() const { return {game_, instance().initial_state()}; }
  PyState state_from_string(const std::string& text) const { return {game_, instance().state_from_string(text)}; }
  std::string name() const { return instance().game().name; }
  std::string description() const { return instance().game().description; }
  uint32_t num_players() const { return instance().game().player_count; }
  uint32_t max_moves() const { return instance().max_moves(); }
  std::pair<int64_t, int64_t> score_range() const { return instance().score_range(); }
  pybind11::object num_distinct_actions() const;
  const SharedGame& shared() const { return game_; }

private:
  const core::GameInstance& instance() const { return game_->instance(); }
  SharedGame game_;
};

void bind_game_api(pybind11::module_& m);

} // namespace gsdk::python
