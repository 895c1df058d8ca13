// test_tictactoe.cpp - k-in-a-row on a square board (tic-tac-toe at the defaults) with a static evaluation and
// state hashes (gsdk.evaluation.v1) and an exact range (gsdk.exact_states.v1: the last exact_empties cells), so
// that the tests can show alpha-beta and evaluation-backed UCT play a game that brings no search code of its own.
// Cells are numbered row by row from 0; a state's text is the board as one word ('.', 'X', 'O') and the side to
// move. X (player 0) moves first; the score is +1 when X completes a line, -1 for O, 0 for a full board.
#include <cstddef>
#include <cstring>
#include <string>

#include "gsdk/plugin.hpp"
#include "test_tictactoe_rules.hpp"

namespace test_tictactoe {

const gsdk_param_desc kParameters[] = {
    {"board_size", GSDK_PARAM_INT, 0, 3, 0.0, nullptr, 3, kLargest, "cells per side of the square board"},
    {"exact_empties", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, kLargest* kLargest,
     "states with at most this many empty cells are in the exact range (searched to the end)"},
    {"env_fault", GSDK_PARAM_INT, 0, 0, 0.0, nullptr, 0, 3,
     "0: correct environment tables; 1: the batched step pays a win to the loser; 2: fill skips a plane; 3: the "
     "keeping step loses final states"},
};

class Game {
public:
  using State = test_tictactoe::State;
  static constexpr const char* kName = "test_tictactoe";
  static constexpr const char* kDescription = "test game: three in a row on a square board, with an evaluation";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;
  static constexpr int32_t kRow = Rules::kRow;

  static std::span<const gsdk_param_desc> parameters() { return kParameters; }
  explicit Game(const gsdk::Params& params)
      : rules_{static_cast<int32_t>(params.get_int("board_size")), params.get_int("env_fault")}, size_(rules_.size),
        exact_empties_(static_cast<int32_t>(params.get_int("exact_empties"))) {}

  uint32_t max_moves() const { return static_cast<uint32_t>(size_ * size_); }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const { rules_.initial_state(s); }
  int32_t current_player(const State& s) const { return rules_.current_player(s); }
  uint32_t legal_moves(const State& s, uint32_t* moves, double*) const {
    uint32_t n = 0;
    for (int32_t cell = 0; cell < size_ * size_; ++cell)
      if (s.cells[cell] == '.') moves[n++] = static_cast<uint32_t>(cell);
    return n;
  }
  void apply_move(State& s, uint32_t cell) const { rules_.apply_move(s, cell); }
  int64_t score(const State& s) const { return s.winner; }

