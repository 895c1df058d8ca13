// qlearning_runner.hpp - runs an algorithm = "qlearning" experiment: training with per-episode events,
// the greedy test, the greedy-reach evaluation and the policy picture, or a throughput sweep over
// several environment counts.
#pragma once

#include "experiment_runner.hpp"

namespace gsdk::host {

// Throws ConfigError / std::runtime_error for what is found before training (unknown game, parameters,
// devices, settings the game cannot run); failures while training come back in ExperimentRun.
ExperimentRun run_qlearning_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                       const RunOptions& options);

} // namespace gsdk::host
