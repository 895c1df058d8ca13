// canonical.hpp - a position's canonical form for hashed perft (gsdk.perft_keys.v1), host and device: the bytes
// that never change the counts below a position are set to fixed values, so that transpositions share one key.
// The move clocks count nothing in perft (legal moves ignore the 50- and 75-move rules, as every published perft
// table does): halfmove 0 and fullmove 1 (not 0, so that the canonical position is still a FEN the parser reads
// back). An en-passant square is kept only when a pawn of the side to move attacks it, which make_move and the FEN
// parser already do; a capture it allows may still be illegal (a pinned pawn), and keeping that square is
// conservative, since the counts stay those of the position.
#pragma once

#include "rules/attack_tables.hpp"

namespace chess {
CHESS_ISA_BEGIN

GSDK_HD void canonicalize(Position& p) {
  p.halfmove = 0;
  p.fullmove = 1;
  if (p.ep_square >= kNoSquare || !(tables().pawn[p.side ^ 1][p.ep_square] & p.pawns & p.color(p.side)))
    p.ep_square = kNoSquare;
}

CHESS_ISA_END
} // namespace chess
