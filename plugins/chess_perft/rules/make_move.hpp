// make_move.hpp - plays a legal move on a Position (host and device).
#pragma once

#include "rules/attack_tables.hpp"

namespace chess {
CHESS_ISA_BEGIN

GSDK_HD void make_move(Position& p, Move m) {
  const int from = move_from(m), to = move_to(m);
  const Bitboard from_bb = square_bb(from), to_bb = square_bb(to), moved = from_bb | to_bb;
  const int us = p.side;
  const bool capture = (p.occupied() & to_bb) != 0;
  const bool pawn_move = (p.pawns & from_bb) != 0;

  p.pawns &= ~to_bb;
  p.knights &= ~to_bb;
  p.diagonal &= ~to_bb;
  p.orthogonal &= ~to_bb;
  uint8_t ep = kNoSquare;

  // king[us] with a run-time index would push the whole Position into GPU local memory.
  if (from == (us == kWhite ? p.king[kWhite] : p.king[kBlack])) {
    if (us == kWhite)
      p.king[kWhite] = static_cast<uint8_t>(to);
    else
      p.king[kBlack] = static_cast<uint8_t>(to);
    if (to - from == 2 || from - to == 2) {
      const int rook_from = to > from ? from + 3 : from - 4, rook_to = (from + to) / 2;
      const Bitboard rook = square_bb(rook_from) | square_bb(rook_to);
      p.orthogonal ^= rook;
      if (us == kWhite) p.white ^= rook;
    }
  } else {
    if (p.pawns & from_bb) p.pawns ^= moved;
    if (p.knights & from_bb) p.knights ^= moved;
    if (p.diagonal & from_bb) p.diagonal ^= moved;
    if (p.orthogonal & from_bb) p.orthogonal ^= moved;
    if (pawn_move) {
      if ((from ^ to) == 16) {
        ep = static_cast<uint8_t>((from + to) / 2);
        // Record it only when an enemy pawn stands ready to take, so positions compare equal.
        if (!(tables().pawn[us][ep] & p.pawns & (us == kWhite ? ~p.white : p.white))) ep = kNoSquare;
      } else if (to == p.ep_square) {
        const Bitboard captured = square_bb((from & ~7) | (to & 7));
        p.pawns ^= captured;
        if (us == kBlack) p.white ^= captured;
      }
      if (const uint32_t promotion = move_promotion(m)) {
        p.pawns ^= to_bb;
        if (promotion == kPromoteKnight) p.knights |= to_bb;
        if (promotion == kPromoteBishop || promotion == kPromoteQueen) p.diagonal |= to_bb;
        if (promotion == kPromoteRook || promotion == kPromoteQueen) p.orthogonal |= to_bb;
      }
    }
  }

  if (us == kWhite)
    p.white ^= moved;
  else
    p.white &= ~to_bb;
  p.castling &= tables().castling_kept[from] & tables().castling_kept[to];
  p.ep_square = ep;
  p.halfmove = (capture || pawn_move) ? 0 : static_cast<uint8_t>(p.halfmove < 255 ? p.halfmove + 1 : 255);
  if (us == kBlack) ++p.fullmove;
  p.side = static_cast<uint8_t>(us ^ 1);
}

CHESS_ISA_END
} // namespace chess
