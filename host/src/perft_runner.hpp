// perft_runner.hpp - runs an algorithm = "perft" experiment: every [[perft.positions]] entry counted
// and checked against its `expect`, into one results document.
#pragma once

#include <string>

#include "device_selection.hpp"
#include "experiment_runner.hpp"
#include "gsdk/core/game_instance.hpp"
#include "gsdk/core/perft.hpp"

namespace gsdk::host {

// The root a position text names: "start" for the initial state, else the game's text form of a state.
// Throws std::invalid_argument "invalid position for game '<name>': <the game's reason>".
core::StateBlob perft_root(const core::GameInstance& game, const std::string& position);

// A perft job (root and depth still to set) on the devices chosen for it.
core::PerftJob perft_job(const DeviceChoice& devices, bool generic, bool divide);

// Throws ConfigError for an unknown game, bad parameters or a position the game refuses (located at
// the position's text), std::runtime_error for devices that cannot run. A position that fails while
// counting ends the run (`complete` false, later positions not run); counts that differ from their
// `expect` set `failure` after every position has run.
ExperimentRun run_perft_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                   const RunOptions& options);

} // namespace gsdk::host
