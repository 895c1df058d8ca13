// nested_search_test.cpp - NMCS and NRPA on snake-in-the-box: they reach the known optima of small cubes
// (4, 7, 13, 26 edges for d = 3..6) in seconds, every best sequence replays to its score and passes the
// independent checker, results do not depend on the thread count, on level-1 searches being run whole or
// pipelined, and a time budget stops a long run; searches from start moves extend them, searches from many
// starts end as from each start alone, and start moves that are not an unfinished game are refused (or, when
// asked, finished ones left out).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include "checker/snake_check.hpp"
#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "reference_nrpa.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using gsdk::core::NestedSearchOutcome;
using test::make_game;

constexpr int64_t kOptimum[] = {0, 1, 2, 4, 7, 13, 26, 50, 98};

// The best sequence is a snake by the independent checker, of the reported length, and the per-state
// rules agree on its score; so is every improvement reported on the way, each better than the last.
void expect_valid(const gsdk::core::GameInstance& game, uint32_t dimension, const gsdk::core::MoveSequence& best) {
  ASSERT_FALSE(best.empty());
  EXPECT_EQ(gsdk::core::replay_score(game, best.moves), best.score);
  EXPECT_EQ(static_cast<int64_t>(best.moves.size()), best.score);
  const auto verdict = snake::checker::check_snake({dimension, best.moves, snake::checker::walk_vertices(best.moves)});
  EXPECT_TRUE(verdict.ok) << verdict.violation;
}

struct Recorder {
  std::vector<int64_t> scores;
  gsdk::core::ImprovementFn callback(const gsdk::core::GameInstance& game, uint32_t dimension) {
    return [this, &game, dimension](const gsdk::core::Improvement& i) {
      EXPECT_TRUE(scores.empty() || i.score > scores.back());
      scores.push_back(i.score);
      expect_valid(game, dimension, {i.score, *i.moves});
    };
  }
};

TEST(SnakeNmcs, Level2ReachesTheOptimumOfSmallCubes) {
  for (uint32_t d = 3; d <= 6; ++d) {
    const auto game = make_game({d, true, "uniform"});
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 7, 1);
    gsdk::core::NmcsSettings settings;
    settings.level = 2;
    // d = 6 needs a few dozen restarts (a few hundredths of a second on one core).
    settings.budget.restarts = 100000;
    settings.budget.time_seconds = 30;
    settings.budget.stop_at_score = kOptimum[d];
    Recorder recorder;
    const NestedSearchOutcome outcome = gsdk::core::run_nmcs(*game, settings, *evaluator, recorder.callback(*game, d));
    EXPECT_EQ(outcome.best.score, kOptimum[d]) << "d=" << d;
    EXPECT_TRUE(outcome.reached_stop_score);
    EXPECT_FALSE(outcome.stopped_by_time);
    expect_valid(*game, d, outcome.best);
    EXPECT_EQ(outcome.engine, "batch");
  }
}

TEST(SnakeNmcs, Level1IsTheSameOnOneAndTwoThreadsAndForEitherEngineItsOwnReplay) {
  const auto game = make_game({8, true, "uniform"});
  gsdk::core::NmcsSettings settings;
  settings.level = 1;
  settings.budget.restarts = 15;
  settings.budget.searches_in_parallel = 16; // batches of ~100 playouts, enough to use both threads
  const auto one = gsdk::core::make_cpu_batch_evaluator(*game, 11, 1);
  const auto two = gsdk::core::make_cpu_batch_evaluator(*game, 11, 2);
  const NestedSearchOutcome a = gsdk::core::run_nmcs(*game, settings, *one);
  const NestedSearchOutcome b = gsdk::core::run_nmcs(*game, settings, *two);
  EXPECT_EQ(a.best.score, b.best.score);
  EXPECT_EQ(a.best.moves, b.best.moves);
  EXPECT_EQ(a.best_search, b.best_search);
  EXPECT_EQ(a.playouts, b.playouts);
  EXPECT_EQ(a.level1_steps, b.level1_steps);
  EXPECT_EQ(a.searches_finished, 16u);
  expect_valid(*game, 8, a.best);
  EXPECT_GE(a.best.score, 30);

  const auto generic = gsdk::core::make_cpu_batch_evaluator(*game, 11, 2, true);
  const NestedSearchOutcome g = gsdk::core::run_nmcs(*game, settings, *generic);
  EXPECT_EQ(g.engine, "generic");
  expect_valid(*game, 8, g.best);
}

