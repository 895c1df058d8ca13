// environment.hpp - chess for vectorised environments: compact move codes (gsdk.move_codes.v1) and the observation
// planes (gsdk.observations.v1), from the side to move's view.
//
// Move codes (4168): from * 64 + to for every move but an under-promotion (a queen promotion included: a pawn
// reaching the last rank by that square pair is always a promotion, so the pair names it); an under-promotion is
// 4096 + ((piece - 1) * 3 + file step + 1) * 8 + the pawn's file, piece 1 knight, 2 bishop, 3 rook, file step -1, 0
// or +1. Within one position the side, hence the ranks, are fixed, so the codes of its legal moves are distinct.
//
// Observation: uint8 (18, 8, 8), element [plane][row][column] for square 8 * row + column of the board as the side to
// move sees it (black's view mirrors the ranks: a8 becomes a1), so "own pawns advance up" for both sides:
// planes 0-5 the mover's pawns, knights, bishops, rooks, queens and king; 6-11 the opponent's; 12 the en-passant
// target square; 13-16 all ones when the mover may castle short, long, and the opponent short, long; 17 all ones
// when black moves. The halfmove clock and the move number are not shown.
#pragma once

#include <cstdint>
#include <cstring>

#include "gsdk/environments/byte_planes.hpp"
#include "position.hpp"

namespace chess {

inline constexpr uint32_t kUnderPromotionCodes = 3 * 3 * 8;
inline constexpr uint32_t kCodeCount = 64 * 64 + kUnderPromotionCodes;
inline constexpr uint32_t kObservationPlanes = 18;
inline constexpr uint32_t kObservationBytes = kObservationPlanes * 64;

GSDK_HD uint32_t move_code(Move m) {
  const uint32_t promotion = move_promotion(m);
  const uint32_t from = static_cast<uint32_t>(move_from(m)), to = static_cast<uint32_t>(move_to(m));
  if (promotion == 0 || promotion == kPromoteQueen) return from * 64 + to;
  const uint32_t file_step = (to & 7) + 1 - (from & 7); // 0, 1 or 2
  return 64 * 64 + ((promotion - 1) * 3 + file_step) * 8 + (from & 7);
}

// The board as the side to move sees it: black's view swaps the ranks (square s becomes s ^ 56).
inline Bitboard mover_view(Bitboard b, int side) { return side == kWhite ? b : __builtin_bswap64(b); }

inline void write_observation(const Position& p, uint8_t* out) {
  const int us = p.side, them = us ^ 1;
  const Bitboard mine = p.color(us), theirs = p.color(them);
  const Bitboard bishops = p.diagonal & ~p.orthogonal, rooks = p.orthogonal & ~p.diagonal;
  const Bitboard queens = p.diagonal & p.orthogonal;
  const Bitboard kinds[6] = {p.pawns, p.knights, bishops, rooks, queens, p.kings()};
  for (int kind = 0; kind < 6; ++kind) {
    gsdk::environments::write_byte_plane(mover_view(kinds[kind] & mine, us), out + 64 * kind);
    gsdk::environments::write_byte_plane(mover_view(kinds[kind] & theirs, us), out + 64 * (6 + kind));
  }
  const Bitboard en_passant = p.ep_square == kNoSquare ? 0 : square_bb(p.ep_square);
  gsdk::environments::write_byte_plane(mover_view(en_passant, us), out + 64 * 12);
  const uint8_t short_right[2] = {kWhiteShort, kBlackShort}, long_right[2] = {kWhiteLong, kBlackLong};
  const bool flags[5] = {(p.castling & short_right[us]) != 0, (p.castling & long_right[us]) != 0,
                         (p.castling & short_right[them]) != 0, (p.castling & long_right[them]) != 0, us == kBlack};
  for (int f = 0; f < 5; ++f) std::memset(out + 64 * (13 + f), flags[f] ? 1 : 0, 64);
}

} // namespace chess
