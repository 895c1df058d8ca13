// match_runner.hpp - plays a match between two agents on one game, colours alternating.
//
// Seeds: in game g agent A is seeded derive_seed(seed, 2g), agent B derive_seed(seed, 2g + 1), and
// chance outcomes come from the stream (derive_seed(seed, 2^64 - 1), g). Under playout budgets a
// match is therefore a function of (game, parameters, agents, seed, games): its digest says so. Each game is a
// function of (game, parameters, agents, seed, g) alone, whatever was played before it or beside it, so the
// games an earlier run finished can be kept and only the others played (resuming a checkpoint). Under time
// budgets the moves depend on the machine's speed too, and no two runs are the same game for game.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "gsdk/core/runtime/game_instance.hpp"
#include "play/match_settings.hpp"

namespace gsdk::host {

struct AgentTally {
  std::string description; // empty in a game's own tallies
  uint64_t moves = 0;      // choices made (forced moves included)
  double seconds = 0;
  uint64_t playouts = 0;
  uint64_t nodes = 0; // tree nodes after each search, summed

  void add(const AgentTally& part);
};

struct PlayedGame {
  uint32_t round = 0;             // 1-based
  int32_t a_player = 0;           // the side agent A played
  std::vector<std::string> moves; // in the game's notation
  int64_t score = 0;              // player 0's outcome
  std::array<AgentTally, 2> agents; // what A and B spent in this game
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
// a failure during a game ends the match with `error` set; a raised settings.stop ends it within the agents'
// next look at it (a fraction of a second into a move's search), leaving out the games it cut short.
// `finished`: games an earlier run of the same match finished (distinct rounds within settings.games), kept as
// they are; only the other rounds are played (of settings.part's, when there is one), and the outcome holds both
// (on_game is called for the new ones).
MatchOutcome play_match(const core::GameInstance& game, const MatchSettings& settings, const GameDoneFn& on_game = {},
                        const std::vector<PlayedGame>& finished = {});

} // namespace gsdk::host
