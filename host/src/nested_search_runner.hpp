// nested_search_runner.hpp - runs an algorithm = "nmcs" or "nrpa" experiment: the search on CPU threads,
// every improvement checked and logged (JSON Lines events: seconds, score, search), the best sequence
// saved (a gsdk-snake file for snake, a move list for other games).
#pragma once

#include "experiment_runner.hpp"

namespace gsdk::host {

// Throws ConfigError / std::runtime_error for what is found before searching (unknown game, parameters,
// a game the search cannot handle, devices) and std::runtime_error when an improvement fails its check.
ExperimentRun run_nested_search_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                           const RunOptions& options);

// Where the best sequence goes: output.best, else results/<name>.best.json.
std::string best_sequence_path(const ExperimentConfig& config);
// Where the improvements go: output.events, else results/<name>.events.jsonl.
std::string improvement_events_path(const ExperimentConfig& config);

} // namespace gsdk::host
