// minimax_reference.hpp - plain minimax over a game's evaluation table, written apart from the alpha-beta agent,
// for the tests that check the agent's values: a finished game is worth scale + 1 + |score| to its winner, a state
// at the depth bound its evaluation (to the player to move there). No pruning, no table, no exact range.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "gsdk/core/runtime/game_instance.hpp"

namespace gsdk::test {

int64_t minimax(const core::GameInstance& game, const core::StateBlob& state, int32_t player, int depth);

// The value to `player` (to move in `state`) of playing `move` and searching `depth` - 1 plies below it.
inline int64_t move_value(const core::GameInstance& game, const core::StateBlob& state, int32_t player,
                          uint32_t move, int depth) {
  const gsdk_evaluation& table = *game.tables().evaluation;
  core::StateBlob child = state;
  game.apply_move(child, move);
  const int32_t mover = game.current_player(child);
  if (mover == GSDK_PLAYER_TERMINAL) {
    const int64_t score = game.score(child);
    const int64_t for_first = score == 0 ? 0 : (score > 0 ? 1 : -1) * (table.scale(game.handle()) + 1 + std::abs(score));
    return player == 0 ? for_first : -for_first;
  }
  int64_t below = 0;
  if (depth <= 1) {
    int32_t eval = 0;
    char error[256] = {};
    EXPECT_EQ(table.evaluate(game.handle(), child.data(), 1, &eval, error, sizeof error), GSDK_OK) << error;
    below = eval;
  } else {
    below = minimax(game, child, mover, depth - 1);
  }
  return mover == player ? below : -below;
}

// The value of `state` to `player`, the player to move there, searched `depth` plies deep.
inline int64_t minimax(const core::GameInstance& game, const core::StateBlob& state, int32_t player, int depth) {
  std::vector<uint32_t> moves(game.max_moves());
  const uint32_t n = game.checked_legal_moves(state, moves);
  int64_t best = INT64_MIN;
  for (uint32_t k = 0; k < n; ++k) best = std::max(best, move_value(game, state, player, moves[k], depth));
  return best;
}

} // namespace gsdk::test
