// board_text.cpp - connect_four's text I/O: diagrams written and read, move sequences read, with errors
// that name the character, move, row or column at fault.
#include "board_text.hpp"

#include "gsdk/plugin.hpp"
#include "state_checks.hpp"

namespace connect_four {

namespace {

constexpr char kEmptyCell = '.';
constexpr char kDiscs[2] = {'X', 'O'};

[[noreturn]] void refuse(std::string_view text, const std::string& problem) {
  throw gsdk::PluginError("connect_four position \"" + std::string(text) + "\": " + problem);
}

// Why the finished game `s` ended.
std::string end_of_game(const State& s) {
  const int32_t result = outcome(s);
  if (result == 0) return "the board is full";
  return std::string(1, kDiscs[result > 0 ? 0 : 1]) + " has four in a row";
}

State parse_moves(std::string_view text) {
  State s{{0, 0}};
  for (size_t i = 0; i < text.size(); ++i) {
    const std::string move = "move " + std::to_string(i + 1) + " ('" + std::string(1, text[i]) + "')";
    if (text[i] < '1' || text[i] > '7')
      refuse(text, move + " is not a column 1-7 (a diagram has '/' between its rows)");
    const uint32_t column = static_cast<uint32_t>(text[i] - '1');
    if (game_over(s)) refuse(text, move + " comes after the end of the game (" + end_of_game(s) + ")");
    if ((legal_columns(s) & (1u << column)) == 0) refuse(text, move + ": column " + text[i] + " is full");
    play(s, column);
  }
  return s;
}

State parse_diagram(std::string_view text) {
  State s{{0, 0}};
  std::string_view rest = text;
  for (uint32_t row = 0; row < kRows; ++row) { // row 0 is the top row
    const size_t end = rest.find('/');
    const std::string_view cells = rest.substr(0, end);
    const std::string where = "row " + std::to_string(row + 1) + " from the top";
    if (cells.size() != kColumns)
      refuse(text, where + " has " + std::to_string(cells.size()) + " cells, expected 7 of 'X', 'O' or '.'");
    for (uint32_t c = 0; c < kColumns; ++c) {
      const uint64_t cell = bottom_cell(c) << (kRows - 1 - row);
      if (cells[c] == kDiscs[0])
        s.discs[0] |= cell;
      else if (cells[c] == kDiscs[1])
        s.discs[1] |= cell;
      else if (cells[c] != kEmptyCell)
        refuse(text, where + ", column " + std::to_string(c + 1) + ": '" + std::string(1, cells[c]) +
                         "' is not 'X', 'O' or '.'");
    }
    if (end == std::string_view::npos) {
      if (row + 1 != kRows) refuse(text, "has " + std::to_string(row + 1) + " rows, expected 6 separated by '/'");
      rest = {};
    } else {
      rest.remove_prefix(end + 1);
    }
  }
  if (!rest.empty() || text.back() == '/') refuse(text, "has more than 6 rows");
  if (const std::string problem = structure_problem(s); !problem.empty()) refuse(text, problem);
  if (!reachable(s)) refuse(text, "no game reaches this position (no order of alternating moves, X first, builds it)");
  return s;
}

} // namespace

std::string board_diagram(const State& s) {
  std::string text;
  for (uint32_t row = 0; row < kRows; ++row) {
    if (row > 0) text += '/';
    for (uint32_t c = 0; c < kColumns; ++c) {
      const uint64_t cell = bottom_cell(c) << (kRows - 1 - row);
      text += (s.discs[0] & cell) ? kDiscs[0] : (s.discs[1] & cell) ? kDiscs[1] : kEmptyCell;
    }
  }
  return text;
}

State parse_position(std::string_view text) {
  return text.find('/') == std::string_view::npos ? parse_moves(text) : parse_diagram(text);
}

} // namespace connect_four
