// perft_runner.cpp - from a perft config to its results document.
#include "perft_runner.hpp"

#include <fstream>
#include <mutex>

#include <fmt/format.h>

#include "device_selection.hpp"
#include "gsdk/core/digest.hpp"
#include "gsdk/core/game_instance.hpp"
#include "hardware.hpp"
#include "perft_report.hpp"
#include "progress_bar.hpp"
#include "results_file.hpp"

namespace gsdk::host {

namespace {

core::StateBlob read_root(const core::GameInstance& game, const PerftPosition& p) {
  try {
    return perft_root(game, p.position);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(located(p.where, e.what()));
  }
}

nlohmann::json position_json(const PerftPosition& p, const core::PerftOutcome& outcome, bool divide) {
  nlohmann::json j = perft_json(outcome, divide);
  j["name"] = p.name;
  j["position"] = p.position;
  j["depth"] = p.depth;
  j["expected"] = p.expect ? nlohmann::json(core::to_string(*p.expect)) : nlohmann::json(nullptr);
  j["match"] = p.expect && outcome.error.empty() ? nlohmann::json(*p.expect == outcome.leaves) : nlohmann::json(nullptr);
  return j;
}

} // namespace

core::StateBlob perft_root(const core::GameInstance& game, const std::string& position) {
  if (position == "start") return game.initial_state();
  try {
    return game.state_from_string(position);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("invalid position for game '{}': {}", game.game().name, e.what()));
  }
}

core::PerftJob perft_job(const DeviceChoice& devices, bool generic, bool divide) {
  core::PerftJob job;
  job.divide = divide;
  job.cpu_threads = devices.cpu_threads;
  for (const auto& g : devices.gpus) job.cuda_devices.push_back(g.ordinal);
  job.streams_per_device = devices.streams;
  job.force_generic = generic;
  return job;
}

ExperimentRun run_perft_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                   const RunOptions& options) {
  const toml::node* game_node = config.raw.get("game");
  const LoadedPlugin& plugin =
      require_plugin(catalog, config.game, game_node ? located(game_node->source(), "") : "");
  const ResolvedParams params = resolve_params(*plugin.tables.game, config.params);
  const auto instance = instantiate_game(config, plugin, params);
  const core::GameInstance& game = *instance;
  const bool generic = config.perft.engine == "generic";
  const DeviceChoice devices = choose_perft_devices(config.run, plugin.tables, generic);

  // Every position is read before any is counted, so a typo in the last one costs no time.
  std::vector<core::StateBlob> roots;
  for (const auto& p : config.perft.positions) roots.push_back(read_root(game, p));

  std::ofstream events = open_json_lines(config.events_file);
  std::mutex events_mutex;

  ExperimentRun run;
  run.complete = true;
  nlohmann::json positions = nlohmann::json::array();
  core::uint128 total = 0;
  double seconds = 0, startup_seconds = 0, device_milliseconds = 0;
  std::string canonical, mismatches;
  for (size_t i = 0; i < roots.size(); ++i) {
    const PerftPosition& p = config.perft.positions[i];
    core::PerftJob job = perft_job(devices, generic, config.perft.divide);
    job.root = roots[i];
    job.depth = p.depth;
    ProgressBar bar(config.name + " " + p.name, options.progress);
    const auto progress = [&](uint64_t done, uint64_t subtrees) {
      bar.update(done, subtrees);
      if (!events.is_open()) return;
      std::lock_guard lock(events_mutex);
      events << nlohmann::json{{"event", "progress"}, {"position", p.name}, {"done", done}, {"total", subtrees}}.dump()
             << '\n';
    };
    const core::PerftOutcome outcome = core::run_perft(game, job, progress);
    bar.finish();
    positions.push_back(position_json(p, outcome, config.perft.divide));
    total += outcome.leaves;
    seconds += outcome.wall_seconds;
    startup_seconds += outcome.startup_seconds;
    device_milliseconds += outcome.device_milliseconds;
    if (!outcome.error.empty()) {
      run.complete = false;
      run.error = fmt::format("position '{}' (depth {}): {}", p.name, p.depth, outcome.error);
      break;
    }
    canonical += fmt::format("{}|{}|{}\n", p.position, p.depth, core::to_string(outcome.leaves));
    if (p.expect && *p.expect != outcome.leaves)
      mismatches += fmt::format("{}position '{}' (depth {}) counted {} leaves, expected {}", mismatches.empty() ? "" : "; ",
                                p.name, p.depth, core::to_string(outcome.leaves), core::to_string(*p.expect));
  }
  if (!mismatches.empty()) run.failure = "perft count mismatch: " + mismatches;

  const char* status = !run.complete ? "incomplete" : run.failure.empty() ? "complete" : "mismatch";
  const std::string digest = core::sha1_digest(canonical);
  run.results = results_header(config, plugin, params);
  run.results.update({{"algorithm", config.algorithm},
                      {"engine", config.perft.engine},
                      {"devices", devices.summary},
                      {"hardware", describe_hardware()},
                      {"status", status},
                      {"result", {{"positions", positions}, {"leaves", core::to_string(total)}}},
                      {"timings",
                       {{"wall_seconds", seconds},
                        {"startup_seconds", startup_seconds},
                        {"device_milliseconds", device_milliseconds},
                        {"nodes_per_second", seconds > 0 ? static_cast<double>(total) / seconds : 0.0}}},
                      {"digest", digest}});
  if (!run.complete) run.results["error"] = run.error;
  if (!run.failure.empty()) run.results["failure"] = run.failure;
  if (events.is_open())
    events << nlohmann::json{{"event", "finished"}, {"status", status}, {"digest", digest}}.dump() << '\n';
  return run;
}

} // namespace gsdk::host
