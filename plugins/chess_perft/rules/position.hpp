// position.hpp - the chess position as a 48-byte POD blob (the plugin's state) and the move code.
//
// Pieces are five bitboards (pawns, knights, diagonal sliders = bishops and queens, orthogonal sliders
// = rooks and queens, white) plus the two king squares: small enough that the GPU perft engine moves
// 48 bytes per child, and every set the move generator needs is one or two ANDs away.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace chess {

using Bitboard = uint64_t;

enum Color : int { kWhite = 0, kBlack = 1 };

inline constexpr int kNoSquare = 64;

// Castling-right bits.
inline constexpr uint8_t kWhiteShort = 1, kWhiteLong = 2, kBlackShort = 4, kBlackLong = 8;

struct Position {
  Bitboard white;
  Bitboard pawns;
  Bitboard knights;
  Bitboard diagonal;   // bishops and queens
  Bitboard orthogonal; // rooks and queens
  uint8_t king[2];     // square of each side's king
  uint8_t side;        // Color to move
  uint8_t castling;    // k*Short / k*Long bits
  uint8_t ep_square;   // square a pawn that just advanced two passed over, else kNoSquare
  uint8_t halfmove;    // plies since the last capture or pawn move (FIDE caps it at 150)
  uint16_t fullmove;

  GSDK_HD Bitboard kings() const { return (Bitboard{1} << king[0]) | (Bitboard{1} << king[1]); }
  GSDK_HD Bitboard occupied() const { return pawns | knights | diagonal | orthogonal | kings(); }
  GSDK_HD Bitboard color(int c) const { return c == kWhite ? white : occupied() & ~white; }
};
static_assert(sizeof(Position) == 48, "the GPU engine's bandwidth budget assumes 48-byte states");

// Move code: from (bits 0-5), to (6-11), promotion piece (12-14: 0 none, 1 knight, 2 bishop, 3 rook,
// 4 queen). Castling is the king's two-square move; en passant is a pawn's diagonal move to ep_square.
using Move = uint32_t;
inline constexpr uint32_t kPromoteKnight = 1, kPromoteBishop = 2, kPromoteRook = 3, kPromoteQueen = 4;

GSDK_HD constexpr Move encode_move(int from, int to, uint32_t promotion = 0) {
  return static_cast<Move>(from) | (static_cast<Move>(to) << 6) | (promotion << 12);
}
GSDK_HD constexpr int move_from(Move m) { return static_cast<int>(m & 63); }
GSDK_HD constexpr int move_to(Move m) { return static_cast<int>((m >> 6) & 63); }
GSDK_HD constexpr uint32_t move_promotion(Move m) { return (m >> 12) & 7; }

GSDK_HD constexpr Bitboard square_bb(int sq) { return Bitboard{1} << sq; }

} // namespace chess
