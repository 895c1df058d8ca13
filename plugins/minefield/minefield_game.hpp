// minefield_game.hpp - the minefield as a gsdk game: one agent's walk as per-state rules (for tests,
// conformance and playouts), the tabular environment the Q-learning trainers run on CPU and CUDA, and
// the policy picture.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board.hpp"
#include "environment.hpp"
#include "gsdk/plugin.hpp"

namespace minefield {

// One agent: its cell and the steps it has taken (an agent stops at the step limit).
struct State {
  uint32_t cell;
  uint32_t steps;
};

class Game {
public:
  using State = minefield::State;
  static constexpr const char* kName = "minefield";
  static constexpr const char* kDescription =
      "agents walk an N x N grid of mines to its flag (+1 on the flag, -1 on a mine): multi-agent Q-learning";
  static constexpr uint32_t kPlayers = 1;
  static constexpr uint32_t kFlags = 0;

  static std::span<const gsdk_param_desc> parameters();
  explicit Game(const gsdk::Params& params);
  Game(const Game&) = delete; // environment_ points into step_cells_
  Game& operator=(const Game&) = delete;

  uint32_t max_moves() const { return kActions; }
  std::pair<int64_t, int64_t> score_range() const { return {-1, 1}; }
  void initial_state(State& s) const { s = State{board_.starts.front(), 0}; }
  int32_t current_player(const State& s) const;
  uint32_t legal_moves(const State& s, uint32_t* moves, double* probabilities) const;
  void apply_move(State& s, uint32_t action) const;
  int64_t score(const State& s) const;
  std::string state_to_string(const State& s) const;
  std::string move_to_string(const State&, uint32_t action) const;
  State state_from_string(std::string_view text) const;

  // gsdk.move_codes.v1: an action's code is the action.
  uint32_t code_count() const { return kActions; }
  uint32_t move_code(const State&, uint32_t action) const { return action; }
  // gsdk.observations.v1 and gsdk.batched_steps.v1 (environment_tables.cpp): uint8 (3, N, N) over the cells, row by
  // row as cells are numbered; plane 0 the mines, plane 1 the flag, plane 2 the agent's cell (1 = there, 0 = not).
  // The steps taken are not shown.
  std::vector<uint32_t> observation_shape() const { return {3, board_.size, board_.size}; }
  int32_t observation_type() const { return GSDK_ELEMENT_UINT8; }
  void fill_observations(const State* states, uint32_t count, void* out) const noexcept;
  // Throws naming the game whose action is not 0..3. An episode that ends leaves its final state in final_states[k]
  // when final_states is not null (ABI 1.13's step_keeping_final).
  void step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                  int32_t* players, uint8_t* legal, State* final_states) const;

  const Environment& environment() const { return environment_; }
  std::span<const uint32_t> start_states() const { return board_.starts; }
#if defined(GSDK_WITH_CUDA)
  // The same as fill_observations and step_batch, to the bit (cuda/environment.cu); a game whose action is not
  // 0..3 is left as it was (no error can leave a queued kernel).
  void cuda_fill_observations(const State* states, uint32_t count, int32_t device, void* stream, void* out) const;
  void cuda_step_batch(State* states, const uint32_t* actions, uint32_t count, int32_t device, void* stream,
                       float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                       State* final_states) const;
  void cuda_reset_batch(State* states, uint32_t count, int32_t device, void* stream, int32_t* players,
                        uint8_t* legal) const;
  uint64_t cuda_qlearning_scratch_bytes(const gsdk_qlearning_request& request) const;
  double cuda_qlearning_train(const gsdk_qlearning_request& request, int32_t device, void* stream, void* scratch,
                              uint64_t scratch_size) const;
#endif
  void policy_image(const float* q_table, const uint64_t* visits, std::vector<uint8_t>& rgb, uint32_t& width,
                    uint32_t& height) const;

  const Board& board() const { return board_; }

private:
  Board board_;
  std::vector<uint8_t> step_cells_; // encode_cells(board_)
  Environment environment_;
  std::vector<uint8_t> board_planes_; // the observation's mine and flag planes, the same for every state
};

} // namespace minefield
