// nested_checkpoint_test.cpp - NMCS and NRPA runs saved and resumed at the granularity of their searches
// (nested_search.hpp's SearchCheckpoints) on snake-in-the-box: a run of several searches, stopped after some
// of them finished, resumed with another number of searches side by side and of threads (and for NMCS on
// every path: frames, level-1 searches on CPU threads one round at a time or pipelined, whole searches), ends
// with the uninterrupted run's best sequence from the same search, and runs only the searches not finished
// before, on the CPU and on a GPU (skipped without one); a single long search goes on from the step (NMCS) or iteration
// (NRPA) it was in; a resumed time budget counts the earlier runs' time; a job's deadline ends a run before its own
// time, and a run begun past it starts nothing; a checkpoint that does not fit the run is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "gpu.hpp"
#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using gsdk::core::FinishedSearches;
using gsdk::core::NestedSearchOutcome;
using gsdk::core::NestedSearchProgress;
using gsdk::core::SearchBudget;
using gsdk::core::StopRequest;
using test::make_game;

// A budget that saves after every round and asks its run to stop once `stop_after` searches have finished (or
// once `enough` says so of a progress saved), keeping the last progress saved.
struct Interrupter {
  StopRequest stop;
  std::optional<NestedSearchProgress> saved;
  void arm(SearchBudget& budget, uint64_t stop_after) {
    arm(budget, [stop_after](const NestedSearchProgress& p) { return p.finished.count() >= stop_after; });
  }
  void arm(SearchBudget& budget, std::function<bool(const NestedSearchProgress&)> enough) {
    budget.stop = &stop;
    budget.checkpoints.seconds = 0;
    budget.checkpoints.save = [this, enough](const NestedSearchProgress& progress) {
      saved = progress;
      if (enough(progress)) stop.request();
    };
  }
};

void expect_same_best(const NestedSearchOutcome& run, const NestedSearchOutcome& reference) {
  EXPECT_EQ(run.best.score, reference.best.score);
  EXPECT_EQ(run.best.moves, reference.best.moves);
  EXPECT_EQ(run.best_search, reference.best_search);
  EXPECT_EQ(run.searches_finished, reference.searches_finished);
  EXPECT_EQ(run.searches_started, reference.searches_finished);
  EXPECT_FALSE(run.stopped_by_request);
  EXPECT_FALSE(run.stopped_by_time);
}

TEST(FinishedSearches, KeepTheFirstOnesAsACountAndTheRestByNumber) {
  FinishedSearches finished;
  for (const uint32_t k : {2u, 0u, 5u, 1u, 5u}) finished.insert(k);
  EXPECT_EQ(finished.below(), 3u);
  EXPECT_EQ(finished.above(), std::set<uint32_t>{5});
  EXPECT_EQ(finished.count(), 4u);
  EXPECT_TRUE(finished.contains(1));
  EXPECT_FALSE(finished.contains(3));
  EXPECT_TRUE(finished.contains(5));
  EXPECT_THROW(FinishedSearches(3, {3}), std::invalid_argument);
  EXPECT_EQ(FinishedSearches(3, {7}).count(), 4u);
}

