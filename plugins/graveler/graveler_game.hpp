// graveler_game.hpp - graveler as a gsdk game: per-state rules for tree search and tests, and the
// batch playout paths (SIMD CPU, CUDA) where the speed is.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graveler_rules.hpp"
#include "gsdk/plugin.hpp"

namespace graveler {

class Game {
public:
  using State = graveler::State;
  static constexpr const char* kName = "graveler";
  static constexpr const char* kDescription =
      "ShoddyCast's graveler challenge: roll a d4 `rolls` times, score the number of 1s";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = GSDK_GAME_FLAG_CHANCE;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);

  uint32_t max_moves() const { return 4; }
  std::pair<int64_t, int64_t> score_range() const { return {0, layout_.rolls}; }
  void initial_state(State& s) const { s = State{0, 0}; }
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t face) const;
  int64_t score(const State& s) const { return s.ones; }
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t face) const { return std::to_string(face); }
  State state_from_string(std::string_view text) const;

  static int32_t best_simd_level();
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const;
#if defined(GSDK_WITH_CUDA)
  uint64_t cuda_scratch_bytes(uint64_t playout_count) const;
  void cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                     uint64_t scratch_size, gsdk_playout_summary& summary) const;
#endif
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;
  void exact_score_distribution(double* probabilities, uint32_t bins) const;

  // The faces rolled by one battle of `rolls` rolls (the fast path's randomness, made visible).
  static std::vector<uint32_t> battle_faces(uint64_t seed, const BattleLayout& layout, uint64_t battle);

private:
  // Layout of the rolls still to make from `start` (all of them from the initial state).
  BattleLayout remaining_layout(const void* start, int& ones_so_far) const;

  BattleLayout layout_;
};

} // namespace graveler
