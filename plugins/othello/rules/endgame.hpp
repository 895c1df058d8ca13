// endgame.hpp - the outcome of perfect play from an Othello position (win, draw or loss for the side to
// move), by alpha-beta search over the window (-1, 1), one spelling for CPU and CUDA.
//
// The search is a loop over an explicit stack (no recursion, so a CUDA thread keeps it in local memory
// of known size). Moves are tried corners first and the squares next to corners last, the cheap static
// order that prunes well in Othello endgames without the cost of sorting.
#pragma once

#include <cstdint>

#include "position.hpp"

namespace othello {

// Empty squares of a position.
GSDK_HD uint32_t empty_count(const Position& p) {
  return 64u - static_cast<uint32_t>(gsdk::bits::popcount64(p.own | p.opponent));
}

// The most empty squares the solver accepts (16 take a tenth of a second or more on a CPU core, and
// every empty square more multiplies that by about three), and the stack it needs: each ply takes a square,
// or is a pass (never two in a row), so a line from e empties is at most 2e + 1 plies deep.
inline constexpr uint32_t kMaxSolvedEmpties = 16;
inline constexpr uint32_t kSolverStackDepth = 2 * kMaxSolvedEmpties + 2;

namespace endgame_detail {

inline constexpr Bitboard kCorners = 0x8100000000000081ull;
// The squares diagonally and orthogonally next to a corner: taking one usually gives the corner away.
inline constexpr Bitboard kNextToCorners = 0x42c300000000c342ull;

// The square to try next among `moves`: a corner, else a square away from the corners, else the rest.
GSDK_HD uint32_t next_square(Bitboard moves) {
  Bitboard preferred = moves & kCorners;
  if (!preferred) preferred = moves & ~kNextToCorners;
  if (!preferred) preferred = moves;
  return lowest_square(preferred);
}

struct Frame {
  Bitboard own;      // the side to move at this ply
  Bitboard opponent;
  Bitboard untried;  // moves not yet searched
  int8_t alpha;
  int8_t beta;
  int8_t best;
  uint8_t passing;   // this ply is a pass (its one child is the same discs, the other side to move)
  uint8_t after_pass; // the ply before was a pass: no moves here ends the game
};

} // namespace endgame_detail

// +1, 0 or -1: the side to move wins, draws or loses under perfect play by both sides. The position
// must have at most kMaxSolvedEmpties empty squares.
GSDK_HD int32_t perfect_play_outcome(const Position& p) {
  using endgame_detail::Frame;
  Frame stack[kSolverStackDepth];
  stack[0] = Frame{p.own, p.opponent, 0, -1, 1, -2, 0, 0};
  int32_t top = 0;
  int32_t result = 0;    // the value of the ply just left, from its mover's view
  bool entering = true;  // at stack[top] for the first time, else back from its child
  for (;;) {
    Frame& f = stack[top];
    if (entering) {
      f.untried = legal_moves(f.own, f.opponent);
      if (f.untried == 0) {
        if (f.after_pass) {
          // Neither side can move: the disc count decides (the empties go to the winner).
          const int32_t own = gsdk::bits::popcount64(f.own), opponent = gsdk::bits::popcount64(f.opponent);
          result = (own > opponent) - (own < opponent);
          if (top == 0) return result;
          --top;
          entering = false;
          continue;
        }
        f.passing = 1;
        stack[top + 1] = Frame{f.opponent, f.own, 0, static_cast<int8_t>(-f.beta), static_cast<int8_t>(-f.alpha), -2, 0, 1};
        ++top;
        continue;
      }
    } else {
      const auto value = static_cast<int8_t>(-result);
      if (value > f.best) f.best = value;
      if (value > f.alpha) f.alpha = value;
      if (f.passing || f.alpha >= f.beta || f.untried == 0) {
        result = f.best;
        if (top == 0) return result;
        --top;
        continue;
      }
    }
    const uint32_t square = endgame_detail::next_square(f.untried);
    f.untried &= ~square_bit(square);
    const Bitboard flipped = flips(f.own, f.opponent, square);
    stack[top + 1] = Frame{f.opponent ^ flipped, f.own | flipped | square_bit(square), 0,
                           static_cast<int8_t>(-f.beta), static_cast<int8_t>(-f.alpha), -2, 0, 0};
    ++top;
    entering = true;
  }
}

// Plays a perfect game from p to its end, calling log(move) for every move, passes included: at each
// ply the first move (in the solver's order) that keeps the position's outcome. A replay of what
// perfect_play_outcome found.
template <typename MoveLog> void perfect_line(Position p, MoveLog log) {
  for (;;) {
    Bitboard moves = legal_moves(p);
    if (moves == 0) {
      if (!opponent_can_move(p)) return;
      pass(p);
      log(kPass);
      continue;
    }
    const int32_t outcome = perfect_play_outcome(p);
    for (;;) {
      const uint32_t square = endgame_detail::next_square(moves);
      moves &= ~square_bit(square);
      Position next = p;
      play(next, square);
      if (-perfect_play_outcome(next) == outcome || moves == 0) {
        p = next;
        log(square);
        break;
      }
    }
  }
}

} // namespace othello
