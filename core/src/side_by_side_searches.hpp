// side_by_side_searches.hpp - what NMCS and NRPA share: the run's best sequence and its improvements over
// time, and the loop that keeps `searches_in_parallel` searches going until the budget is used up, one
// batched round at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gsdk/core/nested_search.hpp"

namespace gsdk::core {

class SearchRecord {
public:
  explicit SearchRecord(const ImprovementFn& on_improvement)
      : start_(std::chrono::steady_clock::now()), on_improvement_(on_improvement) {}

  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  // Cheap test first, so that a candidate's moves are only worked out (a replay) when they are needed.
  bool beaten_by(int64_t score) const { return score > best_.score; }
  void improve(uint32_t search, MoveSequence candidate) {
    best_ = std::move(candidate);
    best_search_ = search;
    if (on_improvement_) on_improvement_(Improvement{seconds(), best_.score, search, &best_.moves});
  }
  const MoveSequence& best() const { return best_; }
  uint32_t best_search() const { return best_search_; }

private:
  std::chrono::steady_clock::time_point start_;
  const ImprovementFn& on_improvement_;
  MoveSequence best_;
  uint32_t best_search_ = 0;
};

// Search needs `bool done() const`. make(k) builds search k; play_round(active) advances every active
// search by one batch. Fills the outcome's search counts, batches, time and best.
template <typename Search, typename Make, typename PlayRound>
void run_side_by_side(const SearchBudget& budget, SearchRecord& record, NestedSearchOutcome& outcome, Make&& make,
                      PlayRound&& play_round) {
  const uint64_t total = uint64_t{budget.restarts} + 1;
  const auto time_is_up = [&] { return budget.time_seconds > 0 && record.seconds() >= budget.time_seconds; };
  const auto score_reached = [&] { return budget.stop_at_score && record.best().score >= *budget.stop_at_score; };
  std::vector<std::unique_ptr<Search>> active;
  for (;;) {
    if (score_reached()) {
      outcome.reached_stop_score = true;
      break;
    }
    while (active.size() < std::max(budget.searches_in_parallel, 1u) && outcome.searches_started < total &&
           !time_is_up()) {
      std::unique_ptr<Search> search = make(outcome.searches_started++);
      if (search->done())
        ++outcome.searches_finished;
      else
        active.push_back(std::move(search));
    }
    if (active.empty()) break;
    if (time_is_up()) break;
    std::vector<Search*> round;
    for (auto& s : active) round.push_back(s.get());
    play_round(round);
    ++outcome.batches;
    std::erase_if(active, [&](const std::unique_ptr<Search>& s) {
      if (!s->done()) return false;
      ++outcome.searches_finished;
      return true;
    });
  }
  if (!outcome.reached_stop_score && (!active.empty() || (outcome.searches_started < total && time_is_up())))
    outcome.stopped_by_time = true;
  outcome.best = record.best();
  outcome.best_search = record.best_search();
  outcome.wall_seconds = record.seconds();
}

} // namespace gsdk::core
