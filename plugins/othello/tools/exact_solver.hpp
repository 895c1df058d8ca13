// exact_solver.hpp - the exact final disc difference of an Othello position under perfect play by both sides
// (the empties going to the winner, as final_score counts them), from the side to move's view. The fitting
// tool labels its training positions with it; rules/endgame.hpp only tells win, draw or loss. Host only:
// recursive negamax with fail-soft alpha-beta, moves tried fastest first (fewest replies for the opponent).
#pragma once

#include <algorithm>
#include <cstdint>

#include "rules/endgame.hpp"
#include "rules/position.hpp"

namespace othello::fit {

// Below this many empties the static order of rules/endgame.hpp is cheaper than counting replies.
inline constexpr uint32_t kOrderByRepliesEmpties = 7;

inline int32_t finished_difference(Bitboard own, Bitboard opponent) {
  const int32_t mine = gsdk::bits::popcount64(own), theirs = gsdk::bits::popcount64(opponent);
  const int32_t empties = 64 - mine - theirs;
  return mine > theirs ? mine - theirs + empties : mine < theirs ? mine - theirs - empties : 0;
}

// The exact value when it lies inside (alpha, beta); else a bound on the same side of the window.
inline int32_t exact_difference(Bitboard own, Bitboard opponent, int32_t alpha, int32_t beta) {
  const Bitboard moves = legal_moves(own, opponent);
  if (moves == 0) {
    if (legal_moves(opponent, own) == 0) return finished_difference(own, opponent);
    return -exact_difference(opponent, own, -beta, -alpha);
  }
  uint32_t squares[kMaxMoves];
  uint32_t count = 0;
  const uint32_t empties = 64u - static_cast<uint32_t>(gsdk::bits::popcount64(own | opponent));
  if (empties >= kOrderByRepliesEmpties) {
    int32_t replies[kMaxMoves];
    for (Bitboard rest = moves; rest; rest &= rest - 1) {
      const uint32_t square = lowest_square(rest);
      const Bitboard flipped = flips(own, opponent, square);
      const int32_t key = gsdk::bits::popcount64(legal_moves(opponent ^ flipped, own | flipped | square_bit(square)));
      // Insertion by replies, a stable order so that the search is deterministic.
      uint32_t at = count++;
      for (; at > 0 && replies[at - 1] > key; --at) {
        squares[at] = squares[at - 1];
        replies[at] = replies[at - 1];
      }
      squares[at] = square;
      replies[at] = key;
    }
  } else {
    for (Bitboard rest = moves; rest;) {
      const uint32_t square = endgame_detail::next_square(rest);
      rest &= ~square_bit(square);
      squares[count++] = square;
    }
  }
  int32_t best = -65;
  for (uint32_t k = 0; k < count; ++k) {
    const Bitboard flipped = flips(own, opponent, squares[k]);
    const int32_t value = -exact_difference(opponent ^ flipped, own | flipped | square_bit(squares[k]), -beta, -alpha);
    best = std::max(best, value);
    alpha = std::max(alpha, value);
    if (alpha >= beta) break;
  }
  return best;
}

inline int32_t exact_difference(const Position& p) {
  return exact_difference(p.own, p.opponent, -65, 65);
}

// Plays perfectly from p (whose exact value is `value`) to the end, calling visit(position) for p and every
// later position, passes included, the finished one excluded: at each ply the first move in square order whose
// child keeps the value.
template <typename Visit> void follow_perfect_line(Position p, int32_t value, Visit visit) {
  while (!game_over(p)) {
    visit(p);
    Bitboard moves = legal_moves(p);
    if (moves == 0) {
      pass(p);
      value = -value;
      continue;
    }
    for (; moves; moves &= moves - 1) {
      Position next = p;
      play(next, lowest_square(moves));
      if (exact_difference(next.own, next.opponent, -value - 1, -value + 1) == -value) {
        p = next;
        value = -value;
        break;
      }
    }
  }
}

} // namespace othello::fit
