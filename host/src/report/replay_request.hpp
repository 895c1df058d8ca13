// replay_request.hpp - what `gsdk replay` takes from a results file: the game and its parameters, the seed,
// the engine, the best playout and its score, and the start state when the run had one. A function of the
// parsed document alone, so that the replay fuzz target (tests/fuzz/) reaches it without a plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

namespace gsdk::host {

struct ReplayRequest {
  std::string game;
  toml::table params; // the results file's game.params, for the plugin's checks
  uint64_t seed = 0;
  std::string engine;
  uint64_t best_playout = 0;
  int64_t best_score = 0;
  std::optional<std::string> start_state;
};

// Throws nlohmann::json::exception naming the missing or mistyped field.
ReplayRequest read_replay_request(const nlohmann::json& results);

} // namespace gsdk::host
