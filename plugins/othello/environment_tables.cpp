// environment_tables.cpp - othello's vectorised environment on the CPU: observations and batched steps
// (rules/environment.hpp), on AVX-512 eight games to a vector where the processor allows, else one after another.
#include <string>

#include "cpu/environment_cpu.hpp"
#include "othello_game.hpp"
#include "rules/board_text.hpp"

namespace othello {

namespace cpu {

void step_game(Position* states, const uint32_t* actions, uint32_t k, Convention convention, float* rewards,
               uint8_t* terminated, int32_t* players, uint8_t* legal, Position* final_states) {
  StepOutcome outcome;
  if (!step(states[k], actions[k], convention, outcome, final_states ? final_states + k : nullptr))
    throw gsdk::PluginError("othello batched step: action " + std::to_string(actions[k]) + " of game " +
                            std::to_string(k) + " is not the code of a legal move of " + to_text(states[k]) +
                            " (expected a legal square 0..63, or 64 to pass when no square is legal; the games "
                            "before it were stepped)");
  write_step(states[k], outcome, rewards + 2 * size_t{k}, terminated + k, players + k, legal + size_t{k} * kCodeCount);
}

bool avx512bw_available() {
#if defined(__x86_64__)
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("bmi2");
  }();
  return available;
#else
  return false;
#endif
}

} // namespace cpu

void Game::fill_observations(const State* states, uint32_t count, void* out) const noexcept {
  auto* observations = static_cast<uint8_t*>(out);
  if (cpu::avx512bw_available()) return cpu::fill_observations_avx512(states, count, observations);
  for (uint32_t k = 0; k < count; ++k) write_observation(states[k], observations + size_t{k} * kObservationBytes);
}

void Game::step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                      int32_t* players, uint8_t* legal, State* final_states) const {
  if (cpu::avx512bw_available())
    return cpu::step_batch_avx512(states, actions, count, convention_, rewards, terminated, players, legal,
                                  final_states);
  for (uint32_t k = 0; k < count; ++k)
    cpu::step_game(states, actions, k, convention_, rewards, terminated, players, legal, final_states);
}

} // namespace othello
