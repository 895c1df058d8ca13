// run_experiment.cpp - from an experiment file, checked against the registry, through its algorithm's driver, to
// the results document.
#include "algorithms/run_experiment.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/registry.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "config/quoted_value.hpp"
#include "gsdk/core/runtime/digest.hpp"
#include "report/hardware.hpp"
#include "report/near_miss.hpp"

namespace gsdk::host {

namespace {

nlohmann::json toml_to_json(const toml::node& node) {
  if (const auto* t = node.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : *t) j[std::string(k.str())] = toml_to_json(v);
    return j;
  }
  if (const auto* a = node.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& v : *a) j.push_back(toml_to_json(v));
    return j;
  }
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return i->get();
  if (const auto* f = node.as_floating_point()) return f->get();
  if (const auto* b = node.as_boolean()) return b->get();
  return fmt::format("{}", node.source().begin.line);
}

// The names of the algorithms whose runs save and resume checkpoints, in the registry's order.
std::vector<std::string> algorithms_with_checkpoints() {
  std::vector<std::string> names;
  for (const Algorithm* algorithm : algorithms())
    if (algorithm->has_checkpoints()) names.push_back(algorithm->info().name);
  return names;
}

// The names of the algorithms whose runs can be spread over processes, in the registry's order.
std::vector<std::string> algorithms_with_parts() {
  std::vector<std::string> names;
  for (const Algorithm* algorithm : algorithms())
    if (algorithm->has_parts()) names.push_back(algorithm->info().name);
  return names;
}

// The registry's drivers, as the tables the config reads an experiment's algorithm table with.
const AlgorithmTables& registry_tables() {
  static const AlgorithmTables tables(algorithms().begin(), algorithms().end());
  return tables;
}

// "file:line:column: " of the config's game key, to locate errors about the game.
std::string game_location(const ExperimentConfig& config) {
  const toml::node* node = config.raw.get("game");
  return node ? located(node->source(), "") : "";
}

} // namespace

ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& overrides,
                                 const std::vector<OptionOverride>& options) {
  return read_experiment_file(path, registry_tables(), overrides, options);
}

ExperimentConfig parse_experiment(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides,
                                  const std::vector<OptionOverride>& options) {
  return read_experiment_text(text, source_name, registry_tables(), overrides, options);
}

ExperimentConfig command_experiment(toml::table document, const std::string& source_name) {
  return read_experiment_document(std::move(document), source_name, registry_tables());
}

nlohmann::json versions_json(const LoadedPlugin& plugin, const ResolvedParams& params) {
  return {{"gsdk", {{"version", GSDK_VERSION}, {"abi", fmt::format("{}.{}", GSDK_ABI_MAJOR, GSDK_ABI_MINOR)}}},
          {"game",
           {{"name", plugin.tables.name()},
            {"params", params.as_json},
            {"plugin",
             {{"version", plugin.tables.version()},
              {"path", plugin.tables.path},
              {"abi", fmt::format("{}.{}", plugin.tables.info.abi_major, plugin.tables.info.abi_minor)}}}}}};
}

nlohmann::json experiment_identity(const ExperimentConfig& config, const LoadedPlugin& plugin,
                                   const ResolvedParams& params) {
  nlohmann::json content = toml_to_json(config.raw);
  content.erase("run");
  content.erase("output");
  if (content.contains(config.algorithm) && content[config.algorithm].is_object())
    for (const std::string& key : driver_of(config).keys_outside_results()) content[config.algorithm].erase(key);
  nlohmann::json identity =
      game_identity(plugin.tables.name(), plugin.tables.version(), plugin.tables.path, params.as_json);
  identity.update({{"algorithm", config.algorithm},
                   {"seed", config.seed},
                   {"config_sha1", core::sha1_digest(content.dump())},
                   {"config", content}});
  return identity;
}

nlohmann::json results_header(const ExperimentConfig& config, const LoadedPlugin& plugin,
                              const ResolvedParams& params) {
  nlohmann::json header = versions_json(plugin, params);
  header["experiment"] = {{"name", config.name}, {"file", config.file}, {"config", toml_to_json(config.raw)}};
  return header;
}

std::unique_ptr<core::GameInstance> instantiate_game(const ExperimentConfig& config, const LoadedPlugin& plugin,
                                                     const ResolvedParams& params) {
  try {
    return std::make_unique<core::GameInstance>(plugin.tables, params.values);
  } catch (const std::invalid_argument& e) {
    // config.params keeps the source locations (the copy in config.raw does not).
    throw ConfigError(config.params.source().begin.line ? located(config.params.source(), e.what())
                                                        : fmt::format("{}: {}", config.file, e.what()));
  }
}

