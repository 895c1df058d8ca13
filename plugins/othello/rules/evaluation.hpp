// evaluation.hpp - Othello's hand-set static evaluation (gsdk.evaluation.v1 under param evaluation=basic, the
// default; evaluation=patterns is the learned one of patterns.hpp) and the position hash: hand-set weights on
// mobility, corners, the squares next to empty corners, edge discs anchored at an owned corner (a cheap stand-in
// for stable discs), parity and, late in the game, the disc count. One spelling for CPU and CUDA. The weights sit
// in one table so that a later fit can replace them without touching the features.
#pragma once

#include <cstdint>

#include "position.hpp"

namespace othello {

// The bound of every evaluation; the largest the features below can reach is about 1500.
inline constexpr int32_t kEvaluationScale = 4096;
// From this many empty squares on, the disc count starts to matter.
inline constexpr int32_t kLateEmpties = 14;

struct EvaluationWeights {
  int32_t mobility;      // per move the side to move has beyond its opponent
  int32_t corner;        // per corner held beyond the opponent's
  int32_t x_square;      // per disc on a square diagonal to an empty corner (a gift of that corner)
  int32_t anchored_edge; // per edge disc joined to its side's corner by its own discs
  int32_t parity;        // for the side that would play the last move of an even split of the empties
  int32_t late_disc;     // per disc beyond the opponent's, from kLateEmpties empties on
};

inline constexpr EvaluationWeights kEvaluationWeights = {12, 90, -35, 14, 10, 6};

// Corner c (0..3: a1, h1, a8, h8), the X-square diagonal to it and the edge steps away from it (d 0: along its
// row, 1: along its column), as arithmetic rather than constexpr tables, which device code cannot index.
GSDK_HD uint32_t corner_square(int c) {
  return static_cast<uint32_t>((c & 1) * 7 + (c >> 1) * 56);
}
GSDK_HD uint32_t x_square(int c) {
  return static_cast<uint32_t>(static_cast<int32_t>(corner_square(c)) + ((c & 1) ? -1 : 1) + ((c >> 1) ? -8 : 8));
}
GSDK_HD int32_t edge_step(int c, int d) {
  return d == 0 ? ((c & 1) ? -1 : 1) : ((c >> 1) ? -8 : 8);
}

// Edge discs of `discs` reached from one of its corners along an edge through its own discs only.
GSDK_HD int32_t anchored_edge_discs(Bitboard discs) {
  int32_t count = 0;
  for (int c = 0; c < 4; ++c) {
    if (!(discs & square_bit(corner_square(c)))) continue;
    for (int d = 0; d < 2; ++d) {
      int32_t square = static_cast<int32_t>(corner_square(c));
      for (int k = 1; k < 8; ++k) {
        square += edge_step(c, d);
        if (!(discs & square_bit(static_cast<uint32_t>(square)))) break;
        ++count;
      }
    }
  }
  return count;
}

GSDK_HD int32_t corner_features(const Position& p, int32_t& x_squares) {
  int32_t corners = 0;
  x_squares = 0;
  const Bitboard occupied = p.own | p.opponent;
  for (int c = 0; c < 4; ++c) {
    corners += (p.own & square_bit(corner_square(c))) ? 1 : (p.opponent & square_bit(corner_square(c))) ? -1 : 0;
    if (occupied & square_bit(corner_square(c))) continue;
    x_squares += (p.own & square_bit(x_square(c))) ? 1 : (p.opponent & square_bit(x_square(c))) ? -1 : 0;
  }
  return corners;
}

// The worth of a position that is not over to its side to move, strictly inside (-kEvaluationScale,
// kEvaluationScale).
GSDK_HD int32_t evaluate(const Position& p) {
  constexpr EvaluationWeights w = kEvaluationWeights;
  const int32_t own_discs = gsdk::bits::popcount64(p.own), other_discs = gsdk::bits::popcount64(p.opponent);
  const int32_t empties = 64 - own_discs - other_discs;
  const int32_t mobility =
      gsdk::bits::popcount64(legal_moves(p.own, p.opponent)) - gsdk::bits::popcount64(legal_moves(p.opponent, p.own));
  int32_t x_squares = 0;
  const int32_t corners = corner_features(p, x_squares);
  const int32_t edges = anchored_edge_discs(p.own) - anchored_edge_discs(p.opponent);
  int32_t value = w.mobility * mobility + w.corner * corners + w.x_square * x_squares + w.anchored_edge * edges +
                  w.parity * ((empties & 1) ? 1 : -1);
  if (empties <= kLateEmpties) value += w.late_disc * (own_discs - other_discs);
  const int32_t bound = kEvaluationScale - 1;
  return value > bound ? bound : value < -bound ? -bound : value;
}

// A 64-bit mix of the discs and the side to move (splitmix64's finaliser on each word, combined).
GSDK_HD uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

GSDK_HD uint64_t position_hash(const Position& p) {
  return mix64(mix64(p.own ^ (uint64_t{p.side} << 63 | p.side)) + 0x9e3779b97f4a7c15ull * mix64(~p.opponent));
}

} // namespace othello
