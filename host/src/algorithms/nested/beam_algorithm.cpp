// beam_algorithm.cpp - the beam search driver: [beam] (width, the per-parent cap, dedup, budget, starts), its
// devices and the search; the run around it is nested_driver.hpp's.
#include "algorithms/nested/beam_algorithm.hpp"

#include <algorithm>
#include <stdexcept>

#include "algorithms/nested/nested_driver.hpp"
#include "algorithms/nested/nested_progress.hpp"
#include "algorithms/nested/start_keys.hpp"
#include "algorithms/typed_driver.hpp"
#include "config/experiment_config.hpp"

namespace gsdk::host {

namespace {

const IntegerKey kWidth{"width", 1000, 1, 1 << 26, "states kept per level"};
const IntegerKey kChildrenPerParent{"children_per_parent", 0, 0, 1 << 26,
                                    "children of one state kept per level, for diversity (0: no cap)"};
const BooleanKey kDedup{"dedup", true, "drop a child whose canonical state an earlier child of its level has"};
const StringKey kBest{"best", "", {}, "the best sequence's file (default: results/<name>.best.json)"};

// A GPU expands the levels when the plugin has the CUDA perft kernels and evaluates on CUDA too.
bool has_cuda_beam(const core::PluginTables& tables) {
  return tables.cuda_perft != nullptr && tables.evaluation != nullptr && tables.evaluation->cuda_evaluate != nullptr;
}

class Beam : public DriverOf<BeamConfig> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info = [] {
      AlgorithmInfo i{"beam",
                      "Beam search of a one-player game by its static evaluation: the best `width` states of each "
                      "level go on, duplicates dropped, a few children per parent; levels on CPU threads or a GPU",
                      {describe(kWidth), describe(kChildrenPerParent), describe(kDedup)},
                      {describe(kBest)},
                      ""};
      for (KeyDoc key : searches_output_keys()) i.output_keys.push_back(std::move(key));
      for (KeyDoc key : budget_keys()) i.keys.push_back(std::move(key));
      for (KeyDoc key : start_key_docs()) i.keys.push_back(std::move(key));
      return i;
    }();
    return info;
  }

  std::shared_ptr<const BeamConfig> read_settings(const ConfigSection& s, const ConfigSection* output) const override {
    auto config = std::make_shared<BeamConfig>();
    config->beam.width = static_cast<uint32_t>(s.get(kWidth));
    config->beam.children_per_parent = static_cast<uint32_t>(s.get(kChildrenPerParent));
    config->beam.dedup = s.get(kDedup);
    config->beam.budget = read_budget(s);
    StartKeys starts = read_start_keys(s);
    config->beam.starts = std::move(starts.starts);
    config->starts_where = starts.where;
    config->starts_file = std::move(starts.file);
    if (output) {
      config->best_file = output->get(kBest);
      config->searches = read_searches_output(*output);
    }
    return config;
  }

  RunFiles files_for(const ExperimentConfig& config, const BeamConfig& settings) const override {
    RunFiles files = nested_run_outputs(config, settings.best_file);
    if (!settings.searches.file.empty()) files.outputs.push_back(settings.searches.file);
    if (!settings.starts_file.empty()) files.inputs.push_back(settings.starts_file);
    return files;
  }

  DeviceNeeds device_needs_for(const BeamConfig&, const core::PluginTables& tables) const override {
    DeviceNeeds needs;
    needs.has_cuda_table = has_cuda_beam(tables);
    needs.cuda_table = "CUDA perft table with a CUDA evaluation (cuda_evaluate)";
    needs.cpus_idle_with_gpus = true; // the GPU makes, scores and selects a level's children
    needs.one_gpu = true;
    needs.cpu_engine = "per-state evaluation";
    return needs;
  }

  bool has_checkpoints() const override { return true; }
  // The work items are the searches (search k's result is a function of k): see nested_progress.hpp's merge.
  bool has_parts() const override { return true; }
  double time_bound_for(const BeamConfig& config) const override { return config.beam.budget.time_seconds; }
  ChunkFloor smallest_chunk_for(const BeamConfig& config) const override {
    return budget_chunk_floor(config.beam.budget);
  }
  std::string parts_refusal_for(const BeamConfig& config, bool ranks) const override {
    return budget_parts_refusal(config.beam.budget, "beam", ranks);
  }
  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    return merge_nested_progress(a, b, where);
  }
  // The searches run one after another: searches_in_parallel changes nothing, nor do the threads or the device
  // (core/beam's selection is an order over a level's children).
  std::vector<std::string> keys_outside_results() const override { return budget_keys_outside_results(); }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const BeamConfig& config) const override {
    const bool on_gpu = !context.devices.gpus.empty();
    // Refused before the run writes anything: a game the beam cannot search.
    try {
      core::require_beam_game(context.game, on_gpu);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(located(context.config.algorithm_where, e.what()));
    }
    const NestedSearchFiles files{best_sequence_path(context.config, config.best_file), config.searches.file,
                                  config.searches.kept, &config.beam.starts};
    auto search = [&](const NestedSearchHooks& hooks) {
      try {
        core::BeamSettings settings = config.beam;
        settings.seed = context.seed;
        settings.threads = std::max(context.devices.cpu_threads, 1u);
        settings.budget.stop = context.stop;
        settings.budget.checkpoints = hooks.checkpoints;
        settings.budget.part = context.part;
        settings.budget.deadline = context.deadline;
        const std::unique_ptr<core::BeamDevice> device =
            on_gpu ? core::make_cuda_beam_device(context.game, context.devices.gpus[0].ordinal, settings.width)
                   : core::make_cpu_beam_device(context.game, settings.threads);
        return core::run_beam(context.game, settings, *device, hooks.on_improvement, {}, hooks.on_finished);
      } catch (const core::ResumeError& e) {
        throw resume_mismatch(context, e);
      } catch (const core::StartMovesError& e) {
        throw ConfigError(located_or_file(config.starts_where, context.config.file, e.what()));
      } catch (const std::invalid_argument& e) {
        throw ConfigError(located(context.config.algorithm_where, e.what()));
      }
    };
    return run_nested_search(context, {"beam search", "", NestedCounts::beam}, files, config.beam.budget, search);
  }
};

} // namespace

const Algorithm& beam_algorithm() {
  static const Beam algorithm;
  return algorithm;
}

} // namespace gsdk::host