const LoadedPlugin& require_plugin(const PluginCatalog& catalog, const std::string& game, const std::string& where) {
  if (const LoadedPlugin* p = catalog.find(game)) return *p;
  std::string message = fmt::format("{}unknown game {}{}; loaded plugins: {}", where, quote_value(game, '\''),
                                    did_you_mean(game, catalog.game_names()), catalog.names());
  for (const auto& problem : catalog.problems())
    message += fmt::format("\n  (not loaded: {}: {})", problem.path, problem.message);
  throw ConfigError(message);
}

ExperimentRun run_experiment(const ExperimentConfig& config, const PluginCatalog& catalog, const RunOptions& options) {
  const Algorithm& driver = driver_of(config);
  const std::string where = game_location(config);
  const LoadedPlugin& plugin = require_plugin(catalog, config.game, where);
  driver.require_tables(plugin.tables, where);
  const ResolvedParams params = resolve_params(*plugin.tables.game, config.params);
  const auto game = instantiate_game(config, plugin, params);
  DeviceChoice devices =
      choose_devices(config.run, plugin.tables, driver.device_needs(*config.settings, plugin.tables));
  // A merge computes nothing on its own devices: its report names the parts' devices.
  if (options.resume && !options.parts_account.devices.empty()) devices.summary = options.parts_account.devices;
  const bool parted = options.part || options.resume;
  if (parted && !driver.has_parts())
    throw ConfigError(fmt::format("algorithm '{}' cannot be spread over processes yet ({} can)", config.algorithm,
                                  fmt::join(algorithms_with_parts(), ", ")));
  if (options.part)
    if (const std::string why = driver.parts_refusal(*config.settings, false); !why.empty())
      throw ConfigError(fmt::format("{}: {}", config.file, why));
  std::unique_ptr<CheckpointFile> checkpoint;
  if (!options.checkpoint.empty()) {
    if (!driver.has_checkpoints())
      throw ConfigError(fmt::format("--checkpoint: algorithm '{}' has no checkpoints yet ({} do)", config.algorithm,
                                    fmt::join(algorithms_with_checkpoints(), ", ")));
    nlohmann::json identity = experiment_identity(config, plugin, params);
    if (!options.identity_extra.is_null()) identity.update(options.identity_extra);
    checkpoint = std::make_unique<CheckpointFile>(options.checkpoint, std::move(identity));
    if (options.part) checkpoint->keep_last_saved();
  } else if (parted) {
    checkpoint = CheckpointFile::in_memory(options.resume ? *options.resume : nlohmann::json(),
                                           options.resume ? "the merged parts" : "this part");
  }
  // A part's events and picture would be a fraction of the run's: the run that merges the parts writes them.
  ExperimentConfig part_config;
  if (options.part) {
    part_config = config;
    part_config.events_file.clear();
  }
  const ExperimentConfig& run_config = options.part ? part_config : config;
  RunContext context{run_config,
                     *config.settings,
                     plugin,
                     params,
                     *game,
                     devices,
                     config.seed,
                     options.progress,
                     options.part ? std::string() : options.plot,
                     options.stop,
                     checkpoint.get(),
                     options.checkpoint_seconds};
  context.part = options.part;
  context.merges_parts = options.resume != nullptr;
  if (context.merges_parts) context.parts_account = options.parts_account;
  if (driver.time_bound_seconds(*config.settings) > 0) context.deadline = options.deadline;

  ExperimentRun run;
  run.resumed = checkpoint && !checkpoint->resumed().is_null();
  run.outcome = driver.run(context);
  const AlgorithmOutcome& outcome = *run.outcome;
  run.complete = outcome.error.empty() && !outcome.stopped;
  run.interrupted = outcome.error.empty() && outcome.stopped;
  run.error = outcome.error;
  run.failure = outcome.failure;
  run.results = results_header(config, plugin, params);
  run.results.update({{"algorithm", config.algorithm},
                      {"seed", config.seed},
                      {"hardware", describe_hardware()},
                      {"status", outcome.status()},
                      {"digest", outcome.digest()}});
  run.results.update(outcome.results());
  if (!run.error.empty()) run.results["error"] = run.error;
  if (run.interrupted) run.results["interrupted"] = {{"partial", true}, {"completed", outcome.completed()}};
  if (!run.failure.empty()) run.results["failure"] = run.failure;
  if (checkpoint && !options.checkpoint.empty())
    run.results["checkpoint"] = {{"file", checkpoint->path()}, {"resumed", run.resumed}};
  if (options.part) run.progress = checkpoint->last_saved();
  if (parted) run.identity = experiment_identity(config, plugin, params);
  return run;
}

} // namespace gsdk::host