TEST(SnakeNmcs, SearchesDoTheSameWorkOneAfterAnotherOrSideBySide) {
  const auto game = make_game({7, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 5, 1);
  gsdk::core::NmcsSettings settings;
  settings.level = 2;
  settings.budget.restarts = 3;
  const NestedSearchOutcome serial = gsdk::core::run_nmcs(*game, settings, *evaluator);
  settings.budget.searches_in_parallel = 4;
  const NestedSearchOutcome side_by_side = gsdk::core::run_nmcs(*game, settings, *evaluator);
  EXPECT_EQ(serial.best.score, side_by_side.best.score);
  EXPECT_EQ(serial.playouts, side_by_side.playouts);
  EXPECT_EQ(serial.level1_steps, side_by_side.level1_steps);
  EXPECT_LT(side_by_side.batches, serial.batches);
  expect_valid(*game, 7, side_by_side.best);
}

// Two runs of the same searches: the same best sequence from the same search, after the same work.
void expect_same_work(const NestedSearchOutcome& run, const NestedSearchOutcome& reference) {
  EXPECT_EQ(run.best.score, reference.best.score);
  EXPECT_EQ(run.best.moves, reference.best.moves);
  EXPECT_EQ(run.best_search, reference.best_search);
  EXPECT_EQ(run.playouts, reference.playouts);
  EXPECT_EQ(run.level1_steps, reference.level1_steps);
  EXPECT_EQ(run.level1_searches, reference.level1_searches);
  EXPECT_EQ(run.searches_finished, reference.searches_finished);
}

// Plain CPU frames, whole level-1 searches on CPU threads one round at a time, and the same pipelined in
// two groups of searches (uneven ones too: 1, 3 and 7 side by side) all do the same work and find the same
// best sequence, the one search 0 .. restarts would find one after another. At level 1 the searcher runs
// every search whole, restarted without frames.
TEST(SnakeNmcs, Level1SearchersPipelinedOrNotFindWhatTheFramesFind) {
  struct Case {
    uint32_t dimension;
    uint32_t level;
    uint32_t restarts;
  };
  const Case cases[] = {{5, 2, 9}, {7, 2, 6}, {8, 2, 4}, {5, 3, 5}, {6, 3, 3}, {7, 3, 1}, {6, 1, 40}, {8, 1, 25}};
  for (const Case& c : cases) {
    const auto game = make_game({c.dimension, true, "uniform"});
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 21, 1);
    const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 21, 2);
    gsdk::core::NmcsSettings settings;
    settings.level = c.level;
    settings.budget.restarts = c.restarts;
    const NestedSearchOutcome reference = gsdk::core::run_nmcs(*game, settings, *evaluator);
    expect_valid(*game, c.dimension, reference.best);
    EXPECT_EQ(reference.searches_finished, c.restarts + 1);
    for (const uint32_t side_by_side : {1u, 3u, 7u}) {
      settings.budget.searches_in_parallel = side_by_side;
      for (const int mode : {0, 1, 2}) {
        SCOPED_TRACE(testing::Message() << "d=" << c.dimension << " level " << c.level << ", " << side_by_side
                                        << " side by side, mode " << mode);
        settings.pipeline = mode == 2;
        const NestedSearchOutcome run =
            gsdk::core::run_nmcs(*game, settings, *evaluator, {}, mode == 0 ? nullptr : level1.get());
        expect_same_work(run, reference);
        EXPECT_EQ(run.engine, mode == 0 ? "batch" : "level-1 searches");
        EXPECT_EQ(run.device.find("whole searches") != std::string::npos, mode != 0 && c.level == 1) << run.device;
      }
    }
  }
}

