// test_tictactoe.cpp - k-in-a-row on a square board (tic-tac-toe at the defaults) with a static evaluation and
// state hashes (gsdk.evaluation.v1) and an exact range (gsdk.exact_states.v1: the last exact_empties cells), so
// that the tests can show alpha-beta and evaluation-backed UCT play a game that brings no search code of its own.
// Cells are numbered row by row from 0; a state's text is the board as one word ('.', 'X', 'O') and the side to
// move. X (player 0) moves first; the score is +1 when X completes a line, -1 for O, 0 for a full board.
#include <cstring>
#include <string>

#include "gsdk/plugin.hpp"

namespace test_tictactoe {

constexpr int32_t kLargest = 5;

struct State {
  char cells[28]; // size^2 used; 28: no padding bytes below
  int32_t to_move;
  int32_t empty;
  int32_t winner; // 0: none yet, 1: X, -1: O
};

const gsdk_param_desc kParameters[] = {
    {"board_size", GSDK_PARAM_INT, 0, 3, 0.0, nullptr, 3, kLargest, "cells per side of the square board"},
    {"exact_empties", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, kLargest* kLargest,
     "states with at most this many empty cells are in the exact range (searched to the end)"},
};

class Game {
public:
  using State = test_tictactoe::State;
  static constexpr const char* kName = "test_tictactoe";
  static constexpr const char* kDescription = "test game: three in a row on a square board, with an evaluation";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;
  static constexpr int32_t kRow = 3;

  static std::span<const gsdk_param_desc> parameters() { return kParameters; }
  explicit Game(const gsdk::Params& params)
      : size_(static_cast<int32_t>(params.get_int("board_size"))),
        exact_empties_(static_cast<int32_t>(params.get_int("exact_empties"))) {}

  uint32_t max_moves() const { return static_cast<uint32_t>(size_ * size_); }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const {
    std::memset(&s, 0, sizeof s);
    std::memset(s.cells, '.', sizeof s.cells);
    s.empty = size_ * size_;
  }
  int32_t current_player(const State& s) const {
    return s.winner != 0 || s.empty == 0 ? GSDK_PLAYER_TERMINAL : s.to_move;
  }
  uint32_t legal_moves(const State& s, uint32_t* moves, double*) const {
    uint32_t n = 0;
    for (int32_t cell = 0; cell < size_ * size_; ++cell)
      if (s.cells[cell] == '.') moves[n++] = static_cast<uint32_t>(cell);
    return n;
  }
  void apply_move(State& s, uint32_t cell) const {
    const char mark = s.to_move == 0 ? 'X' : 'O';
    s.cells[cell] = mark;
    s.to_move = 1 - s.to_move;
    --s.empty;
    for_each_line([&](const int32_t* line) {
      if (s.cells[line[0]] == mark && s.cells[line[1]] == mark && s.cells[line[2]] == mark)
        s.winner = mark == 'X' ? 1 : -1;
    });
  }
  int64_t score(const State& s) const { return s.winner; }

  // Lines still open to the side to move minus those open to the other, two marks of a line counting triple.
  int32_t evaluation_scale() const { return 1000; }
  int32_t evaluate(const State& s) const {
    const char mine = s.to_move == 0 ? 'X' : 'O', theirs = s.to_move == 0 ? 'O' : 'X';
    int32_t worth = 0;
    for_each_line([&](const int32_t* line) {
      int32_t own = 0, other = 0;
      for (int32_t k = 0; k < kRow; ++k) {
        own += s.cells[line[k]] == mine;
        other += s.cells[line[k]] == theirs;
      }
      if (other == 0) worth += own == 2 ? 3 : own;
      if (own == 0) worth -= other == 2 ? 3 : other;
    });
    return worth;
  }
  // FNV-1a over the cells and the side to move: enough for a test game's few thousand states.
  uint64_t state_hash(const State& s) const {
    uint64_t h = 1469598103934665603ull;
    for (int32_t k = 0; k < size_ * size_; ++k) h = (h ^ static_cast<unsigned char>(s.cells[k])) * 1099511628211ull;
    return (h ^ static_cast<uint64_t>(s.to_move)) * 1099511628211ull;
  }
  bool exact_state(const State& s) const { return s.empty <= exact_empties_; }

  std::string state_to_string(const State& s) const {
    return std::string(s.cells, static_cast<size_t>(size_ * size_)) + (s.to_move == 0 ? " X" : " O");
  }
  std::string move_to_string(const State&, uint32_t cell) const { return std::to_string(cell); }
  State state_from_string(std::string_view text) const {
    const size_t cells = static_cast<size_t>(size_ * size_);
    if (text.size() != cells + 2 || text[cells] != ' ' || (text[cells + 1] != 'X' && text[cells + 1] != 'O'))
      throw gsdk::PluginError("test_tictactoe state '" + std::string(text) + "': expected " + std::to_string(cells) +
                              " cells of '.', 'X' or 'O', a space and the side to move (X or O)");
    State s;
    initial_state(s);
    s.to_move = 0;
    for (size_t k = 0; k < cells; ++k) {
      if (text[k] == '.') continue;
      if (text[k] != 'X' && text[k] != 'O')
        throw gsdk::PluginError("test_tictactoe state: cell " + std::to_string(k) + " is '" + std::string(1, text[k]) +
                                "', expected '.', 'X' or 'O'");
      s.to_move = text[k] == 'X' ? 0 : 1;
      apply_move(s, static_cast<uint32_t>(k));
    }
    s.to_move = text[cells + 1] == 'X' ? 0 : 1;
    return s;
  }

private:
  // Calls f with the three cells of every straight line of kRow cells on the board.
  template <typename F> void for_each_line(F&& f) const {
    const int32_t steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int32_t row = 0; row < size_; ++row)
      for (int32_t col = 0; col < size_; ++col)
        for (const auto& step : steps) {
          const int32_t last_row = row + step[0] * (kRow - 1), last_col = col + step[1] * (kRow - 1);
          if (last_row >= size_ || last_col < 0 || last_col >= size_) continue;
          int32_t line[kRow];
          for (int32_t k = 0; k < kRow; ++k) line[k] = (row + step[0] * k) * size_ + col + step[1] * k;
          f(line);
        }
  }

  int32_t size_;
  int32_t exact_empties_;
};

} // namespace test_tictactoe

GSDK_PLUGIN(test_tictactoe::Game, "0.1.0")
