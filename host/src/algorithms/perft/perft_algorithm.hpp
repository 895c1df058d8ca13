// perft_algorithm.hpp - algorithm = "perft": leaf counts of the move tree of every [[perft.positions]]
// entry, each checked against its published count (`expect`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "algorithms/algorithm.hpp"
#include "gsdk/core/perft/perft.hpp"

namespace gsdk::host {

struct PerftPosition {
  std::string name;                    // default: the position text
  std::string position;                // "start" or the game's text form of a state
  uint32_t depth = 0;                  // 0 .. 64
  std::optional<core::uint128> expect; // the known leaf count, when given
  toml::source_region where;           // of `position`, for the game's verdict on it later
};

struct PerftSettings : AlgorithmSettings {
  bool divide = false;
  std::string engine = "batch"; // "batch": the plugin's perft tables | "generic": per-state recursion
  std::vector<PerftPosition> positions;
};

// The root a position text names: "start" for the initial state, else the game's text form of a state.
// Throws std::invalid_argument "invalid position for game '<name>': <the game's reason>".
core::StateBlob perft_root(const core::GameInstance& game, const std::string& position);

// What perft asks of the devices: GPUs through the plugin's CUDA perft table.
DeviceNeeds perft_device_needs(const core::PluginTables& tables, bool generic_engine);

// A perft job (root and depth still to set) on the devices chosen for it.
core::PerftJob perft_job(const DeviceChoice& devices, bool generic, bool divide);

const Algorithm& perft_algorithm();

} // namespace gsdk::host
