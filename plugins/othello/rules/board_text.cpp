// board_text.cpp - reading and writing the board text of board_text.hpp.
#include "board_text.hpp"

#include <cctype>
#include <stdexcept>

namespace othello {

namespace {

enum class Cell { black, white, empty, invalid };

Cell cell_of(char c) {
  switch (c) {
  case 'X': case 'x': case '*': case 'B': case 'b': return Cell::black;
  case 'O': case 'o': case 'W': case 'w': return Cell::white;
  case '-': case '.': case '_': return Cell::empty;
  default: return Cell::invalid;
  }
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string shown(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "byte " + std::to_string(static_cast<unsigned char>(c));
}

std::optional<uint32_t> side_of(std::string_view word) {
  const std::string w = lower(word);
  if (w == "x" || w == "b" || w == "*" || w == "black") return kBlack;
  if (w == "o" || w == "w" || w == "white") return kWhite;
  return std::nullopt;
}

} // namespace

std::string to_text(const Position& p) {
  std::string text(64, '-');
  const Bitboard black = black_discs(p), white = white_discs(p);
  for (uint32_t s = 0; s < 64; ++s) {
    if (black & square_bit(s)) text[s] = 'X';
    else if (white & square_bit(s)) text[s] = 'O';
  }
  return text + (p.side == kBlack ? " X" : " O");
}

Position parse_text(std::string_view text) {
  const std::string trimmed = lower(text);
  if (trimmed == "start" || trimmed == "startpos") return start_position();
  Bitboard black = 0, white = 0;
  uint32_t square = 0;
  size_t i = 0;
  for (; i < text.size() && square < 64; ++i) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    const Cell cell = cell_of(c);
    if (cell == Cell::invalid)
      throw std::invalid_argument("board character " + std::to_string(i + 1) + " (square " + move_name(square) +
                                  ") is " + shown(c) + ", expected X or * (black), O (white) or - (empty)");
    if (cell == Cell::black) black |= square_bit(square);
    if (cell == Cell::white) white |= square_bit(square);
    ++square;
  }
  if (square < 64)
    throw std::invalid_argument("the board has " + std::to_string(square) +
                                " squares, expected 64 (a1..h1, a2..h2, ..., a8..h8) and then the side to move");
  const size_t side_start = text.find_first_not_of(" \t\r\n", i);
  if (side_start == std::string_view::npos)
    throw std::invalid_argument("the side to move is missing after the 64 squares, expected X (black) or O (white)");
  const size_t side_end = text.find_first_of(" \t\r\n", side_start);
  const std::string_view side_word = text.substr(side_start, side_end - side_start);
  const std::optional<uint32_t> side = side_of(side_word);
  if (!side)
    throw std::invalid_argument("the side to move is '" + std::string(side_word) +
                                "', expected X or black, O or white");
  if (side_end != std::string_view::npos && text.find_first_not_of(" \t\r\n", side_end) != std::string_view::npos)
    throw std::invalid_argument("unexpected text after the side to move: '" +
                                std::string(text.substr(text.find_first_not_of(" \t\r\n", side_end))) + "'");
  for (const uint32_t centre : {27u, 28u, 35u, 36u})
    if (!((black | white) & square_bit(centre)))
      throw std::invalid_argument("centre square " + move_name(centre) +
                                  " is empty: every Othello position has d4, e4, d5 and e5 occupied");
  return *side == kBlack ? Position{black, white, kBlack, 0} : Position{white, black, kWhite, 0};
}

std::string move_name(uint32_t move) {
  if (move == kPass) return "pass";
  if (move >= 64) return "invalid-move-" + std::to_string(move);
  return std::string{static_cast<char>('a' + move % 8), static_cast<char>('1' + move / 8)};
}

std::optional<uint32_t> parse_move_name(std::string_view name) {
  const std::string n = lower(name);
  if (n == "pass") return kPass;
  if (n.size() != 2 || n[0] < 'a' || n[0] > 'h' || n[1] < '1' || n[1] > '8') return std::nullopt;
  return static_cast<uint32_t>((n[1] - '1') * 8 + (n[0] - 'a'));
}

} // namespace othello
