// position.hpp - an Othello position (whose turn, whose discs), moves, passes, the end and the score,
// plus the three perft conventions in use. Host and device code share every function here, so CPU
// and CUDA agree by construction.
#pragma once

#include <cstdint>

#include "bitboard.hpp"

namespace othello {

inline constexpr uint32_t kBlack = 0;
inline constexpr uint32_t kWhite = 1;
inline constexpr uint32_t kPass = 64; // the move code of a pass; squares are 0..63
// The most moves a position can offer (33 is the known maximum; a pass list has one).
inline constexpr uint32_t kMaxMoves = 34;

// The discs of the side to move and of the other side, and who moves (kBlack or kWhite).
struct Position {
  Bitboard own;
  Bitboard opponent;
  uint32_t side;
  uint32_t reserved; // always 0, so equal positions are equal blobs
};

GSDK_HD Position start_position() {
  // White on d4 and e5, black on e4 and d5; black moves first.
  return Position{square_bit(28) | square_bit(35), square_bit(27) | square_bit(36), kBlack, 0};
}

GSDK_HD Bitboard black_discs(const Position& p) {
  return p.side == kBlack ? p.own : p.opponent;
}
GSDK_HD Bitboard white_discs(const Position& p) {
  return p.side == kBlack ? p.opponent : p.own;
}

GSDK_HD Bitboard legal_moves(const Position& p) {
  return legal_moves(p.own, p.opponent);
}
GSDK_HD bool opponent_can_move(const Position& p) {
  return legal_moves(p.opponent, p.own) != 0;
}
GSDK_HD bool game_over(const Position& p) {
  return legal_moves(p) == 0 && !opponent_can_move(p);
}

GSDK_HD void pass(Position& p) {
  const Bitboard own = p.own;
  p.own = p.opponent;
  p.opponent = own;
  p.side ^= 1u;
}

// Plays a legal square or kPass.
GSDK_HD void play(Position& p, uint32_t move) {
  if (move != kPass) {
    const Bitboard flipped = flips(p.own, p.opponent, move);
    p.own |= flipped | square_bit(move);
    p.opponent ^= flipped;
  }
  pass(p);
}

// Black's discs minus white's, the empty squares going to the winner (the World Othello Federation's
// rule, so a finished score is always in -64..64 and has the winner's sign).
GSDK_HD int32_t final_score(const Position& p) {
  const int32_t black = gsdk::bits::popcount64(black_discs(p));
  const int32_t white = gsdk::bits::popcount64(white_discs(p));
  const int32_t empty = 64 - black - white;
  if (black > white) return black - white + empty;
  if (white > black) return black - white - empty;
  return 0;
}

// The per-state table's score: final_score once the game is over, else black's discs minus white's.
GSDK_HD int32_t state_score(const Position& p) {
  if (game_over(p)) return final_score(p);
  return gsdk::bits::popcount64(black_discs(p)) - gsdk::bits::popcount64(white_discs(p));
}

// How perft treats passes and finished games. Published tables use all three.
enum class Convention : uint32_t {
  standard = 0,      // a pass is a ply; a finished game is a leaf at any remaining depth
  finished_not_leaf, // a pass is a ply; a finished game before the last ply adds nothing
  free_pass,         // a forced pass costs no ply (positions are stored after it); a finished game is a leaf
};

// Under free_pass every stored position has its pass already made: the side to move can move,
// or nobody can.
GSDK_HD void settle(Position& p, Convention c) {
  if (c == Convention::free_pass && legal_moves(p) == 0 && opponent_can_move(p)) pass(p);
}

// The move list of a position under convention c, as a square mask plus whether the list is the
// single move kPass. A finished game lists kPass too (except under finished_not_leaf), so that perft
// counts it once at every depth below.
struct MoveSet {
  Bitboard squares;
  bool pass_only;
};

GSDK_HD MoveSet move_set(const Position& p, Convention c) {
  const Bitboard squares = legal_moves(p);
  if (squares) return MoveSet{squares, false};
  if (c == Convention::finished_not_leaf && !opponent_can_move(p)) return MoveSet{0, false};
  return MoveSet{0, true};
}

GSDK_HD uint32_t move_count(const MoveSet& m) {
  return m.pass_only ? 1u : static_cast<uint32_t>(gsdk::bits::popcount64(m.squares));
}

// perft(p, 1).
GSDK_HD uint32_t perft1(const Position& p, Convention c) {
  return move_count(move_set(p, c));
}

// The child of p after `move` from its move set, settled.
GSDK_HD Position child(Position p, uint32_t move, Convention c) {
  play(p, move);
  settle(p, c);
  return p;
}

// perft(p, 2): the children's move counts, without storing them.
GSDK_HD uint64_t perft2(const Position& p, Convention c) {
  const MoveSet moves = move_set(p, c);
  if (moves.pass_only) return perft1(child(p, kPass, c), c);
  uint64_t leaves = 0;
  for (Bitboard rest = moves.squares; rest; rest &= rest - 1) leaves += perft1(child(p, lowest_square(rest), c), c);
  return leaves;
}

} // namespace othello
