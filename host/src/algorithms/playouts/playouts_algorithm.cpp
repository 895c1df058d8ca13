// playouts_algorithm.cpp - the playouts driver: [playouts], the run over CPU threads and GPUs, progress
// events, the histogram picture, the report and the results fields.
#include "algorithms/playouts/playouts_algorithm.hpp"

#include <cstdio>
#include <fmt/format.h>

#include "algorithms/finished_event.hpp"
#include "algorithms/playouts/playout_progress.hpp"
#include "algorithms/typed_driver.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "config/experiment_config.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "report/histogram_plot.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"

namespace gsdk::host {

namespace {

const IntegerKey kCount{"count", 0, 1, int64_t{1} << 53, "playouts to run", true};
const OtherKey kStartState{"start_state", "string", "none",
                           "the game's text form of the state to play from "
                           "(default: the initial state)"};
const StringKey kEngine =
    engine_key("\"batch\": the plugin's batch tables; \"generic\": one move at a time through the per-state "
               "rules (the reference)");

std::vector<double> exact_distribution(const core::GameInstance& game) {
  const auto* table = game.tables().score_distribution;
  if (!table) return {};
  std::vector<double> p(game.histogram_bins());
  // A game that cannot give it (too many bins, say) shows no exact curve: the run goes on without one.
  if (core::call_entry([&](char* error, uint32_t size) {
        return table->exact(game.handle(), p.data(), static_cast<uint32_t>(p.size()), error, size);
      }))
    return {};
  return p;
}

class PlayoutsOutcome : public AlgorithmOutcome {
public:
  PlayoutsOutcome(core::PlayoutOutcome finished, uint64_t planned) : run(std::move(finished)), planned(planned) {
    error = run.error;
    stopped = run.stopped;
  }

  core::PlayoutOutcome run;
  uint64_t planned = 0;
  std::vector<double> exact; // the exact score distribution, when it applies
  std::optional<core::ChiSquare> chi;
  std::optional<std::string> start_state;
  std::string experiment, game, devices, plot;
  uint64_t seed = 0;

  std::string digest() const override { return run.result.digest(); }
  // Of the playouts this run ran: a resumed run's result also holds those of the runs before.
  double playouts_per_second() const {
    const double seconds = run.timings.wall_seconds;
    return seconds > 0 ? static_cast<double>(run.timings.cpu_playouts + run.timings.cuda_playouts) / seconds : 0.0;
  }
  nlohmann::json completed() const override { return {{"playouts", run.result.playouts}, {"of", planned}}; }

  nlohmann::json results() const override {
    const core::PlayoutResult& r = run.result;
    nlohmann::json result = {{"playouts", r.playouts},
                             {"best", {{"score", r.best_score}, {"playout", r.best_playout}}},
                             {"worst", {{"score", r.worst_score}, {"playout", r.worst_playout}}},
                             {"mean", r.mean()},
                             {"variance", r.variance()},
                             {"histogram", {{"score_min", r.score_min}, {"counts", r.histogram}}}};
    if (chi)
      result["chi_square"] = {{"statistic", chi->statistic},
                              {"degrees_of_freedom", chi->degrees_of_freedom},
                              {"p_value", chi->p_value},
                              {"against", "the game's exact score distribution"}};
    const double seconds = run.timings.wall_seconds;
    nlohmann::json fields = {{"engine", run.engine},
                             {"start_state", start_state ? nlohmann::json(*start_state) : nlohmann::json(nullptr)},
                             {"devices", devices},
                             {"result", result},
                             {"timings",
                              {{"wall_seconds", seconds},
                               {"device_milliseconds", run.timings.device_milliseconds},
                               {"playouts_per_second", playouts_per_second()},
                               {"cpu_playouts", run.timings.cpu_playouts},
                               {"cuda_playouts", run.timings.cuda_playouts}}}};
    if (!exact.empty()) fields["exact_distribution"] = exact;
    return fields;
  }

  void print(const std::string& results_path) const override {
    const core::PlayoutResult& r = run.result;
    std::printf("%s: %s playouts of %s on %s (seed %llu, %s engine)\n", experiment.c_str(),
                fmt::format("{}", r.playouts).c_str(), game.c_str(), devices.c_str(),
                static_cast<unsigned long long>(seed), run.engine.c_str());
    if (r.playouts > 0) {
      std::printf("  best score   %lld  (playout %llu; 'gsdk replay %s' shows it)\n",
                  static_cast<long long>(r.best_score), static_cast<unsigned long long>(r.best_playout),
                  output_name(results_path).c_str());
      std::printf("  worst score  %lld  (playout %llu)\n", static_cast<long long>(r.worst_score),
                  static_cast<unsigned long long>(r.worst_playout));
      std::printf("  mean %.4f  variance %.4f\n", r.mean(), r.variance());
    }
    if (chi)
      std::printf("  chi-square %.2f with %d degrees of freedom against the exact distribution: p = %.4f\n",
                  chi->statistic, chi->degrees_of_freedom, chi->p_value);
    const double seconds = run.timings.wall_seconds;
    std::printf("  time %.3f s wall", seconds);
    if (run.timings.device_milliseconds > 0) std::printf(", %.3f ms in GPU kernels", run.timings.device_milliseconds);
    std::printf(", %.4g playouts/s\n", playouts_per_second());
    std::printf("  digest %s\n  results %s\n", digest().c_str(), output_name(results_path).c_str());
    if (!plot.empty()) std::printf("  plot %s\n", output_name(plot).c_str());
  }
};

class Playouts : public DriverOf<PlayoutsSettings> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info{
        "playouts",
        "random playouts reduced to best, worst, mean, variance and a score histogram (chi-square against the game's "
        "exact distribution where it has one)",
        {describe(kCount), describe(kStartState), describe(kEngine)},
        {},
        ""};
    return info;
  }

