// qlearning_algorithm.cpp - the Q-learning driver: [qlearning], training with per-episode events, the
// greedy test and reach, the policy picture, checkpoints, the report and the results fields.
#include "algorithms/qlearning/qlearning_algorithm.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "algorithms/finished_event.hpp"
#include "algorithms/qlearning/qlearning_progress.hpp"
#include "algorithms/typed_driver.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "config/experiment_config.hpp"
#include "gsdk/core/runtime/digest.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "gsdk/core/runtime/plugin_call.hpp"
#include "report/output_file.hpp"
#include "report/png_image.hpp"
#include "report/progress_bar.hpp"

namespace gsdk::host {

namespace {

constexpr int64_t kMaxEnvironments = 1 << 22;
// The keys' defaults are the core's.
const core::QLearningSettings kDefaults;

const OtherKey kEnvironments{
    "environments", "integer or array of integers", "1",
    "environments trained at once, 1..2^22; a list runs a throughput sweep, one run per entry"};
const IntegerKey kEpisodes{"episodes", kDefaults.episodes, 1, 10000000, "training episodes"};
const RealKey kAlpha{"alpha", kDefaults.alpha, 0.0, 1.0, "learning rate"};
const RealKey kGamma{"gamma", kDefaults.gamma, 0.0, 1.0, "discount"};
const RealKey kEpsilonStart{"epsilon_start", kDefaults.epsilon_start, 0.0, 1.0,
                            "exploration rate of the first episode"};
const RealKey kEpsilonEnd{"epsilon_end", kDefaults.epsilon_end, 0.0, 1.0, "lowest exploration rate"};
const RealKey kEpsilonDecay{"epsilon_decay", kDefaults.epsilon_decay, 0.0, 1.0, "exploration rate factor per episode"};
const StringKey kTieBreak{
    "tie_break", "random", {"random", "first"}, "greedy ties: uniformly at random, or the lowest action"};
const StringKey kUpdate{"update",
                        "deterministic",
                        {"deterministic", "atomic"},
                        "CUDA updates: reproducible, or racing atomic adds (fastest, not reproducible)"};
const StringKey kQTable{
    "q_table", "per_environment", {"per_environment", "shared"}, "one Q-table per environment, or one for all"};
const IntegerKey kTestEpisodes{"test_episodes", kDefaults.test_episodes, 0, 1000000, "greedy episodes after training"};
const StringKey kEngine =
    engine_key("\"batch\": the plugin's trainer tables; \"generic\": the core's trainer over the per-state "
               "environment table");

nlohmann::json reach_json(const core::GreedyReach& r) {
  return {{"starts", r.starts}, {"reachable", r.reachable}, {"reached", r.reached}, {"rate", r.rate()}};
}

double mean_reach(const core::QLearningOutcome& o) {
  double mean = 0;
  for (const auto& r : o.reach) mean += r.rate() / static_cast<double>(o.reach.size());
  return mean;
}

double min_reach(const core::QLearningOutcome& o) {
  double lowest = 1;
  for (const auto& r : o.reach) lowest = std::min(lowest, r.rate());
  return o.reach.empty() ? 0.0 : lowest;
}

// The greedy test's episodes that ran: all of them, or fewer when a stop came first.
uint64_t test_episodes_run(const QLearningRun& t) {
  const uint64_t starts_per_episode = uint64_t{t.outcome.agents} * t.environments;
  return starts_per_episode ? t.outcome.test.agent_starts / starts_per_episode : 0;
}

double steps_per_second(uint64_t steps, double seconds) {
  return seconds > 0 ? static_cast<double>(steps) / seconds : 0.0;
}

nlohmann::json training_json(const QLearningRun& t, const core::QLearningSettings& q) {
  const core::QLearningOutcome& o = t.outcome;
  nlohmann::json rates = nlohmann::json::array();
  core::EpisodeTotals train;
  for (const auto& e : o.episodes) {
    rates.push_back(e.success_rate());
    train.add(e);
  }
  return {{"environments", t.environments},
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
           {{"episodes", test_episodes_run(t)},
            {"flag_rate", o.test.success_rate()},
            {"successes", o.test.successes},
            {"failures", o.test.failures},
            {"agent_starts", o.test.agent_starts}}},
          {"greedy_reach",
           {{"table0", o.reach.empty() ? nlohmann::json(nullptr) : reach_json(o.reach.front())},
            {"tables", o.reach.size()},
            {"mean_rate", mean_reach(o)},
            {"min_rate", min_reach(o)}}},
          {"timings",
           {{"wall_seconds", o.wall_seconds},
            {"device_milliseconds", o.device_milliseconds},
            {"agent_steps", o.agent_steps},
            {"agent_steps_per_second", steps_per_second(o.agent_steps, o.wall_seconds)},
            {"agent_steps_per_kernel_second", steps_per_second(o.agent_steps, o.device_milliseconds / 1000)}}},
          {"digest", t.digest}};
}

void print_training(const QLearningRun& t, const core::QLearningSettings& q) {
  const core::QLearningOutcome& o = t.outcome;
  std::printf("  %u environments x %u agents, %zu episodes (%s engine on %s, %s updates, %s ties, %s table)\n",
              t.environments, o.agents, o.episodes.size(), o.engine.c_str(), o.device.c_str(),
              q.atomic_updates ? "atomic" : "deterministic", q.first_max_ties ? "first" : "random",
              q.shared_table ? "shared" : "per_environment");
  std::printf("  flag rate: last training episode %.4f, greedy test %.4f over %u episodes\n",
              o.episodes.empty() ? 0.0 : o.episodes.back().success_rate(), o.test.success_rate(),
              static_cast<unsigned>(test_episodes_run(t)));
  if (!o.reach.empty()) {
    const core::GreedyReach& r = o.reach.front();
    std::printf("  greedy policy reaches the flag from %u of %u free cells that can reach it (%.2f%%)", r.reached,
                r.reachable, 100 * r.rate());
    if (o.reach.size() > 1)
      std::printf("; over all %zu tables: mean %.2f%%, worst %.2f%%", o.reach.size(), 100 * mean_reach(o),
                  100 * min_reach(o));
    std::printf("\n");
  }
  std::printf("  time %.3f s wall", o.wall_seconds);
  if (o.device_milliseconds > 0) std::printf(", %.3f ms in GPU kernels", o.device_milliseconds);
  std::printf(", %s agent-steps: %.4g per second", fmt::format("{}", o.agent_steps).c_str(),
              steps_per_second(o.agent_steps, o.wall_seconds));
  const double per_kernel_second = steps_per_second(o.agent_steps, o.device_milliseconds / 1000);
  if (per_kernel_second > 0) std::printf(" (%.4g per kernel second)", per_kernel_second);
  std::printf("\n");
}

class QLearningOutcome : public AlgorithmOutcome {
public:
  std::vector<QLearningRun> runs;
  core::QLearningSettings settings;
  bool sweep = false;
  std::string experiment, game, devices, picture;
  uint64_t seed = 0;
  size_t planned_runs = 0; // environment counts of the sweep (1 without one)

