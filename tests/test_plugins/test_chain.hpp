// test_chain.hpp - test_chain.so, the divisor chain puzzle (test_chain_rules.hpp) as a gsdk game: per-state
// rules, move codes, CPU batch playouts and replays, and the three CUDA nested-search tables, which it gets
// from the SDK's templates (test_chain.cu) by giving them its rules (test_chain_device_rules.hpp): the second
// game after snake to search on the GPU, written to prove the templates generic.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsdk/plugin.hpp"
#include "test_chain_device_rules.hpp"
#include "test_chain_rules.hpp"

namespace test_chain {

class Game {
public:
  using State = test_chain::State;
  static constexpr const char* kName = "test_chain";
  static constexpr const char* kDescription =
      "test game: a chain of distinct numbers 1..N, each dividing or a multiple of the one before, scored by its "
      "sum; states are 'chain 6 3 1'";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);

  DeviceRules device_rules() const { return DeviceRules{numbers_}; }

  uint32_t max_moves() const { return numbers_; }
  std::pair<int64_t, int64_t> score_range() const { return {0, int64_t{numbers_} * (numbers_ + 1) / 2}; }
  void initial_state(State& s) const { s = State{}; }
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t move) const { play(s, move); }
  int64_t score(const State& s) const { return s.chain.sum; }
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t move) const { return std::to_string(move + 1); }
  State state_from_string(std::string_view text) const;

  // NRPA's move codes: the number itself, whatever came before it.
  uint32_t code_count() const { return numbers_; }
  uint32_t move_code(const State&, uint32_t move) const { return move; }

  static int32_t best_simd_level() { return GSDK_SIMD_SCALAR; }
  void cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const;
  std::vector<uint32_t> replay_playout(uint64_t seed, uint64_t playout, const State* start) const;

#if defined(GSDK_WITH_CUDA)
  // The SDK's nested searches (gsdk/nested/cuda_*_searches.cuh), stop requests included.
  uint32_t max_game_length() const {
    return device_rules().max_game_length();
  }
  void cuda_level1_searches(uint64_t seed, State* states, const uint64_t* first_streams, uint32_t count, int32_t device,
                            void* stream, gsdk_level1_result* results, uint32_t* moves,
                            const uint32_t* stop = nullptr) const;
  uint64_t cuda_level2_scratch_bytes(uint32_t count) const;
  void cuda_level2_searches(uint64_t seed, const State* states, const uint64_t* search_streams, const uint64_t* ids,
                            uint32_t count, int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                            gsdk_level2_result* results, uint32_t* moves, uint32_t* record_moves,
                            const uint32_t* stop = nullptr) const;
  uint64_t cuda_nrpa_scratch_bytes(uint32_t count, uint32_t level) const;
  void cuda_nrpa_searches(uint64_t seed, uint32_t level, uint32_t iterations, double alpha, double* policies,
                          const uint64_t* first_streams, uint32_t count, int32_t device, void* stream, void* scratch,
                          uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                          const uint32_t* stop = nullptr) const;
#endif

private:
  // A playout request's start, checked: a chain of these rules, every byte as play() leaves it.
  const State& playout_start(const void* start_state) const;

  uint32_t numbers_ = 0;
};

} // namespace test_chain
