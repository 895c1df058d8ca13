// qlearning_algorithm.hpp - algorithm = "qlearning": multi-agent tabular Q-learning over a game's
// environment table, then a greedy test and the greedy-reach evaluation; or a throughput sweep over
// several environment counts.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/engine_choice.hpp"
#include "gsdk/core/qlearning/qlearning.hpp"

namespace gsdk::host {

struct QLearningConfig : AlgorithmSettings {
  std::vector<uint32_t> environments{1}; // more than one: a throughput sweep, one run per entry
  core::QLearningSettings settings;      // its seed and environments are each run's
  Engine engine = Engine::batch;         // [qlearning] engine
  // Of `environments`, when given (none: the default), for a run that refuses it later.
  std::optional<toml::source_region> environments_where;
};

const Algorithm& qlearning_algorithm();

} // namespace gsdk::host
