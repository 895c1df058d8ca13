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

// A playout evaluator on the settings' device; `max_batch` sizes a CUDA evaluator's scratch.
std::unique_ptr<LeafEvaluator> make_evaluator(const GameInstance& game, const AgentSettings& settings,
                                              uint64_t max_batch);

// The budget of one move: its deadline (far away under a playout budget).
std::chrono::steady_clock::time_point move_deadline(const AgentSettings& settings);

// "playouts=N" or "time=S s", for describe().
std::string budget_text(const AgentSettings& settings);

// `settings` with the budget of Agent::set_move_time applied: seconds = move_time when that is above 0.
AgentSettings with_move_time(const AgentSettings& settings, double move_time);

} // namespace gsdk::core
