// match_algorithm.hpp - algorithm = "match": two agents play games of a two-player game, colours
// alternating, from `gsdk run` and from `gsdk match`, whose options make the same experiment.
#pragma once

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "play/match_settings.hpp"

namespace gsdk::host {

// [match]: the seed is the experiment's; devices are part of each agent spec.
struct MatchConfig : AlgorithmSettings {
  MatchSettings match;
  bool game_lines = false; // [output] game_lines: a line per finished game on stdout, in place of the progress bar
  toml::source_region agents_where{}; // of `agents`, for the refusals of the agents' devices and of the game later
};

const Algorithm& match_algorithm();

} // namespace gsdk::host
