// game.cpp - connect_four's per-state table, text I/O, CPU perft, the CPU batch loop and replay.
#include "game.hpp"

#include "board_text.hpp"
#include "device_rules.hpp"
#include "gsdk/environments/batched_steps.hpp"
#include "gsdk/playout_summary.hpp"
#include "state_checks.hpp"

namespace connect_four {

namespace {

constexpr int64_t kLowestScore = -1; // score_range().first: histogram bin 0

// perft(s, depth) by depth-first recursion; the last two plies are counted without being made.
uint64_t perft(const State& s, uint32_t depth) {
  if (depth == 0) return 1;
  if (depth == 1) return perft1(s);
  if (depth == 2) return perft2(s);
  uint64_t leaves = 0;
  for (uint32_t columns = legal_columns(s); columns != 0; columns &= columns - 1) {
    State child = s;
    play(child, lowest_column(columns));
    leaves += perft(child, depth - 1);
  }
  return leaves;
}

} // namespace

int32_t Game::current_player(const State& s) const {
  return game_over(s) ? GSDK_PLAYER_TERMINAL : static_cast<int32_t>(player_to_move(s));
}

uint32_t Game::legal_moves(const State& s, uint32_t* moves, double*) const {
  uint32_t n = 0;
  for (uint32_t columns = legal_columns(s); columns != 0; columns &= columns - 1) moves[n++] = lowest_column(columns);
  return n;
}

std::string Game::state_to_string(const State& s) const {
  return board_diagram(s);
}

State Game::state_from_string(std::string_view text) const {
  return parse_position(text);
}

uint64_t Game::cpu_perft(const State& s, uint32_t depth) const {
  return perft(s, depth);
}

State Game::checked_start(const void* start) const {
  if (!start) return State{{0, 0}};
  const State& s = *static_cast<const State*>(start);
  if (const std::string problem = structure_problem(s); !problem.empty())
    throw gsdk::PluginError("the playout start state is not a connect_four position: " + problem);
  return s;
}

// The hot loop: one playout after another on the calling thread (the host runs many such calls in
// parallel). Playout i depends only on (seed, i), so any split of the range gives the same summary.
void Game::cpu_playouts(const gsdk_playout_request& request, gsdk_playout_summary& summary) const {
  const State start = checked_start(request.start_state);
  if (summary.histogram_bins != 3)
    throw gsdk::PluginError("summary histogram has " + std::to_string(summary.histogram_bins) +
                            " bins, connect_four needs 3 (scores -1, 0, 1)");
  for (uint64_t i = 0; i < request.playout_count; ++i) {
    const uint64_t playout = request.first_playout + i;
    State end = start;
    play_out(end, request.seed, playout, [](uint32_t) {});
    gsdk::record_playout(summary, outcome(end), playout, kLowestScore);
  }
}

std::vector<uint32_t> Game::replay_playout(uint64_t seed, uint64_t playout, const State* start) const {
  State end = checked_start(start);
  std::vector<uint32_t> moves;
  play_out(end, seed, playout, [&moves](uint32_t column) { moves.push_back(column); });
  return moves;
}

void Game::fill_observations(const State* states, uint32_t count, void* out) const noexcept {
  gsdk::environments::fill_observations(DeviceRules{}, states, count, out);
}

void Game::step_batch(State* states, const uint32_t* actions, uint32_t count, float* rewards, uint8_t* terminated,
                      int32_t* players, uint8_t* legal, State* final_states) const {
  gsdk::environments::step_batch(DeviceRules{}, states, actions, count, rewards, terminated, players, legal,
                                 final_states);
}

} // namespace connect_four
