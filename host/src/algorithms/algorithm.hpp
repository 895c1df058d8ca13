// algorithm.hpp - what an algorithm is to the host: one driver that owns its config table and its schema,
// the devices it needs, its run, a typed outcome, its terminal report and its fields of the results file.
// The drivers are listed in one registry (registry.hpp) that `gsdk run`, `gsdk list --algorithms`, the
// config checks (handed the registry's list by run_experiment.hpp's parse_experiment) and the user guide's tables
// read; nothing else in the host names an algorithm.
//
// Every driver receives the same things the same way (RunContext): the experiment's seed, the game with
// its parameters, the devices chosen for it from [run] by its DeviceNeeds, and where its outputs go.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/algorithm_table.hpp"
#include "config/config_keys.hpp"
#include "config/config_section.hpp"
#include "devices/device_selection.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "gsdk/core/runtime/work_part.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "report/progress_bar.hpp"

namespace gsdk::host {

struct ExperimentConfig;
class CheckpointFile;

// What one run gives, typed by its algorithm.
class AlgorithmOutcome {
public:
  virtual ~AlgorithmOutcome() = default;

  // The results file's fields of this algorithm (engine, devices, result, timings, ...); the common ones
  // (versions, experiment, algorithm, seed, hardware, status, digest, error, failure) are added around them.
  virtual nlohmann::json results() const = 0;
  // The digest of the result: equal digests mean equal results.
  virtual std::string digest() const = 0;
  // The report on the terminal; `results_path` is where the results file was written.
  virtual void print(const std::string& results_path) const = 0;

  // "complete", "incomplete" (the run stopped early: `error` says why), "interrupted" (its stop request
  // ended it: `stopped`) or another word the algorithm uses for a finished run with a wrong result (perft's
  // "mismatch": `failure` says what).
  virtual std::string status() const { return !error.empty() ? "incomplete" : stopped ? "interrupted" : "complete"; }
  // For an interrupted run: how much of it completed (e.g. {"playouts": done, "of": planned}).
  virtual nlohmann::json completed() const = 0;

  std::string error;    // the run did not finish: its results cover what did
  std::string failure;  // the run finished with a wrong result, or its picture or events could not be written
  bool stopped = false; // the run's stop request ended it early: its results cover what completed

  // Adds `what` to the failures already said.
  void add_failure(const std::string& what) { failure += (failure.empty() ? "" : "; ") + what; }
};

// What the parts of a run spread over processes ran on and how long they took, for the run that merges them: an MPI
// job's ranks ran many parts (chunks) one after another each, so the job's time is not the longest part's.
struct PartsAccount {
  std::string devices;                // e.g. "2 MPI ranks: cuda device 0 (...); cuda device 1 (...)"; empty: unknown
  std::optional<double> wall_seconds; // from the job's start to the merge; unset: the longest part's time
};

// What a driver's run receives.
struct RunContext {
  const ExperimentConfig& config;
  const AlgorithmSettings& settings;
  const LoadedPlugin& plugin;
  const ResolvedParams& params;
  const core::GameInstance& game;
  const DeviceChoice& devices; // chosen from [run] by the driver's device_needs
  uint64_t seed;
  ProgressSettings progress;               // on stderr: a bar on a terminal, else a line every few seconds
  std::string plot_file;                   // where to draw the run's picture, if anywhere ([output] plot or --plot)
  const core::StopRequest* stop = nullptr; // raised (by a signal) to end the run early with what completed
  // Where the run saves what it completes (`--checkpoint`), when the driver has_checkpoints(); it may hold an
  // earlier run's progress to resume.
  CheckpointFile* checkpoint = nullptr;
  double checkpoint_seconds = 60; // between saves while the run goes on
  // When the run is spread over processes (shards, MPI ranks: host/src/distribute/) and the driver has_parts(): the
  // blocks of the run's work items this process runs; what it completes is saved to `checkpoint` as usual. Null:
  // all of them.
  const core::WorkPart* part = nullptr;
  // The run goes on from the merged progress of a run's parts (`checkpoint` holds it in memory), not from a
  // checkpoint of its own: it completes the run the parts shared.
  bool merges_parts = false;
  // For such a run: the parts' own account (devices reach the report through `devices`).
  PartsAccount parts_account = {};
  // A driver with a time bound (Algorithm::time_bound_seconds): the end of the time of the job this run is a part
  // of (MPI ranks), which ends the run even when its own bound, counted from its start, would go on; past, the run
  // starts no work. Null: the run's own bound alone. Drivers without a time bound are never given one.
  std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt;
};

// Files a run reads and writes beyond the config, the results file, [output] events and the picture.
struct RunFiles {
  std::vector<std::string> inputs;  // never overwritten by an output
  std::vector<std::string> outputs; // checked before the run starts
};

// The fewest work items a chunk of an MPI job should hold (`items`), of the run's `of` in all (0: only the run knows
// its items' count, as a perft's subtrees, and any chunk is worth its start-up).
struct ChunkFloor {
  uint64_t items = 1;
  uint64_t of = 0;
};

// A driver: its table (AlgorithmTable: info() and read(), what the config reads an experiment's table with) and the
// rest of the run. The drivers derive from typed_driver.hpp's DriverOf, which hands them their own settings typed.
class Algorithm : public AlgorithmTable {
public:
  // Refuses, before anything runs, a game that lacks what the algorithm needs (`where` locates the config's
  // game key). Throws ConfigError.
  virtual void require_tables(const core::PluginTables&, const std::string& /*where*/) const {}

