// game.hpp - connect_four as a gsdk game: the rules class the GSDK_PLUGIN macro (gsdk/plugin.hpp) turns into
// the C tables of gsdk_plugin.h. Each capability is a member function; the helper detects at compile time
// which optional tables this class provides: here a static evaluation (alpha-beta), CPU playouts, replay and CPU
// perft, move codes, observations and batched steps for gsdk.VectorEnv, and in a CUDA build (GSDK_WITH_CUDA,
// cuda/kernels.cu) CUDA playouts, CUDA playout batches for tree search, CUDA perft and the CUDA environment, all
// from the SDK's templates over device_rules.hpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evaluation.hpp"
#include "gsdk/nested/perft_rules.hpp"
#include "gsdk/plugin.hpp"
#include "rules.hpp"

namespace connect_four {

class Game {
public:
  using State = connect_four::State;
  static constexpr const char* kName = "connect_four"; // the plugin's and the game's name: `game = "connect_four"`
  static constexpr const char* kDescription =
      "Connect Four on a 7x6 board: bitboard rules, perft, random playouts on CPU and GPU; positions are the "
      "columns played (\"4453\") or a diagram of rows from the top (\"......./.../..OXX..\"), moves columns 1-7";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0; // no chance moves

  // No parameters: the board is always 7x6 (the chance template shows how to declare some).
  static std::span<const gsdk_param_desc> parameters() { return {}; }
  explicit Game(const gsdk::Params&) {}

  // Per-state table. Scores are player 0's result: 1 win, 0 draw, -1 loss.
  uint32_t max_moves() const { return kColumns; }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const { s = State{{0, 0}}; }
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const { play(s, move); }
  int64_t score(const State& s) const { return outcome(s); }
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const { return std::to_string(move + 1); }
  State state_from_string(std::string_view text) const; // throws gsdk::PluginError naming what is wrong

  // Optional tables.
  // gsdk.evaluation.v1 (evaluation.hpp): the worth of a position to the side to move, for alpha-beta and UCT's
  // evaluated leaves. Never called on a finished game: searches score those exactly.
  int32_t evaluation_scale() const { return kEvaluationScale; }
  int32_t evaluate(const State& s) const { return evaluate_position(s); }
  uint64_t state_hash(const State& s) const { return position_hash(s); }
  uint64_t cpu_perft(const State& s, uint32_t depth) const;
  static int32_t best_simd_level() { return GSDK_SIMD_SCALAR; }
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const;
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;
  // gsdk.VectorEnv's tables: actions are move codes (a move's code is its column); the observation is uint8
  // (2, 6, 7), the mover's discs then the opponent's (device_rules.hpp); the step is the SDK's over the device
  // rules (gsdk/environments/batched_steps.hpp), which also keeps the final states learners observe.
  uint32_t code_count() const { return kColumns; }
  uint32_t move_code(const State&, uint32_t move) const { return move; }
  std::vector<uint32_t> observation_shape() const { return {2, kRows, kColumns}; }
  int32_t observation_type() const { return GSDK_ELEMENT_UINT8; }
  void fill_observations(const State* states, uint32_t count, void* out) const noexcept;
  void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                  int32_t* players, uint8_t* legal, State* final_states) const;

#if defined(GSDK_WITH_CUDA)
  // cuda/kernels.cu
  uint64_t cuda_scratch_bytes(uint64_t playout_count) const;
  void cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                     uint64_t scratch_size, gsdk_playout_summary& summary) const;
  void cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                            uint32_t playouts_per_state, int32_t device, void* stream,
                            gsdk_outcome_counts* outcomes) const;
  // The kernels of the core's breadth-first GPU perft; the last two plies are counted in place.
  static constexpr uint32_t kCudaPerftLeafPlies = gsdk::nested::kPerftLeafPlies;
  void cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                               void* stream) const;
  void cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                 void* stream) const;
  void cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                              State* children, uint32_t* child_counts, void* stream) const;
  void cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                           uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const;
  // The environment on the GPU: the same step and observation as the CPU's, one thread per game.
  void cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const;
  void cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
                       float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                       State* final_states) const;
  void cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
                        uint8_t* legal) const;
#endif

private:
  // A playout request's start (NULL: the empty board), checked as far as bytes can be. Throws gsdk::PluginError.
  State checked_start(const void* start) const;
};

} // namespace connect_four
