// playouts_algorithm.hpp - algorithm = "playouts": random playouts from the initial state (or a start
// state) reduced to best, worst, mean, variance and a score histogram, tested against the game's exact
// distribution where it has one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/engine_choice.hpp"

namespace gsdk::host {

struct PlayoutsSettings : AlgorithmSettings {
  uint64_t count = 0;
  std::optional<std::string> start_state;  // the game's text form of a state; none: the initial state
  toml::source_region start_state_where{}; // of `start_state`, for the game's verdict on it later
  Engine engine = Engine::batch;           // batch: the plugin's tables | generic: per-state playouts
};

// What playouts ask of the devices: GPUs through the plugin's CUDA playout table, CPUs at [run] simd.
DeviceNeeds playouts_device_needs(const core::PluginTables& tables, bool generic_engine);

const Algorithm& playouts_algorithm();

} // namespace gsdk::host