// NMCS of 16 searches, stopped after 1, 5 and 11 of them finished, resumed 3 or 5 side by side on one or two
// threads, on every path: what finished is not searched again, and the result is the uninterrupted run's.
TEST(SnakeNmcsCheckpoint, ARunStoppedAfterSomeSearchesAndResumedEndsAsTheUninterruptedRun) {
  const auto game = make_game({7, true, "uniform"});
  const auto one_thread = gsdk::core::make_cpu_batch_evaluator(*game, 41, 1);
  const auto two_threads = gsdk::core::make_cpu_batch_evaluator(*game, 41, 2);
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 41, 2);
  for (const uint32_t level : {1u, 2u}) {
    gsdk::core::NmcsSettings settings = test::nmcs_settings(level, 15, 2);
    const NestedSearchOutcome reference = gsdk::core::run_nmcs(*game, settings, *one_thread);
    ASSERT_EQ(reference.searches_finished, 16u);
    for (const uint64_t stop_after : {1u, 5u, 11u}) {
      for (const int path : {0, 1, 2}) { // frames; level-1 searcher one round at a time; pipelined
        SCOPED_TRACE(testing::Message() << "level " << level << ", stopped after " << stop_after << ", path " << path);
        gsdk::core::Level1Searcher* searcher = path == 0 ? nullptr : level1.get();
        gsdk::core::NmcsSettings cut = settings;
        cut.pipeline = path == 2;
        Interrupter interrupter;
        interrupter.arm(cut.budget, stop_after);
        const NestedSearchOutcome stopped = gsdk::core::run_nmcs(*game, cut, *one_thread, {}, searcher);
        ASSERT_TRUE(interrupter.saved);
        const NestedSearchProgress progress = *interrupter.saved;
        EXPECT_TRUE(stopped.stopped_by_request);
        EXPECT_GE(progress.finished.count(), stop_after);
        ASSERT_LT(progress.finished.count(), 16u);
        EXPECT_EQ(progress.run.searches_finished, progress.finished.count());

        gsdk::core::NmcsSettings resumed = settings;
        resumed.pipeline = path == 2;
        resumed.budget.searches_in_parallel = path == 1 ? 5 : 3;
        resumed.budget.checkpoints.resume = &progress;
        std::vector<uint32_t> searched;
        const NestedSearchOutcome run =
            gsdk::core::run_nmcs(*game, resumed, *two_threads, {}, searcher,
                                 [&](const gsdk::core::FinishedSearch& f) { searched.push_back(f.search); });
        expect_same_best(run, reference);
        EXPECT_EQ(searched.size(), 16u - progress.finished.count());
        for (const uint32_t k : searched) EXPECT_FALSE(progress.finished.contains(k)) << "search " << k << " again";
        EXPECT_GE(run.wall_seconds, progress.run.wall_seconds) << "the time of the earlier run counts";
        EXPECT_GE(run.playouts, progress.run.playouts) << "so do its playouts";
      }
    }
  }
}