  std::string digest() const override {
    if (!sweep) return runs.front().digest;
    std::string canonical;
    for (const QLearningRun& t : runs) canonical += t.digest + "\n";
    return core::sha1_digest(canonical);
  }

  // The training runs finished whole, and the episodes of the one the stop cut short.
  nlohmann::json completed() const override {
    const bool cut = !runs.empty() && runs.back().outcome.stopped;
    nlohmann::json done = {{"training_runs", runs.size() - (cut ? 1 : 0)}, {"of", planned_runs}};
    if (cut)
      done["interrupted_run"] = {{"environments", runs.back().environments},
                                 {"episodes", runs.back().outcome.episodes.size()},
                                 {"of", settings.episodes}};
    return done;
  }

  nlohmann::json results() const override {
    nlohmann::json entries = nlohmann::json::array();
    for (const QLearningRun& t : runs) entries.push_back(training_json(t, settings));
    nlohmann::json fields = {{"devices", devices},
                             {"result", sweep ? nlohmann::json{{"sweep", entries}} : entries.front()}};
    if (!picture.empty()) fields["picture"] = picture;
    return fields;
  }

  void print(const std::string& results_path) const override {
    std::printf("%s: Q-learning of %s on %s (seed %llu)\n", experiment.c_str(), game.c_str(), devices.c_str(),
                static_cast<unsigned long long>(seed));
    if (sweep) {
      std::printf("  %12s %12s %16s %18s %14s\n", "environments", "wall s", "agent-steps", "agent-steps/s",
                  "kernel ms");
      for (const QLearningRun& t : runs)
        std::printf("  %12u %12.3f %16llu %18.4g %14.3f\n", t.environments, t.outcome.wall_seconds,
                    static_cast<unsigned long long>(t.outcome.agent_steps),
                    steps_per_second(t.outcome.agent_steps, t.outcome.wall_seconds), t.outcome.device_milliseconds);
    } else {
      print_training(runs.front(), settings);
    }
    if (!picture.empty()) std::printf("  picture %s\n", picture.c_str());
    std::printf("  digest %s\n  results %s\n", digest().c_str(), output_name(results_path).c_str());
  }
};

void write_picture(const std::string& path, const core::GameInstance& game, const core::QLearningOutcome& o) {
  const gsdk_render* render = game.tables().render;
  if (!render)
    throw std::runtime_error(fmt::format("game '{}' (plugin {}) draws no pictures ({} table)", game.game().name,
                                         game.tables().path, GSDK_TABLE_RENDER));
  uint32_t width = 0, height = 0;
  const uint64_t* visits = o.visits.empty() ? nullptr : o.visits.data();
  const auto draw = [&](uint8_t* rgb, uint64_t capacity) {
    if (const auto failure = core::call_entry([&](char* error, uint32_t size) {
          return render->policy_image(game.handle(), o.tables.data(), visits, rgb, capacity, &width, &height, error,
                                      size);
        }))
      throw std::runtime_error(fmt::format("{}: the game could not draw its policy: {}", path, failure->message));
  };
  draw(nullptr, 0); // the size
  std::vector<uint8_t> rgb(uint64_t{width} * height * 3);
  draw(rgb.data(), rgb.size());
  write_png(path, width, height, rgb);
}

class QLearning : public DriverOf<QLearningConfig> {
public:
  const AlgorithmInfo& info() const override {
    static const AlgorithmInfo info{
        "qlearning",
        "multi-agent tabular Q-learning over the game's environment table, a greedy test and the greedy policy's "
        "reach; a list of environment counts runs a throughput sweep",
        {describe(kEnvironments), describe(kEpisodes), describe(kAlpha), describe(kGamma), describe(kEpsilonStart),
         describe(kEpsilonEnd), describe(kEpsilonDecay), describe(kTieBreak), describe(kUpdate), describe(kQTable),
         describe(kTestEpisodes), describe(kEngine)},
        {},
        ""};
    return info;
  }

