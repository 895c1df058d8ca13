// batched_steps.hpp - one game's step and reset of a vectorised environment as gsdk.batched_steps.v1 defines them
// (gsdk_plugin.h), over a game's EnvironmentRules, and the CPU loops of a batch. The CUDA kernels
// (gsdk/cuda/environment_tables.cuh) run the same step_game and reset_game, so CPU and GPU agree to the bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gsdk/environments/environment_rules.hpp"
#include "gsdk/environments/step_rewards.hpp"
#include "gsdk/hd.hpp"

namespace gsdk::environments {

// Steps one game by the move code `code`: the move is played; a game it ends pays its rewards (kPlayerCount of
// them, else zeros), is marked terminated, leaves its final state in *final_state (when given) and starts again from
// the initial state; then the player to move and the legal codes of the game's state are written. An action that is
// no legal move's code leaves its game as it was (the host checks actions before they reach a plugin).
template <EnvironmentRules R>
GSDK_HD void step_game(const R& rules, typename R::State& s, uint32_t code, float* rewards, uint8_t* terminated,
                       int32_t* player, uint8_t* legal, typename R::State* final_state) {
  const bool ended = rules.play_code(s, code) && rules.ended(s);
  write_step_rewards(ended, ended ? rules.score(s) : 0, R::kPlayerCount, rewards);
  *terminated = ended ? 1 : 0;
  if (ended) {
    if (final_state) *final_state = s;
    s = rules.initial_state();
  }
  *player = rules.player_to_move(s);
  rules.write_legal_codes(s, legal);
}

// Puts the initial state in s, with its player to move and legal codes as a step writes them.
template <EnvironmentRules R>
GSDK_HD void reset_game(const R& rules, typename R::State& s, int32_t* player, uint8_t* legal) {
  s = rules.initial_state();
  *player = rules.player_to_move(s);
  rules.write_legal_codes(s, legal);
}

// gsdk.batched_steps.v1's step (final_states null) and step_keeping_final on the CPU: count games, in order.
template <EnvironmentRules R>
void step_batch(const R& rules, typename R::State* states, const uint32_t* actions, uint32_t count, float* rewards,
                uint8_t* terminated, int32_t* players, uint8_t* legal, typename R::State* final_states = nullptr) {
  for (size_t k = 0; k < count; ++k)
    step_game(rules, states[k], actions[k], rewards + k * R::kPlayerCount, terminated + k, players + k,
              legal + k * R::kCodeCount, final_states ? final_states + k : nullptr);
}

// gsdk.observations.v1's fill on the CPU: kObservationBytes a state, in order.
template <EnvironmentRules R>
void fill_observations(const R& rules, const typename R::State* states, uint32_t count, void* out) {
  auto* bytes = static_cast<uint8_t*>(out);
  for (size_t k = 0; k < count; ++k) rules.write_observation(states[k], bytes + k * R::kObservationBytes);
}

} // namespace gsdk::environments
