// fen.hpp - Forsyth-Edwards Notation in and out, and UCI move text (host only).
#pragma once

#include <string>
#include <string_view>

#include "rules/position.hpp"

namespace chess {

inline constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Parses a FEN (the halfmove and fullmove fields may be left out, as in EPD). Throws
// std::invalid_argument naming the field and what was expected when the text is not a legal
// position: wrong field count, bad placement, missing or extra kings, pawns on the first or last
// rank, castling rights without their king and rook, an impossible en-passant square, the side
// not to move in check, or checks that no single move can give (too many checkers, two leapers, two
// checkers on one line with the king, a double pawn push that did not give the check).
Position parse_fen(std::string_view fen);
std::string to_fen(const Position& p);

std::string square_name(int sq);
// UCI long algebraic: e2e4, e7e8q, e1g1 for castling.
std::string move_to_uci(Move m);

} // namespace chess