// A d = 6 snake (complete, so terminal in its own cube) whose moves start searches in bigger cubes.
std::vector<uint32_t> six_cube_snake(uint64_t seed = 3) {
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, seed, 1);
  gsdk::core::NmcsSettings settings;
  settings.level = 2;
  settings.budget.restarts = 4;
  return gsdk::core::run_nmcs(*game, settings, *evaluator).best.moves;
}

// Searches from start moves (a smaller cube's snake) report only sequences that begin with them, and the
// frames, whole level-1 searches on CPU threads and pipelined rounds do the same work from there.
TEST(SnakeNmcs, SearchesFromStartMovesExtendThemTheSameWayOnEveryPath) {
  const std::vector<uint32_t> prefix = six_cube_snake();
  ASSERT_GE(prefix.size(), 20u);
  const auto game = make_game({7, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 21, 1);
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 21, 2);
  for (const uint32_t level : {1u, 2u}) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    gsdk::core::NmcsSettings settings = test::nmcs_settings(level, 6, 3, {prefix});
    Recorder recorder;
    size_t improvements = 0;
    const auto check = recorder.callback(*game, 7);
    const NestedSearchOutcome reference =
        gsdk::core::run_nmcs(*game, settings, *evaluator, [&](const gsdk::core::Improvement& i) {
          EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), i.moves->begin()));
          ++improvements;
          check(i);
        });
    EXPECT_GT(improvements, 0u);
    expect_valid(*game, 7, reference.best);
    ASSERT_GT(reference.best.moves.size(), prefix.size());
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), reference.best.moves.begin()));
    for (const bool pipeline : {false, true}) {
      settings.pipeline = pipeline;
      expect_same_work(gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get()), reference);
    }
  }
}

// Every search that ended, as on_finished heard of it: by search number, its start, score and moves after the
// start's.
using Finished = std::map<uint32_t, std::tuple<uint32_t, int64_t, std::vector<uint32_t>>>;

gsdk::core::FinishedSearchFn collect_into(Finished& finished) {
  return [&finished](const gsdk::core::FinishedSearch& f) {
    const bool first =
        finished.emplace(f.search, std::tuple{f.start, f.score, std::vector<uint32_t>(f.moves.begin(), f.moves.end())})
            .second;
    EXPECT_TRUE(first) << "search " << f.search << " reported twice";
  };
}

// Searches from several starts side by side: search k begins at start k mod n and ends as it would from that
// start alone (its result is a function of the seed, k and its start), and the run's best is the best of
// theirs. Every search that ends is reported once, with its score and the moves after its start, the same on
// every path: CPU frames, whole level-1 searches on CPU threads, pipelined or not.
TEST(SnakeNmcs, SearchesFromManyStartsEndAsFromEachStartAlone) {
  const std::vector<std::vector<uint32_t>> starts = {six_cube_snake(3), {0, 1, 2}, six_cube_snake(8)};
  ASSERT_NE(starts[0], starts[2]);
  const auto game = make_game({7, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 21, 1);
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 21, 2);
  for (const uint32_t level : {1u, 2u}) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    gsdk::core::NmcsSettings settings = test::nmcs_settings(level, 8, 4, starts);
    Finished finished;
    const NestedSearchOutcome run =
        gsdk::core::run_nmcs(*game, settings, *evaluator, {}, nullptr, collect_into(finished));
    ASSERT_EQ(finished.size(), 9u);
    EXPECT_EQ(run.searches_finished, 9u);
    int64_t best = 0;
    for (const auto& [k, result] : finished) {
      const auto& [start, score, moves] = result;
      EXPECT_EQ(start, k % 3) << "search " << k;
      std::vector<uint32_t> whole = starts[start];
      whole.insert(whole.end(), moves.begin(), moves.end());
      EXPECT_EQ(gsdk::core::replay_score(*game, whole), score) << "search " << k;
      best = std::max(best, score);
    }
    EXPECT_EQ(run.best.score, best);
    for (uint32_t i = 0; i < 3; ++i) {
      gsdk::core::NmcsSettings alone = settings;
      alone.starts = {starts[i]};
      Finished from_one;
      gsdk::core::run_nmcs(*game, alone, *evaluator, {}, nullptr, collect_into(from_one));
      for (uint32_t k = i; k < 9; k += 3) {
        ASSERT_TRUE(from_one.contains(k));
        EXPECT_EQ(std::get<1>(from_one[k]), std::get<1>(finished[k])) << "search " << k;
        EXPECT_EQ(std::get<2>(from_one[k]), std::get<2>(finished[k])) << "search " << k;
      }
    }
    for (const bool pipeline : {false, true}) {
      settings.pipeline = pipeline;
      Finished on_threads;
      expect_same_work(gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get(), collect_into(on_threads)),
                       run);
      EXPECT_EQ(on_threads, finished) << (pipeline ? "pipelined" : "one round at a time");
    }
  }
}

