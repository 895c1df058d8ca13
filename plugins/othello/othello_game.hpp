// othello_game.hpp - Othello as a gsdk game: per-state rules, perft on CPU threads and through the
// core's GPU engine, and batch random playouts on CPU and CUDA.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsdk/plugin.hpp"
#include "rules/environment.hpp"
#include "rules/playout_policy.hpp"
#include "rules/position.hpp"

namespace othello {

class Game {
public:
  using State = Position;
  static constexpr const char* kName = "othello";
  static constexpr const char* kDescription =
      "8x8 Othello (Reversi): bitboard rules, perft in three conventions, random playouts on CPU and GPU; "
      "states are 64 squares (X black, O white, - empty) and the side to move, moves d3 or pass";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);

  Convention convention() const { return convention_; }

  uint32_t max_moves() const { return kMaxMoves; }
  std::pair<int64_t, int64_t> score_range() const { return {-64, 64}; }
  void initial_state(State& s) const;
  int32_t current_player(const State& s) const;
  // The convention's move set: squares, else the single move pass (also at the end, except under
  // finished_not_leaf), so that perft through this table matches the batch tables.
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const;
  // Black's result in discs, empties to the winner (final_score); of an unfinished game, the same
  // count of the discs on the board.
  int64_t score(const State& s) const;
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const;
  State state_from_string(std::string_view text) const;

  uint64_t cpu_perft(const State& s, uint32_t depth) const;
  // gsdk.perft_keys.v1: the smallest of the position's 8 board symmetries, side to move cleared (rules/canonical.hpp).
  void canonical_state(State& s) const;

  static int32_t best_simd_level();
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const;
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;
  // Whether playouts from `start` report perfect play's outcome (exact_empties) instead of a random game.
  bool exact_state(const State& start) const;
  // gsdk.evaluation.v1, the side to move's view: the pattern evaluation (rules/patterns.hpp) with the shipped
  // weights or a `weights` file's, or under evaluation=basic the hand-set one (rules/evaluation.hpp).
  int32_t evaluation_scale() const;
  int32_t evaluate(const State& s) const;
  uint64_t state_hash(const State& s) const;

  // gsdk.move_codes.v1: a move's code is the move (squares 0..63, pass 64), so codes are the move names' order.
  uint32_t code_count() const { return kCodeCount; }
  uint32_t move_code(const State&, uint32_t move) const { return move; }
  // gsdk.observations.v1 and gsdk.batched_steps.v1 (rules/environment.hpp; environment_tables.cpp): uint8
  // (2, 8, 8), the discs of the player to move, then the opponent's.
  std::vector<uint32_t> observation_shape() const { return {2, 8, 8}; }
  int32_t observation_type() const { return GSDK_ELEMENT_UINT8; }
  void fill_observations(const State* states, uint32_t count, void* out) const noexcept;
  // Throws naming the game whose action is not a legal move's code. A game that ends leaves its final position in
  // final_states[k] when final_states is not null (ABI 1.13's step_keeping_final).
  void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                  int32_t* players, uint8_t* legal, State* final_states) const;

#if defined(GSDK_WITH_CUDA)
  // The same as fill_observations and step_batch, to the bit, one thread per game (cuda/environment.cu). A game
  // whose action is not a legal move's code is left as it was (no error can leave a queued kernel).
  void cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const;
  void cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
                       float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                       State* final_states) const;
  void cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
                        uint8_t* legal) const;
  // The same values as evaluate(), to the bit (cuda/evaluation.cu).
  void cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream, int32_t* values) const;
  uint64_t cuda_scratch_bytes(uint64_t playout_count) const;
  void cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                     uint64_t scratch_size, gsdk_playout_summary& summary) const;
  void cuda_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                            uint32_t playouts_per_state, int32_t device, void* stream,
                            gsdk_outcome_counts* outcomes) const;
  // The same, with the exact states played out at random too (a search's provisional values).
  void cuda_random_playout_batches(uint64_t seed, uint64_t first_playout, const State* states, uint32_t count,
                                   uint32_t playouts_per_state, int32_t device, void* stream,
                                   gsdk_outcome_counts* outcomes) const;

  static constexpr uint32_t kCudaPerftLeafPlies = 3;
  void cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                               void* stream) const;
  void cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                 void* stream) const;
  void cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                              State* children, uint32_t* child_counts, void* stream) const;
  void cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                           uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const;
  // The same as canonical_state, to the bit, one thread per position (cuda/canonical_kernels.cu).
  void cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const;
#endif

private:
  // A playout request's start, checked: a position of this game's form (settled under the convention).
  Position playout_start(const void* start_state) const;
  // Records the request's playouts as that outcome: score 1, 0 or -1 for black, each of them.
  static void record_perfect_play(const Position& start, const gsdk_playout_request& request,
                                  gsdk_playout_summary& summary);
  // The pattern weights (all stages) under evaluation=patterns: loaded_weights_, else the shipped ones.
  const int16_t* pattern_weights() const;

  Convention convention_ = Convention::standard;
  uint32_t exact_empties_ = 0;
  PlayoutPolicy policy_ = PlayoutPolicy::random;
  bool patterns_ = false;                                      // evaluation=patterns, else the hand-set one
  std::shared_ptr<const std::vector<int16_t>> loaded_weights_; // the `weights` parameter's file
};

} // namespace othello
