// chess_game.hpp - chess as a gsdk game: per-state rules (FEN text, UCI moves), perft on CPU threads,
// the batch kernels the core's GPU perft engine drives, and canonical positions for hashed perft.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsdk/plugin.hpp"
#include "rules/environment.hpp"
#include "rules/position.hpp"

namespace chess {

class Game {
public:
  using State = Position;
  static constexpr const char* kName = "chess_perft";
  static constexpr const char* kDescription =
      "standard chess: legal move generation, perft on CPU and GPU; states are FEN, moves UCI (e2e4, e7e8q)";
  static constexpr uint32_t kPlayers = 2;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);

  // 218 is the most legal moves any chess position has.
  uint32_t max_moves() const { return 218; }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const;
  // The game ends at checkmate or stalemate, and for playouts also by FIDE's automatic draws that need
  // no history: the 75-move rule and dead positions (bare kings, or a lone minor piece). Legal moves
  // and perft ignore the draws, as every published perft table does.
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const;
  int64_t score(const State& s) const; // white's result: +1 win, 0 draw, -1 loss
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const;
  State state_from_string(std::string_view text) const;

  uint64_t cpu_perft(const State& s, uint32_t depth) const;
  // gsdk.perft_keys.v1: move clocks to fixed values, an en-passant square no pawn attacks cleared
  // (rules/canonical.hpp).
  void canonical_state(State& s) const;

  // gsdk.move_codes.v1 and gsdk.observations.v1 for vectorised environments (rules/environment.hpp).
  uint32_t code_count() const { return kCodeCount; }
  uint32_t move_code(const State&, uint32_t move) const { return chess::move_code(move); }
  std::vector<uint32_t> observation_shape() const { return {kObservationPlanes, 8, 8}; }
  int32_t observation_type() const { return GSDK_ELEMENT_UINT8; }
  void fill_observations(const State* states, uint32_t count, void* out) const noexcept {
    for (uint32_t k = 0; k < count; ++k) write_observation(states[k], static_cast<uint8_t*>(out) + size_t{k} * kObservationBytes);
  }

  // How the GPU counts the last two plies (a game parameter, so both can be benchmarked).
  enum class LeafKernel { thread_per_position, warp_per_position };
  LeafKernel leaf_kernel() const { return leaf_kernel_; }

#if defined(GSDK_WITH_CUDA)
  static constexpr uint32_t kCudaPerftLeafPlies = 2;
  void cuda_perft_count_leaves(const State* states, uint32_t count, uint32_t plies, uint32_t* counts,
                               void* stream) const;
  void cuda_perft_generate_moves(const State* states, uint32_t count, const uint32_t* offsets, uint32_t* moves,
                                 void* stream) const;
  void cuda_perft_apply_moves(const State* states, const uint32_t* parents, const uint32_t* moves, uint32_t count,
                              State* children, uint32_t* child_counts, void* stream) const;
  void cuda_perft_count_leaves_after_moves(const State* states, const uint32_t* parents, const uint32_t* moves,
                                           uint32_t count, uint32_t plies, uint32_t* counts, void* stream) const;
  void cuda_canonical_states(const State* in, uint32_t count, State* out, void* stream) const;
#endif

private:
  LeafKernel leaf_kernel_ = LeafKernel::thread_per_position;
};

} // namespace chess