// Start moves that are not a game of the cube, or that end it, are refused before any search.
TEST(SnakeNmcs, StartMovesThatAreNotAnUnfinishedGameAreRefused) {
  const auto refusal = [](uint32_t dimension, const std::vector<uint32_t>& moves) -> std::string {
    const auto game = make_game({dimension, true, "uniform"});
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 1, 1);
    gsdk::core::NmcsSettings settings;
    settings.starts = {moves};
    try {
      gsdk::core::run_nmcs(*game, settings, *evaluator);
    } catch (const gsdk::core::StartMovesError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(refusal(6, {0, 1, 0}), "the start moves are not a game of 'snake': move 2 (0) is not legal");
  EXPECT_EQ(refusal(6, {0, 7}), "the start moves are not a game of 'snake': move 1 (7) is not legal");
  const std::vector<uint32_t> whole = six_cube_snake();
  EXPECT_EQ(refusal(6, whole),
            "the " + std::to_string(whole.size()) + " start moves end the game: there is nothing left to search");
  EXPECT_EQ(refusal(7, whole), "(no error)");

  // Among several starts, the refusal names the one at fault.
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 1, 1);
  gsdk::core::NmcsSettings settings;
  settings.starts = {{0, 1}, {0, 1, 0}};
  EXPECT_THROW(
      {
        try {
          gsdk::core::run_nmcs(*game, settings, *evaluator);
        } catch (const gsdk::core::StartMovesError& e) {
          EXPECT_STREQ(e.what(), "start 1 of 2: the start moves are not a game of 'snake': move 2 (0) is not legal");
          throw;
        }
      },
      gsdk::core::StartMovesError);
}

// Asked to, a run leaves out the starts that already end the game and numbers the others' searches by their
// place among all the starts: each search k ends as the same search from the k-th start left in play alone.
TEST(SnakeNmcs, FinishedStartsAreLeftOutWhenAskedAndTheRestKeepTheirNumbers) {
  const std::vector<uint32_t> whole = six_cube_snake();
  const std::vector<std::vector<uint32_t>> starts = {whole, {0, 1, 2}, whole, {0, 1, 2, 0}};
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 5, 1);
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 5, 2);
  // Level 1 with the level-1 searcher runs whole searches; level 2 builds frames around it.
  for (const uint32_t level : {1u, 2u}) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    gsdk::core::NmcsSettings settings = test::nmcs_settings(level, 5, 3, starts);
    EXPECT_THROW(gsdk::core::run_nmcs(*game, settings, *evaluator), gsdk::core::StartMovesError);
    settings.skip_finished_starts = true;
    Finished expected;
    gsdk::core::run_nmcs(*game, test::nmcs_settings(level, 5, 3, {starts[1], starts[3]}), *evaluator, {}, nullptr,
                         collect_into(expected));
    for (auto& [k, result] : expected) std::get<0>(result) = k % 2 == 0 ? 1u : 3u;
    Finished on_frames, on_searcher;
    const NestedSearchOutcome run =
        gsdk::core::run_nmcs(*game, settings, *evaluator, {}, nullptr, collect_into(on_frames));
    EXPECT_EQ(run.starts_skipped, 2u);
    EXPECT_EQ(on_frames, expected);
    gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get(), collect_into(on_searcher));
    EXPECT_EQ(on_searcher, expected);
  }

  gsdk::core::NmcsSettings settings = test::nmcs_settings(1, 0, 1, {whole, whole});
  settings.skip_finished_starts = true;
  try {
    gsdk::core::run_nmcs(*game, settings, *evaluator);
    FAIL() << "a run with no start left was not refused";
  } catch (const gsdk::core::StartMovesError& e) {
    EXPECT_STREQ(e.what(), "every one of the 2 starts ends the game: there is nothing left to search");
  }
}

