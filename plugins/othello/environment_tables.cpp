// environment_tables.cpp - othello's vectorised environment on the CPU: observations and batched steps
// (rules/environment.hpp), one game after another on the calling thread.
#include <string>

#include "othello_game.hpp"
#include "rules/board_text.hpp"
#include "rules/environment.hpp"

namespace othello {

void Game::fill_observations(const State* states, uint32_t count, void* out) const {
  auto* observations = static_cast<uint8_t*>(out);
  for (uint32_t k = 0; k < count; ++k) write_observation(states[k], observations + size_t{k} * kObservationBytes);
}

void Game::step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                      int32_t* players, uint8_t* legal) const {
  for (uint32_t k = 0; k < count; ++k) {
    StepOutcome outcome;
    if (!step(states[k], actions[k], convention_, outcome))
      throw gsdk::PluginError("othello batched step: action " + std::to_string(actions[k]) + " of game " +
                              std::to_string(k) + " is not the code of a legal move of " + to_text(states[k]) +
                              " (expected a legal square 0..63, or 64 to pass when no square is legal; games 0.." +
                              std::to_string(k) + " before it were stepped)");
    write_step(states[k], outcome, rewards + 2 * size_t{k}, terminated + k, players + k,
               legal + size_t{k} * kCodeCount);
  }
}

} // namespace othello