  std::shared_ptr<const QLearningConfig> read_settings(const ConfigSection& q, const ConfigSection*) const override {
    auto config = std::make_shared<QLearningConfig>();
    const toml::node* n = q.node(kEnvironments.name);
    if (n) config->environments_where = n->source();
    if (n && n->is_array()) {
      const std::vector<int> sizes = q.integer_list(kEnvironments.name, 1, kMaxEnvironments);
      if (sizes.empty()) throw located_error(*n, "'environments' in [qlearning] needs at least one entry");
      config->environments.assign(sizes.begin(), sizes.end());
    } else {
      config->environments = {static_cast<uint32_t>(q.integer(kEnvironments.name, 1, 1, kMaxEnvironments))};
    }
    core::QLearningSettings& st = config->settings;
    st.episodes = static_cast<uint32_t>(q.get(kEpisodes));
    st.alpha = static_cast<float>(q.get(kAlpha));
    st.gamma = static_cast<float>(q.get(kGamma));
    st.epsilon_start = q.get(kEpsilonStart);
    st.epsilon_end = q.get(kEpsilonEnd);
    st.epsilon_decay = q.get(kEpsilonDecay);
    st.first_max_ties = q.get(kTieBreak) == "first";
    st.atomic_updates = q.get(kUpdate) == "atomic";
    st.shared_table = q.get(kQTable) == "shared";
    st.test_episodes = static_cast<uint32_t>(q.get(kTestEpisodes));
    config->engine = read_engine(q, kEngine);
    return config;
  }

