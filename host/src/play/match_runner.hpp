// match_runner.hpp - plays a match between two agents on one game, colours alternating.
//
// Seeds: in game g agent A is seeded derive_seed(seed, 2g), agent B derive_seed(seed, 2g + 1), and
// chance outcomes come from the stream (derive_seed(seed, 2^64 - 1), g). Under playout budgets a
// match is therefore a function of (game, parameters, agents, seed, games): its digest says so.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"
#include "play/match_settings.hpp"

namespace gsdk::host {

struct PlayedGame {
  uint32_t round = 0;             // 1-based
  int32_t a_player = 0;           // the side agent A played
  std::vector<std::string> moves; // in the game's notation
  int64_t score = 0;              // player 0's outcome
};

struct AgentTally {
  std::string description;
  uint64_t moves = 0; // choices made (forced moves included)
  double seconds = 0;
  uint64_t playouts = 0;
  uint64_t nodes = 0; // tree nodes after each search, summed
};

struct MatchOutcome {
  std::vector<PlayedGame> games;
  std::array<AgentTally, 2> agents; // A, B
  double wall_seconds = 0;
  std::string error; // set when a game failed: `games` then holds the ones that finished
  bool stopped = false; // the stop request ended the match early: `games` holds the ones that finished
};

// Called after each game.
using GameDoneFn = std::function<void(const MatchOutcome& so_far, const PlayedGame& game)>;

// Throws std::invalid_argument for agents the game cannot use (not two players, no CUDA playout
// table for device=cuda) and std::runtime_error for a device that cannot be opened, before any game;
// a failure during a game ends the match with `error` set; a raised settings.stop ends it at the next move,
// leaving out the games it cut short.
MatchOutcome play_match(const core::GameInstance& game, const MatchSettings& settings, const GameDoneFn& on_game = {});

} // namespace gsdk::host