// A resumed run reports only improvements on the best it resumed, and saves what it completes again: a run
// stopped twice ends as one that never was.
TEST(SnakeNmcsCheckpoint, ARunResumedTwiceImprovesOnlyOnWhatItResumed) {
  const auto game = make_game({7, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 43, 1);
  const gsdk::core::NmcsSettings settings = test::nmcs_settings(2, 11, 3);
  const NestedSearchOutcome reference = gsdk::core::run_nmcs(*game, settings, *evaluator);

  gsdk::core::NmcsSettings first = settings;
  Interrupter one;
  one.arm(first.budget, 3);
  gsdk::core::run_nmcs(*game, first, *evaluator);
  ASSERT_TRUE(one.saved);

  gsdk::core::NmcsSettings second = settings;
  second.budget.checkpoints.resume = &*one.saved;
  Interrupter two;
  two.arm(second.budget, 8);
  std::vector<int64_t> improved;
  gsdk::core::run_nmcs(*game, second, *evaluator,
                       [&](const gsdk::core::Improvement& i) { improved.push_back(i.score); });
  ASSERT_TRUE(two.saved);
  EXPECT_GE(two.saved->finished.count(), 8u);
  for (const int64_t score : improved) EXPECT_GT(score, one.saved->run.best.score);

  gsdk::core::NmcsSettings third = settings;
  third.budget.checkpoints.resume = &*two.saved;
  expect_same_best(gsdk::core::run_nmcs(*game, third, *evaluator), reference);
}

// NRPA of 12 searches on the CPU's policy playouts, stopped after 1, 4 and 9 of them finished, resumed 5 side by
// side on two threads: the uninterrupted run's best, after exactly the playouts of the searches left.
TEST(SnakeNrpaCheckpoint, ARunStoppedAfterSomeSearchesAndResumedEndsAsTheUninterruptedRun) {
  const auto game = make_game({6, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.seed = 47;
  settings.level = 2;
  settings.iterations = 12;
  settings.budget.restarts = 11;
  settings.budget.searches_in_parallel = 2;
  settings.threads = 1;
  const NestedSearchOutcome reference = gsdk::core::run_nrpa(*game, settings);
  ASSERT_EQ(reference.searches_finished, 12u);
  ASSERT_EQ(reference.playouts, 12u * 12 * 12);
  for (const uint64_t stop_after : {1u, 4u, 9u}) {
    SCOPED_TRACE(testing::Message() << "stopped after " << stop_after);
    gsdk::core::NrpaSettings cut = settings;
    Interrupter interrupter;
    interrupter.arm(cut.budget, stop_after);
    EXPECT_TRUE(gsdk::core::run_nrpa(*game, cut).stopped_by_request);
    ASSERT_TRUE(interrupter.saved);
    const NestedSearchProgress progress = *interrupter.saved;
    ASSERT_LT(progress.finished.count(), 12u);

    gsdk::core::NrpaSettings resumed = settings;
    resumed.threads = 2;
    resumed.budget.searches_in_parallel = 5;
    resumed.budget.checkpoints.resume = &progress;
    const NestedSearchOutcome run = gsdk::core::run_nrpa(*game, resumed);
    expect_same_best(run, reference);
    EXPECT_EQ(run.playouts, progress.run.playouts + (12 - progress.finished.count()) * 12 * 12)
        << "the finished searches ran again";
  }
}

// One long NMCS search (level 3), stopped at its fourth and its ninth move, resumed on two threads or with its
// level-1 searches on CPU threads: it goes on from the move it was choosing, and ends as the uninterrupted search.
TEST(SnakeNmcsCheckpoint, ASingleSearchGoesOnFromTheMoveItWasChoosing) {
  const auto game = make_game({6, true, "uniform"});
  const auto one_thread = gsdk::core::make_cpu_batch_evaluator(*game, 59, 1);
  const auto two_threads = gsdk::core::make_cpu_batch_evaluator(*game, 59, 2);
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 59, 2);
  const gsdk::core::NmcsSettings settings = test::nmcs_settings(3, 0, 1);
  const NestedSearchOutcome reference = gsdk::core::run_nmcs(*game, settings, *one_thread);
  for (const size_t moves : {3u, 8u}) {
    for (const bool searcher : {false, true}) {
      SCOPED_TRACE(testing::Message() << "stopped at move " << moves + 1 << (searcher ? ", level-1 searcher" : ""));
      gsdk::core::NmcsSettings cut = settings;
      Interrupter interrupter;
      interrupter.arm(cut.budget, [moves](const NestedSearchProgress& p) {
        return !p.under_way.empty() && p.under_way[0].played.size() >= moves;
      });
      gsdk::core::run_nmcs(*game, cut, *one_thread);
      ASSERT_TRUE(interrupter.saved);
      const NestedSearchProgress progress = *interrupter.saved;
      ASSERT_EQ(progress.under_way.size(), 1u);
      EXPECT_EQ(progress.under_way[0].played.size(), moves);
      EXPECT_EQ(progress.finished.count(), 0u);

      gsdk::core::NmcsSettings resumed = settings;
      resumed.budget.checkpoints.resume = &progress;
      const NestedSearchOutcome run = gsdk::core::run_nmcs(*game, resumed, searcher ? *one_thread : *two_threads, {},
                                                           searcher ? level1.get() : nullptr);
      expect_same_best(run, reference);
      EXPECT_LT(run.playouts - progress.run.playouts, reference.playouts) << "it began the search again";
    }
  }
}

// One long NRPA search (level 3), stopped in its third and its seventh top-level iteration, resumed on two threads:
// it runs exactly the iterations left, with the policy it had, and ends as the uninterrupted search.
TEST(SnakeNrpaCheckpoint, ASingleSearchGoesOnFromItsIterationUnderWay) {
  const auto game = make_game({6, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.seed = 61;
  settings.level = 3;
  settings.iterations = 8;
  settings.threads = 1;
  const NestedSearchOutcome reference = gsdk::core::run_nrpa(*game, settings);
  ASSERT_EQ(reference.playouts, 8u * 8 * 8);
  for (const uint32_t iteration : {2u, 6u}) {
    SCOPED_TRACE(testing::Message() << "stopped in iteration " << iteration + 1);
    gsdk::core::NrpaSettings cut = settings;
    Interrupter interrupter;
    interrupter.arm(cut.budget, [iteration](const NestedSearchProgress& p) {
      return !p.under_way.empty() && p.under_way[0].iteration >= iteration;
    });
    gsdk::core::run_nrpa(*game, cut);
    ASSERT_TRUE(interrupter.saved);
    const NestedSearchProgress progress = *interrupter.saved;
    ASSERT_EQ(progress.under_way.size(), 1u);
    EXPECT_EQ(progress.under_way[0].iteration, iteration);

    gsdk::core::NrpaSettings resumed = settings;
    resumed.threads = 2;
    resumed.budget.checkpoints.resume = &progress;
    const NestedSearchOutcome run = gsdk::core::run_nrpa(*game, resumed);
    expect_same_best(run, reference);
    EXPECT_EQ(run.playouts - progress.run.playouts, (8u - iteration) * 8 * 8) << "the iterations left, no more";

    // A policy of another game's size is refused.
    NestedSearchProgress other = progress;
    other.under_way[0].policy.pop_back();
    resumed.budget.checkpoints.resume = &other;
    EXPECT_THROW(gsdk::core::run_nrpa(*game, resumed), gsdk::core::ResumeError);
  }
}

// On a GPU: NMCS with its level-1 searches (or whole level-2 searches) there and NRPA with its bottom level there,
// stopped after some searches or in the top level's step or iteration of one long search, resumed, end as the
// uninterrupted CPU run.
TEST(SnakeNestedCheckpointGpu, RunsStoppedAndResumedOnAGpuEndAsTheUninterruptedCpuRun) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 67, 2);
  struct NmcsCase {
    uint32_t level, restarts, device_level;
    bool one_search;
  };
  for (const NmcsCase c : {NmcsCase{2, 15, 1, false}, NmcsCase{2, 15, 2, false}, NmcsCase{3, 0, 1, true}}) {
    SCOPED_TRACE(testing::Message() << "NMCS level " << c.level << ", device level " << c.device_level);
    const gsdk::core::NmcsSettings settings = test::nmcs_settings(c.level, c.restarts, 4);
    const NestedSearchOutcome reference = gsdk::core::run_nmcs(*game, settings, *evaluator);
    const auto device = gsdk::core::make_cuda_level1_searcher(*game, 67, 0, 4096, 2, c.device_level);
    gsdk::core::NmcsSettings cut = settings;
    Interrupter interrupter;
    interrupter.arm(cut.budget, [&](const NestedSearchProgress& p) {
      return c.one_search ? !p.under_way.empty() && p.under_way[0].played.size() >= 3 : p.finished.count() >= 5;
    });
    gsdk::core::run_nmcs(*game, cut, *evaluator, {}, device.get());
    ASSERT_TRUE(interrupter.saved);
    const NestedSearchProgress progress = *interrupter.saved;
    gsdk::core::NmcsSettings resumed = settings;
    resumed.budget.checkpoints.resume = &progress;
    expect_same_best(gsdk::core::run_nmcs(*game, resumed, *evaluator, {}, device.get()), reference);
  }
  for (const bool one_search : {false, true}) {
    SCOPED_TRACE(testing::Message() << "NRPA" << (one_search ? ", one search" : ""));
    gsdk::core::NrpaSettings settings;
    settings.seed = 71;
    settings.level = one_search ? 3 : 2;
    settings.iterations = 8;
    settings.budget.restarts = one_search ? 0 : 11;
    settings.budget.searches_in_parallel = 3;
    settings.threads = 2;
    const NestedSearchOutcome reference = gsdk::core::run_nrpa(*game, settings);
    const auto device = gsdk::core::make_cuda_nrpa_searcher(*game, settings.seed, 1, settings.iterations,
                                                            settings.alpha, 0, settings.budget.searches_in_parallel, 2);
    gsdk::core::NrpaSettings cut = settings;
    Interrupter interrupter;
    interrupter.arm(cut.budget, [&](const NestedSearchProgress& p) {
      return one_search ? !p.under_way.empty() && p.under_way[0].iteration >= 2 : p.finished.count() >= 4;
    });
    gsdk::core::run_nrpa(*game, cut, {}, device.get());
    ASSERT_TRUE(interrupter.saved);
    const NestedSearchProgress progress = *interrupter.saved;
    gsdk::core::NrpaSettings resumed = settings;
    resumed.budget.checkpoints.resume = &progress;
    expect_same_best(gsdk::core::run_nrpa(*game, resumed, {}, device.get()), reference);
    // On a device that runs the whole search, a search under way starts again.
    const auto whole = gsdk::core::make_cuda_nrpa_searcher(*game, settings.seed, settings.level, settings.iterations,
                                                           settings.alpha, 0, settings.budget.searches_in_parallel, 2);
    expect_same_best(gsdk::core::run_nrpa(*game, resumed, {}, whole.get()), reference);
  }
}

// The time budget of a resumed run counts the earlier runs' time: one that has used it all starts nothing and
// ends with the best it resumed, stopped by the time limit.
TEST(SnakeNrpaCheckpoint, AResumedTimeBudgetCountsTheEarlierRunsTime) {
  const auto game = make_game({6, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.seed = 53;
  settings.level = 2;
  settings.iterations = 12;
  settings.budget.restarts = 1000;
  settings.budget.time_seconds = 30;
  Interrupter interrupter;
  interrupter.arm(settings.budget, 2);
  gsdk::core::run_nrpa(*game, settings);
  ASSERT_TRUE(interrupter.saved);
  NestedSearchProgress progress = *interrupter.saved;
  progress.run.wall_seconds = 31;

  gsdk::core::NrpaSettings resumed = settings;
  resumed.budget.stop = nullptr;
  resumed.budget.checkpoints = {};
  resumed.budget.checkpoints.resume = &progress;
  const NestedSearchOutcome run = gsdk::core::run_nrpa(*game, resumed);
  EXPECT_TRUE(run.stopped_by_time);
  EXPECT_EQ(run.searches_finished, progress.finished.count());
  EXPECT_EQ(run.playouts, progress.run.playouts);
  EXPECT_EQ(run.best.moves, progress.run.best.moves);
  EXPECT_GE(run.wall_seconds, 31.0);

  progress.finished = FinishedSearches(1002, {});
  EXPECT_THROW(gsdk::core::run_nrpa(*game, resumed), gsdk::core::ResumeError) << "more searches than the run has";
}

// A job's deadline (SearchBudget::deadline, MPI ranks' one clock) ends a run before its own time_seconds, and bounds
// one that has none.
TEST(SnakeNmcsDeadline, ADeadlineEndsTheRunBeforeItsOwnTime) {
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 43, 1);
  for (const double own_seconds : {0.0, 600.0}) {
    SCOPED_TRACE(testing::Message() << "time_seconds " << own_seconds);
    gsdk::core::NmcsSettings settings = test::nmcs_settings(1, 100'000'000, 2);
    settings.budget.time_seconds = own_seconds;
    const auto began = std::chrono::steady_clock::now();
    settings.budget.deadline = began + std::chrono::milliseconds(300);
    const NestedSearchOutcome run = gsdk::core::run_nmcs(*game, settings, *evaluator);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    EXPECT_GE(took, 0.3);
    EXPECT_LT(took, 10.0) << "the run went on past its deadline";
    EXPECT_TRUE(run.stopped_by_time);
    EXPECT_FALSE(run.stopped_by_request);
    EXPECT_GT(run.searches_finished, 0u);
    EXPECT_FALSE(run.best.empty());
  }
}

// A run whose deadline has passed when it begins (the merge at the end of a job whose time is up) starts no search
// and goes on with none under way: it ends with what it resumed, though its own time_seconds are far from used.
TEST(SnakeNrpaDeadline, APassedDeadlineStartsNothingAndContinuesNoSearchUnderWay) {
  const auto game = make_game({6, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.seed = 59;
  settings.level = 2;
  settings.iterations = 12;
  settings.budget.restarts = 1000;
  settings.budget.searches_in_parallel = 2;
  settings.budget.time_seconds = 600;
  Interrupter interrupter;
  interrupter.arm(settings.budget,
                  [](const NestedSearchProgress& p) { return p.finished.count() >= 2 && !p.under_way.empty(); });
  gsdk::core::run_nrpa(*game, settings);
  ASSERT_TRUE(interrupter.saved);
  const NestedSearchProgress progress = *interrupter.saved;
  ASSERT_FALSE(progress.under_way.empty());

  gsdk::core::NrpaSettings resumed = settings;
  resumed.budget.stop = nullptr;
  resumed.budget.checkpoints = {};
  resumed.budget.checkpoints.resume = &progress;
  resumed.budget.deadline = std::chrono::steady_clock::now();
  const NestedSearchOutcome run = gsdk::core::run_nrpa(*game, resumed);
  EXPECT_TRUE(run.stopped_by_time);
  EXPECT_FALSE(run.stopped_by_request);
  EXPECT_EQ(run.searches_started, progress.finished.count());
  EXPECT_EQ(run.searches_finished, progress.finished.count());
  EXPECT_EQ(run.playouts, progress.run.playouts) << "a search ran on past the deadline";
  EXPECT_EQ(run.best.moves, progress.run.best.moves);
}

} // namespace
} // namespace snake
