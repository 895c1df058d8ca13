// test_board.cpp - a tiny two-player board game for the tests of GTP's boardsize: players alternately put a
// stone on an empty cell of a board_size x board_size board until it is full; whoever holds more cells of
// the main diagonal wins. Moves are GTP vertices ("a1".."i9"); a state's text is the board, row a1..e1
// first, as one word of board_size^2 cells ('.', 'X', 'O') and the side to move, as Othello writes it.
#include <cstring>
#include <string>

#include "gsdk/plugin.hpp"

namespace test_board {

constexpr int32_t kLargest = 9;

struct State {
  char cells[84]; // '.', 'X' (player 0) or 'O' (player 1); size^2 used; 84, not 81: no padding bytes below
  int32_t to_move;
  int32_t empty;
};

const gsdk_param_desc kParameters[] = {
    {"board_size", GSDK_PARAM_INT, 0, 5, 0.0, nullptr, 3, kLargest, "cells per side of the square board"},
};

class Game {
public:
  using State = test_board::State;
  static constexpr const char* kName = "test_board";
  static constexpr const char* kDescription = "test game: fill a square board; the main diagonal decides";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters() { return kParameters; }
  explicit Game(const gsdk::Params& params) : size_(static_cast<int32_t>(params.get_int("board_size"))) {}

  uint32_t max_moves() const { return static_cast<uint32_t>(size_ * size_); }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const {
    std::memset(&s, 0, sizeof s);
    std::memset(s.cells, '.', sizeof s.cells);
    s.empty = size_ * size_;
  }
  int32_t current_player(const State& s) const { return s.empty == 0 ? GSDK_PLAYER_TERMINAL : s.to_move; }
  uint32_t legal_moves(const State& s, uint32_t* moves, double*) const {
    uint32_t n = 0;
    for (int32_t cell = 0; cell < size_ * size_; ++cell)
      if (s.cells[cell] == '.') moves[n++] = static_cast<uint32_t>(cell);
    return n;
  }
  void apply_move(State& s, uint32_t cell) const {
    s.cells[cell] = s.to_move == 0 ? 'X' : 'O';
    s.to_move = 1 - s.to_move;
    --s.empty;
  }
  int64_t score(const State& s) const {
    int32_t lead = 0;
    for (int32_t k = 0; k < size_; ++k) lead += s.cells[k * size_ + k] == 'X' ? 1 : -1;
    return lead > 0 ? 1 : lead < 0 ? -1 : 0;
  }
  std::string state_to_string(const State& s) const {
    return std::string(s.cells, static_cast<size_t>(size_ * size_)) + (s.to_move == 0 ? " X" : " O");
  }
  std::string move_to_string(const State&, uint32_t cell) const {
    return std::string(1, static_cast<char>('a' + cell % size_)) + std::to_string(cell / size_ + 1);
  }
  State state_from_string(std::string_view text) const {
    const size_t cells = static_cast<size_t>(size_ * size_);
    if (text.size() != cells + 2 || text[cells] != ' ' || (text[cells + 1] != 'X' && text[cells + 1] != 'O'))
      throw gsdk::PluginError("test_board state '" + std::string(text) + "': expected " + std::to_string(cells) +
                              " cells of '.', 'X' or 'O', a space and the side to move (X or O)");
    State s;
    initial_state(s);
    int32_t xs = 0, os = 0;
    for (size_t k = 0; k < cells; ++k) {
      const char c = text[k];
      if (c != '.' && c != 'X' && c != 'O')
        throw gsdk::PluginError("test_board state: cell " + std::to_string(k) + " is '" + std::string(1, c) +
                                "', expected '.', 'X' or 'O'");
      s.cells[k] = c;
      xs += c == 'X';
      os += c == 'O';
    }
    s.to_move = text[cells + 1] == 'X' ? 0 : 1;
    if (xs - os != s.to_move)
      throw gsdk::PluginError("test_board state: " + std::to_string(xs) + " X and " + std::to_string(os) +
                              " O stones cannot have " + text[cells + 1] + " to move");
    s.empty = static_cast<int32_t>(cells) - xs - os;
    return s;
  }

private:
  int32_t size_;
};

} // namespace test_board

GSDK_PLUGIN(test_board::Game, "0.1.0")
