// nrpa_algorithm.cpp - the NRPA driver: [nrpa] (level, iterations, alpha, budget, the GPU's level), its
// devices and the search; the run around it is nested_driver.hpp's.
#include "algorithms/nested/nrpa_algorithm.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "algorithms/nested/best_sequence_file.hpp"
#include "algorithms/nested/nested_driver.hpp"
#include "algorithms/nested/nested_progress.hpp"
#include "algorithms/typed_driver.hpp"
#include "config/config_error.hpp"
#include "config/experiment_config.hpp"

namespace gsdk::host {

namespace {

const IntegerKey kLevel{"level", 1, 1, 16, "nesting level (1: iterations of policy playouts)"};
const IntegerKey kIterations{"iterations", 100, 1, 1000000, "calls of the level below per level"};
const RealKey kAlpha{"alpha", 1.0, 0.0, 100.0, "the policy adaptation's step"};
const IntegerKey kDeviceLevel{"device_level", 2, 1, 16,
                              "on a GPU: the level of the searches it runs whole (at most level)"};
const OtherKey kWarmMoves{"warm_moves", "array of integers", "none",
                          "a warm start: moves from the initial state (a game, or its beginning) every search's policy "
                          "is adapted towards before it starts"};
const OtherKey kWarmFrom{"warm_from", "string", "none", "a warm start read from a best-sequence file's moves"};
const IntegerKey kWarmAdaptations{"warm_adaptations", 1, 0, 100000,
                                  "adaptations towards the warm start's moves each search's policy starts with (a "
                                  "warm start that ends the game is also every search's first best)"};
const StringKey kBest{"best", "", {}, "the best sequence's file (default: results/<name>.best.json)"};

// warm_moves or warm_from (not both), and warm_adaptations.
void read_warm_start(const ConfigSection& s, NrpaConfig& config) {
  const toml::node* moves = s.node(kWarmMoves.name);
  const toml::node* from = s.node(kWarmFrom.name);
  if (moves && from)
    throw ConfigError(
        located(from->source(), fmt::format("{} takes one of 'warm_moves' and 'warm_from', not both", s.label())));
  config.nrpa.warm_adaptations = static_cast<uint32_t>(s.get(kWarmAdaptations));
  if (moves) {
    const std::vector<int> list = s.integer_list(kWarmMoves.name, 0, std::numeric_limits<int>::max());
    config.nrpa.warm_moves.assign(list.begin(), list.end());
    config.warm_where = moves->source();
  }
  if (!from) return;
  config.warm_where = from->source();
  config.warm_file = s.string(kWarmFrom.name, "");
  try {
    config.nrpa.warm_moves = read_best_moves(config.warm_file);
  } catch (const std::runtime_error& e) {
    throw ConfigError(located(from->source(), fmt::format("'warm_from' in {}: {}", s.label(), e.what())));
  }
}

// The device searcher when a GPU was chosen: whole searches of [nrpa] device_level (at most the search's
// level), as many per launch as searches run side by side.
std::unique_ptr<core::NrpaSearcher> make_searcher(const RunContext& context, const NrpaConfig& config) {
  if (context.devices.gpus.empty()) return nullptr;
  const core::NrpaSettings& nrpa = config.nrpa;
  return core::make_cuda_nrpa_searcher(context.game, context.seed, std::min(config.device_level, nrpa.level),
                                       nrpa.iterations, nrpa.alpha, context.devices.gpus[0].ordinal,
                                       nrpa.budget.searches_in_parallel, host_threads(context));
}

class Nrpa : public DriverOf<NrpaConfig> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info = [] {
      AlgorithmInfo i{"nrpa",
                      "Nested Rollout Policy Adaptation of a one-player game with move codes: searches side by side, "
                      "their policy playouts on CPU threads or their lower levels run whole on a GPU",
                      {describe(kLevel), describe(kIterations), describe(kAlpha), describe(kWarmMoves),
                       describe(kWarmFrom), describe(kWarmAdaptations)},
                      {describe(kBest)},
                      ""};
      for (KeyDoc key : budget_keys()) i.keys.push_back(std::move(key));
      i.keys.push_back(describe(kDeviceLevel));
      return i;
    }();
    return info;
  }