  void require_tables(const core::PluginTables& tables, const std::string& where) const override {
    if (!tables.environment)
      throw ConfigError(fmt::format("{}game '{}' has no environment table ({}): it cannot be trained by Q-learning",
                                    where, tables.name(), GSDK_TABLE_ENVIRONMENT));
  }

  DeviceNeeds device_needs_for(const QLearningConfig& q, const core::PluginTables& tables) const override {
    const bool generic = q.engine == Engine::generic;
    DeviceNeeds needs;
    needs.has_cuda_table = tables.cuda_qlearning != nullptr;
    needs.cuda_table = "CUDA Q-learning table";
    needs.generic_engine = generic;
    needs.cpus_idle_with_gpus = true;
    needs.cpu_engine = !generic && tables.cpu_qlearning ? "plugin trainer" : "per-state";
    return needs;
  }

  bool has_checkpoints() const override { return true; }
  // The work items are a sweep's entries, each an independent training run. One training run is not split: its
  // environments' agents update shared tables every step.
  bool has_parts() const override { return true; }
  ChunkFloor smallest_chunk_for(const QLearningConfig& q) const override { return {1, q.environments.size()}; }
  std::string parts_refusal_for(const QLearningConfig& q, bool /*ranks*/) const override {
    if (q.environments.size() > 1) return "";
    return "qlearning.environments: one training run cannot be spread over processes (its agents share the tables "
           "they update at every step); a sweep (a list of environment counts) can, an entry a process";
  }
  nlohmann::json merge_progress(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& where) const override {
    return merge_qlearning_progress(a, b, where);
  }

