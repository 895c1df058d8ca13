// experiment_runner.hpp - runs a validated experiment against the loaded plugins and builds its
// results document (config, seed, versions, hardware, timings, result, digest).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "experiment_config.hpp"
#include "plugin_catalog.hpp"

namespace gsdk::host {

struct ExperimentRun {
  nlohmann::json results; // the results file's content
  bool complete = false;  // false: results cover only what finished; `error` says why
  std::string error;
};

struct RunOptions {
  bool progress = true; // progress bar on a terminal
};

// Throws ConfigError / std::runtime_error for anything detected before running (unknown game, bad
// parameters, no usable device); failures while running come back in ExperimentRun.
ExperimentRun run_experiment(const ExperimentConfig& config, const PluginCatalog& catalog, const RunOptions& options);

// The plugin for `game`, or a ConfigError listing what is loaded and what failed to load.
const LoadedPlugin& require_plugin(const PluginCatalog& catalog, const std::string& game, const std::string& where);

} // namespace gsdk::host