// With a level-1 searcher, a round's searches are delivered on several host threads when there are enough
// of them (256 a thread): the work, the counts and the best sequence stay those of one thread.
TEST(SnakeNmcs, HostThreadsDeliverWhatOneThreadDelivers) {
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 5, 1);
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 5, 2);
  gsdk::core::NmcsSettings settings;
  settings.level = 2;
  settings.budget.searches_in_parallel = 1536;
  settings.budget.restarts = 2047;
  settings.host_threads = 1;
  const NestedSearchOutcome one = gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get());
  expect_valid(*game, 6, one.best);
  EXPECT_NE(one.device.find("; 1 host threads"), std::string::npos) << one.device;
  for (const bool pipeline : {false, true}) {
    SCOPED_TRACE(testing::Message() << "pipeline " << pipeline);
    settings.pipeline = pipeline;
    settings.host_threads = 3;
    const NestedSearchOutcome three = gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get());
    EXPECT_NE(three.device.find("; 3 host threads"), std::string::npos) << three.device;
    expect_same_work(three, one);
    EXPECT_EQ(three.searches_finished, 2048u);
  }
}

TEST(SnakeNmcs, TheTimeBudgetStopsALongRunWithItsBestSoFar) {
  const auto game = make_game({11, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 3, 1);
  gsdk::core::NmcsSettings settings;
  settings.level = 3; // hours at d = 11
  settings.budget.time_seconds = 0.5;
  settings.budget.restarts = 1000;
  const auto start = std::chrono::steady_clock::now();
  const NestedSearchOutcome outcome = gsdk::core::run_nmcs(*game, settings, *evaluator);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_TRUE(outcome.stopped_by_time);
  EXPECT_EQ(outcome.searches_finished, 0u);
  expect_valid(*game, 11, outcome.best);
  EXPECT_GT(outcome.best.score, 50);

  // Pipelined, the rounds in flight when the time is up are finished and delivered first.
  const auto level1 = gsdk::core::make_cpu_level1_searcher(*game, 3, 1);
  settings.budget.searches_in_parallel = 3;
  const auto pipelined_start = std::chrono::steady_clock::now();
  const NestedSearchOutcome pipelined = gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - pipelined_start).count(), 10.0);
  EXPECT_TRUE(pipelined.stopped_by_time);
  expect_valid(*game, 11, pipelined.best);
}

TEST(SnakeNrpa, Level2ReachesTheOptimumOfSmallCubes) {
  for (uint32_t d = 3; d <= 5; ++d) {
    const auto game = make_game({d, true, "uniform"});
    gsdk::core::NrpaSettings settings;
    settings.seed = 13;
    settings.level = 2;
    settings.iterations = 50;
    settings.budget.restarts = 100000;
    settings.budget.time_seconds = 30;
    settings.budget.stop_at_score = kOptimum[d];
    settings.budget.searches_in_parallel = 2;
    settings.threads = 2;
    Recorder recorder;
    const NestedSearchOutcome outcome = gsdk::core::run_nrpa(*game, settings, recorder.callback(*game, d));
    EXPECT_EQ(outcome.best.score, kOptimum[d]) << "d=" << d;
    EXPECT_TRUE(outcome.reached_stop_score);
    expect_valid(*game, d, outcome.best);
  }
}