  std::unique_ptr<AlgorithmOutcome> run_with(const RunContext& context, const QLearningConfig& q) const override {
    const bool sweep = q.environments.size() > 1;
    if (context.part && !sweep)
      throw ConfigError(located_or_file(q.environments_where, context.config.file,
                                        "one training run cannot be spread over processes (its agents share the "
                                        "tables they update at every step); a sweep (a list of environment counts) "
                                        "can, an entry a process"));
    // The sweep's entries this run trains: all, or its part's.
    std::vector<unsigned char> trains(q.environments.size(), context.part ? 0 : 1);
    if (context.part)
      for (const auto& [first, end] : context.part->ranges(q.environments.size()))
        std::fill(trains.begin() + static_cast<std::ptrdiff_t>(first),
                  trains.begin() + static_cast<std::ptrdiff_t>(end), 1);
    if (sweep && !context.plot_file.empty())
      throw ConfigError(
          "a throughput sweep (several [qlearning] environments) draws no picture; drop output.plot / --plot");
    // With a checkpoint: the training runs an earlier run finished are taken as they are, the one it left under
    // way goes on from its last chunk; what completes is saved every checkpoint_seconds, after each training
    // run and when the run ends.
    QLearningCheckpoint resumed;
    if (context.checkpoint && !context.checkpoint->resumed().is_null()) {
      resumed = qlearning_progress_from_json(context.checkpoint->resumed(), context.checkpoint->path());
      check_fits(resumed, q, trains, context.checkpoint->path());
    }
    std::map<uint32_t, QLearningRun*> finished_entries;
    for (QLearningRun& run : resumed.finished) finished_entries[run.entry] = &run;
    bool training_resumed = false;
    OutputStream events(context.config.events_file, "events file");
    auto outcome = std::make_unique<QLearningOutcome>();
    outcome->settings = q.settings;
    outcome->sweep = sweep;
    outcome->experiment = context.config.name;
    outcome->game = context.config.game;
    outcome->devices = context.devices.summary;
    outcome->seed = context.seed;
    outcome->planned_runs = q.environments.size();
    for (size_t index = 0; index < q.environments.size(); ++index) {
      const uint32_t environments = q.environments[index];
      if (const auto finished = finished_entries.find(static_cast<uint32_t>(index));
          finished != finished_entries.end()) {
        outcome->runs.push_back(std::move(*finished->second));
        continue;
      }
      if (!trains[index]) continue;
      ProgressBar bar(fmt::format("{} ({} environments)", context.config.name, environments), "episodes",
                      context.progress);
      const auto on_episode = [&](uint32_t episode, const core::EpisodeTotals& t) {
        bar.update(episode + 1, q.settings.episodes);
        events.write_line(nlohmann::json{{"event", "episode"},
                                         {"environments", environments},
                                         {"episode", episode},
                                         {"flag_rate", t.success_rate()},
                                         {"successes", t.successes},
                                         {"failures", t.failures},
                                         {"agent_steps", t.agent_steps},
                                         {"mean_steps", static_cast<double>(t.steps) / environments}}
                              .dump());
      };
      core::QLearningJob training_job = job(context, q, environments, !sweep);
      // The training under way is that of the first entry this run trains that has not finished.
      if (resumed.training && !training_resumed) training_job.resume = &*resumed.training;
      training_resumed = true;
      if (context.checkpoint) {
        training_job.on_snapshot = [&](const core::QLearningProgress& p) {
          context.checkpoint->save(qlearning_progress_json(outcome->runs, environments, &p), false);
        };
        training_job.snapshot_seconds = context.checkpoint_seconds;
      }
      QLearningRun training{static_cast<uint32_t>(index), environments, {}, {}};
      try {
        training.outcome = core::run_qlearning(context.game, training_job, on_episode);
      } catch (const core::MemoryRefusal& e) {
        throw ConfigError(located_or_file(q.environments_where, context.config.file, e.what()));
      } catch (const std::invalid_argument& e) {
        if (!training_job.resume) throw ConfigError(fmt::format("{}: {}", context.config.file, e.what()));
        throw CheckpointMismatch(
            fmt::format("{}: the checkpoint does not fit this run: {}", context.checkpoint->path(), e.what()));
      }
      bar.finish();
      training.digest = training.outcome.digest();
      const std::string error = training.outcome.error;
      const bool stopped = training.outcome.stopped;
      if (error.empty() && !sweep && !context.plot_file.empty()) draw(context, training.outcome, *outcome);
      const bool last =
          std::find(trains.begin() + static_cast<std::ptrdiff_t>(index) + 1, trains.end(), 1) == trains.end();
      // A run cut short keeps its tables to go on with, and so does a run of one training (a picture is drawn
      // from them when it is resumed); a sweep's finished runs keep what their results show.
      if (context.checkpoint && error.empty() && (stopped || !sweep)) {
        // The tables and visits move: they are dropped below.
        const core::QLearningProgress progress{training.outcome.episodes, std::move(training.outcome.tables),
                                               std::move(training.outcome.visits), training.outcome.wall_seconds,
                                               training.outcome.device_milliseconds};
        save_checkpoint(*context.checkpoint, qlearning_progress_json(outcome->runs, environments, &progress), !stopped,
                        *outcome);
      }
      training.outcome.tables = {};
      training.outcome.visits = {};
      outcome->runs.push_back(std::move(training));
      if (context.checkpoint && error.empty() && !stopped && sweep)
        save_checkpoint(*context.checkpoint, qlearning_progress_json(outcome->runs, 0, nullptr), last, *outcome);
      if (!error.empty()) {
        outcome->error = fmt::format("{} environments: {}", environments, error);
        break;
      }
      if (stopped || (core::stop_requested(context.stop) && !last)) {
        outcome->stopped = true;
        break;
      }
    }
    finish_events(events, *outcome);
    return outcome;
  }

private:
  static core::QLearningJob job(const RunContext& context, const QLearningConfig& q, uint32_t environments,
                                bool one_run) {
    core::QLearningJob job;
    job.settings = q.settings;
    job.settings.seed = context.seed;
    job.settings.environments = environments;
    job.cpu_threads = context.devices.cpu_threads;
    for (const auto& g : context.devices.gpus) job.cuda_devices.push_back(g.ordinal);
    job.force_generic = q.engine == Engine::generic;
    // A checkpoint keeps the visits too, so that a resumed run can draw the picture whether or not this one does.
    job.count_visits = one_run && (!context.plot_file.empty() || context.checkpoint);
    job.stop = context.stop;
    return job;
  }

