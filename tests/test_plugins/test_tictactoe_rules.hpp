// test_tictactoe_rules.hpp - test_tictactoe's rules on one board, for the host and for CUDA kernels alike (GSDK_HD),
// with what ABI 1.11's tables do to one game: a step with its rewards and restart, the mask, the observation. The
// plugin's per-state table (test_tictactoe.cpp) and its CUDA tables (test_tictactoe.cu) share them, so the CUDA
// environment steps exactly the host's games.
#pragma once

#include <cstdint>

#include "gsdk/gsdk_plugin.h"
#include "gsdk/hd.hpp"

namespace test_tictactoe {

constexpr int32_t kLargest = 5;
constexpr int64_t kFaultWrongReward = 1;
constexpr int64_t kFaultUnwrittenPlane = 2;
constexpr int64_t kFaultLostFinalState = 3;

struct State {
  char cells[28]; // size^2 used; 28: no padding bytes below
  int32_t to_move;
  int32_t empty;
  int32_t winner; // 0: none yet, 1: X, -1: O
};

struct Rules {
  static constexpr int32_t kRow = 3;
  int32_t size = 3;
  int64_t env_fault = 0; // kFault*: breaks the ABI 1.11 tables on purpose (0: correct)

  GSDK_HD int32_t cells() const { return size * size; }
  GSDK_HD void initial_state(State& s) const {
    for (char& c : s.cells) c = '.';
    s.to_move = 0;
    s.empty = cells();
    s.winner = 0;
  }
  GSDK_HD int32_t current_player(const State& s) const {
    return s.winner != 0 || s.empty == 0 ? GSDK_PLAYER_TERMINAL : s.to_move;
  }
  GSDK_HD void apply_move(State& s, uint32_t cell) const {
    const char mark = s.to_move == 0 ? 'X' : 'O';
    s.cells[cell] = mark;
    s.to_move = 1 - s.to_move;
    --s.empty;
    for_each_line([&](const int32_t* line) {
      if (s.cells[line[0]] == mark && s.cells[line[1]] == mark && s.cells[line[2]] == mark)
        s.winner = mark == 'X' ? 1 : -1;
    });
  }
  // Calls f with the three cells of every straight line of kRow cells on the board.
  template <typename F> GSDK_HD void for_each_line(F&& f) const {
    const int32_t steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int32_t row = 0; row < size; ++row)
      for (int32_t col = 0; col < size; ++col)
        for (const auto& step : steps) {
          const int32_t last_row = row + step[0] * (kRow - 1), last_col = col + step[1] * (kRow - 1);
          if (last_row >= size || last_col < 0 || last_col >= size) continue;
          int32_t line[kRow];
          for (int32_t k = 0; k < kRow; ++k) line[k] = (row + step[0] * k) * size + col + step[1] * k;
          f(line);
        }
  }

  // The side to move and the mask of the empty cells (a move's code is its cell).
  GSDK_HD void describe(const State& s, int32_t& player, uint8_t* legal_row) const {
    player = s.to_move;
    for (int32_t c = 0; c < cells(); ++c) legal_row[c] = s.cells[c] == '.' ? 1 : 0;
  }
  // ABI 1.11's step of one game: the move of code `action`, the rewards and a restart when the game ends (the final
  // state kept in *final_state first, when given: ABI 1.13), then the side to move and the mask.
  GSDK_HD void step(State& s, uint32_t action, float* rewards, uint8_t& terminated, int32_t& player,
                    uint8_t* legal_row, State* final_state = nullptr) const {
    apply_move(s, action);
    const bool over = current_player(s) == GSDK_PLAYER_TERMINAL;
    const int32_t paid = env_fault == kFaultWrongReward ? -s.winner : s.winner;
    rewards[0] = over ? static_cast<float>(paid) : 0.0f;
    rewards[1] = -rewards[0] + 0.0f; // + 0.0f: no -0.0f beside a draw's 0.0f
    terminated = over ? 1 : 0;
    if (over && final_state && env_fault != kFaultLostFinalState) *final_state = s;
    if (over) initial_state(s);
    describe(s, player, legal_row);
  }
  // Two planes of size x size: the marks of the side to move, then the other side's.
  GSDK_HD void observe(const State& s, float* out) const {
    const char mine = s.to_move == 0 ? 'X' : 'O';
    for (int32_t c = 0; c < cells(); ++c) {
      out[c] = s.cells[c] == mine ? 1.0f : 0.0f;
      if (env_fault == kFaultUnwrittenPlane) continue;
      out[cells() + c] = s.cells[c] != mine && s.cells[c] != '.' ? 1.0f : 0.0f;
    }
  }
};

#if defined(GSDK_WITH_CUDA)
// The CUDA tables' work (test_tictactoe.cu), one thread per game, queued on `stream` of the current device; a failed
// launch throws gsdk::PluginError.
void cuda_step(const Rules& rules, State* states, const uint32_t* actions, uint32_t count, void* stream, float* rewards,
               uint8_t* terminated, int32_t* players, uint8_t* legal);
void cuda_reset(const Rules& rules, State* states, uint32_t count, void* stream, int32_t* players, uint8_t* legal);
void cuda_fill(const Rules& rules, const State* states, uint32_t count, void* stream, float* observations);
#endif

} // namespace test_tictactoe
