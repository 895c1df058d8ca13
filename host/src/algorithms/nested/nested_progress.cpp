// nested_progress.cpp - NMCS and NRPA checkpoint progress as JSON and back (nested_progress.hpp).
#include "algorithms/nested/nested_progress.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "checkpoint/checkpoint_file.hpp"

namespace gsdk::host {

namespace {

nlohmann::json sequence_json(const core::MoveSequence& sequence) {
  if (sequence.empty()) return nullptr;
  return {{"score", sequence.score}, {"moves", sequence.moves}};
}

core::MoveSequence sequence_from_json(const nlohmann::json& sequence) {
  if (sequence.is_null()) return {};
  return {sequence.at("score").get<int64_t>(), sequence.at("moves").get<std::vector<uint32_t>>()};
}

// Adds `more`'s finished searches to `into`'s; throws CheckpointMismatch for one both hold.
void add_finished(core::FinishedSearches& into, const core::FinishedSearches& more, const std::string& where) {
  const auto add = [&](uint32_t search) {
    if (into.contains(search)) throw CheckpointMismatch(fmt::format("{}: two parts both ran search {}", where, search));
    into.insert(search);
  };
  for (uint32_t search = 0; search < more.below(); ++search) add(search);
  for (uint32_t search : more.above()) add(search);
}

// The improvements of two parts on one clock (a part's seconds count from its own start, and parts start
// together), keeping those that raised the best of both; at equal seconds the lower search comes first.
std::vector<LoggedImprovement> merge_improvements(std::vector<LoggedImprovement> all,
                                                  const std::vector<LoggedImprovement>& more) {
  all.insert(all.end(), more.begin(), more.end());
  std::stable_sort(all.begin(), all.end(), [](const LoggedImprovement& x, const LoggedImprovement& y) {
    return x.seconds != y.seconds ? x.seconds < y.seconds : x.search < y.search;
  });
  std::vector<LoggedImprovement> raised;
  for (const LoggedImprovement& i : all)
    if (raised.empty() || i.score > raised.back().score) raised.push_back(i);
  return raised;
}

} // namespace

nlohmann::json nested_progress_json(const core::NestedSearchProgress& search,
                                    const std::vector<LoggedImprovement>& improvements,
                                    const std::vector<BestSearches::Entry>& searches) {
  const core::NestedSearchOutcome& run = search.run;
  nlohmann::json logged = nlohmann::json::array();
  for (const LoggedImprovement& i : improvements)
    logged.push_back({{"seconds", i.seconds}, {"score", i.score}, {"search", i.search}});
  nlohmann::json table = nlohmann::json::array();
  for (const BestSearches::Entry& e : searches)
    table.push_back({{"score", e.score}, {"search", e.search}, {"start", e.start}, {"moves", e.moves}});
  nlohmann::json under_way = nlohmann::json::array();
  for (const core::SearchUnderWay& u : search.under_way)
    under_way.push_back({{"search", u.search},
                         {"played", u.played},
                         {"best", sequence_json(u.best)},
                         {"counter", u.counter},
                         {"iteration", u.iteration},
                         {"policy", u.policy}});
  return {
      {"finished", {{"below", search.finished.below()}, {"above", search.finished.above()}}},
      {"under_way", under_way},
      {"best", run.best.empty()
                   ? nlohmann::json(nullptr)
                   : nlohmann::json{{"score", run.best.score}, {"search", run.best_search}, {"moves", run.best.moves}}},
      {"counts",
       {{"playouts", run.playouts},
        {"level1_steps", run.level1_steps},
        {"level1_searches", run.level1_searches},
        {"batches", run.batches},
        {"beam_children", run.beam_children},
        {"beam_duplicates", run.beam_duplicates},
        {"beam_capped", run.beam_capped},
        {"evaluator_seconds", run.evaluator_seconds},
        {"wall_seconds", run.wall_seconds}}},
      {"improvements", logged},
      {"searches", table}};
}

NestedCheckpoint nested_progress_from_json(const nlohmann::json& progress, uint64_t searches, const std::string& file) {
  try {
    NestedCheckpoint c;
    const nlohmann::json& finished = progress.at("finished");
    c.search.finished =
        core::FinishedSearches(finished.at("below").get<uint32_t>(), finished.at("above").get<std::set<uint32_t>>());
    const core::FinishedSearches& f = c.search.finished;
    if (f.below() > searches || (!f.above().empty() && *f.above().rbegin() >= searches))
      throw std::invalid_argument(fmt::format("it lists finished searches beyond the run's {}", searches));
    for (const nlohmann::json& u : progress.at("under_way"))
      c.search.under_way.push_back({u.at("search").get<uint32_t>(), u.at("played").get<std::vector<uint32_t>>(),
                                    sequence_from_json(u.at("best")), u.at("counter").get<uint64_t>(),
                                    u.at("iteration").get<uint32_t>(), u.at("policy").get<std::vector<double>>()});
    core::NestedSearchOutcome& run = c.search.run;
    if (const nlohmann::json& best = progress.at("best"); !best.is_null()) {
      run.best.score = best.at("score").get<int64_t>();
      run.best.moves = best.at("moves").get<std::vector<uint32_t>>();
      run.best_search = best.at("search").get<uint32_t>();
    }
    const nlohmann::json& counts = progress.at("counts");
    run.playouts = counts.at("playouts").get<uint64_t>();
    run.level1_steps = counts.at("level1_steps").get<uint64_t>();
    run.level1_searches = counts.at("level1_searches").get<uint64_t>();
    run.batches = counts.at("batches").get<uint64_t>();
    // The beam's counts: absent from checkpoints saved before the beam search (an NMCS or NRPA run's, all 0).
    run.beam_children = counts.value("beam_children", uint64_t{0});
    run.beam_duplicates = counts.value("beam_duplicates", uint64_t{0});
    run.beam_capped = counts.value("beam_capped", uint64_t{0});
    run.evaluator_seconds = counts.at("evaluator_seconds").get<double>();
    run.wall_seconds = counts.at("wall_seconds").get<double>();
    if (!(run.wall_seconds >= 0))
      throw std::invalid_argument(fmt::format("wall_seconds {} is negative", run.wall_seconds));
    for (const nlohmann::json& i : progress.at("improvements"))
      c.improvements.push_back(
          {i.at("seconds").get<double>(), i.at("score").get<int64_t>(), i.at("search").get<uint32_t>()});
    for (const nlohmann::json& e : progress.at("searches"))
      c.searches.push_back({e.at("score").get<int64_t>(), e.at("search").get<uint32_t>(), e.at("start").get<uint32_t>(),
                            e.at("moves").get<std::vector<uint32_t>>()});
    return c;
  } catch (const std::exception& e) {
    throw CheckpointMismatch(fmt::format("{}: the checkpoint's progress is malformed: {}", file, e.what()));
  }
}

nlohmann::json merge_nested_progress(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  // Either part may hold any search numbers: the run that resumes the merge checks them against its own count.
  constexpr uint64_t kAnySearches = uint64_t{std::numeric_limits<uint32_t>::max()} + 1;
  NestedCheckpoint into = nested_progress_from_json(a, kAnySearches, where);
  const NestedCheckpoint more = nested_progress_from_json(b, kAnySearches, where);
  add_finished(into.search.finished, more.search.finished, where);
  std::set<uint32_t> under_way;
  into.search.under_way.insert(into.search.under_way.end(), more.search.under_way.begin(), more.search.under_way.end());
  for (const core::SearchUnderWay& u : into.search.under_way)
    if (into.search.finished.contains(u.search) || !under_way.insert(u.search).second)
      throw CheckpointMismatch(fmt::format("{}: two parts both ran search {}", where, u.search));

  core::NestedSearchOutcome& run = into.search.run;
  const core::NestedSearchOutcome& other = more.search.run;
  const bool other_is_better =
      !other.best.empty() && (run.best.empty() || other.best.score > run.best.score ||
                              (other.best.score == run.best.score && other.best_search < run.best_search));
  if (other_is_better) {
    run.best = other.best;
    run.best_search = other.best_search;
  }
  run.playouts += other.playouts;
  run.level1_steps += other.level1_steps;
  run.level1_searches += other.level1_searches;
  run.batches += other.batches;
  run.beam_children += other.beam_children;
  run.beam_duplicates += other.beam_duplicates;
  run.beam_capped += other.beam_capped;
  run.evaluator_seconds += other.evaluator_seconds;
  run.wall_seconds = std::max(run.wall_seconds, other.wall_seconds);
  into.searches.insert(into.searches.end(), more.searches.begin(), more.searches.end());
  return nested_progress_json(into.search, merge_improvements(std::move(into.improvements), more.improvements),
                              into.searches);
}

} // namespace gsdk::host
