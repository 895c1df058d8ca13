// agent_kinds.hpp - the constructors make_agent chooses from (internal to the core).
#pragma once

#include <chrono>
#include <memory>

#include "gsdk/core/agents/agents.hpp"
#include "gsdk/core/agents/leaf_evaluator.hpp"

namespace gsdk::core {

std::unique_ptr<Agent> make_random_agent(const GameInstance& game);
std::unique_ptr<Agent> make_flat_monte_carlo_agent(const GameInstance& game, const AgentSettings& settings);
std::unique_ptr<Agent> make_uct_agent(const GameInstance& game, const AgentSettings& settings);
// Throws std::invalid_argument for a game without the evaluation table, with chance nodes, or without a bound.
std::unique_ptr<Agent> make_alphabeta_agent(const GameInstance& game, const AgentSettings& settings);

// A leaf evaluator on the settings' device (random playouts, or the game's evaluation for UCT's leaf_value);
// `max_batch` sizes a CUDA evaluator's scratch.
std::unique_ptr<LeafEvaluator> make_evaluator(const GameInstance& game, const AgentSettings& settings,
                                              uint64_t max_batch);

// The reward of an evaluation v is 1 / (1 + exp(-v / unit)); by default unit = scale / 16: the ABI makes the
// scale worth more than any evaluation, and at the scale the reward is then 1 - 1e-7 (a near-certain win), while
// a sixteenth of it, the size of a clear advantage in the games shipped, is worth 0.73.
inline constexpr double kScalesPerUnit = 16;
double evaluation_unit(const GameInstance& game, const AgentSettings& settings);

// The budget of one move: its deadline (far away under a playout budget).
std::chrono::steady_clock::time_point move_deadline(const AgentSettings& settings);

// "playouts=N" or "time=S s", for describe().
std::string budget_text(const AgentSettings& settings);

// `settings` with the budget of Agent::set_move_time applied: seconds = move_time when that is above 0.
AgentSettings with_move_time(const AgentSettings& settings, double move_time);

} // namespace gsdk::core
