// agent_api.cpp - gsdk._gsdk.Agent: the core's agents (random, flat Monte Carlo, UCT, alpha-beta) on gsdk.State
// objects, made from the CLI's agent specs ("uct:playouts=2000", "alphabeta:depth=4"), so a search written in Python
// can play against them. The agent keeps its own tree between moves, as in `gsdk match`: it is told every action
// played (observe_action), its own included. A search runs without the GIL, and Ctrl-C stops it
// (KeyboardInterrupt) as SIGINT stops a match; the agent is then made afresh (a raised stop request cannot be
// lowered), with the seed of its game and without its tree.
#include "agent_api.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "game_api.hpp"
#include "gsdk/core/agents/agents.hpp"
#include "interruptible_call.hpp"
#include "play/agent_game.hpp"
#include "play/agent_spec.hpp"

namespace gsdk::python {

namespace py = pybind11;

namespace {

class PyAgent {
public:
  PyAgent(const PyGame& game, const std::string& spec, uint64_t seed)
      : game_(game.shared()), agent_game_(game_->instance(), spec), settings_(host::parse_agent_spec(spec)) {
    start(seed);
  }

  uint32_t choose_action(const PyState& state) {
    require_own(state, "choose_action");
    if (state.is_terminal() || state.is_chance_node())
      throw std::invalid_argument(fmt::format("choose_action: no player is to move in {}", state.to_string()));
    if (stop_->requested()) start(seed_);
    uint32_t move = 0;
    call_interruptibly([&] { move = agent_->choose_move(state.bytes()); }, *stop_);
    return state.action_of_move(move);
  }

  void observe_action(const PyState& before, uint32_t action) {
    require_own(before, "observe_action");
    agent_->observe_move(before.bytes(), before.move_of_action(action, "observe_action"));
  }

  void new_game(uint64_t seed) {
    seed_ = seed;
    agent_->new_game(seed);
  }
  std::string describe() const { return agent_->describe(); }

  py::dict last_move() const {
    const core::MoveStats& s = agent_->last_move();
    py::dict stats;
    stats["playouts"] = s.playouts;
    stats["nodes"] = s.nodes;
    stats["seconds"] = s.seconds;
    stats["depth"] = s.depth;
    stats["value"] = s.value;
    return stats;
  }

private:
  void start(uint64_t seed) {
    stop_ = std::make_unique<core::StopRequest>();
    settings_.stop = stop_.get();
    agent_ = core::make_agent(agent_game_.game(), settings_);
    new_game(seed);
  }

  // A state of another loaded game (even of the same name) may have other parameters, so it is refused.
  void require_own(const PyState& state, const char* who) const {
    if (state.game() != game_)
      throw std::invalid_argument(fmt::format("{}: the state belongs to another gsdk.Game than the agent's", who));
  }

  SharedGame game_;
  host::AgentGame agent_game_;
  core::AgentSettings settings_;
  std::unique_ptr<core::StopRequest> stop_;
  std::unique_ptr<core::Agent> agent_;
  uint64_t seed_ = 0;
};

} // namespace

void bind_agent_api(py::module_& m) {
  py::class_<PyAgent>(m, "Agent")
      .def(py::init<const PyGame&, const std::string&, uint64_t>(), py::arg("game"), py::arg("spec"),
           py::arg("seed"))
      .def("choose_action", &PyAgent::choose_action, py::arg("state"),
           "the agent's action for the player to move in `state` (a State of the agent's Game)")
      .def("observe_action", &PyAgent::observe_action, py::arg("before"), py::arg("action"),
           "tells the agent an action played from `before` (either side's, chance outcomes included), so it can "
           "keep its tree")
      .def("new_game", &PyAgent::new_game, py::arg("seed"), "forgets every earlier game and reseeds")
      .def("describe", &PyAgent::describe, "the agent and its settings, as `gsdk match` reports them")
      .def("last_move", &PyAgent::last_move,
           "what the last choose_action spent: playouts, nodes, seconds, depth, value (alpha-beta's, to the mover)");
}

} // namespace gsdk::python
