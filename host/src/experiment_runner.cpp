// experiment_runner.cpp - from config to results document.
#include "experiment_runner.hpp"

#include <fstream>
#include <mutex>

#include <fmt/format.h>

#include "device_selection.hpp"
#include "game_params.hpp"
#include "gsdk/core/game_instance.hpp"
#include "gsdk/core/playouts.hpp"
#include "hardware.hpp"
#include "match_runner.hpp"
#include "nested_search_runner.hpp"
#include "perft_runner.hpp"
#include "qlearning_runner.hpp"
#include "progress_bar.hpp"
#include "results_file.hpp"

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

std::vector<double> exact_distribution(const core::GameInstance& game) {
  const auto* table = game.tables().score_distribution;
  if (!table) return {};
  std::vector<double> p(game.histogram_bins());
  char error[512] = {};
  if (table->exact(game.handle(), p.data(), static_cast<uint32_t>(p.size()), error, sizeof error) != GSDK_OK) return {};
  return p;
}

} // namespace

nlohmann::json versions_json(const LoadedPlugin& plugin, const ResolvedParams& params) {
  return {{"gsdk", {{"version", GSDK_VERSION}, {"abi", fmt::format("{}.{}", GSDK_ABI_MAJOR, GSDK_ABI_MINOR)}}},
          {"game",
           {{"name", plugin.tables.name()},
            {"params", params.as_json},
            {"plugin", {{"version", plugin.tables.version()}, {"path", plugin.tables.path},
                        {"abi", fmt::format("{}.{}", plugin.tables.info.abi_major, plugin.tables.info.abi_minor)}}}}}};
}

nlohmann::json results_header(const ExperimentConfig& config, const LoadedPlugin& plugin, const ResolvedParams& params) {
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
  std::string message = fmt::format("{}unknown game '{}'; loaded plugins: {}", where, game, catalog.names());
  for (const auto& problem : catalog.problems())
    message += fmt::format("\n  (not loaded: {}: {})", problem.path, problem.message);
  throw ConfigError(message);
}

ExperimentRun run_experiment(const ExperimentConfig& config, const PluginCatalog& catalog, const RunOptions& options) {
  if (config.algorithm == "perft") return run_perft_experiment(config, catalog, options);
  if (config.algorithm == "qlearning") return run_qlearning_experiment(config, catalog, options);
  if (config.algorithm == "match") return run_match_experiment(config, catalog, options);
  if (config.algorithm == "nmcs" || config.algorithm == "nrpa")
    return run_nested_search_experiment(config, catalog, options);
  const toml::node* game_node = config.raw.get("game");
  const std::string where = game_node ? located(game_node->source(), "") : "";
  const LoadedPlugin& plugin = require_plugin(catalog, config.game, where);
  const ResolvedParams params = resolve_params(*plugin.tables.game, config.params);
  const auto instance = instantiate_game(config, plugin, params);
  const core::GameInstance& game = *instance;

  const bool generic = config.engine == "generic";
  const DeviceChoice devices = choose_devices(config.run, plugin.tables, generic);

  core::PlayoutJob job;
  job.seed = config.seed;
  job.playouts = config.playouts;
  job.cpu_threads = devices.cpu_threads;
  for (const auto& g : devices.gpus) job.cuda_devices.push_back(g.ordinal);
  job.streams_per_device = devices.streams;
  job.simd_level = devices.simd_level;
  job.force_generic = generic;
  if (config.start_state) {
    try {
      job.start_state = game.state_from_string(*config.start_state);
    } catch (const std::invalid_argument& e) {
      const toml::node* n = config.raw.at_path("playouts.start_state").node();
      throw ConfigError(located(n ? n->source() : toml::source_region{}, fmt::format("invalid start_state: {}", e.what())));
    }
  }

  std::ofstream events = open_json_lines(config.events_file);
  std::mutex events_mutex;
  ProgressBar bar(config.name, options.progress);
  const auto progress = [&](uint64_t done, uint64_t total) {
    bar.update(done, total);
    if (events.is_open()) {
      std::lock_guard lock(events_mutex);
      events << nlohmann::json{{"event", "progress"}, {"done", done}, {"total", total}}.dump() << '\n';
    }
  };
  core::PlayoutOutcome outcome = core::run_playouts(game, job, progress);
  bar.finish();

  const core::PlayoutResult& r = outcome.result;
  nlohmann::json result = {{"playouts", r.playouts},
                           {"best", {{"score", r.best_score}, {"playout", r.best_playout}}},
                           {"worst", {{"score", r.worst_score}, {"playout", r.worst_playout}}},
                           {"mean", r.mean()},
                           {"variance", r.variance()},
                           {"histogram", {{"score_min", r.score_min}, {"counts", r.histogram}}}};
  // The exact distribution is that of playouts from the initial state; from a start state it does not apply.
  const std::vector<double> exact = config.start_state ? std::vector<double>{} : exact_distribution(game);
  if (!exact.empty()) {
    const core::ChiSquare chi = core::chi_square(r.histogram, exact);
    result["chi_square"] = {{"statistic", chi.statistic}, {"degrees_of_freedom", chi.degrees_of_freedom},
                            {"p_value", chi.p_value}, {"against", "the game's exact score distribution"}};
  }
  const double seconds = outcome.timings.wall_seconds;
  ExperimentRun run;
  run.complete = outcome.error.empty();
  run.error = outcome.error;
  run.results = results_header(config, plugin, params);
  run.results.update({
      {"algorithm", config.algorithm},
      {"engine", outcome.engine},
      {"seed", config.seed},
      {"start_state", config.start_state ? nlohmann::json(*config.start_state) : nlohmann::json(nullptr)},
      {"devices", devices.summary},
      {"hardware", describe_hardware()},
      {"status", run.complete ? "complete" : "incomplete"},
      {"result", result},
      {"timings",
       {{"wall_seconds", seconds},
        {"device_milliseconds", outcome.timings.device_milliseconds},
        {"playouts_per_second", seconds > 0 ? r.playouts / seconds : 0.0},
        {"cpu_playouts", outcome.timings.cpu_playouts},
        {"cuda_playouts", outcome.timings.cuda_playouts}}},
      {"digest", r.digest()}});
  if (!run.complete) run.results["error"] = outcome.error;
  if (!exact.empty()) run.results["exact_distribution"] = exact;
  if (events.is_open()) events << nlohmann::json{{"event", "finished"}, {"status", run.results["status"]}, {"digest", r.digest()}}.dump() << '\n';
  return run;
}

} // namespace gsdk::host
