// evaluation.hpp - connect_four's static evaluation, the OPTIONAL table gsdk.evaluation.v1: what a position is worth
// to the side to move, so that a search can stop short of the end of the game. The `alphabeta` agent needs it
// (it is then gsdk gtp's and gsdk match's default agent for this game), and so does `uct` with
// `leaf_value=eval` or `cutoff:K`. Delete this file and the three members of game.hpp that call it, and the
// plugin simply has no evaluation table.
//
// The host never calls evaluate on a finished game (nor on a chance node, which this game has none of): a
// search values a finished game by its score, exactly, above every evaluation (alpha-beta's terminal values,
// UCT's playouts that reach the end), and the ABI says so (gsdk_plugin.h, gsdk_evaluation). So evaluate need not
// look for four in a row; it only weighs what is still open.
//
// Worth: every line of four cells (a window) that holds discs of one player only counts for that player, 1, 4
// or 16 for one, two or three discs; the mover's windows count for, the opponent's against. Integers, so that a
// CPU and a GPU evaluation would agree to the bit.
#pragma once

#include <cstdint>

#include "rules.hpp"

namespace connect_four {

// Every evaluation lies strictly inside (-kEvaluationScale, kEvaluationScale): 69 windows of at most 16 each.
inline constexpr int32_t kEvaluationScale = 2048;

// The worth of `s`, not finished, to the player to move there, in (-kEvaluationScale, kEvaluationScale).
GSDK_HD int32_t evaluate_position(const State& s) {
  // By the discs of one player in a window; four would be a finished game, which is never evaluated.
  constexpr int32_t kWeights[5] = {0, 1, 4, 16, 16};
  const uint64_t mine = s.discs[player_to_move(s)], theirs = s.discs[1 - player_to_move(s)];
  // A window is four cells from a cell, `step` bits apart: 1 up a column, 7 across a row, 6 and 8 along the
  // diagonals. One that leaves the board runs into a spare bit above a column or past the last one (rules.hpp).
  const uint32_t steps[4] = {1, kColumnBits, kColumnBits - 1, kColumnBits + 1};
  int32_t worth = 0;
  for (uint32_t column = 0; column < kColumns; ++column)
    for (uint32_t row = 0; row < kRows; ++row)
      for (uint32_t step : steps) {
        const uint32_t first = kColumnBits * column + row, last = first + 3 * step;
        if (last >= 64) continue;
        const uint64_t window = (uint64_t{1} << first) | (uint64_t{1} << (first + step)) |
                                (uint64_t{1} << (first + 2 * step)) | (uint64_t{1} << last);
        if ((window & kBoard) != window) continue;
        const int32_t own = gsdk::bits::popcount64(mine & window), other = gsdk::bits::popcount64(theirs & window);
        if (other == 0) worth += kWeights[own];
        if (own == 0) worth -= kWeights[other];
      }
  return worth;
}

// A 64-bit key of `s` for alpha-beta's transposition table: equal states hash equal (the side to move follows
// from the discs), different ones rarely collide. SplitMix64's finaliser over each player's discs.
GSDK_HD uint64_t position_hash(const State& s) {
  const auto mix = [](uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  return mix(s.discs[0] + 0x9e3779b97f4a7c15ull) ^ (mix(s.discs[1] + 0x3c6ef372fe94f82aull) * 3);
}

} // namespace connect_four
