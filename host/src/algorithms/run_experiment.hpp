// run_experiment.hpp - the one path from an experiment file to its results document, for every algorithm: the
// file checked against the algorithm registry's drivers (the config is handed them here), then the plugin and its
// parameters, the game, the devices the driver needs, the driver's run, then the results document (versions,
// experiment, seed, hardware, status, the driver's fields, digest).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/algorithm.hpp"
#include "config/experiment_config.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"

namespace gsdk::host {

// The experiment file `path`, read against the registry's algorithms (config/experiment_config.hpp's
// read_experiment_file: overrides, then the options' overrides; everything but [params] checked). Throws
// ConfigError.
ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& overrides,
                                 const std::vector<OptionOverride>& options = {});

// The same of an experiment given as text (a merge's parts, Python's dicts, tests).
ExperimentConfig parse_experiment(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides,
                                  const std::vector<OptionOverride>& options = {});

// An experiment a command made from its options (`gsdk perft`, `gsdk match`: command_line_document.hpp), read
// against the registry's algorithms like a file; `source_name` ("gsdk perft (command line)") names it where no value
// is at fault. Throws ConfigError.
ExperimentConfig command_experiment(toml::table document, const std::string& source_name);

struct ExperimentRun {
  nlohmann::json results;                    // the results file's content
  std::unique_ptr<AlgorithmOutcome> outcome; // typed, for the report
  bool complete = false;                     // false: results cover only what finished; `error` says why
  bool interrupted = false;                  // the stop request ended it (not an error); results are partial
  std::string error;
  std::string failure;  // set when the run finished with a wrong result (a perft count that is not `expect`)
  bool resumed = false; // it went on from an earlier run's checkpoint
  // A part's run (RunOptions::part): the progress it saved last, which the merge of the parts reads. A part's run
  // and the merge's: the experiment's identity (experiment_identity), which every part of one run shares.
  nlohmann::json progress;
  nlohmann::json identity;
};

struct RunOptions {
  ProgressSettings progress;               // on stderr: a bar on a terminal, else a line every few seconds
  std::string plot;                        // where to draw the run's picture ([output] plot, or --plot), if anywhere
  const core::StopRequest* stop = nullptr; // ends the run early with what completed (status "interrupted")
  std::string checkpoint;                  // --checkpoint: where to save progress, and resume from; empty: none
  double checkpoint_seconds = 60;          // --checkpoint-every
  // A run spread over processes (host/src/distribute/): the part this process runs (null: all), whose events file
  // and picture are left to the run that merges the parts; and for that run, the merged progress to go on from
  // (with `checkpoint` empty). Either needs a driver that has_parts().
  const core::WorkPart* part = nullptr;
  const nlohmann::json* resume = nullptr;
  nlohmann::json identity_extra; // added to the checkpoint's identity (a shard's place), when not null
  // A run of a job with one clock (MPI ranks: a chunk, and the merge at the end): the job's deadline, given only to
  // a driver with a time bound (RunContext::deadline).
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // For the run that merges the parts (`resume`): what they ran on and, when known, how long they took together;
  // reported instead of the merging process's own devices and the longest part's time.
  PartsAccount parts_account = {};
};

// Throws ConfigError / std::runtime_error for anything detected before running (unknown game, bad
// parameters, no usable device, a checkpoint of another run or of an algorithm without checkpoints); failures
// while running come back in ExperimentRun.
ExperimentRun run_experiment(const ExperimentConfig& config, const PluginCatalog& catalog, const RunOptions& options);

// The fields every results file starts with: gsdk {version, abi}, experiment {name, file, config} and
// game {name, params, plugin}.
nlohmann::json results_header(const ExperimentConfig& config, const LoadedPlugin& plugin, const ResolvedParams& params);

// What a checkpoint of this experiment must match to be resumed: gsdk's version, the game, its parameters and
// plugin (name, version, the SHA-1 of its file), the algorithm, the seed and the config's content after --set
// overrides (and its SHA-1) less [run], [output] and the keys of the algorithm's table that its driver says do not
// change results (Algorithm::keys_outside_results).
nlohmann::json experiment_identity(const ExperimentConfig& config, const LoadedPlugin& plugin,
                                   const ResolvedParams& params);

// The gsdk {version, abi} and game {name, params, plugin} fields alone (runs without a config file).
nlohmann::json versions_json(const LoadedPlugin& plugin, const ResolvedParams& params);

// The game with the config's parameters. A combination the game refuses (declared ranges are checked
// earlier) is a ConfigError located at the config's [params] table.
std::unique_ptr<core::GameInstance> instantiate_game(const ExperimentConfig& config, const LoadedPlugin& plugin,
                                                     const ResolvedParams& params);

// The plugin for `game`, or a ConfigError listing what is loaded and what failed to load.
const LoadedPlugin& require_plugin(const PluginCatalog& catalog, const std::string& game, const std::string& where);

} // namespace gsdk::host
