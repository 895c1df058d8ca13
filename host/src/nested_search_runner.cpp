// nested_search_runner.cpp - from an NMCS or NRPA config to its results document, improvement events and
// best-sequence file.
#include "nested_search_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "best_searches.hpp"
#include "device_selection.hpp"
#include "gsdk/core/digest.hpp"
#include "gsdk/core/nested_search.hpp"
#include "gsdk/core/playout_batch_evaluator.hpp"
#include "gsdk/core/worker_pool.hpp"
#include "hardware.hpp"
#include "results_file.hpp"
#include "snake_file.hpp"

namespace gsdk::host {

namespace {

bool is_snake(const LoadedPlugin& plugin, const ResolvedParams& params) {
  return plugin.tables.name() == "snake" && params.as_json.contains("dimension");
}

// Every sequence the run reports passes this before it is logged or saved: the per-state rules replay
// it to its score, and a snake also passes the independent checker.
void check_sequence(const core::GameInstance& game, const std::optional<uint32_t>& snake_dimension,
                    int64_t score, const std::vector<uint32_t>& moves) {
  int64_t replayed = 0;
  try {
    replayed = core::replay_score(game, moves);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(fmt::format("the search reported a sequence of score {} that does not replay: {}", score,
                                         e.what()));
  }
  if (replayed != score)
    throw std::runtime_error(fmt::format("the search reported score {} for a sequence that replays to {}", score, replayed));
  if (!snake_dimension) return;
  const SnakeVerdict verdict = check_snake({*snake_dimension, moves, walk_vertices(moves)});
  if (!verdict.ok) throw std::runtime_error("the search reported an invalid snake: " + verdict.violation);
}

nlohmann::json best_document(const core::GameInstance& game, const std::optional<uint32_t>& snake_dimension,
                             const core::MoveSequence& best) {
  if (snake_dimension) return snake_document(*snake_dimension, best.moves);
  nlohmann::json names = nlohmann::json::array();
  core::StateBlob state = game.initial_state();
  for (uint32_t move : best.moves) {
    names.push_back(game.move_to_string(state, move));
    game.apply_move(state, move);
  }
  return {{"format", "gsdk-moves"},
          {"game", game.game().name},
          {"score", best.score},
          {"moves", best.moves},
          {"move_names", names}};
}

// NMCS's searches of the GPU's level: [nmcs] device_level, at most the search's level.
uint32_t nmcs_device_level(const ExperimentConfig& config) {
  return std::min(config.nested.nmcs_device_level, config.nested.nmcs.level);
}

// The most searches of the GPU's level one round can hand out: every search side by side at that level,
// each with one per legal move at higher levels (several steps' worth when levels above nest them).
uint32_t device_searches_at_once(const ExperimentConfig& config, const core::GameInstance& game) {
  const core::NmcsSettings& nmcs = config.nested.nmcs;
  // Pipelined, a round holds one of the two groups of searches, the larger with one more when uneven.
  uint64_t at_once = nmcs.pipeline ? (nmcs.budget.searches_in_parallel + 1) / 2 : nmcs.budget.searches_in_parallel;
  for (uint32_t level = nmcs.level; level > nmcs_device_level(config) && at_once < (1u << 20); --level)
    at_once *= game.max_moves();
  return static_cast<uint32_t>(std::min<uint64_t>(at_once, 1u << 20));
}

// The threads that drive a GPU search from the host: [run] threads, else all.
unsigned host_threads(const ExperimentConfig& config) {
  return config.run.threads > 0 ? config.run.threads : core::available_cpu_threads();
}

// NMCS's level-1 searcher: the GPU when one was chosen, CPU threads when asked for, else none (level-1
// frames on the host, their playouts batched to the CPU threads).
std::unique_ptr<core::Level1Searcher> make_level1_searcher(const ExperimentConfig& config, const DeviceChoice& devices,
                                                           const core::GameInstance& game, unsigned threads) {
  if (!devices.gpus.empty())
    return core::make_cuda_level1_searcher(game, config.seed, devices.gpus[0].ordinal,
                                           device_searches_at_once(config, game), host_threads(config),
                                           nmcs_device_level(config));
  if (config.nested.cpu_level1_searches)
    return core::make_cpu_level1_searcher(game, config.seed, std::max(threads, 1u), config.nested.generic);
  return nullptr;
}

// NRPA's device searcher when a GPU was chosen: whole searches of [nrpa] device_level (at most the search's
// level), as many per launch as searches run side by side.
std::unique_ptr<core::NrpaSearcher> make_nrpa_searcher(const ExperimentConfig& config, const DeviceChoice& devices,
                                                       const core::GameInstance& game) {
  if (devices.gpus.empty()) return nullptr;
  const core::NrpaSettings& nrpa = config.nested.nrpa;
  return core::make_cuda_nrpa_searcher(game, config.seed, std::min(config.nested.nrpa_device_level, nrpa.level),
                                       nrpa.iterations, nrpa.alpha, devices.gpus[0].ordinal,
                                       nrpa.budget.searches_in_parallel, host_threads(config));
}

} // namespace

std::string best_sequence_path(const ExperimentConfig& config) {
  return config.best_file.empty() ? "results/" + config.name + ".best.json" : config.best_file;
}

std::string improvement_events_path(const ExperimentConfig& config) {
  return config.events_file.empty() ? "results/" + config.name + ".events.jsonl" : config.events_file;
}

ExperimentRun run_nested_search_experiment(const ExperimentConfig& config, const PluginCatalog& catalog,
                                           const RunOptions& options) {
  const toml::node* game_node = config.raw.get("game");
  const LoadedPlugin& plugin = require_plugin(catalog, config.game, game_node ? located(game_node->source(), "") : "");
  const ResolvedParams params = resolve_params(*plugin.tables.game, config.params);
  const auto instance = instantiate_game(config, plugin, params);
  const core::GameInstance& game = *instance;
  const bool nmcs = config.algorithm == "nmcs";
  const DeviceChoice devices = nmcs ? choose_nmcs_devices(config.run, plugin.tables, config.nested.generic)
                                    : choose_nrpa_devices(config.run, plugin.tables);
  const unsigned threads = nmcs || devices.gpus.empty() ? devices.cpu_threads : host_threads(config);
  const std::optional<uint32_t> snake_dimension =
      is_snake(plugin, params) ? std::optional<uint32_t>(params.as_json["dimension"].get<uint32_t>()) : std::nullopt;

  const std::string events_path = improvement_events_path(config);
  std::ofstream events = open_json_lines(events_path);
  nlohmann::json improvements = nlohmann::json::array();
  const auto on_improvement = [&](const core::Improvement& i) {
    check_sequence(game, snake_dimension, i.score, *i.moves);
    // Ordered, so that each line reads as documented: seconds, score, search.
    const nlohmann::ordered_json line = {{"seconds", i.seconds}, {"score", i.score}, {"search", i.search}};
    events << line.dump() << '\n' << std::flush;
    improvements.push_back({{"seconds", i.seconds}, {"score", i.score}, {"search", i.search}});
    if (options.progress) std::fprintf(stderr, "  %9.3f s  best %lld  (search %u)\n", i.seconds, static_cast<long long>(i.score), i.search);
  };

  std::ofstream searches_out = open_json_lines(config.searches_file, "searches file");
  BestSearches best_searches(config.searches_kept, config.nested.nmcs.starts);
  core::FinishedSearchFn on_finished;
  if (!config.searches_file.empty()) on_finished = [&](const core::FinishedSearch& f) { best_searches.offer(f); };

  core::NestedSearchOutcome outcome;
  try {
    if (nmcs) {
      const auto evaluator = core::make_cpu_batch_evaluator(game, config.seed, std::max(threads, 1u), config.nested.generic);
      const auto level1 = make_level1_searcher(config, devices, game, threads);
      core::NmcsSettings settings = config.nested.nmcs;
      settings.host_threads = host_threads(config);
      outcome = core::run_nmcs(game, settings, *evaluator, on_improvement, level1.get(), on_finished);
    } else {
      core::NrpaSettings settings = config.nested.nrpa;
      settings.seed = config.seed;
      settings.threads = threads;
      const auto searcher = make_nrpa_searcher(config, devices, game);
      outcome = core::run_nrpa(game, settings, on_improvement, searcher.get());
    }
  } catch (const core::StartMovesError& e) {
    const toml::node* n = nullptr;
    for (const char* key : {"nmcs.start_moves", "nmcs.start_from", "nmcs.starts_from"})
      if (!n) n = config.raw.at_path(key).node();
    throw ConfigError(n ? located(n->source(), e.what()) : fmt::format("{}: {}", config.file, e.what()));
  } catch (const std::invalid_argument& e) {
    const toml::node* n = config.raw.get("algorithm");
    throw ConfigError(n ? located(n->source(), e.what()) : fmt::format("{}: {}", config.file, e.what()));
  }

  ExperimentRun run;
  run.complete = !outcome.best.empty();
  if (!run.complete) run.error = "the search found no sequence before its time ran out";
  const std::string best_path = best_sequence_path(config);
  if (run.complete) {
    check_sequence(game, snake_dimension, outcome.best.score, outcome.best.moves);
    write_json(best_path, best_document(game, snake_dimension, outcome.best));
  }
  const std::vector<BestSearches::Entry> finished = best_searches.entries();
  if (!config.searches_file.empty()) {
    for (const BestSearches::Entry& e : finished) check_sequence(game, snake_dimension, e.score, e.moves);
    write_best_searches(searches_out, config.searches_file, finished);
  }
  const double seconds = outcome.wall_seconds;
  const std::string canonical =
      fmt::format("{} score {} moves {}", config.algorithm, outcome.best.score, fmt::join(outcome.best.moves, " "));
  run.results = results_header(config, plugin, params);
  run.results.update(
      {{"algorithm", config.algorithm},
       {"engine", outcome.engine},
       {"seed", config.seed},
       {"devices", outcome.device},
       {"hardware", describe_hardware()},
       {"status", run.complete ? "complete" : "incomplete"},
       {"result",
        {{"best_score", run.complete ? nlohmann::json(outcome.best.score) : nlohmann::json(nullptr)},
         {"best_moves", outcome.best.moves},
         {"best_search", outcome.best_search},
         {"best_file", run.complete ? nlohmann::json(best_path) : nlohmann::json(nullptr)},
         {"events_file", events_path},
         {"searches_file",
          config.searches_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(config.searches_file)},
         {"searches_written", finished.size()},
         {"searches_started", outcome.searches_started},
         {"searches_finished", outcome.searches_finished},
         {"starts_skipped", outcome.starts_skipped},
         {"stopped_by_time", outcome.stopped_by_time},
         {"improvements", improvements}}},
       {"timings",
        {{"wall_seconds", seconds},
         {"playouts", outcome.playouts},
         {"playouts_per_second", seconds > 0 ? static_cast<double>(outcome.playouts) / seconds : 0.0},
         {"level1_steps", outcome.level1_steps},
         {"level1_steps_per_second", seconds > 0 ? static_cast<double>(outcome.level1_steps) / seconds : 0.0},
         {"level1_searches", outcome.level1_searches},
         {"batches", outcome.batches},
         {"evaluator_seconds", outcome.evaluator_seconds}}},
       {"digest", core::sha1_digest(canonical)}});
  if (!run.complete) run.results["error"] = run.error;
  return run;
}

} // namespace gsdk::host