  // A checkpoint of other environment counts, or of more training runs than the sweep (or the part of it this run
  // `trains`) has, is another run's.
  static void check_fits(const QLearningCheckpoint& resumed, const QLearningConfig& q,
                         const std::vector<unsigned char>& trains, const std::string& path) {
    const auto mismatch = [&](const std::string& what) {
      return CheckpointMismatch(fmt::format("{}: the checkpoint does not fit this run: {}", path, what));
    };
    const size_t planned = q.environments.size();
    if (resumed.finished.size() + (resumed.training ? 1 : 0) > planned)
      throw mismatch(fmt::format("it holds {} training runs, this run has {}",
                                 resumed.finished.size() + (resumed.training ? 1 : 0), planned));
    std::vector<unsigned char> finished(planned, 0);
    for (const QLearningRun& run : resumed.finished) {
      if (run.entry >= planned || finished[run.entry])
        throw mismatch(fmt::format("it lists training run {} twice or beyond this run's {}", run.entry, planned));
      finished[run.entry] = 1;
      if (run.environments != q.environments[run.entry])
        throw mismatch(fmt::format("its training run {} has {} environments, this run's {}", run.entry,
                                   run.environments, q.environments[run.entry]));
    }
    if (!resumed.training) return;
    size_t next = 0; // the entry whose training is under way
    while (next < planned && (finished[next] || !trains[next])) ++next;
    if (next == planned) throw mismatch("it holds a training run under way, and this run has none left to train");
    if (resumed.training_environments != q.environments[next])
      throw mismatch(fmt::format("its training under way has {} environments, this run's has {}",
                                 resumed.training_environments, q.environments[next]));
  }

  // A checkpoint that cannot be saved fails the run, whose results are still written.
  static void save_checkpoint(CheckpointFile& checkpoint, const nlohmann::json& progress, bool complete,
                              QLearningOutcome& outcome) {
    try {
      checkpoint.save(progress, complete);
    } catch (const std::exception& e) {
      outcome.add_failure(std::string("checkpoint: ") + e.what());
    }
  }

  // The learned policy; a picture that cannot be drawn fails the run.
  static void draw(const RunContext& context, const core::QLearningOutcome& training, QLearningOutcome& outcome) {
    try {
      write_picture(context.plot_file, context.game, training);
      outcome.picture = context.plot_file;
    } catch (const std::exception& e) {
      outcome.failure = e.what();
    }
  }
};

} // namespace

const Algorithm& qlearning_algorithm() {
  static const QLearning algorithm;
  return algorithm;
}

} // namespace gsdk::host