TEST(SnakeNrpa, ResultsDoNotDependOnThreadsAndTheTimeBudgetIsHonoured) {
  const auto game = make_game({7, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.seed = 17;
  settings.level = 1;
  settings.iterations = 100;
  settings.budget.restarts = 7;
  settings.budget.searches_in_parallel = 8;
  settings.threads = 1;
  const NestedSearchOutcome a = gsdk::core::run_nrpa(*game, settings);
  settings.threads = 2;
  const NestedSearchOutcome b = gsdk::core::run_nrpa(*game, settings);
  EXPECT_EQ(a.best.moves, b.best.moves);
  EXPECT_EQ(a.playouts, 800u);
  expect_valid(*game, 7, a.best);

  settings.level = 4; // far too long for the budget
  settings.budget.time_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const NestedSearchOutcome cut = gsdk::core::run_nrpa(*game, settings);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_TRUE(cut.stopped_by_time);
  expect_valid(*game, 7, cut.best);
}

// Core's state machine, its searches side by side on several threads, finds what Rosin's recursion finds:
// the same best sequence, from the same search, after the same playouts.
TEST(SnakeNrpa, CoreFindsWhatTheRecursiveReferenceFinds) {
  for (const uint32_t level : {1u, 2u, 3u}) {
    const auto game = make_game({6, true, "uniform"});
    gsdk::core::NrpaSettings settings;
    settings.seed = 29;
    settings.level = level;
    settings.iterations = level == 3 ? 4 : 9;
    settings.alpha = 0.7;
    settings.budget.restarts = 6;
    settings.budget.searches_in_parallel = 3;
    settings.threads = 2;
    const NestedSearchOutcome outcome = gsdk::core::run_nrpa(*game, settings);
    const test::ReferenceNrpa reference(*game, settings.seed, settings.iterations, settings.alpha);
    const test::ReferenceRun expected = test::reference_run(reference, game->tables().move_codes->code_count(game->handle()),
                                                            level, 7);
    SCOPED_TRACE("level " + std::to_string(level));
    EXPECT_EQ(outcome.best.score, expected.best.score);
    EXPECT_EQ(outcome.best.moves, expected.best.moves);
    EXPECT_EQ(outcome.best_search, expected.search);
    uint64_t per_search = 1;
    for (uint32_t l = 0; l < level; ++l) per_search *= settings.iterations;
    EXPECT_EQ(outcome.playouts, 7 * per_search);
    expect_valid(*game, 6, outcome.best);
  }
}

// A device whose sequences do not replay (a broken kernel) stops the run with what it reported, before any
// policy adapts to it.
class IllegalNrpaDevice final : public gsdk::core::NrpaSearcher {
public:
  uint32_t level() const override { return 1; }
  void search(std::span<const gsdk::core::NrpaCall>, std::span<gsdk::core::NrpaCallResult> results) override {
    for (auto& r : results) r = {2, {0, 0}};
  }
  std::string describe() const override { return "a broken device"; }
};

TEST(SnakeNrpa, ADeviceSequenceThatDoesNotReplayIsAnError) {
  const auto game = make_game({6, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.level = 2;
  IllegalNrpaDevice device;
  try {
    gsdk::core::run_nrpa(*game, settings, {}, &device);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the device's NRPA sequence plays the illegal move 0 at step 2");
  }
}

// A device that runs level-2 searches cannot serve a level-1 NMCS: refused, not run on the CPU instead.
class Level2Device final : public gsdk::core::Level1Searcher {
public:
  uint32_t level() const override { return 2; }
  void start(uint32_t, std::span<const gsdk::core::Level1Task>) override {}
  void finish(uint32_t, std::span<gsdk::core::Level1Outcome>) override {}
  std::string describe() const override { return "a level-2 device"; }
};

TEST(SnakeNmcs, ADeviceAboveTheSearchLevelIsRefused) {
  const auto game = make_game({6, true, "uniform"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 1, 1);
  Level2Device device;
  gsdk::core::NmcsSettings settings; // level 1
  try {
    gsdk::core::run_nmcs(*game, settings, *evaluator, {}, &device);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "NMCS of level 1 cannot hand level-2 searches to a device");
  }
}

} // namespace
} // namespace snake
