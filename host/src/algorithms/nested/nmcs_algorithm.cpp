// nmcs_algorithm.cpp - the NMCS driver: [nmcs] (levels, budget, starts, where the level-1 searches run),
// its devices and the search; the run around it is nested_driver.hpp's.
#include "algorithms/nested/nmcs_algorithm.hpp"

#include <algorithm>

#include "algorithms/nested/nested_driver.hpp"
#include "algorithms/nested/nested_progress.hpp"
#include "algorithms/nested/start_keys.hpp"
#include "algorithms/typed_driver.hpp"
#include "config/experiment_config.hpp"
#include "gsdk/core/playouts/playout_batch_evaluator.hpp"

namespace gsdk::host {

namespace {

const IntegerKey kLevel{"level", 1, 1, 16,
                        "nesting level (1: one playout per child at every step); a search keeps up to "
                        "max_moves^(level-1) frames at once, at most 2^20, which bounds it per game"};
const StringKey kEngine =
    engine_key("\"batch\": the plugin's playout tables; \"generic\": per-state playouts (the reference)");
const BooleanKey kPipeline{"pipeline", true,
                           "with a level-1 searcher: two groups of searches, one searched while the host refills the "
                           "other (the same results either way)"};
const BooleanKey kCpuLevel1{"cpu_level1_searches", false, "without a GPU: whole level-1 searches on CPU threads"};
const IntegerKey kDeviceLevel{"device_level", 1, 1, 2,
                              "on a GPU: the level of the searches it runs whole (at most level)"};
const BooleanKey kSkipFinished{"skip_finished_starts", false,
                               "leave out starts that already end the game (counted in starts_skipped) instead of "
                               "refusing them"};

const StringKey kBest{"best", "", {}, "the best sequence's file (default: results/<name>.best.json)"};

// The searches of the GPU's level: [nmcs] device_level, at most the search's level.
uint32_t device_level(const NmcsConfig& config) {
  return std::min(config.device_level, config.nmcs.level);
}

// The most searches of the GPU's level one round can hand out: every search side by side at that level,
// each with one per legal move at higher levels (several steps' worth when levels above nest them).
uint32_t device_searches_at_once(const NmcsConfig& config, const core::GameInstance& game) {
  const core::NmcsSettings& nmcs = config.nmcs;
  // Pipelined, a round holds one of the two groups of searches, the larger with one more when uneven.
  uint64_t at_once = nmcs.pipeline ? (nmcs.budget.searches_in_parallel + 1) / 2 : nmcs.budget.searches_in_parallel;
  for (uint32_t level = nmcs.level; level > device_level(config) && at_once < (1u << 20); --level)
    at_once *= game.max_moves();
  return static_cast<uint32_t>(std::min<uint64_t>(at_once, 1u << 20));
}

// The level-1 searcher: the GPU when one was chosen, CPU threads when asked for, else none (level-1 frames
// on the host, their playouts batched to the CPU threads).
std::unique_ptr<core::Level1Searcher> make_level1_searcher(const RunContext& context, const NmcsConfig& config) {
  const DeviceChoice& devices = context.devices;
  if (!devices.gpus.empty())
    return core::make_cuda_level1_searcher(context.game, context.seed, devices.gpus[0].ordinal,
                                           device_searches_at_once(config, context.game), host_threads(context),
                                           device_level(config));
  if (config.cpu_level1_searches)
    return core::make_cpu_level1_searcher(context.game, context.seed, std::max(devices.cpu_threads, 1u),
                                          config.engine == Engine::generic);
  return nullptr;
}

class Nmcs : public DriverOf<NmcsConfig> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info = [] {
      AlgorithmInfo i{"nmcs",
                      "Nested Monte Carlo Search of a one-player game: many searches side by side, their playouts "
                      "batched to CPU threads or their level-1 (or level-2) searches run whole on a GPU",
                      {describe(kLevel)},
                      {describe(kBest)},
                      ""};
      for (KeyDoc key : searches_output_keys()) i.output_keys.push_back(std::move(key));
      for (KeyDoc key : budget_keys()) i.keys.push_back(std::move(key));
      for (const KeyDoc& key : {describe(kEngine), describe(kPipeline), describe(kCpuLevel1), describe(kDeviceLevel)})
        i.keys.push_back(key);
      for (KeyDoc key : start_key_docs()) i.keys.push_back(std::move(key));
      i.keys.push_back(describe(kSkipFinished));
      return i;
    }();
    return info;
  }

