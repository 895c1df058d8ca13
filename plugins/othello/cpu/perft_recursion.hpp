// perft_recursion.hpp - the perft recursion above the last two plies, shared by the CPU kernels, which
// differ only in how they count those two (Perft2).
#pragma once

#include <cstdint>

#include "rules/position.hpp"

namespace othello::cpu {

template <typename Perft2> uint64_t perft_with(const Position& p, uint32_t depth, Convention c, Perft2 perft2) {
  if (depth == 0) return 1;
  if (depth == 1) return perft1(p, c);
  if (depth == 2) return perft2(p, c);
  const MoveSet moves = move_set(p, c);
  if (moves.pass_only) {
    if (!opponent_can_move(p)) return 1; // a finished game: one leaf however deep
    return perft_with(child(p, kPass, c), depth - 1, c, perft2);
  }
  uint64_t leaves = 0;
  for (Bitboard rest = moves.squares; rest; rest &= rest - 1)
    leaves += perft_with(child(p, lowest_square(rest), c), depth - 1, c, perft2);
  return leaves;
}

} // namespace othello::cpu
