// fen.cpp - FEN parsing with field-by-field validation, FEN printing, UCI move text.
#include "rules/fen.hpp"

#include <charconv>
#include <stdexcept>
#include <vector>

#include "rules/movegen.hpp"

namespace chess {

namespace {

// Joins strings, string views, C strings and chars.
template <typename... Parts> std::string join(const Parts&... parts) {
  std::string out;
  (out += ... += parts);
  return out;
}

[[noreturn]] void reject(const std::string& field, const std::string& what) {
  throw std::invalid_argument(join("invalid FEN: ", field, ": ", what));
}

std::vector<std::string_view> split_fields(std::string_view fen) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < fen.size()) {
    while (i < fen.size() && (fen[i] == ' ' || fen[i] == '\t')) ++i;
    const size_t start = i;
    while (i < fen.size() && fen[i] != ' ' && fen[i] != '\t') ++i;
    if (i > start) fields.push_back(fen.substr(start, i - start));
  }
  return fields;
}

void parse_placement(std::string_view text, Position& p) {
  int rank = 7, file = 0, kings[2] = {0, 0};
  for (const char c : text) {
    if (c == '/') {
      if (file != 8) reject("field 1 (piece placement)", "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, expected 8");
      if (--rank < 0) reject("field 1 (piece placement)", "more than 8 ranks");
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) reject("field 1 (piece placement)", "rank " + std::to_string(rank + 1) + " has more than 8 squares");
      continue;
    }
    if (file >= 8) reject("field 1 (piece placement)", "rank " + std::to_string(rank + 1) + " has more than 8 squares");
    const int sq = rank * 8 + file++;
    const Bitboard b = square_bb(sq);
    const bool white = c >= 'A' && c <= 'Z';
    switch (white ? static_cast<char>(c - 'A' + 'a') : c) {
    case 'p':
      if (rank == 0 || rank == 7) reject("field 1 (piece placement)", "pawn on " + square_name(sq) + " (pawns cannot stand on the first or last rank)");
      p.pawns |= b;
      break;
    case 'n': p.knights |= b; break;
    case 'b': p.diagonal |= b; break;
    case 'r': p.orthogonal |= b; break;
    case 'q': p.diagonal |= b; p.orthogonal |= b; break;
    case 'k':
      ++kings[white ? kWhite : kBlack];
      p.king[white ? kWhite : kBlack] = static_cast<uint8_t>(sq);
      break;
    default:
      reject("field 1 (piece placement)", join("unknown piece letter '", c, "', expected one of PNBRQK pnbrqk or 1-8"));
    }
    if (white) p.white |= b;
  }
  if (rank != 0 || file != 8) reject("field 1 (piece placement)", "expected 8 ranks of 8 squares separated by '/'");
  for (int c = 0; c < 2; ++c)
    if (kings[c] != 1)
      reject("field 1 (piece placement)", std::string(c == kWhite ? "white" : "black") + " has " + std::to_string(kings[c]) + " kings, expected exactly 1");
  for (int c = 0; c < 2; ++c) {
    const Bitboard side = p.color(c);
    const char* name = c == kWhite ? "white" : "black";
    if (popcount(side & p.pawns) > 8) reject("field 1 (piece placement)", std::string(name) + " has more than 8 pawns");
    if (popcount(side) > 16) reject("field 1 (piece placement)", std::string(name) + " has more than 16 pieces");
  }
}

void parse_castling(std::string_view text, Position& p) {
  if (text == "-") return;
  struct Right { char letter; uint8_t bit; int color; int king; int rook; };
  constexpr Right rights[] = {{'K', kWhiteShort, kWhite, 4, 7}, {'Q', kWhiteLong, kWhite, 4, 0},
                              {'k', kBlackShort, kBlack, 60, 63}, {'q', kBlackLong, kBlack, 60, 56}};
  for (const char c : text) {
    const Right* right = nullptr;
    for (const Right& r : rights)
      if (r.letter == c) right = &r;
    if (!right) reject("field 3 (castling)", join("unexpected '", c, "', expected '-' or letters from KQkq"));
    if (p.castling & right->bit) reject("field 3 (castling)", join("'", c, "' appears twice"));
    const Bitboard side = p.color(right->color);
    if (p.king[right->color] != right->king)
      reject("field 3 (castling)", join("right '", c, "' but the king is not on ", square_name(right->king)));
    if (!(p.orthogonal & ~p.diagonal & side & square_bb(right->rook)))
      reject("field 3 (castling)", join("right '", c, "' but there is no rook on ", square_name(right->rook)));
    p.castling |= right->bit;
  }
}

