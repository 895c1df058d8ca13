// side_by_side_searches.hpp - what NMCS and NRPA share: the run's best sequence and its improvements over
// time, and the loop that keeps `searches_in_parallel` searches going until the budget is used up, one
// batched round at a time (or two groups of them taking turns), saving what has completed for checkpoints and
// skipping, when it resumes one, the searches an earlier run finished.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "gsdk/core/nested/nested_search.hpp"

namespace gsdk::core {

// Offers may come from several threads at once (NMCS delivers a round's searches on the host threads): the
// best score is mirrored in an atomic for the cheap first tests, and offers take a lock.
class SearchRecord {
public:
  // A run that resumes a checkpoint (budget.checkpoints.resume) goes on from its best, which the offers to come
  // compete with as they would have in one run, and from its time: seconds(), deadlines and improvements count
  // from the first run's start.
  SearchRecord(const ImprovementFn& on_improvement, const SearchBudget& budget)
      : start_(std::chrono::steady_clock::now()), on_improvement_(on_improvement) {
    const NestedSearchProgress* resumed = budget.checkpoints.resume;
    if (!resumed) return;
    start_ -= std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(resumed->run.wall_seconds));
    if (!resumed->run.best.empty()) take(resumed->run.best_search, resumed->run.best);
  }

  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  // The cheap first test of offer and offer_latest: false only when they would refuse (a lower score than
  // the best never becomes the best again), so that a candidate's moves are only built when needed.
  bool might_take(int64_t score) const { return score >= score_mirror_.load(std::memory_order_relaxed); }
  // For NMCS, whose searches find sequences in an order that depends on how their work is interleaved:
  // ties go to the lowest search number, then to the lexicographically smallest moves, so the best of the
  // run depends only on which sequences were offered.
  // Takes `candidate` if it beats the best under that order; only a higher score is an improvement to report.
  void offer(uint32_t search, MoveSequence candidate) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const bool higher = candidate.score > best_.score;
    if (!higher && (candidate.score < best_.score || search > best_search_ ||
                    (search == best_search_ && !(candidate.moves < best_.moves))))
      return;
    take(search, std::move(candidate));
    if (higher && on_improvement_) on_improvement_(Improvement{seconds(), best_.score, search, &best_.moves});
  }
  // For NRPA, whose searches offer their sequences in the order they find them: a tie goes to the lowest
  // search number and, within one search, to the later sequence (as NRPA's own levels break ties), so the
  // record ends with the same sequence whether a search offers every playout or only its calls' bests.
  void offer_latest(uint32_t search, const MoveSequence& candidate) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const bool higher = candidate.score > best_.score;
    if (!higher && (candidate.score < best_.score || search > best_search_)) return;
    take(search, candidate);
    if (higher && on_improvement_) on_improvement_(Improvement{seconds(), best_.score, search, &best_.moves});
  }
  // When a run that began with this record must end under `budget`: the earlier of time_seconds after its start
  // and the budget's deadline; null when it has neither.
  std::optional<std::chrono::steady_clock::time_point> deadline(const SearchBudget& budget) const {
    if (budget.time_seconds <= 0) return budget.deadline;
    const std::chrono::steady_clock::time_point own =
        start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(budget.time_seconds));
    return budget.deadline ? std::min(own, *budget.deadline) : own;
  }
  // Only while no offer can come in (between rounds, after the run).
  const MoveSequence& best() const { return best_; }
  uint32_t best_search() const { return best_search_; }

private:
  void take(uint32_t search, MoveSequence candidate) {
    best_ = std::move(candidate);
    best_search_ = search;
    score_mirror_.store(best_.score, std::memory_order_relaxed);
  }

  std::chrono::steady_clock::time_point start_;
  const ImprovementFn& on_improvement_;
  std::mutex mutex_;
  MoveSequence best_;
  uint32_t best_search_ = 0;
  std::atomic<int64_t> score_mirror_{MoveSequence{}.score};
};

