// minefield_test_util.hpp - helpers for the minefield tests: games from parameter values, and Q-learning
// requests that own their buffers.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "minefield_game.hpp"

namespace minefield::test {

struct GameParams {
  int64_t size = 46, agents = 512, mines = -1, map_seed = 1, step_limit = 1000;
};

inline std::unique_ptr<Game> make_game(const GameParams& p) {
  const gsdk_param_value values[] = {
      {"size", GSDK_PARAM_INT, 0, p.size, 0, nullptr},         {"agents", GSDK_PARAM_INT, 0, p.agents, 0, nullptr},
      {"mines", GSDK_PARAM_INT, 0, p.mines, 0, nullptr},       {"map_seed", GSDK_PARAM_INT, 0, p.map_seed, 0, nullptr},
      {"step_limit", GSDK_PARAM_INT, 0, p.step_limit, 0, nullptr}};
  return std::make_unique<Game>(gsdk::Params(values, 5));
}

// A request over environments [first, first + count) and episodes [first_episode, + episodes), with its
// tables, statistics and visit counts.
struct Training {
  Training(const Game& game, uint32_t environments, uint32_t episodes, uint32_t flags = 0, uint64_t seed = 9)
      : states(game.environment().state_count()),
        tables((flags & GSDK_QL_SHARED_TABLE ? 1 : environments) * uint64_t{states} * kActions, 0.0f),
        stats(uint64_t{environments} * episodes * GSDK_QL_STAT_COUNT, 0xffffffffu),
        visits(uint64_t{environments} * states, 0) {
    for (uint32_t k = 0; k < episodes; ++k) thresholds.push_back(static_cast<uint32_t>(4294967295.0 * std::pow(0.97, k)));
    request.header = {GSDK_TYPE_QLEARNING_REQUEST, sizeof request};
    request.seed = seed;
    request.environment_count = environments;
    request.episode_count = episodes;
    request.flags = flags;
    request.alpha = 0.5f;
    request.gamma = 0.9f;
    bind();
  }
  Training(const Training& o) : states(o.states), tables(o.tables), stats(o.stats), visits(o.visits),
                                thresholds(o.thresholds), request(o.request) { bind(); }

  void bind() {
    request.explore_thresholds = thresholds.data();
    request.q_tables = tables.data();
    request.episode_stats = stats.data();
    request.visits = visits.data();
  }
  uint32_t stat(uint32_t environment, uint32_t episode, int which) const {
    return stats[(uint64_t{environment} * request.episode_count + episode) * GSDK_QL_STAT_COUNT + which];
  }

  uint32_t states;
  std::vector<float> tables;
  std::vector<uint32_t> stats;
  std::vector<uint64_t> visits;
  std::vector<uint32_t> thresholds;
  gsdk_qlearning_request request{};
};

inline void train_on_cpu(const Game& game, Training& t) { gsdk::qlearning::train_cpu(game.environment(), t.request, game.start_states()); }

} // namespace minefield::test