// Returns the square the field names (kNoSquare for '-'), kept in p only when a pawn can take there.
int parse_en_passant(std::string_view text, Position& p) {
  if (text == "-") return kNoSquare;
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    reject("field 4 (en passant)", "'" + std::string(text) + "' is not a square, expected '-' or e.g. e3");
  const int sq = (text[1] - '1') * 8 + (text[0] - 'a');
  const int expected_rank = p.side == kWhite ? 5 : 2;
  if (sq / 8 != expected_rank)
    reject("field 4 (en passant)", square_name(sq) + " is not on rank " + std::to_string(expected_rank + 1) + ", where the " +
                                       (p.side == kWhite ? "black" : "white") + " pawn that just moved two squares passed");
  const int them = p.side ^ 1;
  const int pawn_sq = p.side == kWhite ? sq - 8 : sq + 8, origin = p.side == kWhite ? sq + 8 : sq - 8;
  if (!(p.pawns & p.color(them) & square_bb(pawn_sq)))
    reject("field 4 (en passant)", square_name(sq) + " but no " + (them == kWhite ? "white" : "black") + " pawn stands on " + square_name(pawn_sq));
  if (p.occupied() & (square_bb(sq) | square_bb(origin)))
    reject("field 4 (en passant)", square_name(sq) + " but " + square_name(sq) + " or " + square_name(origin) + " is occupied");
  // Kept only when a pawn can take, as make_move does, so equal positions compare equal.
  if (tables().pawn[them][sq] & p.pawns & p.color(p.side)) p.ep_square = static_cast<uint8_t>(sq);
  return sq;
}

int parse_counter(std::string_view text, const char* field, int lo, int hi) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi)
    reject(field, "'" + std::string(text) + "', expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return value;
}

// Whether the side not to move stands in check.
bool opponent_in_check(const Position& p) {
  const int sq = p.king[p.side ^ 1];
  const Bitboard attackers = p.color(p.side), occupied = p.occupied();
  return p.side == kWhite ? is_attacked<kWhite>(p, sq, attackers, occupied) : is_attacked<kBlack>(p, sq, attackers, occupied);
}

// The pieces of the side not to move that attack the king of the side to move, through `occupied`.
Bitboard checkers(const Position& p, Bitboard occupied) {
  const AttackTables& t = tables();
  const int ksq = p.king[p.side];
  const Bitboard attackers = (t.knight[ksq] & p.knights) | (t.pawn[p.side][ksq] & p.pawns) |
                             (bishop_attacks(ksq, occupied) & p.diagonal) |
                             (rook_attacks(ksq, occupied) & p.orthogonal);
  return attackers & p.color(p.side ^ 1);
}

std::string square_list(Bitboard squares) {
  std::string out;
  for (int sq = 0; sq < 64; ++sq)
    if (squares & square_bb(sq)) out += (out.empty() ? "" : ", ") + square_name(sq);
  return out;
}