// The counts of the runs a checkpoint resumes, which this one goes on from. Throws ResumeError when it holds a
// search beyond the run's `total`.
inline void resume_counts(const NestedSearchProgress& resumed, uint64_t total, NestedSearchOutcome& outcome) {
  const FinishedSearches& finished = resumed.finished;
  if (finished.below() > total || (!finished.above().empty() && *finished.above().rbegin() >= total))
    throw ResumeError(fmt::format("the resumed run finished searches beyond this run's {} (restarts + 1)", total));
  const NestedSearchOutcome& earlier = resumed.run;
  outcome.searches_started = outcome.searches_finished = static_cast<uint32_t>(finished.count());
  outcome.playouts += earlier.playouts;
  outcome.level1_steps += earlier.level1_steps;
  outcome.level1_searches += earlier.level1_searches;
  outcome.batches += earlier.batches;
  outcome.beam_children += earlier.beam_children;
  outcome.beam_duplicates += earlier.beam_duplicates;
  outcome.beam_capped += earlier.beam_capped;
  outcome.evaluator_seconds += earlier.evaluator_seconds;
}

// The searches under way that a checkpoint holds, by number. Throws ResumeError for one that is finished or beyond
// the run's `total`, or listed twice.
inline std::map<uint32_t, const SearchUnderWay*> searches_under_way(const NestedSearchProgress& resumed,
                                                                    uint64_t total) {
  std::map<uint32_t, const SearchUnderWay*> by_number;
  for (const SearchUnderWay& s : resumed.under_way)
    if (s.search >= total || resumed.finished.contains(s.search) || !by_number.emplace(s.search, &s).second)
      throw ResumeError(fmt::format("search {} cannot be under way in this run of {} (restarts + 1), with {} finished",
                                    s.search, total, resumed.finished.count()));
  return by_number;
}

