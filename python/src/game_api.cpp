// game_api.cpp - gsdk._gsdk.Game and gsdk._gsdk.State over a loaded game's per-state table (game_api.hpp).
#include "game_api.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/stl.h>

#include "gsdk/core/environments/vector_env.hpp"
#include "gsdk/environments/step_rewards.hpp"
#include "numpy_buffers.hpp"

namespace gsdk::python {

namespace py = pybind11;

int32_t PyState::current_player() const { return instance().current_player(bytes_); }
bool PyState::is_terminal() const { return current_player() == GSDK_PLAYER_TERMINAL; }
bool PyState::is_chance_node() const { return current_player() == GSDK_PLAYER_CHANCE; }

std::vector<uint32_t> PyState::legal_actions() const {
  std::vector<uint32_t> actions = moves().actions;
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<std::pair<uint32_t, double>> PyState::chance_outcomes() const {
  if (!is_chance_node()) throw std::invalid_argument("chance_outcomes: the state is not a chance node");
  const Moves m = moves();
  std::vector<std::pair<uint32_t, double>> outcomes;
  for (size_t k = 0; k < m.actions.size(); ++k) outcomes.emplace_back(m.actions[k], m.probabilities[k]);
  std::sort(outcomes.begin(), outcomes.end());
  return outcomes;
}

uint32_t PyState::move_of_action(uint32_t action, const char* who) const {
  if (is_terminal())
    throw std::invalid_argument(fmt::format("{}({}): the game is over ({})", who, action, to_string()));
  const Moves m = moves();
  const auto found = std::find(m.actions.begin(), m.actions.end(), action);
  if (found != m.actions.end()) return m.moves[static_cast<size_t>(found - m.actions.begin())];
  std::vector<uint32_t> legal = m.actions;
  std::sort(legal.begin(), legal.end());
  throw std::invalid_argument(
      fmt::format("{}({}): not a legal action here; legal: [{}]", who, action, fmt::join(legal, ", ")));
}

uint32_t PyState::action_of_move(uint32_t move) const {
  const gsdk_move_codes* codes = instance().tables().move_codes;
  return codes ? codes->move_code(instance().handle(), bytes_.data(), move) : move;
}

void PyState::apply_action(uint32_t action) {
  instance().apply_move(bytes_, move_of_action(action, "apply_action"));
}

std::string PyState::action_to_string(uint32_t action) const {
  return instance().move_to_string(bytes_, move_of_action(action, "action_to_string"));
}

// Zero for every player until the game is over; then the VectorEnv's rewards of the last step.
std::vector<float> PyState::returns() const {
  std::vector<float> result(instance().game().player_count, 0.0f);
  if (is_terminal())
    gsdk::environments::write_step_rewards(true, instance().score(bytes_), instance().game().player_count,
                                           result.data());
  return result;
}

int64_t PyState::score() const { return instance().score(bytes_); }

py::object PyState::observation_tensor() const {
  const gsdk_observations* table = instance().tables().observations;
  if (!table) return numpy_copy(bytes_.data(), Element::uint8, {static_cast<py::ssize_t>(bytes_.size())});
  const core::ObservationLayout layout = core::observation_layout(instance()); // the VectorEnv's checks
  const std::vector<py::ssize_t> shape(layout.shape.begin(), layout.shape.end());
  const Element type = layout.type == core::ElementType::float32 ? Element::float32 : Element::uint8;
  auto out = std::make_shared<std::vector<unsigned char>>(layout.bytes);
  table->fill(instance().handle(), bytes_.data(), 1, out->data());
  const void* data = out->data();
  return numpy_view(std::move(out), data, type, shape);
}

std::string PyState::to_string() const { return instance().state_to_string(bytes_); }

py::bytes PyState::state_bytes() const { return {reinterpret_cast<const char*>(bytes_.data()), bytes_.size()}; }

size_t PyState::hash() const {
  return std::hash<std::string_view>{}({reinterpret_cast<const char*>(bytes_.data()), bytes_.size()});
}

PyState::Moves PyState::moves() const {
  Moves m;
  if (is_terminal()) return m;
  const core::GameInstance& g = instance();
  m.moves.resize(g.max_moves());
  m.probabilities.resize(g.max_moves());
  const uint32_t n = g.legal_moves(bytes_, m.moves.data(), m.probabilities.data());
  g.require_moves_in_live_state(bytes_, n);
  m.moves.resize(n);
  m.probabilities.resize(n);
  for (uint32_t move : m.moves) m.actions.push_back(action_of_move(move));
  return m;
}

PyGame::PyGame(const std::string& name, const std::string& params_json, const std::vector<std::string>& plugin_dirs)
    : game_(std::make_shared<const LoadedGame>(name, params_json, plugin_dirs, "load_game: ")) {}

py::object PyGame::num_distinct_actions() const {
  const gsdk_move_codes* codes = instance().tables().move_codes;
  if (!codes) return py::none();
  return py::int_(codes->code_count(instance().handle()));
}

void bind_game_api(py::module_& m) {
  m.attr("PLAYER_TERMINAL") = GSDK_PLAYER_TERMINAL;
  m.attr("PLAYER_CHANCE") = GSDK_PLAYER_CHANCE;
  py::class_<PyState>(m, "State")
      .def("current_player", &PyState::current_player,
           "the player to move (0 .. num_players-1), or gsdk.PLAYER_CHANCE at a chance node, gsdk.PLAYER_TERMINAL "
           "once the game is over")
      .def("is_terminal", &PyState::is_terminal, "whether the game is over")
      .def("is_chance_node", &PyState::is_chance_node, "whether chance moves next (chance_outcomes() lists how)")
      .def("legal_actions", &PyState::legal_actions,
           "the legal actions, ascending: move codes where the game has them (the VectorEnv's actions), else the "
           "plugin's move numbers; [] once the game is over")
      .def("chance_outcomes", &PyState::chance_outcomes, "[(action, probability)] of a chance node")
      .def("apply_action", &PyState::apply_action, py::arg("action"),
           "plays a legal action (a chance outcome at a chance node) in place; ValueError names the legal ones")
      .def("action_to_string", &PyState::action_to_string, py::arg("action"), "the game's name of a legal action")
      .def("returns", &PyState::returns,
           "per player, 0 until the game is over; then the score for one player, and for two +1/-1/0 by the sign "
           "of the score (player 0's outcome) and the opposite for player 1: the VectorEnv's rewards")
      .def("score", &PyState::score, "the game's score of the state (player 0's, e.g. Othello's disc difference)")
      .def("observation_tensor", &PyState::observation_tensor,
           "the learner's view of the state as a numpy array: the game's observation (the VectorEnv's obs of one "
           "game), or the state's bytes for a game without one")
      .def("clone", &PyState::clone, "an independent copy")
      .def("serialize", &PyState::to_string,
           "the game's text form of the state, which Game.deserialize_state() reads back to the same state")
      .def("state_bytes", &PyState::state_bytes, "the state's bytes, as the plugin stores them")
      .def_property_readonly(
          "game_name", [](const PyState& s) { return std::string(s.game()->instance().game().name); },
          "the name of the state's game")
      .def("__str__", &PyState::to_string)
      .def("__repr__", [](const PyState& s) { return "<gsdk.State " + s.to_string() + ">"; })
      .def("__eq__", &PyState::equals)
      .def("__hash__", &PyState::hash)
      .def("__copy__", &PyState::clone)
      .def("__deepcopy__", [](const PyState& s, const py::object&) { return s.clone(); });
  py::class_<PyGame>(m, "Game")
      .def(py::init<const std::string&, const std::string&, const std::vector<std::string>&>(), py::arg("name"),
           py::arg("params_json"), py::arg("plugin_dirs"))
      .def("new_initial_state", &PyGame::new_initial_state, "the game's initial state")
      .def("deserialize_state", &PyGame::state_from_string, py::arg("text"),
           "the state of a text form (State.serialize(), or the game's own notation: a FEN for chess, 'start'); "
           "ValueError for text the game cannot read")
      .def_property_readonly("name", &PyGame::name)
      .def_property_readonly("description", &PyGame::description)
      .def_property_readonly("num_players", &PyGame::num_players)
      .def_property_readonly("max_moves", &PyGame::max_moves, "the most legal moves a state can have")
      .def_property_readonly("score_range", &PyGame::score_range, "(lowest, highest) score")
      .def_property_readonly("num_distinct_actions", &PyGame::num_distinct_actions,
                             "the number of move codes (actions are 0 .. n-1), or None for a game without them");
}

} // namespace gsdk::python
