// nested_driver.cpp - the run around an NMCS, NRPA or beam search: checks, events, best sequence, report, picture,
// checkpoint.
#include "algorithms/nested/nested_driver.hpp"

#include <cstdio>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/nested/nested_progress.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "config/experiment_config.hpp"
#include "gsdk/core/runtime/digest.hpp"
#include "gsdk/core/runtime/worker_pool.hpp"
#include "report/improvement_plot.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"
#include "report/sequence_document.hpp"

namespace gsdk::host {

namespace {

const RealKey kTimeSeconds{"time_seconds", 0, 0, 1e7,
                           "stop after this long (0: no limit; a run so bounded is not "
                           "reproducible)"};
const IntegerKey kRestarts{"restarts", 0, 0, UINT32_MAX - 1, "searches after the first (restarts + 1 in all)"};
const IntegerKey kSearchesInParallel{"searches_in_parallel", 1, 1, 1 << 22,
                                     "independent searches side by side, their work batched together"};
const OtherKey kStopAtScore{"stop_at_score", "integer", "none", "stop when a sequence scores this (a known optimum)"};

const StringKey kSearches{"searches", "", {}, "the best distinct sequences the searches ended with (JSON Lines)"};
const IntegerKey kSearchesKept{"searches_kept", 1000, 1, 1 << 24, "how many of them"};

// What a resumed run went on from: an earlier run's checkpoint, or the merged progress of the parts of a run
// spread over processes (RunContext::merges_parts).
struct ResumedFrom {
  double seconds;             // the earlier runs' time (of parts: RunContext::parts_account's)
  uint64_t searches_finished; // by the earlier runs or the parts
  bool reproducible;          // bounded by counts alone: the result is the uninterrupted (one-process) run's
  bool parts;                 // it merges parts (result.merged_parts) rather than resuming (result.resumed_from)
};

class NestedSearchRunOutcome : public AlgorithmOutcome {
public:
  core::NestedSearchOutcome search;
  std::vector<LoggedImprovement> improvements; // the earlier runs' too, when resumed
  std::optional<ResumedFrom> resumed_from;
  std::string algorithm, title, experiment, game, best_path, events_path, searches_path, evaluator_label, plot;
  NestedCounts counts = NestedCounts::playouts;
  size_t searches_written = 0;
  uint64_t seed = 0;

  nlohmann::json completed() const override {
    return {{"searches_finished", search.searches_finished}, {"searches_started", search.searches_started}};
  }

  std::string digest() const override {
    return core::sha1_digest(
        fmt::format("{} score {} moves {}", algorithm, search.best.score, fmt::join(search.best.moves, " ")));
  }

  nlohmann::json results() const override {
    const bool found = !search.best.empty();
    nlohmann::json logged = nlohmann::json::array();
    for (const LoggedImprovement& i : improvements)
      logged.push_back({{"seconds", i.seconds}, {"score", i.score}, {"search", i.search}});
    const nlohmann::json from = resumed_from ? nlohmann::json{{"seconds", resumed_from->seconds},
                                                              {"searches_finished", resumed_from->searches_finished},
                                                              {"reproducible", resumed_from->reproducible}}
                                             : nlohmann::json(nullptr);
    const bool parts = resumed_from && resumed_from->parts;
    // A part writes none of the run's files (the run that merges the parts does): their fields are null.
    const auto file = [](const std::string& path) {
      return path.empty() ? nlohmann::json(nullptr) : nlohmann::json(path);
    };
    return {{"engine", search.engine},
            {"devices", search.device},
            {"result",
             {{"best_score", found ? nlohmann::json(search.best.score) : nlohmann::json(nullptr)},
              {"best_moves", search.best.moves},
              {"best_search", search.best_search},
              {"best_file", found ? file(best_path) : nlohmann::json(nullptr)},
              {"events_file", file(events_path)},
              {"searches_file", file(searches_path)},
              {"searches_written", searches_written},
              {"searches_started", search.searches_started},
              {"searches_finished", search.searches_finished},
              {"starts_skipped", search.starts_skipped},
              {"stopped_by_time", search.stopped_by_time},
              {"stopped_by_request", search.stopped_by_request},
              {"resumed_from", parts ? nlohmann::json(nullptr) : from},
              {"merged_parts", parts ? from : nlohmann::json(nullptr)},
              {"improvements", logged}}},
            {"timings", timings()}};
  }

