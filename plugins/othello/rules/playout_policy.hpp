// playout_policy.hpp - which legal squares a playout draws its move from: all of them (uniform random
// games), or the squares an Othello player would look at first.
//
// `corners` takes a corner when it can; otherwise it keeps off the squares next to an empty corner (they
// hand the corner to the opponent) while it has anything else. `mobility` keeps the same squares and,
// three draws in four, only those after which the opponent has the fewest replies (a make-and-count per
// candidate). The choice among the kept squares stays uniform and costs the same single draw, so a
// policy game is as reproducible as a random one, on the CPU and the GPU alike. Playouts that play like
// this judge a position by more plausible games: corners at a few mask operations a move, mobility at
// seven to eight times a random game.
#pragma once

#include <cstdint>

#include "bitboard.hpp"
#include "gsdk/rng/splitmix64.hpp"

namespace othello {

enum class PlayoutPolicy : uint32_t { random = 0, corners = 1, mobility = 2 };

inline constexpr Bitboard kCorners = 0x8100000000000081ull;

// The squares next to each corner (a1, h1, a8, h8), kept apart so an occupied corner frees its own.
inline constexpr Bitboard kNextToA1 = 0x0000000000000302ull, kNextToH1 = 0x000000000000c040ull,
                          kNextToA8 = 0x0203000000000000ull, kNextToH8 = 0x40c0000000000000ull;

GSDK_HD Bitboard next_to_empty_corners(Bitboard empty) {
  Bitboard near = 0;
  if (empty & square_bit(0)) near |= kNextToA1;
  if (empty & square_bit(7)) near |= kNextToH1;
  if (empty & square_bit(56)) near |= kNextToA8;
  if (empty & square_bit(63)) near |= kNextToH8;
  return near;
}

// The squares of `moves` (not empty) the policy draws from, `empty` being the board's empty squares.
GSDK_HD Bitboard policy_moves(Bitboard moves, Bitboard empty, PlayoutPolicy policy) {
  if (policy == PlayoutPolicy::random) return moves;
  const Bitboard corners = moves & kCorners;
  if (corners) return corners;
  const Bitboard safe = moves & ~next_to_empty_corners(empty);
  return safe ? safe : moves;
}

// One candidate's turn in a fewest-replies search: `square` (a one-bit mask) leaving the opponent `replies`
// moves joins `best` on a tie with `least` and replaces it below. Start from least 65, best 0.
GSDK_HD void keep_fewest(Bitboard square, int replies, int& least, Bitboard& best) {
  if (replies < least) {
    least = replies;
    best = 0;
  }
  if (replies == least) best |= square;
}

// The squares of `kept` after which the opponent has the fewest moves.
GSDK_HD Bitboard fewest_replies(Bitboard kept, Bitboard own, Bitboard opponent) {
  Bitboard best = 0;
  int least = 65;
  for (Bitboard rest = kept; rest; rest &= rest - 1) {
    const uint32_t square = lowest_square(rest);
    const Bitboard flipped = flips(own, opponent, square);
    keep_fewest(square_bit(square),
                gsdk::bits::popcount64(legal_moves(opponent ^ flipped, own | flipped | square_bit(square))), least, best);
  }
  return best;
}

// Whether this draw narrows the kept squares (more than one) to fewest_replies: under mobility, unless
// the draw's low two bits are zero (one draw in four keeps them all, so playouts stay varied).
GSDK_HD bool narrows_to_fewest_replies(PlayoutPolicy policy, uint64_t draw, Bitboard kept) {
  return policy == PlayoutPolicy::mobility && (draw & 3) != 0 && (kept & (kept - 1)) != 0;
}

// The square of `kept` (not empty) that a draw picks, uniformly.
GSDK_HD uint32_t drawn_square(Bitboard kept, uint64_t draw) {
  return nth_square(kept, gsdk::rng::scaled_index(draw, static_cast<uint32_t>(gsdk::bits::popcount64(kept))));
}

// The square a playout plays among `moves` (not empty) of the mover owning `own`, from one draw.
GSDK_HD uint32_t playout_square(Bitboard moves, Bitboard own, Bitboard opponent, PlayoutPolicy policy, uint64_t draw) {
  Bitboard kept = policy_moves(moves, ~(own | opponent), policy);
  if (narrows_to_fewest_replies(policy, draw, kept)) kept = fewest_replies(kept, own, opponent);
  return drawn_square(kept, draw);
}

} // namespace othello
