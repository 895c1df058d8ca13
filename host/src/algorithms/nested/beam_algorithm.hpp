// beam_algorithm.hpp - algorithm = "beam": beam search of a one-player game by its static evaluation (the core's
// gsdk/core/beam/beam_search.hpp), its levels expanded by CPU threads or on one GPU.
#pragma once

#include <optional>
#include <string>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/nested/nested_driver.hpp"
#include "gsdk/core/beam/beam_search.hpp"

namespace gsdk::host {

struct BeamConfig : AlgorithmSettings {
  core::BeamSettings beam; // seed and threads are each run's
  std::string best_file;   // [output] best; empty: results/<name>.best.json
  SearchesOutput searches; // [output] searches and searches_kept
  // Where the starts were given (none: the initial state), for the search's refusal of one it cannot play; and
  // start_from's or starts_from's file, an input of the run.
  std::optional<toml::source_region> starts_where;
  std::string starts_file;
};

const Algorithm& beam_algorithm();

} // namespace gsdk::host
