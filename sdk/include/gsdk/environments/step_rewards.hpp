// step_rewards.hpp - the rewards of one vectorised-environment step (gsdk_plugin.h, ABI 1.11), one rule for every
// game's batched step, host or device, and for the core's step through the per-state table, so they cannot drift.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::environments {

// What `player` receives when a game ends with `score` (the per-state table's score of the final state): a
// one-player game's score itself; in a two-player game the sign of the score (player 0's outcome) for player 0 and
// the opposite for player 1.
GSDK_HD float final_reward(int64_t score, uint32_t player_count, uint32_t player) {
  if (player_count == 1) return static_cast<float>(score);
  // Spelled out rather than negated: a draw pays +0.0f to both players, never -0.0f (other bytes for the same value).
  if (score == 0) return 0.0f;
  return (score > 0) == (player == 0) ? 1.0f : -1.0f;
}

// The player_count rewards of a step into `rewards`: the final rewards when the step ended the game, else zeros.
GSDK_HD void write_step_rewards(bool ended, int64_t score, uint32_t player_count, float* rewards) {
  for (uint32_t p = 0; p < player_count; ++p) rewards[p] = ended ? final_reward(score, player_count, p) : 0.0f;
}

} // namespace gsdk::environments