  std::shared_ptr<const PlayoutsSettings> read_settings(const ConfigSection& s, const ConfigSection*) const override {
    auto settings = std::make_shared<PlayoutsSettings>();
    settings->count = static_cast<uint64_t>(s.get(kCount));
    if (const toml::node* n = s.node(kStartState.name)) {
      settings->start_state = s.string(kStartState.name, "");
      settings->start_state_where = n->source();
    }
    settings->engine = read_engine(s, kEngine);
    return settings;
  }

  DeviceNeeds device_needs_for(const PlayoutsSettings& settings, const core::PluginTables& tables) const override {
    return playouts_device_needs(tables, settings.engine == Engine::generic);
  }

  bool has_checkpoints() const override { return true; }
  bool has_parts() const override { return true; }

  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    return merge_playout_progress(a, b, where);
  }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context,
                                             const PlayoutsSettings& settings) const override {
    const core::GameInstance& game = context.game;
    const DeviceChoice& devices = context.devices;
    core::PlayoutJob job;
    job.seed = context.seed;
    job.playouts = settings.count;
    job.cpu_threads = devices.cpu_threads;
    for (const auto& g : devices.gpus) job.cuda_devices.push_back(g.ordinal);
    job.streams_per_device = devices.streams;
    job.simd_level = devices.simd_level;
    job.force_generic = settings.engine == Engine::generic;
    job.stop = context.stop;
    job.part = context.part;
    if (settings.start_state) {
      try {
        job.start_state = game.state_from_string(*settings.start_state);
      } catch (const std::invalid_argument& e) {
        throw ConfigError(located(settings.start_state_where, fmt::format("invalid start_state: {}", e.what())));
      }
    }

    // With a checkpoint: the playouts an earlier run completed are skipped, and what completes is saved every
    // checkpoint_seconds and at the end.
    std::optional<core::PlayoutProgress> resumed;
    if (context.checkpoint && !context.checkpoint->resumed().is_null())
      resumed = playout_progress_from_json(context.checkpoint->resumed(), context.checkpoint->path());
    if (resumed) job.resume = &*resumed;
    if (context.checkpoint) {
      job.on_snapshot = [&](const core::PlayoutProgress& p) {
        context.checkpoint->save(playout_progress_json(p), false);
      };
      job.snapshot_seconds = context.checkpoint_seconds;
    }

    OutputStream events(context.config.events_file, "events file");
    ProgressBar bar(context.config.name, "playouts", context.progress);
    const auto progress = [&](uint64_t done, uint64_t total) {
      bar.update(done, total);
      events.write_line(nlohmann::json{{"event", "progress"}, {"done", done}, {"total", total}}.dump());
    };
    std::unique_ptr<PlayoutsOutcome> outcome;
    try {
      outcome = std::make_unique<PlayoutsOutcome>(core::run_playouts(game, job, progress), settings.count);
    } catch (const std::invalid_argument& e) {
      if (!resumed) throw;
      throw CheckpointMismatch(
          fmt::format("{}: the checkpoint does not fit this run: {}", context.checkpoint->path(), e.what()));
    }
    bar.finish();
    if (context.checkpoint) save_checkpoint(*context.checkpoint, *outcome);
    // The exact distribution is that of playouts from the initial state; from a start state it does not apply.
    // A part's histogram is a share of the run's: the run that merges the parts compares the whole.
    if (!settings.start_state && !context.part) outcome->exact = exact_distribution(game);
    if (!outcome->exact.empty()) outcome->chi = core::chi_square(outcome->run.result.histogram, outcome->exact);
    outcome->start_state = settings.start_state;
    outcome->experiment = context.config.name;
    outcome->game = context.config.game;
    outcome->devices = devices.summary;
    outcome->seed = context.seed;
    finish_events(events, *outcome);
    if (!context.plot_file.empty() && outcome->run.result.playouts > 0) draw(context, settings, *outcome);
    return outcome;
  }

private:
  // What completed, marked complete when all did. A checkpoint that cannot be saved fails the run, whose results
  // are still written.
  static void save_checkpoint(CheckpointFile& checkpoint, PlayoutsOutcome& outcome) {
    try {
      checkpoint.save(playout_progress_json({outcome.run.completed, outcome.run.result}),
                      outcome.status() == "complete");
    } catch (const std::exception& e) {
      outcome.failure = std::string("checkpoint: ") + e.what();
    }
  }

  // The histogram against the exact distribution; a picture that cannot be drawn fails the run.
  static void draw(const RunContext& context, const PlayoutsSettings& settings, PlayoutsOutcome& outcome) {
    const core::PlayoutResult& r = outcome.run.result;
    try {
      plot_histogram(context.plot_file,
                     fmt::format("{}: {} playouts, seed {}", context.config.game, settings.count, context.seed),
                     r.score_min, r.histogram, outcome.exact);
      outcome.plot = context.plot_file;
    } catch (const std::exception& e) {
      outcome.failure = std::string("plot: ") + e.what();
    }
  }
};

} // namespace

DeviceNeeds playouts_device_needs(const core::PluginTables& tables, bool generic_engine) {
  DeviceNeeds needs;
  needs.has_cuda_table = tables.cuda_playouts != nullptr;
  needs.cuda_table = "CUDA playout table";
  needs.generic_engine = generic_engine;
  needs.cpu_engine = "per-state";
  needs.simd = true;
  return needs;
}

const Algorithm& playouts_algorithm() {
  static const Playouts algorithm;
  return algorithm;
}

} // namespace gsdk::host