  // The counts of the search, in its own words: a beam search has no playouts but levels and children.
  nlohmann::json timings() const {
    const double seconds = search.wall_seconds;
    if (counts == NestedCounts::beam)
      return {{"wall_seconds", seconds},
              {"levels", search.batches},
              {"children", search.beam_children},
              {"children_per_second", per_second(search.beam_children)},
              {"duplicates", search.beam_duplicates},
              {"capped", search.beam_capped}};
    return {{"wall_seconds", seconds},
            {"playouts", search.playouts},
            {"playouts_per_second", per_second(search.playouts)},
            {"level1_steps", search.level1_steps},
            {"level1_steps_per_second", per_second(search.level1_steps)},
            {"level1_searches", search.level1_searches},
            {"batches", search.batches},
            {"evaluator_seconds", search.evaluator_seconds}};
  }

  void print(const std::string& results_path) const override {
    std::printf("%s: %s of %s on %s (seed %llu)\n", experiment.c_str(), title.c_str(), game.c_str(),
                search.device.c_str(), static_cast<unsigned long long>(seed));
    if (!search.best.empty())
      std::printf("  best score   %lld  (search %u, %zu moves) saved in %s\n",
                  static_cast<long long>(search.best.score), search.best_search, search.best.moves.size(),
                  output_name(best_path).c_str());
    std::printf("  searches     %u started, %u finished%s%s\n", search.searches_started, search.searches_finished,
                search.stopped_by_time      ? " (stopped by the time limit)"
                : search.stopped_by_request ? " (interrupted)"
                                            : "",
                search.starts_skipped > 0 ? fmt::format("; {} finished starts left out", search.starts_skipped).c_str()
                                          : "");
    if (resumed_from)
      std::printf(
          "  %-12s after %.3f s and %llu finished searches (%s)\n", resumed_from->parts ? "parts" : "resumed",
          resumed_from->seconds, static_cast<unsigned long long>(resumed_from->searches_finished),
          resumed_from->reproducible
              ? fmt::format("the result is the {} run's", resumed_from->parts ? "one-process" : "uninterrupted").c_str()
              : "bounded by time or score: not reproducible");
    print_counts();
    std::printf("  improvements %s\n  digest %s\n  results %s\n", output_name(events_path).c_str(), digest().c_str(),
                output_name(results_path).c_str());
    if (!plot.empty()) std::printf("  plot %s\n", output_name(plot).c_str());
  }

  double per_second(uint64_t n) const {
    return search.wall_seconds > 0 ? static_cast<double>(n) / search.wall_seconds : 0.0;
  }

