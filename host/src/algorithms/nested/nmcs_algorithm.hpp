// nmcs_algorithm.hpp - algorithm = "nmcs": Nested Monte Carlo Search (Cazenave 2009) of a one-player
// game, its playouts batched to CPU threads, or its level-1 (or level-2) searches run whole on a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/engine_choice.hpp"
#include "algorithms/nested/nested_driver.hpp"
#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::host {

struct NmcsConfig : AlgorithmSettings {
  core::NmcsSettings nmcs;          // host_threads is each run's
  Engine engine = Engine::batch;    // [nmcs] engine
  bool cpu_level1_searches = false; // without a GPU: whole level-1 searches on CPU threads
  uint32_t device_level = 1;        // on a GPU: the level of the searches it runs whole, 1 or 2 (at most `level`)
  std::string best_file;            // [output] best; empty: results/<name>.best.json
  SearchesOutput searches;          // [output] searches and searches_kept
  // Where the values the search may refuse later were given (none: a default): `level`, and the starts (the one of
  // start_moves, start_from and starts_from given).
  std::optional<toml::source_region> level_where, starts_where;
  std::string starts_file; // start_from's or starts_from's file, read with the config: an input of the run
};

const Algorithm& nmcs_algorithm();

} // namespace gsdk::host