  std::shared_ptr<const NrpaConfig> read_settings(const ConfigSection& s, const ConfigSection* output) const override {
    auto config = std::make_shared<NrpaConfig>();
    config->nrpa.level = static_cast<uint32_t>(s.get(kLevel));
    config->nrpa.iterations = static_cast<uint32_t>(s.get(kIterations));
    config->nrpa.alpha = s.get(kAlpha);
    config->nrpa.budget = read_budget(s);
    config->device_level = static_cast<uint32_t>(s.get(kDeviceLevel));
    read_warm_start(s, *config);
    if (output) config->best_file = output->get(kBest);
    return config;
  }

  RunFiles files_for(const ExperimentConfig& config, const NrpaConfig& settings) const override {
    RunFiles files = nested_run_outputs(config, settings.best_file);
    if (!settings.warm_file.empty()) files.inputs.push_back(settings.warm_file);
    return files;
  }

  DeviceNeeds device_needs_for(const NrpaConfig&, const core::PluginTables& tables) const override {
    DeviceNeeds needs;
    needs.has_cuda_table = tables.cuda_nrpa_searches != nullptr;
    needs.cuda_table = "CUDA NRPA table";
    needs.one_gpu = true;
    needs.cpu_engine = "policy playouts";
    return needs;
  }

  bool has_checkpoints() const override { return true; }
  // The work items are the searches (search k's result is a function of k): see nested_progress.hpp's merge.
  bool has_parts() const override { return true; }
  double time_bound_for(const NrpaConfig& config) const override { return config.nrpa.budget.time_seconds; }
  ChunkFloor smallest_chunk_for(const NrpaConfig& config) const override {
    return budget_chunk_floor(config.nrpa.budget);
  }
  std::string parts_refusal_for(const NrpaConfig& config, bool ranks) const override {
    return budget_parts_refusal(config.nrpa.budget, "nrpa", ranks);
  }
  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    return merge_nested_progress(a, b, where);
  }
  // The same sequences with any number side by side, and whichever level runs whole on a GPU.
  std::vector<std::string> keys_outside_results() const override {
    std::vector<std::string> keys = budget_keys_outside_results();
    keys.push_back(kDeviceLevel.name);
    return keys;
  }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const NrpaConfig& config) const override {
    // With a GPU, the CPU threads replay its sequences and adapt the levels above.
    const unsigned threads = context.devices.gpus.empty() ? context.devices.cpu_threads : host_threads(context);
    const NestedSearchFiles files{best_sequence_path(context.config, config.best_file), "", 0, nullptr};
    auto search = [&](const NestedSearchHooks& hooks) {
      try {
        core::NrpaSettings settings = config.nrpa;
        settings.seed = context.seed;
        settings.threads = threads;
        settings.budget.stop = context.stop;
        settings.budget.checkpoints = hooks.checkpoints;
        settings.budget.part = context.part;
        settings.budget.deadline = context.deadline;
        const auto searcher = make_searcher(context, config);
        return core::run_nrpa(context.game, settings, hooks.on_improvement, searcher.get());
      } catch (const core::ResumeError& e) {
        throw resume_mismatch(context, e);
      } catch (const core::StartMovesError& e) {
        throw ConfigError(located_or_file(config.warm_where, context.config.file, e.what()));
      } catch (const std::invalid_argument& e) {
        throw ConfigError(located(context.config.algorithm_where, e.what()));
      }
    };
    return run_nested_search(context, {"NRPA", "playout evaluator"}, files, config.nrpa.budget, search);
  }
};

} // namespace

const Algorithm& nrpa_algorithm() {
  static const Nrpa algorithm;
  return algorithm;
}

} // namespace gsdk::host
