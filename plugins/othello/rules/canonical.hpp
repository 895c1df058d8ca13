// canonical.hpp - an Othello position's canonical form for hashed perft (gsdk.perft_keys.v1), host and device: the
// smallest of its 8 board symmetries, with the side to move cleared. The rules are the same under every rotation and
// reflection of the board and for either colour, so all 16 such positions have the same perft counts at every depth
// in every convention; keyed by one canonical form, they share one table entry and merge within a level. Measured on
// the opening (docs/perf/othello.md), this merges about four times more positions than the raw bytes do.
#pragma once

#include "board_symmetry.hpp"
#include "position.hpp"

namespace othello {

// Whether (own, opponent) orders before (best_own, best_opponent).
GSDK_HD bool orders_before(Bitboard own, Bitboard opponent, Bitboard best_own, Bitboard best_opponent) {
  return own < best_own || (own == best_own && opponent < best_opponent);
}

// In place. Idempotent: every image of the canonical form has the same set of images.
GSDK_HD void canonicalize(Position& p) {
  Bitboard best_own = p.own;
  Bitboard best_opponent = p.opponent;
  const auto consider = [&](Bitboard own, Bitboard opponent) {
    if (!orders_before(own, opponent, best_own, best_opponent)) return;
    best_own = own;
    best_opponent = opponent;
  };
  for (uint32_t transposed = 0; transposed < 2; ++transposed) {
    const Bitboard own = transposed ? transpose(p.own) : p.own;
    const Bitboard opponent = transposed ? transpose(p.opponent) : p.opponent;
    const Bitboard own_mirrored = flip_columns(own);
    const Bitboard opponent_mirrored = flip_columns(opponent);
    consider(own, opponent);
    consider(flip_rows(own), flip_rows(opponent));
    consider(own_mirrored, opponent_mirrored);
    consider(flip_rows(own_mirrored), flip_rows(opponent_mirrored));
  }
  p.own = best_own;
  p.opponent = best_opponent;
  p.side = kBlack;
}

} // namespace othello