  // The report's line (or lines) of the counts: playouts, or the beam's levels and children.
  void print_counts() const {
    const double seconds = search.wall_seconds;
    if (counts == NestedCounts::beam) {
      std::printf("  time %.3f s wall, %s levels, %s children scored: %.4g per second\n", seconds,
                  fmt::format("{}", search.batches).c_str(), fmt::format("{}", search.beam_children).c_str(),
                  per_second(search.beam_children));
      std::printf("  dropped      %s duplicates, %s over the cap per parent\n",
                  fmt::format("{}", search.beam_duplicates).c_str(), fmt::format("{}", search.beam_capped).c_str());
      return;
    }
    std::printf("  time %.3f s wall, %s playouts: %.4g per second", seconds, fmt::format("{}", search.playouts).c_str(),
                per_second(search.playouts));
    if (search.level1_steps > 0)
      std::printf("; %s level-1 steps: %.4g per second", fmt::format("{}", search.level1_steps).c_str(),
                  per_second(search.level1_steps));
    std::printf("; %.3f s of it in the %s\n", search.evaluator_seconds, evaluator_label.c_str());
  }
};

// Best score against time, from the improvements; a picture that cannot be drawn fails the run.
void draw(const RunContext& context, NestedSearchRunOutcome& outcome) {
  std::vector<std::pair<double, long long>> steps;
  for (const LoggedImprovement& i : outcome.improvements) steps.emplace_back(i.seconds, i.score);
  try {
    plot_improvements(context.plot_file,
                      fmt::format("{}: {} on {}, seed {}", context.config.name, context.config.algorithm,
                                  context.config.game, context.seed),
                      steps, outcome.search.wall_seconds);
    outcome.plot = context.plot_file;
  } catch (const std::exception& e) {
    outcome.failure = std::string("plot: ") + e.what();
  }
}

// The progress of the checkpoint the run resumes, if any, its sequences checked against the game.
std::optional<NestedCheckpoint> resumed_checkpoint(const RunContext& context, const core::SearchBudget& budget) {
  if (!context.checkpoint || context.checkpoint->resumed().is_null()) return std::nullopt;
  const std::string& file = context.checkpoint->path();
  NestedCheckpoint resumed =
      nested_progress_from_json(context.checkpoint->resumed(), uint64_t{budget.restarts} + 1, file);
  try {
    const core::MoveSequence& best = resumed.search.run.best;
    if (!best.empty()) check_reported_sequence(context.game, best.score, best.moves);
    for (const BestSearches::Entry& e : resumed.searches) check_reported_sequence(context.game, e.score, e.moves);
  } catch (const std::runtime_error& e) {
    throw CheckpointMismatch(fmt::format("{}: the checkpoint's progress is malformed: {}", file, e.what()));
  }
  return resumed;
}

} // namespace

std::vector<KeyDoc> searches_output_keys() {
  return {describe(kSearches), describe(kSearchesKept)};
}

SearchesOutput read_searches_output(const ConfigSection& output) {
  return {output.get(kSearches), static_cast<uint32_t>(output.get(kSearchesKept))};
}

std::vector<KeyDoc> budget_keys() {
  return {describe(kTimeSeconds), describe(kRestarts), describe(kSearchesInParallel), describe(kStopAtScore)};
}

std::vector<std::string> budget_keys_outside_results() {
  return {kSearchesInParallel.name};
}

core::SearchBudget read_budget(const ConfigSection& s) {
  core::SearchBudget budget;
  budget.time_seconds = s.get(kTimeSeconds);
  budget.restarts = static_cast<uint32_t>(s.get(kRestarts));
  budget.searches_in_parallel = static_cast<uint32_t>(s.get(kSearchesInParallel));
  if (s.node(kStopAtScore.name)) budget.stop_at_score = s.integer(kStopAtScore.name, 0, INT64_MIN, INT64_MAX);
  return budget;
}

std::string best_sequence_path(const ExperimentConfig& config, const std::string& best_file) {
  return best_file.empty() ? "results/" + config.name + ".best.json" : best_file;
}

std::string improvement_events_path(const ExperimentConfig& config) {
  return config.events_file.empty() ? "results/" + config.name + ".events.jsonl" : config.events_file;
}

RunFiles nested_run_outputs(const ExperimentConfig& config, const std::string& best_file) {
  RunFiles files{{}, {best_sequence_path(config, best_file)}};
  if (config.events_file.empty()) files.outputs.push_back(improvement_events_path(config));
  return files;
}

CheckpointMismatch resume_mismatch(const RunContext& context, const core::ResumeError& e) {
  return CheckpointMismatch(
      fmt::format("{}: the checkpoint does not fit this run: {}", context.checkpoint->path(), e.what()));
}

unsigned host_threads(const RunContext& context) {
  return context.config.run.threads > 0 ? context.config.run.threads : core::available_cpu_threads();
}

std::unique_ptr<AlgorithmOutcome>
run_nested_search(const RunContext& context, const NestedSearchLabels& labels, const NestedSearchFiles& files,
                  const core::SearchBudget& budget,
                  const std::function<core::NestedSearchOutcome(const NestedSearchHooks&)>& search) {
  const core::GameInstance& game = context.game;
  auto outcome = std::make_unique<NestedSearchRunOutcome>();
  outcome->algorithm = context.config.algorithm;
  outcome->title = labels.title;
  outcome->evaluator_label = labels.evaluator;
  outcome->counts = labels.counts;
  outcome->experiment = context.config.name;
  outcome->game = context.config.game;
  outcome->seed = context.seed;
  // A part of a run spread over processes writes none of the run's files: the run that merges the parts writes
  // them, from the merged progress (improvements and searches table of every part).
  const bool writes_files = !context.part;
  if (writes_files) {
    outcome->events_path = improvement_events_path(context.config);
    outcome->best_path = files.best;
    outcome->searches_path = files.searches;
  }
  const std::optional<NestedCheckpoint> resumed = resumed_checkpoint(context, budget);
  // Parts merged: the time the parts took together when the job knows it (MPI ranks ran chunks one after
  // another), else the longest part's (shards ran side by side).
  const std::optional<double> parts_seconds = context.parts_account.wall_seconds;
  if (resumed)
    outcome->resumed_from =
        ResumedFrom{parts_seconds.value_or(resumed->search.run.wall_seconds), resumed->search.finished.count(),
                    budget.time_seconds == 0 && !budget.stop_at_score, context.merges_parts};

  std::optional<OutputStream> events;
  if (writes_files) events.emplace(outcome->events_path, "events file");
  const auto log = [&](const LoggedImprovement& i) {
    // Ordered, so that each line reads as documented: seconds, score, search.
    const nlohmann::ordered_json line = {{"seconds", i.seconds}, {"score", i.score}, {"search", i.search}};
    if (events) events->write_line(line.dump());
    outcome->improvements.push_back(i);
  };
  // A resumed run's log begins with the earlier runs' improvements, on the clock that its own go on with.
  if (resumed)
    for (const LoggedImprovement& i : resumed->improvements) log(i);
  NestedSearchHooks hooks;
  hooks.on_improvement = [&](const core::Improvement& i) {
    check_reported_sequence(game, i.score, *i.moves);
    log({i.seconds, i.score, i.search});
    if (context.progress.shown)
      std::fprintf(stderr, "  %9.3f s  best %lld  (search %u)\n", i.seconds, static_cast<long long>(i.score), i.search);
  };
  static const std::vector<std::vector<uint32_t>> kNoStarts;
  BestSearches best_searches(files.searches_kept, files.starts ? *files.starts : kNoStarts);
  if (resumed)
    for (const BestSearches::Entry& e : resumed->searches) best_searches.restore(e);
  if (!files.searches.empty()) hooks.on_finished = [&](const core::FinishedSearch& f) { best_searches.offer(f); };
  // The core hands over what has completed every checkpoint_seconds and at the end; a save that fails fails the
  // run (its results are still written) and the next save tries again.
  nlohmann::json progress;
  std::string checkpoint_failure;
  const auto save_checkpoint = [&](bool complete) {
    try {
      context.checkpoint->save(progress, complete);
      checkpoint_failure.clear();
    } catch (const std::exception& e) {
      checkpoint_failure = std::string("checkpoint: ") + e.what();
    }
  };
  if (context.checkpoint) {
    hooks.checkpoints.resume = resumed ? &resumed->search : nullptr;
    hooks.checkpoints.seconds = context.checkpoint_seconds;
    hooks.checkpoints.save = [&](const core::NestedSearchProgress& p) {
      progress = nested_progress_json(p, outcome->improvements, best_searches.entries());
      save_checkpoint(false);
    };
  }

  outcome->search = search(hooks);
  // The merge itself runs no search: it reports the parts' time and devices.
  if (parts_seconds) outcome->search.wall_seconds = *parts_seconds;
  if (!context.parts_account.devices.empty()) outcome->search.device = context.parts_account.devices;
  const core::NestedSearchOutcome& found = outcome->search;
  outcome->stopped = found.stopped_by_request;
  // A part may hold no search, or none that finished a sequence in time: the merge of the parts judges the run.
  if (found.best.empty() && !context.part && !found.stopped_by_request)
    outcome->error = "the search found no sequence before its time ran out";
  // A file that cannot be written fails the run but keeps its results file, which holds the best moves too.
  const auto written = [&](const std::function<void()>& write) {
    try {
      write();
    } catch (const OutputError& e) {
      outcome->add_failure(e.what());
    }
  };
  if (!found.best.empty()) {
    check_reported_sequence(game, found.best.score, found.best.moves);
    if (writes_files)
      written([&] { write_json(files.best, sequence_document(game, found.best.moves, found.best.score)); });
  }
  if (!outcome->searches_path.empty()) {
    const std::vector<BestSearches::Entry> finished = best_searches.entries();
    for (const BestSearches::Entry& e : finished) check_reported_sequence(game, e.score, e.moves);
    written([&] {
      write_best_searches(files.searches, finished);
      outcome->searches_written = finished.size();
    });
  }
  if (events) written([&] { events->close(); });
  if (context.checkpoint && outcome->status() == "complete") save_checkpoint(true);
  if (!checkpoint_failure.empty()) outcome->add_failure(checkpoint_failure);
  if (!context.plot_file.empty() && outcome->error.empty()) draw(context, *outcome);
  return outcome;
}

ChunkFloor budget_chunk_floor(const core::SearchBudget& budget) {
  return {budget.searches_in_parallel, uint64_t{budget.restarts} + 1};
}

std::string budget_parts_refusal(const core::SearchBudget& budget, const std::string& table, bool ranks) {
  if (!ranks || !budget.stop_at_score) return "";
  // A chunk learns of the score only from its own searches, and ranks hear from rank 0 only between chunks: the
  // other ranks' chunks would run on to their own end.
  return fmt::format("{0}.stop_at_score cannot bound a search spread over MPI ranks yet (a rank whose search reaches "
                     "the score cannot stop the chunks of searches the other ranks are running): bound it by "
                     "{0}.time_seconds or {0}.restarts, or run it as shards (gsdk run --shard K/N: each shard stops "
                     "at the score)",
                     table);
}

} // namespace gsdk::host
