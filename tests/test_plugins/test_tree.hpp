// test_tree.hpp - test_tree as a gsdk game: the per-state table, a CPU perft and, in CUDA builds, the
// gsdk.cuda_perft.v1 kernels the core's GPU perft engine is tested with. Parameters: the initial
// state's hash (`seed`), the ply at which every game ends (`max_ply`; the score is the ply reached)
// and `fail_apply`, which makes the CUDA apply_moves and count_leaves_after_moves fail so that error
// reports can be tested. Its evaluation (CPU and CUDA) is for the beam search's tests. Its gsdk.perft_keys.v1 (CPU, and
// CUDA beside the kernels) clears `reserved`; `keys_fault` breaks it on purpose (test_tree_rules.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "gsdk/plugin.hpp"
#include "test_tree_rules.hpp"

namespace test_tree {

class Game {
public:
  using State = test_tree::State;
  static constexpr const char* kName = "test_tree";
  static constexpr const char* kDescription = "test game: a synthetic move tree of uneven branching for perft";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);

  uint32_t max_moves() const { return kMaxMoves; }
  std::pair<int64_t, int64_t> score_range() const { return {0, max_ply_}; }
  void initial_state(State& s) const { s = State{seed_, 0, 0}; }
  int32_t current_player(const State& s) const { return move_count(s, max_ply_) == 0 ? GSDK_PLAYER_TERMINAL : 0; }
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const { s = child(s, move); }
  int64_t score(const State& s) const { return s.ply; }
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const;
  State state_from_string(std::string_view text) const;

  int32_t evaluation_scale() const { return kEvaluationScale; }
  int32_t evaluate(const State& s) const { return tree_value(s, max_ply_); }
  uint64_t state_hash(const State& s) const { return mix(s.hash ^ s.ply); }
  uint64_t cpu_perft(const State& s, uint32_t depth) const;
  void canonical_state(State& s) const;
#if defined(GSDK_WITH_CUDA)
  static constexpr uint32_t kCudaPerftLeafPlies = kLeafPlies;
  void cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                               void* stream) const;
  void cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                 void* stream) const;
  void cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                              State* children, uint32_t* child_counts, void* stream) const;
  void cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                           uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const;
  void cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const;
  void cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream, int32_t* values) const;
#endif

private:
  uint64_t seed_;
  uint32_t max_ply_;
  bool fail_apply_;
  int64_t keys_fault_;
};

} // namespace test_tree
