// snake_game.hpp - Snake-in-the-box as a gsdk game: the longest induced path of the d-dimensional
// hypercube from vertex 0. One player; a move is the dimension the head flips; the score is the length
// in edges. Per-state rules, batch random playouts on CPU and CUDA (uniform, Kinny's or tight policy), replays,
// move codes for NRPA, whole NMCS level-1 and level-2 and NRPA searches on CUDA, the snake file of a
// search's best sequence with its independent check, and what a beam search over snakes needs: perft on CPU and
// CUDA (its level-by-level expansion, checked), canonical states (the move list zeroed: transposed snakes share a
// key) and an evaluation to rank snakes of one length by (free or reachable vertices, rules/evaluation.hpp), on
// CPU and CUDA alike.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsdk/nested/perft_rules.hpp"
#include "gsdk/plugin.hpp"
#include "rules/evaluation.hpp"
#include "rules/random_snake.hpp"
#include "rules/snake_state.hpp"

namespace snake {

class Game {
public:
  using State = snake::State;
  static constexpr const char* kName = "snake";
  static constexpr const char* kDescription =
      "Snake-in-the-box: the longest induced path of the d-dimensional hypercube from vertex 0; a move is "
      "the dimension the head flips, the score the length in edges; states are 'd=5 moves 0 1 2 0 3'";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);

  const Rules& rules() const { return rules_; }
  Policy policy() const { return policy_; }

  uint32_t max_moves() const { return rules_.dimension; }
  std::pair<int64_t, int64_t> score_range() const { return {0, length_bound(rules_.dimension)}; }
  void initial_state(State& s) const;
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const;
  int64_t score(const State& s) const { return s.length; }
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const { return std::to_string(move); }
  State state_from_string(std::string_view text) const;

  // NRPA's move codes: the head vertex and the dimension flipped (rules.hpp).
  uint32_t code_count() const { return nrpa_code_count(rules_); }
  uint32_t move_code(const State& s, uint32_t move) const { return nrpa_code(rules_, s.head, move); }
  // gsdk.observations.v1 (observations.cpp): uint8 (2, 2^d) over the vertices; plane 0 the blocked ones (the snake's
  // vertices before its head, their neighbours, and any blocked subcubes: where the head can no longer go), plane 1
  // the head (1 = yes, 0 = no).
  std::vector<uint32_t> observation_shape() const { return {2, 1u << rules_.dimension}; }
  int32_t observation_type() const { return GSDK_ELEMENT_UINT8; }
  void fill_observations(const State* states, uint32_t count, void* out) const noexcept;
#if defined(GSDK_WITH_CUDA)
  // The same bytes on a device (cuda/observations.cu).
  void cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const;
#endif

  // The snake file of a sequence (checker/snake_document.hpp), and the independent checker's verdict on it
  // (checker/snake_check.hpp; throws gsdk::PluginError naming the first violation).
  std::string sequence_document(std::span<const uint32_t> moves) const;
  void check_sequence(std::span<const uint32_t> moves) const;

  // gsdk.cpu_perft.v1 (cpu/perft_cpu.hpp): the move sequences of exactly `depth` moves from s.
  uint64_t cpu_perft(const State& s, uint32_t depth) const;
  // gsdk.perft_keys.v1: s with its move list zeroed (rules/canonical.hpp says why that is safe).
  void canonical_state(State& s) const;
  // gsdk.evaluation.v1 (rules/evaluation.hpp): the parameter `evaluation`'s measure, in [0, 2^(d+1)], inside
  // (-2^(d+2), 2^(d+2)); the hash covers exactly what canonical_state keeps.
  Evaluation evaluation() const {
    return evaluation_;
  }
  int32_t evaluation_scale() const {
    return snake::evaluation_scale(rules_.dimension);
  }
  int32_t evaluate(const State& s) const {
    return snake::evaluate(evaluation_, s);
  }
  uint64_t state_hash(const State& s) const {
    return snake::state_hash(s);
  }

  static int32_t best_simd_level() {
    return GSDK_SIMD_SCALAR;
  }
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const;
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;

#if defined(GSDK_WITH_CUDA)
  uint64_t cuda_scratch_bytes(uint64_t playout_count) const;
  void cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                     uint64_t scratch_size, gsdk_playout_summary& summary) const;
  // The GPU searches are the SDK's (gsdk/nested/) over cuda/device_rules.hpp, and take the host's stop request
  // (ABI 1.6: device memory the searches poll, or null).
  // Level-1 NMCS on the GPU (gsdk.cuda_level1_searches.v1), one thread (or warp) per search.
  uint32_t max_game_length() const;
  void cuda_level1_searches(uint64_t seed, State* states, const uint64_t* first_streams, uint32_t count, int32_t device,
                            void* stream, gsdk_level1_result* results, uint32_t* moves,
                            const uint32_t* stop = nullptr) const;
  // Level-2 NMCS on the GPU (gsdk.cuda_level2_searches.v1), one thread (or warp) per search.
  uint64_t cuda_level2_scratch_bytes(uint32_t count) const;
  void cuda_level2_searches(uint64_t seed, const State* states, const uint64_t* search_streams, const uint64_t* ids,
                            uint32_t count, int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                            gsdk_level2_result* results, uint32_t* moves, uint32_t* record_moves,
                            const uint32_t* stop = nullptr) const;
  // Whole NRPA searches on the GPU (gsdk.cuda_nrpa_searches.v1), one thread (or warp) per search.
  uint64_t cuda_nrpa_scratch_bytes(uint32_t count, uint32_t level) const;
  void cuda_nrpa_searches(uint64_t seed, uint32_t level, uint32_t iterations, double alpha, double* policies,
                          const uint64_t* first_streams, uint32_t count, int32_t device, void* stream, void* scratch,
                          uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                          const uint32_t* stop = nullptr) const;
  // gsdk.cuda_perft.v1 and gsdk.perft_keys.v1's cuda_canonical: the SDK's templates over cuda/perft_rules.hpp
  // (cuda/perft_kernels.cu).
  static constexpr uint32_t kCudaPerftLeafPlies = gsdk::nested::kPerftLeafPlies;
  void cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                               void* stream) const;
  void cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                 void* stream) const;
  void cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                              State* children, uint32_t* child_counts, void* stream) const;
  void cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                           uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const;
  void cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const;
  // evaluate() on a device, one thread per state, to the bit (cuda/evaluation.cu).
  void cuda_evaluate(const State* states, uint32_t count, int32_t device, void* stream, int32_t* values) const;
#endif

private:
  // Whether the game's empty snake already has blocked vertices (parameter blocked_subcubes).
  bool has_blocked_subcubes() const;
  // A playout request's start, checked: a snake these rules can reach, every byte as play() leaves it.
  const State& playout_start(const void* start_state) const;

  Rules rules_{};
  Policy policy_ = Policy::uniform;
  Evaluation evaluation_ = Evaluation::reachable;
  State initial_{};
};

} // namespace snake