  // Lines still open to the side to move minus those open to the other, two marks of a line counting triple.
  int32_t evaluation_scale() const { return 1000; }
  int32_t evaluate(const State& s) const {
    const char mine = s.to_move == 0 ? 'X' : 'O', theirs = s.to_move == 0 ? 'O' : 'X';
    int32_t worth = 0;
    rules_.for_each_line([&](const int32_t* line) {
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

  uint32_t code_count() const { return max_moves(); }
  uint32_t move_code(const State&, uint32_t cell) const { return cell; }

  uint32_t observation_shape(uint32_t* extents, uint32_t capacity) const {
    const uint32_t shape[3] = {2, static_cast<uint32_t>(size_), static_cast<uint32_t>(size_)};
    for (uint32_t d = 0; d < 3 && d < capacity; ++d) extents[d] = shape[d];
    return 3;
  }
  void fill_observations(const State* states, uint32_t count, float* out) const {
    for (uint32_t k = 0; k < count; ++k) rules_.observe(states[k], out + static_cast<size_t>(k) * 2 * rules_.cells());
  }
  void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                  int32_t* players, uint8_t* legal, State* final_states) const {
    for (uint32_t k = 0; k < count; ++k)
      rules_.step(states[k], actions[k], rewards + 2 * k, terminated[k], players[k],
                  legal + static_cast<size_t>(k) * rules_.cells(), final_states ? final_states + k : nullptr);
  }
  const Rules& rules() const { return rules_; }

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
  Rules rules_;
  int32_t size_;
  int32_t exact_empties_;
};

// ---- ABI 1.11 tables in C ----

using Adapter = gsdk::detail::Adapter<Game>;

uint32_t observation_shape(const gsdk_game_instance* i, uint32_t* extents, uint32_t capacity) {
  return Adapter::game(i).observation_shape(extents, capacity);
}
int32_t observation_type(const gsdk_game_instance*) {
  return GSDK_ELEMENT_FLOAT32;
}
void fill_observations(const gsdk_game_instance* i, const void* states, uint32_t count, void* out) {
  Adapter::game(i).fill_observations(static_cast<const State*>(states), count, static_cast<float*>(out));
}
int32_t step_batch(const gsdk_game_instance* i, void* states, const uint32_t* actions, uint32_t count, float* rewards,
                   uint8_t* terminated, int32_t* players, uint8_t* legal, char* error, uint32_t error_size) {
  return gsdk::detail::guarded(error, error_size, [&] {
    Adapter::game(i).step_batch(static_cast<State*>(states), actions, count, rewards, terminated, players, legal,
                                nullptr);
  });
}
int32_t step_batch_keeping_final(const gsdk_game_instance* i, void* states, const uint32_t* actions, uint32_t count,
                                 float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                                 void* final_states, char* error, uint32_t error_size) {
  return gsdk::detail::guarded(error, error_size, [&] {
    Adapter::game(i).step_batch(static_cast<State*>(states), actions, count, rewards, terminated, players, legal,
                                static_cast<State*>(final_states));
  });
}

#if defined(GSDK_WITH_CUDA)
int32_t cuda_fill_observations(const gsdk_game_instance* i, const void* states, uint32_t count, int32_t, void* stream,
                               void* out, char* error, uint32_t error_size) {
  return gsdk::detail::guarded(error, error_size, [&] {
    cuda_fill(Adapter::game(i).rules(), static_cast<const State*>(states), count, stream, static_cast<float*>(out));
  });
}
int32_t cuda_step_batch(const gsdk_game_instance* i, void* states, const uint32_t* actions, uint32_t count, int32_t,
                        void* stream, float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                        char* error, uint32_t error_size) {
  return gsdk::detail::guarded(error, error_size, [&] {
    cuda_step(Adapter::game(i).rules(), static_cast<State*>(states), actions, count, stream, rewards, terminated,
              players, legal);
  });
}
int32_t cuda_reset_batch(const gsdk_game_instance* i, void* states, uint32_t count, int32_t, void* stream,
                         int32_t* players, uint8_t* legal, char* error, uint32_t error_size) {
  return gsdk::detail::guarded(error, error_size, [&] {
    cuda_reset(Adapter::game(i).rules(), static_cast<State*>(states), count, stream, players, legal);
  });
}
constexpr auto kCudaFill = &cuda_fill_observations;
constexpr auto kCudaStep = &cuda_step_batch;
constexpr auto kCudaReset = &cuda_reset_batch;
#else
constexpr decltype(gsdk_observations::cuda_fill) kCudaFill = nullptr;
constexpr decltype(gsdk_batched_steps::cuda_step) kCudaStep = nullptr;
constexpr decltype(gsdk_batched_steps::cuda_reset) kCudaReset = nullptr;
#endif

const gsdk_observations kObservations = {{GSDK_TYPE_OBSERVATIONS, sizeof(gsdk_observations)},
                                         &observation_shape,
                                         &observation_type,
                                         &fill_observations,
                                         kCudaFill};
// The CPU step keeps final states (ABI 1.13) and the CUDA one does not, as a plugin whose device code predates
// that: a CUDA environment of it refuses final observations.
const gsdk_batched_steps kBatchedSteps = {{GSDK_TYPE_BATCHED_STEPS, sizeof(gsdk_batched_steps)},
                                          &step_batch,
                                          kCudaStep,
                                          kCudaReset,
                                          &step_batch_keeping_final,
                                          nullptr};

const void* get_proc(const char* name) {
  const std::string_view n(name ? name : "");
  if (n == GSDK_TABLE_OBSERVATIONS) return &kObservations;
  if (n == GSDK_TABLE_BATCHED_STEPS) return &kBatchedSteps;
  return Adapter::get_proc(name);
}

} // namespace test_tictactoe

// GSDK_PLUGIN's entry point, with the ABI 1.11 tables added to its get_proc.
extern "C" GSDK_EXPORT int32_t gsdk_negotiate(const gsdk_negotiation* request, gsdk_plugin_info* info, char* error,
                                              uint32_t error_size) {
  const int32_t status = gsdk::detail::negotiate<test_tictactoe::Game>(request, info, "0.1.0", error, error_size);
  if (status == GSDK_OK && info->header.size >= offsetof(gsdk_plugin_info, get_proc) + sizeof info->get_proc)
    info->get_proc = &test_tictactoe::get_proc;
  return status;
}
