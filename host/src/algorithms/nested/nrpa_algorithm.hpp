// nrpa_algorithm.hpp - algorithm = "nrpa": Nested Rollout Policy Adaptation (Rosin 2011) of a one-player
// game with move codes, its policy playouts on CPU threads, or its lower levels run whole on a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::host {

struct NrpaConfig : AlgorithmSettings {
  core::NrpaSettings nrpa;   // seed and threads are each run's
  uint32_t device_level = 2; // on a GPU: the level of the searches it runs whole (at most `level`)
  std::string best_file;     // [output] best; empty: results/<name>.best.json
  // warm_moves' or warm_from's place in the file, for a refusal of moves that are not a game; and warm_from's file.
  std::optional<toml::source_region> warm_where;
  std::string warm_file;
};

const Algorithm& nrpa_algorithm();

} // namespace gsdk::host