  // The driver's own files for `config` (its settings read): checked before anything runs.
  virtual RunFiles files(const ExperimentConfig& /*config*/) const { return {}; }

  // What the run asks of [run]: which CUDA table a GPU needs, whether CPUs work beside GPUs, ...
  virtual DeviceNeeds device_needs(const AlgorithmSettings& settings, const core::PluginTables& tables) const = 0;

  // Whether run() saves and resumes RunContext::checkpoint; `gsdk run --checkpoint` refuses the others.
  virtual bool has_checkpoints() const { return false; }
  // Whether run() honours RunContext::part and merge_progress() merges what parts saved: `gsdk run --shard`,
  // `gsdk merge` and MPI ranks refuse the others. Implies has_checkpoints().
  virtual bool has_parts() const { return false; }
  // The run's time bound in seconds from its start (0: none; it is bounded by counts). Spread over MPI ranks, the
  // bound is the job's: every part gets the job's deadline (RunContext::deadline).
  virtual double time_bound_seconds(const AlgorithmSettings& /*settings*/) const { return 0; }
  // How small a chunk of MPI ranks may get before it wastes its rank's time (searches side by side on a GPU take
  // about as long for a few as for many: each is a chain of dependent steps, so a chunk should hold as many as one
  // process runs at once), and the run's items in all: with fewer items than blocks, the blocks past them are empty
  // and are not handed out (else a first chunk of hundreds of blocks would take every game of a match).
  virtual ChunkFloor smallest_chunk(const AlgorithmSettings& /*settings*/) const { return {}; }
  // Why these settings cannot be spread over processes (empty: they can), asked before any part runs so that the
  // refusal is one usage error: over shards, or over MPI ranks (`ranks`), which hear from rank 0 between chunks only.
  virtual std::string parts_refusal(const AlgorithmSettings& /*settings*/, bool /*ranks*/) const { return ""; }
  // The progress two parts of one run saved (disjoint parts: they never share a work item), merged as if one
  // process had completed both. Throws CheckpointMismatch naming `where` when they overlap or do not fit together.
  virtual nlohmann::json merge_progress(const nlohmann::json& /*a*/, const nlohmann::json& /*b*/,
                                        const std::string& where) const {
    throw std::logic_error(where + ": merge_progress of an algorithm without parts");
  }
  // Keys of its table that do not change the result (how the work is batched or where it runs): a checkpoint's
  // identity leaves them out, so that a run may resume with other values of them.
  virtual std::vector<std::string> keys_outside_results() const { return {}; }

  // Runs. Throws ConfigError for what the config asks that the game refuses (a position, a start state),
  // std::runtime_error for what cannot run; failures while running come back in the outcome.
  virtual std::unique_ptr<AlgorithmOutcome> run(const RunContext& context) const = 0;
};

} // namespace gsdk::host
