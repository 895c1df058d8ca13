// endgame_solver.hpp - the exact value of an Othello position by exhaustive alpha-beta search, for
// positions with few empty squares (14 or fewer take well under a second). The oracle against which
// the search agents are tested: a move is winning when its exact value is positive.
#pragma once

#include <algorithm>
#include <cstdint>

#include "rules/position.hpp"

namespace othello::test {

// The final score (empties to the winner) from the side to move's view under perfect play, searched
// in the window (alpha, beta).
inline int solve(const Position& p, int alpha, int beta) {
  const Bitboard moves = legal_moves(p);
  if (moves == 0) {
    if (!opponent_can_move(p)) {
      const int black_view = final_score(p);
      return p.side == kBlack ? black_view : -black_view;
    }
    Position passed = p;
    pass(passed);
    return -solve(passed, -beta, -alpha);
  }
  // Try first the moves that leave the opponent fewest replies: the usual ordering, cheap here.
  struct Candidate {
    Position child;
    int replies;
  };
  Candidate candidates[kMaxMoves];
  int n = 0;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    Position child = p;
    play(child, lowest_square(rest));
    candidates[n++] = {child, gsdk::bits::popcount64(legal_moves(child))};
  }
  std::sort(candidates, candidates + n, [](const Candidate& a, const Candidate& b) { return a.replies < b.replies; });
  int best = -65;
  for (int i = 0; i < n; ++i) {
    best = std::max(best, -solve(candidates[i].child, -beta, -alpha));
    alpha = std::max(alpha, best);
    if (alpha >= beta) break;
  }
  return best;
}

inline int solve(const Position& p) { return solve(p, -65, 65); }

} // namespace othello::test