// Search needs `bool done() const`, `uint32_t number() const` and `std::optional<SearchUnderWay> under_way() const`
// (where it stands for a checkpoint; none: it would start again from its beginning). make(k, under_way) builds
// search k, at the step or iteration under_way saved when it is not null. The searches side by side form `groups` (1 or
// 2) groups that take turns: start_round(g, round) hands out a round of group g's searches and may return before it is
// played, finish_round(g, round) waits for it and delivers it. With two groups, one group's round is played while the
// other's is delivered, retired, refilled and handed out. retire(search) sees each search that is done, once, before it
// is dropped (right after its last round is finished). Fills the outcome's search counts, batches, time and best. With
// budget.checkpoints: starts no search the resumed run finished, and hands what has completed to checkpoints.save every
// checkpoints.seconds and at the end. With budget.part: starts only the part's searches.
template <typename Search, typename Make, typename StartRound, typename FinishRound, typename Retire>
void run_side_by_side_in_groups(const SearchBudget& budget, SearchRecord& record, NestedSearchOutcome& outcome,
                                uint32_t groups, Make&& make, StartRound&& start_round, FinishRound&& finish_round,
                                Retire&& retire) {
  constexpr uint32_t kMaxGroups = 2;
  groups = std::clamp(groups, 1u, kMaxGroups);
  const uint64_t total = uint64_t{budget.restarts} + 1;
  const uint32_t width = std::max(budget.searches_in_parallel, 1u);
  const std::optional<std::chrono::steady_clock::time_point> deadline = record.deadline(budget);
  const auto time_is_up = [&] {
    return stop_requested(budget.stop) || (deadline && std::chrono::steady_clock::now() >= *deadline);
  };
  const SearchCheckpoints& checkpoints = budget.checkpoints;
  FinishedSearches finished;
  std::map<uint32_t, const SearchUnderWay*> resumed_under_way;
  if (checkpoints.resume) {
    resume_counts(*checkpoints.resume, total, outcome);
    finished = checkpoints.resume->finished;
    resumed_under_way = searches_under_way(*checkpoints.resume, total);
  }
  // The searches this run may start: all of them, or its part's (budget.part).
  const std::vector<std::pair<uint64_t, uint64_t>> startable =
      budget.part ? budget.part->ranges(total) : std::vector<std::pair<uint64_t, uint64_t>>{{0, total}};
  auto range = startable.begin();
  uint64_t next = 0; // the next search to start, unless it is finished already or outside the startable ranges
  const auto more_to_start = [&] {
    for (;; ++next) {
      while (range != startable.end() && next >= range->second) ++range;
      if (range == startable.end()) return false;
      next = std::max(next, range->first);
      if (!finished.contains(static_cast<uint32_t>(next))) return true;
    }
  };
  // The outcome as it stands, with the record's best and time.
  const auto take_record = [&] {
    outcome.best = record.best();
    outcome.best_search = record.best_search();
    outcome.wall_seconds = record.seconds();
  };
  const auto score_reached = [&] { return budget.stop_at_score && record.best().score >= *budget.stop_at_score; };
  std::vector<std::unique_ptr<Search>> active[kMaxGroups];
  std::vector<Search*> rounds[kMaxGroups];
  bool in_flight[kMaxGroups] = {};
  bool stopping = false;
  double saved_at = record.seconds();
  const auto save_progress = [&] {
    take_record();
    NestedSearchProgress progress{finished, {}, outcome};
    for (const auto& group : active)
      for (const auto& search : group)
        if (std::optional<SearchUnderWay> at = search->under_way()) progress.under_way.push_back(std::move(*at));
    checkpoints.save(progress);
    saved_at = record.seconds();
  };
  for (uint32_t g = 0;; g = (g + 1) % groups) {
    if (in_flight[g]) {
      finish_round(g, rounds[g]);
      in_flight[g] = false;
      ++outcome.batches;
      std::erase_if(active[g], [&](const std::unique_ptr<Search>& s) {
        if (!s->done()) return false;
        ++outcome.searches_finished;
        finished.insert(s->number());
        retire(*s);
        return true;
      });
      if (checkpoints.save && record.seconds() >= saved_at + checkpoints.seconds) save_progress();
    }
    if (!stopping && score_reached()) {
      outcome.reached_stop_score = true;
      stopping = true;
    }
    // Group g holds its share of the width, the first groups one more when it does not divide evenly.
    const uint32_t capacity = width / groups + (g < width % groups ? 1 : 0);
    while (!stopping && active[g].size() < capacity && more_to_start() && !time_is_up()) {
      const auto under_way = resumed_under_way.find(static_cast<uint32_t>(next));
      std::unique_ptr<Search> search =
          make(static_cast<uint32_t>(next++), under_way == resumed_under_way.end() ? nullptr : under_way->second);
      ++outcome.searches_started;
      if (!search->done()) {
        active[g].push_back(std::move(search));
        continue;
      }
      ++outcome.searches_finished;
      finished.insert(search->number());
      retire(*search);
    }
    if (time_is_up()) stopping = true;
    if (!stopping && !active[g].empty()) {
      rounds[g].clear();
      for (auto& s : active[g]) rounds[g].push_back(s.get());
      start_round(g, rounds[g]);
      in_flight[g] = true;
    }
    if (std::none_of(in_flight, in_flight + groups, [](bool b) { return b; })) break;
  }
  const bool unfinished = std::any_of(active, active + groups, [](const auto& a) { return !a.empty(); });
  if (!outcome.reached_stop_score && (unfinished || (more_to_start() && time_is_up()))) {
    outcome.stopped_by_request = stop_requested(budget.stop);
    outcome.stopped_by_time = !outcome.stopped_by_request;
  }
  if (checkpoints.save)
    save_progress();
  else
    take_record();
}

// One group whose rounds play_round(active) plays to the end.
template <typename Search, typename Make, typename PlayRound, typename Retire>
void run_side_by_side(const SearchBudget& budget, SearchRecord& record, NestedSearchOutcome& outcome, Make&& make,
                      PlayRound&& play_round, Retire&& retire) {
  run_side_by_side_in_groups<Search>(
      budget, record, outcome, 1, make, [&](uint32_t, std::vector<Search*>& round) { play_round(round); },
      [](uint32_t, std::vector<Search*>&) {}, retire);
}

} // namespace gsdk::core
