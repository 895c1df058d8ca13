// agents.cpp - choosing and checking an agent's settings, shared helpers, the one-call move chooser.
#include "gsdk/core/agents/agents.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "agents/agent_kinds.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::core {

uint64_t derive_seed(uint64_t seed, uint64_t stream) {
  return rng::philox_block(seed, stream, 0)[0];
}

std::unique_ptr<LeafEvaluator> make_evaluator(const GameInstance& game, const AgentSettings& settings,
                                              uint64_t max_batch) {
  // The most states one UCT iteration evaluates: a node's every child per selection with evaluate_children.
  const uint64_t leaves = uint64_t{settings.batch} * (settings.evaluate_children ? game.max_moves() : 1);
  if (settings.kind == AgentKind::uct && settings.leaf_value != LeafValue::playout) {
    const uint64_t states = std::min<uint64_t>(leaves * settings.leaf, UINT32_MAX);
    const int device = settings.device == PlayoutDevice::cuda ? settings.gpu : -1;
    return make_evaluation_leaf_evaluator(game, settings.leaf_value == LeafValue::cutoff ? settings.cutoff_plies : 0,
                                          evaluation_unit(game, settings), device, static_cast<uint32_t>(states));
  }
  if (settings.device == PlayoutDevice::cuda)
    return make_cuda_evaluator(game, settings.gpu, max_batch,
                               static_cast<uint32_t>(std::min<uint64_t>(leaves, UINT32_MAX)));
  return make_cpu_evaluator(game);
}

double evaluation_unit(const GameInstance& game, const AgentSettings& settings) {
  if (settings.eval_unit > 0 || !game.tables().evaluation) return settings.eval_unit;
  const int32_t scale = game.tables().evaluation->scale(game.handle());
  if (scale < 1 || scale > (1 << 24))
    throw std::invalid_argument(
        fmt::format("game '{}' declares an evaluation scale of {}; expected 1 .. 2^24", game.game().name, scale));
  return scale / kScalesPerUnit;
}

std::chrono::steady_clock::time_point move_deadline(const AgentSettings& settings) {
  const auto now = std::chrono::steady_clock::now();
  if (settings.seconds <= 0) return std::chrono::steady_clock::time_point::max();
  return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(settings.seconds));
}

std::string budget_text(const AgentSettings& settings) {
  return settings.seconds > 0 ? fmt::format("time={} s", settings.seconds)
                              : fmt::format("playouts={}", settings.playouts);
}

AgentSettings with_move_time(const AgentSettings& settings, double move_time) {
  AgentSettings budget = settings;
  if (move_time > 0) budget.seconds = move_time;
  return budget;
}

std::unique_ptr<Agent> make_agent(const GameInstance& game, const AgentSettings& settings) {
  if (game.game().player_count != 2)
    throw std::invalid_argument(fmt::format("game '{}' has {} players; agents play two-player games", game.game().name,
                                            game.game().player_count));
  if (settings.kind == AgentKind::random) return make_random_agent(game);
  if (settings.kind == AgentKind::alphabeta) return make_alphabeta_agent(game, settings);
  if (settings.seconds <= 0 && settings.playouts == 0)
    throw std::invalid_argument("an agent's budget must be playouts >= 1 or time > 0");
  if (settings.leaf == 0) throw std::invalid_argument("leaf must be at least 1 playout");
  if (settings.kind == AgentKind::flat_monte_carlo) return make_flat_monte_carlo_agent(game, settings);
  if (settings.roots == 0) throw std::invalid_argument("roots must be at least 1");
  if (settings.batch == 0) throw std::invalid_argument("batch must be at least 1 leaf");
  if (settings.leaf_value == LeafValue::evaluation && settings.leaf > 1)
    throw std::invalid_argument(
        fmt::format("leaf_value=eval values a leaf by one evaluation; leaf must be 1, got {}", settings.leaf));
  return make_uct_agent(game, settings);
}

std::string choose_move_text(const GameInstance& game, const std::string& state_text, const AgentSettings& settings,
                             uint64_t seed) {
  const StateBlob state = game.state_from_string(state_text);
  const auto agent = make_agent(game, settings);
  agent->new_game(seed);
  return game.move_to_string(state, agent->choose_move(state));
}

} // namespace gsdk::core
