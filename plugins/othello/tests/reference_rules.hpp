// reference_rules.hpp - Othello's rules written the slow, obvious way (walk each of eight directions
// square by square with row and column numbers), as the oracle for the bitboard code.
#pragma once

#include <cstdint>

#include "rules/bitboard.hpp"

namespace othello::test {

inline constexpr int kDirections[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

inline bool has(Bitboard b, int row, int column) { return (b >> (row * 8 + column)) & 1u; }

// Discs a move on (row, column) turns over for the side owning `own`.
inline Bitboard reference_flips(Bitboard own, Bitboard opponent, int square) {
  Bitboard flipped = 0;
  for (const auto& d : kDirections) {
    Bitboard run = 0;
    int r = square / 8 + d[0], c = square % 8 + d[1];
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && has(opponent, r, c)) {
      run |= square_bit(static_cast<uint32_t>(r * 8 + c));
      r += d[0];
      c += d[1];
    }
    if (run && r >= 0 && r < 8 && c >= 0 && c < 8 && has(own, r, c)) flipped |= run;
  }
  return flipped;
}

inline Bitboard reference_moves(Bitboard own, Bitboard opponent) {
  Bitboard moves = 0;
  for (int s = 0; s < 64; ++s)
    if (!((own | opponent) & square_bit(static_cast<uint32_t>(s))) && reference_flips(own, opponent, s))
      moves |= square_bit(static_cast<uint32_t>(s));
  return moves;
}

} // namespace othello::test