  std::shared_ptr<const NmcsConfig> read_settings(const ConfigSection& s, const ConfigSection* output) const override {
    auto config = std::make_shared<NmcsConfig>();
    StartKeys starts = read_start_keys(s);
    config->nmcs.starts = std::move(starts.starts);
    config->starts_where = starts.where;
    config->starts_file = std::move(starts.file);
    config->nmcs.skip_finished_starts = s.get(kSkipFinished);
    config->nmcs.level = static_cast<uint32_t>(s.get(kLevel));
    if (const toml::node* n = s.node(kLevel.name)) config->level_where = n->source();
    config->nmcs.budget = read_budget(s);
    config->nmcs.pipeline = s.get(kPipeline);
    config->cpu_level1_searches = s.get(kCpuLevel1);
    config->device_level = static_cast<uint32_t>(s.get(kDeviceLevel));
    config->engine = read_engine(s, kEngine);
    if (output) {
      config->best_file = output->get(kBest);
      config->searches = read_searches_output(*output);
    }
    return config;
  }

  RunFiles files_for(const ExperimentConfig& config, const NmcsConfig& settings) const override {
    RunFiles files = nested_run_outputs(config, settings.best_file);
    if (!settings.searches.file.empty()) files.outputs.push_back(settings.searches.file);
    if (!settings.starts_file.empty()) files.inputs.push_back(settings.starts_file);
    return files;
  }

  DeviceNeeds device_needs_for(const NmcsConfig& config, const core::PluginTables& tables) const override {
    const bool generic = config.engine == Engine::generic;
    DeviceNeeds needs;
    needs.has_cuda_table = tables.cuda_level1_searches != nullptr;
    needs.cuda_table = "CUDA level-1 search table";
    needs.generic_engine = generic;
    needs.cpus_idle_with_gpus = true;
    needs.one_gpu = true;
    needs.cpu_engine = generic ? "per-state" : "plugin playouts";
    return needs;
  }

  bool has_checkpoints() const override { return true; }
  // The work items are the searches (search k's result is a function of k): see nested_progress.hpp's merge.
  bool has_parts() const override { return true; }
  double time_bound_for(const NmcsConfig& config) const override { return config.nmcs.budget.time_seconds; }
  ChunkFloor smallest_chunk_for(const NmcsConfig& config) const override {
    return budget_chunk_floor(config.nmcs.budget);
  }
  std::string parts_refusal_for(const NmcsConfig& config, bool ranks) const override {
    return budget_parts_refusal(config.nmcs.budget, "nmcs", ranks);
  }
  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    return merge_nested_progress(a, b, where);
  }
  // The same sequences on every path, with any number side by side (see core's nested_search.hpp, determinism).
  std::vector<std::string> keys_outside_results() const override {
    std::vector<std::string> keys = budget_keys_outside_results();
    keys.insert(keys.end(), {kPipeline.name, kCpuLevel1.name, kDeviceLevel.name});
    return keys;
  }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const NmcsConfig& config) const override {
    const unsigned threads = context.devices.cpu_threads;
    const bool level1_searcher = !context.devices.gpus.empty() || config.cpu_level1_searches;
    const NestedSearchFiles files{best_sequence_path(context.config, config.best_file), config.searches.file,
                                  config.searches.kept, &config.nmcs.starts};
    auto search = [&](const NestedSearchHooks& hooks) {
      try {
        const auto evaluator = core::make_cpu_batch_evaluator(context.game, context.seed, std::max(threads, 1u),
                                                              config.engine == Engine::generic);
        const auto level1 = make_level1_searcher(context, config);
        core::NmcsSettings settings = config.nmcs;
        settings.host_threads = host_threads(context);
        settings.budget.stop = context.stop;
        settings.budget.checkpoints = hooks.checkpoints;
        settings.budget.part = context.part;
        settings.budget.deadline = context.deadline;
        return core::run_nmcs(context.game, settings, *evaluator, hooks.on_improvement, level1.get(),
                              hooks.on_finished);
      } catch (const core::ResumeError& e) {
        throw resume_mismatch(context, e);
      } catch (const core::NmcsLevelError& e) {
        throw ConfigError(located_or_file(config.level_where, context.config.file, e.what()));
      } catch (const core::StartMovesError& e) {
        throw ConfigError(located_or_file(config.starts_where, context.config.file, e.what()));
      } catch (const std::invalid_argument& e) {
        throw ConfigError(located(context.config.algorithm_where, e.what()));
      }
    };
    return run_nested_search(context, {"NMCS", level1_searcher ? "level-1 searcher" : "playout evaluator"}, files,
                             config.nmcs.budget, search);
  }
};

} // namespace

const Algorithm& nmcs_algorithm() {
  static const Nmcs algorithm;
  return algorithm;
}

} // namespace gsdk::host