// The checks a single legal move can leave, the rules python-chess's Board.status() applies
// (TOO_MANY_CHECKERS, IMPOSSIBLE_CHECK), reasoned here: a move checks directly with the piece it moves
// and by discovery with one slider whose line it leaves, so at most two pieces check, one of them a
// slider, and two checkers never stand on one line with the king (the moved piece would have blocked
// one). After a double pawn push (an en-passant square in the FEN) only the pushed pawn or a line it
// opened can check, and only once. Besides being impossible, such positions break the move generator,
// which assumes at most one leaper checks. `passed` is the FEN's en-passant square, kNoSquare if none.
void check_checks(const Position& p, int passed, std::string_view fen) {
  const auto refuse = [&](const std::string& what) { reject(join("position '", fen, "'"), what); };
  const char* const side = p.side == kWhite ? "white" : "black";
  const int ksq = p.king[p.side];
  const Bitboard occupied = p.occupied(), checking = checkers(p, occupied);
  const int count = popcount(checking);
  const std::string king =
      join("the ", side, " king on ", square_name(ksq), " is in check from ", std::to_string(count),
           count == 1 ? " piece (" : " pieces (", square_list(checking), ")");
  if (count > 2) refuse(king + "; a single move gives check with at most two pieces");
  if (count == 0) return;
  if (passed != kNoSquare) {
    const int pushed = p.side == kWhite ? passed - 8 : passed + 8, origin = p.side == kWhite ? passed + 8 : passed - 8;
    if (count > 1)
      refuse(king + ", but the last move was a double pawn push (en passant " + square_name(passed) +
             "), which gives check with one piece at most");
    const Bitboard before = (occupied & ~square_bb(pushed)) | square_bb(origin);
    if (!(checking & square_bb(pushed)) && (checkers(p, before) & ~square_bb(pushed)))
      refuse(king + ", but the last move was a double pawn push (en passant " + square_name(passed) +
             ") and the king was already in check before it");
    return;
  }
  if (count < 2) return;
  const Bitboard sliders = p.diagonal | p.orthogonal;
  if (!(checking & sliders)) refuse(king + "; a double check needs a slider whose line the moving piece opened");
  const AttackTables& t = tables();
  for (const auto& line : t.line)
    if (popcount(line[ksq] & checking) == 2)
      refuse(king + " along one line; the piece that moved would have blocked one of them");
}

} // namespace

std::string square_name(int sq) { return {static_cast<char>('a' + sq % 8), static_cast<char>('1' + sq / 8)}; }

std::string move_to_uci(Move m) {
  std::string text = square_name(move_from(m)) + square_name(move_to(m));
  if (const uint32_t promotion = move_promotion(m)) text += "?nbrq"[promotion];
  return text;
}

Position parse_fen(std::string_view fen) {
  const std::vector<std::string_view> fields = split_fields(fen);
  if (fields.size() != 4 && fields.size() != 6)
    reject("field count", std::to_string(fields.size()) + " fields, expected 6 (placement, side, castling, en passant, halfmove, fullmove) or the first 4");
  Position p{};
  p.ep_square = kNoSquare;
  p.fullmove = 1;
  parse_placement(fields[0], p);
  if (fields[1] != "w" && fields[1] != "b") reject("field 2 (side to move)", "'" + std::string(fields[1]) + "', expected 'w' or 'b'");
  p.side = fields[1] == "w" ? kWhite : kBlack;
  parse_castling(fields[2], p);
  const int passed = parse_en_passant(fields[3], p);
  if (fields.size() == 6) {
    p.halfmove = static_cast<uint8_t>(parse_counter(fields[4], "field 5 (halfmove clock)", 0, 150));
    p.fullmove = static_cast<uint16_t>(parse_counter(fields[5], "field 6 (fullmove number)", 1, 65535));
  }
  if (opponent_in_check(p))
    reject("position", std::string("the side not to move (") + (p.side == kWhite ? "black" : "white") + ") is in check");
  check_checks(p, passed, fen);
  return p;
}

std::string to_fen(const Position& p) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const int sq = rank * 8 + file;
      const Bitboard b = square_bb(sq);
      char c = 0;
      if (p.pawns & b) c = 'p';
      else if (p.knights & b) c = 'n';
      else if ((p.diagonal & b) && (p.orthogonal & b)) c = 'q';
      else if (p.diagonal & b) c = 'b';
      else if (p.orthogonal & b) c = 'r';
      else if (p.kings() & b) c = 'k';
      if (!c) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += (p.white & b) ? static_cast<char>(c - 'a' + 'A') : c;
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank) out += '/';
  }
  out += p.side == kWhite ? " w " : " b ";
  std::string castling;
  if (p.castling & kWhiteShort) castling += 'K';
  if (p.castling & kWhiteLong) castling += 'Q';
  if (p.castling & kBlackShort) castling += 'k';
  if (p.castling & kBlackLong) castling += 'q';
  out += castling.empty() ? "-" : castling;
  out += ' ';
  out += p.ep_square == kNoSquare ? "-" : square_name(p.ep_square);
  out += ' ' + std::to_string(p.halfmove) + ' ' + std::to_string(p.fullmove);
  return out;
}

} // namespace chess
