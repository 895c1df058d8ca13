// qlearning_runner.cpp - from a Q-learning config to its results document, events and picture.
#include "qlearning_runner.hpp"

#include <fstream>

#include <fmt/format.h>

#include "device_selection.hpp"
#include "gsdk/core/digest.hpp"
#include "gsdk/core/game_instance.hpp"
#include "gsdk/core/qlearning.hpp"
#include "hardware.hpp"
#include "png_image.hpp"
#include "progress_bar.hpp"
#include "results_file.hpp"

namespace gsdk::host {

namespace {

core::QLearningJob make_job(const ExperimentConfig& config, const DeviceChoice& devices, uint32_t environments,
                            bool count_visits) {
  core::QLearningJob job;
  job.settings = config.qlearning.settings;
  job.settings.seed = config.seed;
  job.settings.environments = environments;
  job.cpu_threads = devices.cpu_threads;
  for (const auto& g : devices.gpus) job.cuda_devices.push_back(g.ordinal);
  job.force_generic = config.qlearning.generic;
  job.count_visits = count_visits;
  return job;
}

nlohmann::json reach_json(const core::GreedyReach& r) {
  return {{"starts", r.starts}, {"reachable", r.reachable}, {"reached", r.reached}, {"rate", r.rate()}};
}

nlohmann::json outcome_json(const core::QLearningOutcome& o, uint32_t environments, const core::QLearningSettings& q) {
  nlohmann::json rates = nlohmann::json::array();
  core::EpisodeTotals train;
  for (const auto& t : o.episodes) {
    rates.push_back(t.success_rate());
    train.add(t);
  }
  double mean_reach = 0, min_reach = 1;
  for (const auto& r : o.reach) {
    mean_reach += r.rate() / static_cast<double>(o.reach.size());
    min_reach = std::min(min_reach, r.rate());
  }
  const double kernel_seconds = o.device_milliseconds / 1000;
  return {{"environments", environments},
          {"episodes", o.episodes.size()},
          {"agents", o.agents},
          {"states", o.states},
          {"actions", o.actions},
          {"engine", o.engine},
          {"device", o.device},
          {"update", q.atomic_updates ? "atomic" : "deterministic"},
          {"tie_break", q.first_max_ties ? "first" : "random"},
          {"q_table", q.shared_table ? "shared" : "per_environment"},
          {"train",
           {{"flag_rate_per_episode", rates},
            {"final_flag_rate", o.episodes.empty() ? 0.0 : o.episodes.back().success_rate()},
            {"successes", train.successes},
            {"failures", train.failures}}},
          {"test",
           {{"episodes", q.test_episodes},
            {"flag_rate", o.test.success_rate()},
            {"successes", o.test.successes},
            {"failures", o.test.failures},
            {"agent_starts", o.test.agent_starts}}},
          {"greedy_reach",
           {{"table0", o.reach.empty() ? nlohmann::json(nullptr) : reach_json(o.reach.front())},
            {"tables", o.reach.size()},
            {"mean_rate", mean_reach},
            {"min_rate", o.reach.empty() ? 0.0 : min_reach}}},
          {"timings",
           {{"wall_seconds", o.wall_seconds},
            {"device_milliseconds", o.device_milliseconds},
            {"agent_steps", o.agent_steps},
            {"agent_steps_per_second", o.wall_seconds > 0 ? static_cast<double>(o.agent_steps) / o.wall_seconds : 0.0},
            {"agent_steps_per_kernel_second", kernel_seconds > 0 ? static_cast<double>(o.agent_steps) / kernel_seconds : 0.0}}},
          {"digest", o.digest()}};
}

void write_picture(const std::string& path, const core::GameInstance& game, const core::QLearningOutcome& o) {
  const gsdk_render* render = game.tables().render;
  if (!render)
    throw std::runtime_error(fmt::format("game '{}' (plugin {}) draws no pictures ({} table)", game.game().name,
                                         game.tables().path, GSDK_TABLE_RENDER));
  char error[1024] = {};
  uint32_t width = 0, height = 0;
  const uint64_t* visits = o.visits.empty() ? nullptr : o.visits.data();
  if (render->policy_image(game.handle(), o.tables.data(), visits, nullptr, 0, &width, &height, error, sizeof error) != GSDK_OK)
    throw std::runtime_error(fmt::format("{}: the game could not draw its policy: {}", path, error));
  std::vector<uint8_t> rgb(uint64_t{width} * height * 3);
  if (render->policy_image(game.handle(), o.tables.data(), visits, rgb.data(), rgb.size(), &width, &height, error,
                           sizeof error) != GSDK_OK)
    throw std::runtime_error(fmt::format("{}: the game could not draw its policy: {}", path, error));
  write_png(path, width, height, rgb);
}

} // namespace

ExperimentRun run_qlearning_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                       const RunOptions& options) {
  const toml::node* game_node = config.raw.get("game");
  const LoadedPlugin& plugin = require_plugin(catalog, config.game, game_node ? located(game_node->source(), "") : "");
  if (!plugin.tables.environment)
    throw ConfigError(fmt::format("{}game '{}' has no environment table ({}): it cannot be trained by Q-learning",
                                  game_node ? located(game_node->source(), "") : "", config.game, GSDK_TABLE_ENVIRONMENT));
  const ResolvedParams params = resolve_params(*plugin.tables.game, config.params);
  const auto instance = instantiate_game(config, plugin, params);
  const core::GameInstance& game = *instance;
  const QLearningConfig& q = config.qlearning;
  const DeviceChoice devices = choose_qlearning_devices(config.run, plugin.tables, q.generic);
  const bool sweep = q.environments.size() > 1;
  if (sweep && !options.picture.empty())
    throw ConfigError("a throughput sweep (several [qlearning] environments) draws no picture; drop output.plot / --plot");

  std::ofstream events = open_json_lines(config.events_file);

  ExperimentRun run;
  run.complete = true;
  nlohmann::json entries = nlohmann::json::array();
  std::string canonical;
  core::QLearningOutcome last;
  for (uint32_t environments : q.environments) {
    const core::QLearningJob job = make_job(config, devices, environments, !sweep && !options.picture.empty());
    ProgressBar bar(fmt::format("{} ({} environments)", config.name, environments), options.progress);
    const auto on_episode = [&](uint32_t episode, const core::EpisodeTotals& t) {
      bar.update(episode + 1, q.settings.episodes);
      if (!events.is_open()) return;
      events << nlohmann::json{{"event", "episode"},
                               {"environments", environments},
                               {"episode", episode},
                               {"flag_rate", t.success_rate()},
                               {"successes", t.successes},
                               {"failures", t.failures},
                               {"agent_steps", t.agent_steps},
                               {"mean_steps", static_cast<double>(t.steps) / environments}}
                    .dump()
             << '\n';
    };
    core::QLearningOutcome outcome;
    try {
      outcome = core::run_qlearning(game, job, on_episode);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(fmt::format("{}: {}", config.file, e.what()));
    }
    bar.finish();
    entries.push_back(outcome_json(outcome, environments, q.settings));
    canonical += outcome.digest() + "\n";
    if (!outcome.error.empty()) {
      run.complete = false;
      run.error = fmt::format("{} environments: {}", environments, outcome.error);
      break;
    }
    last = std::move(outcome);
  }

  run.results = results_header(config, plugin, params);
  run.results.update({{"algorithm", config.algorithm},
                      {"seed", config.seed},
                      {"devices", devices.summary},
                      {"hardware", describe_hardware()},
                      {"status", run.complete ? "complete" : "incomplete"},
                      {"result", sweep ? nlohmann::json{{"sweep", entries}} : entries.front()},
                      {"digest", sweep ? core::sha1_digest(canonical) : entries.front()["digest"].get<std::string>()}});
  if (!run.complete) run.results["error"] = run.error;
  if (run.complete && !options.picture.empty()) {
    try {
      write_picture(options.picture, game, last);
      run.results["picture"] = options.picture;
    } catch (const std::exception& e) {
      run.failure = e.what();
    }
  }
  if (events.is_open())
    events << nlohmann::json{{"event", "finished"}, {"status", run.results["status"]}, {"digest", run.results["digest"]}}.dump()
           << '\n';
  return run;
}

} // namespace gsdk::host
