// endgame.hpp - the outcome of perfect play from an Othello position (win, draw or loss for the side to
// move), by alpha-beta search over the window (-1, 1), one spelling for CPU and CUDA.
//
// The search is a loop over an explicit stack (no recursion, so a CUDA thread keeps it in local memory
// of known size). With 6 or more empty squares the move that leaves the opponent fewest replies is
// tried first (fastest first: each pick costs a move generation per candidate, and prunes far more);
// nearer the end moves go corners first and squares next to corners last; the last empty square is
// settled without a frame. Per start on one core here: 40 us at 10 empties, 0.22 ms at 12 and 0.93 ms
// at 14, against 144 us, 1.4 ms and 13 ms with the static order alone (docs/perf/othello.md).
#pragma once

#include <cstdint>

#include "position.hpp"

namespace othello {

// Empty squares of a position.
GSDK_HD uint32_t empty_count(const Position& p) {
  return 64u - static_cast<uint32_t>(gsdk::bits::popcount64(p.own | p.opponent));
}

// Whether the playouts from p report perfect play's outcome under the exact_empties parameter (0: never).
GSDK_HD bool exact_start(const Position& p, uint32_t exact_empties) {
  return exact_empties > 0 && empty_count(p) <= exact_empties;
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

// A ply's window and best value are kept negated, as the least of its children's values (which are
// from the children's movers' view): the same negamax, without a maximum of negated values, which
// nvcc 13 for sm_90 was seen to miscompile in loops (docs/perf/othello.md, exact endgames).
struct Frame {
  Bitboard own;      // the side to move at this ply
  Bitboard opponent;
  Bitboard untried;  // moves not yet searched
  int32_t low;       // -alpha: the least child value that still matters
  int32_t high;      // -beta: a child value at or below it refutes this ply's caller
  int32_t least;     // -best: the least child value so far (2: none yet)
  uint32_t flags;    // kPassing, kAfterPass
};
inline constexpr uint32_t kPassing = 1;   // this ply is a pass: its one child has the same discs, sides swapped
inline constexpr uint32_t kAfterPass = 2; // the ply before was a pass: no moves here ends the game

inline constexpr uint32_t kFastestFirstEmpties = 6;

// The move among `moves` that leaves the opponent fewest replies, a corner counting one reply less
// (the lowest square on ties).
GSDK_HD uint32_t fastest_first_square(Bitboard own, Bitboard opponent, Bitboard moves) {
  uint32_t best_square = next_square(moves);
  int32_t fewest = 65;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    const uint32_t square = lowest_square(rest);
    const Bitboard flipped = flips(own, opponent, square);
    const int32_t replies = gsdk::bits::popcount64(legal_moves(opponent ^ flipped, own | flipped | square_bit(square))) +
                            ((kCorners >> square) & 1 ? -1 : 0);
    if (replies < fewest) {
      fewest = replies;
      best_square = square;
    }
  }
  return best_square;
}

// The outcome (the mover's view) of a position with one empty square, without a frame per ply: the
// mover takes the square if it turns a disc, else the other side does, else the game ends there (a
// move is legal exactly when it turns at least one disc).
GSDK_HD int32_t last_square_outcome(Bitboard own, Bitboard opponent) {
  const uint32_t square = lowest_square(~(own | opponent));
  if (const Bitboard flipped = flips(own, opponent, square)) {
    own |= flipped | square_bit(square);
    opponent ^= flipped;
  } else if (const Bitboard taken = flips(opponent, own, square)) {
    opponent |= taken | square_bit(square);
    own ^= taken;
  }
  const int32_t mine = gsdk::bits::popcount64(own), theirs = gsdk::bits::popcount64(opponent);
  return (mine > theirs) - (mine < theirs);
}

} // namespace endgame_detail

// +1, 0 or -1: the side to move wins, draws or loses under perfect play by both sides. The position
// must have at most kMaxSolvedEmpties empty squares.
GSDK_HD int32_t perfect_play_outcome(const Position& p) {
  using namespace endgame_detail;
  Frame stack[kSolverStackDepth];
  stack[0] = Frame{p.own, p.opponent, 0, 1, -1, 2, 0};
  int32_t top = 0;
  int32_t result = 0;    // the value of the ply just left, from its mover's view
  bool entering = true;  // at stack[top] for the first time, else back from its child
  while (top >= 0) {
    Frame& f = stack[top];
    if (entering) {
      if (empty_count(Position{f.own, f.opponent, 0, 0}) == 1) {
        result = last_square_outcome(f.own, f.opponent);
        --top;
        entering = false;
        continue;
      }
      f.untried = legal_moves(f.own, f.opponent);
      if (f.untried == 0) {
        if (f.flags & kAfterPass) {
          // Neither side can move: the disc count decides (the empties go to the winner).
          const int32_t own = gsdk::bits::popcount64(f.own), opponent = gsdk::bits::popcount64(f.opponent);
          result = (own > opponent) - (own < opponent);
          --top;
          entering = false;
          continue;
        }
        f.flags |= kPassing;
        stack[top + 1] = Frame{f.opponent, f.own, 0, -f.high, -f.low, 2, kAfterPass};
        ++top;
        continue;
      }
    } else {
      if (result < f.least) f.least = result;
      if (result < f.low) f.low = result;
      if ((f.flags & kPassing) || f.low <= f.high || f.untried == 0) {
        result = -f.least;
        --top;
        continue;
      }
    }
    const uint32_t square = empty_count(Position{f.own, f.opponent, 0, 0}) >= kFastestFirstEmpties
                                ? fastest_first_square(f.own, f.opponent, f.untried)
                                : next_square(f.untried);
    f.untried &= ~square_bit(square);
    const Bitboard flipped = flips(f.own, f.opponent, square);
    stack[top + 1] = Frame{f.opponent ^ flipped, f.own | flipped | square_bit(square), 0, -f.high, -f.low, 2, 0};
    ++top;
    entering = true;
  }
  return result;
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
