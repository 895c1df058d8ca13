// env_kernels.hpp - the CUDA kernels of a VectorEnv itself (env_kernels.cu): action checks, random actions and the
// ends of episodes (step limits, final states). The
// game's own steps come from its gsdk.batched_steps.v1 table. Every call enqueues on `stream` (a cudaStream_t) of
// the current device and throws std::runtime_error when the launch fails.
#pragma once

#include <cstdint>

namespace gsdk::core::env_kernels {

// *first_bad (device memory) = the lowest game k whose action is >= action_count or not set in its mask row, or
// UINT32_MAX when every action is legal.
void find_first_illegal(const uint32_t* actions, const uint8_t* legal, uint32_t count, uint32_t action_count,
                        uint32_t* first_bad, void* stream);

// codes[k] = env_streams::random_legal_code(seed, k, call, mask row k), the CPU's draw exactly.
void random_actions(uint64_t seed, uint64_t call, const uint8_t* legal, uint32_t count, uint32_t action_count,
                    uint32_t* codes, void* stream);

// What end_episodes reads and writes, all in device memory of one environment.
struct EpisodeEnds {
  uint32_t count = 0, state_size = 0, action_count = 0, player_count = 0;
  uint32_t max_episode_steps = 0; // 0: no limit
  const uint8_t* terminated = nullptr;
  const float* rewards = nullptr;          // every player's, (count, player_count)
  const int32_t* players_before = nullptr; // the players who moved
  float* actor_rewards = nullptr;          // out: each game's reward for the player who moved
  uint32_t* episode_steps = nullptr; // per game; may be null without a limit
  uint8_t* truncated = nullptr;
  uint8_t* ended = nullptr; // terminated or truncated
  uint8_t* states = nullptr;
  int32_t* players = nullptr;
  uint8_t* legal = nullptr;
  uint8_t* final_states = nullptr; // null without final observations
  // One game's initial state, player to move and legal row (what a truncated game restarts from).
  const uint8_t* initial_state = nullptr;
  const int32_t* initial_player = nullptr;
  const uint8_t* initial_legal = nullptr;
};

// After a step, for every game k that terminated[k] does not mark: counts the step (with a limit); at the limit sets
// truncated[k], keeps the state in final_states[k] and restarts the game from the initial rows; otherwise keeps its
// state in final_states[k]. A terminated game's count starts over, its final state already kept by the game's step.
// ended[k] = terminated[k] | truncated[k], and actor_rewards[k] = rewards[k * player_count + players_before[k]]
// (one kernel: a small step's time is mostly launches).
void end_episodes(const EpisodeEnds& ends, void* stream);

} // namespace gsdk::core::env_kernels
