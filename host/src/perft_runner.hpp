// perft_runner.hpp - runs an algorithm = "perft" experiment: every [[perft.positions]] entry counted
// and checked against its `expect`, into one results document.
#pragma once

#include "experiment_runner.hpp"

namespace gsdk::host {

// Throws ConfigError for an unknown game, bad parameters or a position the game refuses (located at
// the position's text), std::runtime_error for devices that cannot run. A position that fails while
// counting ends the run (`complete` false, later positions not run); counts that differ from their
// `expect` set `failure` after every position has run.
ExperimentRun run_perft_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                   const RunOptions& options);

} // namespace gsdk::host
