// environment_tables.cpp - the minefield as a vectorised environment on the CPU: observations and batched steps
// (gsdk_plugin.h, ABI 1.11), by the step rule the CUDA kernels share (environment.hpp: walk).
#include <algorithm>
#include <cstring>
#include <string>

#include "gsdk/environments/step_rewards.hpp"
#include "minefield_game.hpp"

namespace minefield {

void Game::fill_observations(const State* states, uint32_t count, void* out) const noexcept {
  const size_t cells = board_.cell_count();
  auto* observation = static_cast<uint8_t*>(out);
  for (uint32_t k = 0; k < count; ++k, observation += 3 * cells) {
    std::memcpy(observation, board_planes_.data(), 2 * cells);
    std::fill_n(observation + 2 * cells, cells, uint8_t{0});
    observation[2 * cells + states[k].cell] = 1;
  }
}

void Game::step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                      int32_t* players, uint8_t* legal, State* final_states) const {
  for (uint32_t k = 0; k < count; ++k) {
    if (actions[k] >= kActions)
      throw gsdk::PluginError("minefield batched step: action " + std::to_string(actions[k]) + " of game " +
                              std::to_string(k) + " is not a move's code (expected 0 right, 1 down, 2 left or 3 up; "
                              "games 0.." + std::to_string(k) + " before it were stepped)");
    State& s = states[k];
    const WalkOutcome outcome = walk(environment_, s.cell, s.steps, actions[k]);
    gsdk::environments::write_step_rewards(outcome.ended, outcome.score, kPlayers, rewards + k);
    if (outcome.ended) {
      if (final_states) final_states[k] = s;
      initial_state(s);
    }
    terminated[k] = outcome.ended ? 1 : 0;
    players[k] = 0;
    std::fill_n(legal + size_t{k} * kActions, kActions, uint8_t{1});
  }
}

} // namespace minefield
