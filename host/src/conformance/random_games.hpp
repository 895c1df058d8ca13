// random_games.hpp - random games through the per-state table with every invariant of the ABI checked at
// every state: the walk that most conformance checks are built on.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "conformance/check_context.hpp"
#include "conformance/findings.hpp"
#include "conformance/guarded_state.hpp"

namespace gsdk::host::conformance {

// What the per-state table says of one state whose invariants hold.
struct InspectedState {
  int32_t player = GSDK_PLAYER_TERMINAL;
  std::vector<uint32_t> moves;       // legal moves (chance outcomes at a chance node)
  std::vector<double> probabilities; // at a chance node
  int64_t score = 0;                 // when terminal
};

// Checks one state through every per-state query: current_player pure and in range (chance only with
// GSDK_GAME_FLAG_CHANCE); when terminal, a score within score_range; else between 1 and max_moves
// distinct legal moves, written within the buffer, the same on every call, chance probabilities in
// [0, 1] summing to 1; no query changes the state. Records failures; nullopt when the state cannot be
// played on.
std::optional<InspectedState> inspect_state(const CheckContext& context, const GuardedState& state, Findings& findings);

struct RandomGame {
  std::vector<core::StateBlob> states; // every state visited, the start first (the terminal one last when it ended)
  std::vector<uint32_t> moves;         // the moves played
  bool ended = false;                  // reached a terminal state with every invariant kept
  int64_t score = 0;                   // the terminal score, when ended
};

// Plays one game from `start`: players' moves uniformly, chance outcomes by their probabilities, every
// state inspected and every move applied within the state's bytes. It stops at the first broken invariant,
// or after 10^6 moves (a failure: a random game must end).
RandomGame play_random_game(const CheckContext& context, std::mt19937_64& random, const core::StateBlob& start,
                            Findings& findings);

// The states of `games` random games from the initial state, the terminal ones included.
std::vector<core::StateBlob> states_in_play(const CheckContext& context, std::mt19937_64& random, int games,
                                            Findings& findings);

// Live (not terminal) states a quarter, half and three quarters into a random game from the initial state
// (seeded by `seed`), without repeats: the mid-game starts of the playout checks.
std::vector<core::StateBlob> mid_game_states(const CheckContext& context, uint64_t seed, Findings& findings);

} // namespace gsdk::host::conformance
