// game.hpp - coin_runs as a gsdk game: the rules class the GSDK_PLUGIN macro (gsdk/plugin.hpp) turns
// into the C tables of gsdk_plugin.h. Each capability is a member function; the helper detects at
// compile time which optional tables this class provides (here: CPU playouts, replay, exact score
// distribution, and in a CUDA build (GSDK_WITH_CUDA, cuda/kernels.cu) CUDA playouts from the SDK's template).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsdk/plugin.hpp"
#include "rules.hpp"

namespace coin_runs {

class Game {
public:
  using State = coin_runs::State;
  static constexpr const char* kName = "coin_runs"; // the plugin's and the game's name: `game = "coin_runs"`
  static constexpr const char* kDescription = "flip a fair coin `flips` times, score the longest run of heads";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = GSDK_GAME_FLAG_CHANCE;

  // Parameters are data: the host validates configs against these declarations before create().
  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params); // throws gsdk::PluginError for a refused combination

  // Per-state table.
  uint32_t max_moves() const { return 2; }
  std::pair<int64_t, int64_t> score_range() const { return {0, flips_}; }
  void initial_state(State& s) const { s = State{0, 0, 0}; }
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const { apply_flip(s, move); }
  int64_t score(const State& s) const { return s.longest; }
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const { return move == kHeads ? "H" : "T"; }
  State state_from_string(std::string_view text) const; // throws gsdk::PluginError naming what is wrong

  // Optional tables.
  static int32_t best_simd_level() { return GSDK_SIMD_SCALAR; }
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const;
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;
  void exact_score_distribution(double* probabilities, uint32_t bins) const;
#if defined(GSDK_WITH_CUDA)
  // cuda/kernels.cu
  uint64_t cuda_scratch_bytes(uint64_t playout_count) const;
  void cuda_playouts(const gsdk_playout_request& request, int32_t device, void* stream, void* scratch,
                     uint64_t scratch_size, gsdk_playout_summary& summary) const;
#endif

  int flips() const {
    return flips_;
  }

private:
  // `start` checked against this game (NULL: the initial state). Throws gsdk::PluginError.
  State checked_start(const void* start) const;

  int flips_;
};

} // namespace coin_runs
