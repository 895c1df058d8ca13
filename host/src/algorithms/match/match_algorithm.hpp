// match_algorithm.hpp - algorithm = "match": two agents play games of a two-player game, colours
// alternating, from `gsdk run` and from `gsdk match`, whose options make the same experiment.
#pragma once

#include "algorithms/algorithm.hpp"
#include "play/match_settings.hpp"

namespace gsdk::host {

// [match]: the seed is the experiment's; devices are part of each agent spec.
struct MatchConfig : AlgorithmSettings {
  MatchSettings match;
  bool game_lines = false; // [output] game_lines: a line per finished game on stdout, in place of the progress bar
};

const Algorithm& match_algorithm();

} // namespace gsdk::host
