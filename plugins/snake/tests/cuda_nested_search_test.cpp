// cuda_nested_search_test.cpp - NMCS with its level-1 searches run whole on the GPU finds what the CPU
// frames find for the same seed (same score, playouts and level-1 steps; at level 1 the same snake), in
// small and large cubes under both policies (and with a blocked sub-cube), at levels 2 and 3 pipelined or
// not, and level 2 reaches the optima of the small cubes; so do searches from start moves, one or many. A stop request
// (ABI 1.6) ends level-1 and level-2 searches after the step in which they read it, with a complete snake, and keeps a
// timed run of long level-2 searches within its budget. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include "checker/snake_check.hpp"
#include "gpu.hpp"
#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using gsdk::core::NestedSearchOutcome;
using test::make_game;
using test::Settings;

void expect_snake(const gsdk::core::GameInstance& game, uint32_t dimension, const gsdk::core::MoveSequence& best) {
  ASSERT_FALSE(best.empty());
  EXPECT_EQ(gsdk::core::replay_score(game, best.moves), best.score);
  const auto verdict = snake::checker::check_snake({dimension, best.moves, snake::checker::walk_vertices(best.moves)});
  EXPECT_TRUE(verdict.ok) << verdict.violation;
}

struct Pair {
  NestedSearchOutcome cpu;
  NestedSearchOutcome gpu;
};

// The CPU frames' run and the run with the searches of `device_level` on the GPU.
// Launches of max_batch searches: 1000 gives several launches a round, each run one search per warp; launches
// of more searches than the device holds warps run one per thread.
Pair run_both(const gsdk::core::GameInstance& game, uint64_t seed, const gsdk::core::NmcsSettings& settings,
              uint32_t device_level = 1, uint32_t max_batch = 1000) {
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(game, seed, 2);
  const auto device = gsdk::core::make_cuda_level1_searcher(game, seed, 0, max_batch, 2, device_level);
  return {gsdk::core::run_nmcs(game, settings, *evaluator), gsdk::core::run_nmcs(game, settings, *evaluator, {}, device.get())};
}

// The GPU run found the CPU frames' best snake, from the same search, after the same work.
void expect_same_run(const gsdk::core::GameInstance& game, uint32_t dimension, const Pair& run, uint32_t searches) {
  EXPECT_EQ(run.gpu.best.score, run.cpu.best.score);
  EXPECT_EQ(run.gpu.best.moves, run.cpu.best.moves);
  EXPECT_EQ(run.gpu.best_search, run.cpu.best_search);
  EXPECT_EQ(run.gpu.playouts, run.cpu.playouts);
  EXPECT_EQ(run.gpu.level1_steps, run.cpu.level1_steps);
  EXPECT_EQ(run.gpu.level1_searches, run.cpu.level1_searches);
  EXPECT_EQ(run.gpu.searches_finished, searches);
  expect_snake(game, dimension, run.gpu.best);
}

TEST(SnakeCudaNmcs, Level1SearchesFindWhatTheCpuFinds) {
  GSDK_REQUIRE_GPU();
  const Settings cubes[] = {{5, true, "uniform"}, {7, false, "kinny"}, {9, true, "uniform"}, {10, true, "kinny"},
                            {8, true, "tight"},   {13, true, "uniform"}};
  for (const Settings& cube : cubes) {
    const auto game = make_game(cube);
    for (const uint64_t seed : {uint64_t{1}, uint64_t{99}}) {
      gsdk::core::NmcsSettings settings; // one level-1 search: its snake must be the CPU's, move for move
      const Pair run = run_both(*game, seed, settings);
      SCOPED_TRACE("d=" + std::to_string(cube.dimension) + " " + cube.policy + " seed " + std::to_string(seed));
      EXPECT_EQ(run.gpu.engine, "level-1 searches");
      EXPECT_EQ(run.gpu.best.score, run.cpu.best.score);
      EXPECT_EQ(run.gpu.best.moves, run.cpu.best.moves);
      EXPECT_EQ(run.gpu.playouts, run.cpu.playouts);
      EXPECT_EQ(run.gpu.level1_steps, run.cpu.level1_steps);
      expect_snake(*game, cube.dimension, run.gpu.best);
    }
  }
}

// Level-1 restarts, which the GPU runs whole from one uploaded start state copied on the device: in several
// launches a round (1000 searches each, one per warp) and in launches of 40,000 (one per thread, more than an
// H100 holds warps): the CPU frames' best snake, search and work.
TEST(SnakeCudaNmcs, Level1RestartsAgreeWithTheCpu) {
  GSDK_REQUIRE_GPU();
  struct Case {
    Settings cube;
    uint32_t restarts;
    uint32_t side_by_side;
    uint32_t max_batch;
  };
  const Case cases[] = {{{7, true, "kinny"}, 4999, 2501, 1000},
                        {{9, false, "tight"}, 4999, 2501, 1000},
                        {{6, true, "tight"}, 79999, 40000, 1u << 16}};
  for (const Case& c : cases) {
    const Settings& cube = c.cube;
    const auto game = make_game(cube);
    for (const bool pipeline : {false, true}) {
      gsdk::core::NmcsSettings settings;
      settings.budget.restarts = c.restarts;
      settings.budget.searches_in_parallel = c.side_by_side;
      settings.pipeline = pipeline;
      const Pair run = run_both(*game, 11, settings, 1, c.max_batch);
      SCOPED_TRACE("d=" + std::to_string(cube.dimension) + " " + cube.policy + (pipeline ? " pipelined" : "") +
                   ", launches of up to " + std::to_string(c.max_batch));
      EXPECT_NE(run.gpu.device.find("whole searches"), std::string::npos) << run.gpu.device;
      expect_same_run(*game, cube.dimension, run, c.restarts + 1);
    }
  }
}

// Searches from start moves (an 8-cube snake in the 9-cube, the way larger cubes build on smaller ones):
// whole level-1 searches, and level-2 searches with the GPU running level-1 or whole level-2 searches, find
// the CPU frames' snake, which begins with the start moves, after the same work.
TEST(SnakeCudaNmcs, SearchesFromStartMovesAgreeWithTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto eight = make_game({8, true, "tight"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*eight, 3, 2);
  gsdk::core::NmcsSettings prefix_search;
  prefix_search.budget.restarts = 20;
  const std::vector<uint32_t> prefix = gsdk::core::run_nmcs(*eight, prefix_search, *evaluator).best.moves;
  ASSERT_GE(prefix.size(), 60u);
  const auto game = make_game({9, true, "tight"});
  for (const auto& [level, device_level, restarts] : {std::tuple{1u, 1u, 999u}, {2u, 1u, 6u}, {2u, 2u, 6u}}) {
    SCOPED_TRACE(testing::Message() << "level " << level << ", device level " << device_level);
    const gsdk::core::NmcsSettings settings = test::nmcs_settings(level, restarts, 15, {prefix});
    const Pair run = run_both(*game, 9, settings, device_level);
    expect_same_run(*game, 9, run, restarts + 1);
    ASSERT_GT(run.gpu.best.moves.size(), prefix.size());
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), run.gpu.best.moves.begin()));
  }
}

// Searches from several starts side by side (two 8-cube snakes and a short prefix in the 9-cube): whole
// level-1 searches, and level-2 searches with the GPU running level-1 or whole level-2 searches, end as the
// CPU frames' do, each search reported once with the same start, score and moves.
TEST(SnakeCudaNmcs, SearchesFromManyStartsAgreeWithTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto eight = make_game({8, true, "tight"});
  std::vector<std::vector<uint32_t>> starts;
  for (const uint64_t seed : {3u, 4u}) {
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*eight, seed, 2);
    gsdk::core::NmcsSettings prefix_search;
    prefix_search.budget.restarts = 20;
    starts.push_back(gsdk::core::run_nmcs(*eight, prefix_search, *evaluator).best.moves);
  }
  starts.push_back({0, 1, 2, 0});
  ASSERT_NE(starts[0], starts[1]);
  const auto game = make_game({9, true, "tight"});
  using Finished = std::map<uint32_t, std::tuple<uint32_t, int64_t, std::vector<uint32_t>>>;
  const auto collect_into = [](Finished& finished) {
    return [&finished](const gsdk::core::FinishedSearch& f) {
      finished.emplace(f.search, std::tuple{f.start, f.score, std::vector<uint32_t>(f.moves.begin(), f.moves.end())});
    };
  };
  for (const auto& [level, device_level, restarts] : {std::tuple{1u, 1u, 2999u}, {2u, 1u, 8u}, {2u, 2u, 8u}}) {
    SCOPED_TRACE(testing::Message() << "level " << level << ", device level " << device_level);
    const gsdk::core::NmcsSettings settings = test::nmcs_settings(level, restarts, 16, starts);
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 9, 2);
    const auto device = gsdk::core::make_cuda_level1_searcher(*game, 9, 0, 1000, 2, device_level);
    Finished on_cpu, on_gpu;
    const NestedSearchOutcome cpu =
        gsdk::core::run_nmcs(*game, settings, *evaluator, {}, nullptr, collect_into(on_cpu));
    const NestedSearchOutcome gpu =
        gsdk::core::run_nmcs(*game, settings, *evaluator, {}, device.get(), collect_into(on_gpu));
    expect_same_run(*game, 9, {cpu, gpu}, restarts + 1);
    EXPECT_EQ(on_gpu.size(), restarts + 1);
    EXPECT_EQ(on_gpu, on_cpu);
  }
}

// Levels 2 and 3, many searches side by side (an uneven number, so the pipeline's two groups differ),
// pipelined or one round at a time, the GPU running level-1 or whole level-2 searches: the same best snake
// and the same work as the CPU frames.
TEST(SnakeCudaNmcs, Level2And3AndManySearchesAgreeWithTheCpu) {
  GSDK_REQUIRE_GPU();
  struct Case {
    Settings cube;
    uint32_t level;
    uint32_t restarts;
  };
  const Case cases[] = {{{6, true, "uniform"}, 2, 40}, {{7, true, "kinny"}, 2, 40},
                        {{6, true, "uniform"}, 3, 6},  {{8, true, "tight"}, 2, 20},
                        {{9, false, "uniform"}, 2, 4}, {{8, false, "tight", "1*1*****"}, 2, 20}};
  for (const Case& c : cases) {
    const auto game = make_game(c.cube);
    for (const auto& [pipeline, device_level] : {std::pair{false, 1u}, {true, 1u}, {false, 2u}, {true, 2u}}) {
      gsdk::core::NmcsSettings settings;
      settings.level = c.level;
      settings.budget.restarts = c.restarts;
      settings.budget.searches_in_parallel = 15;
      settings.pipeline = pipeline;
      const Pair run = run_both(*game, 5, settings, device_level);
      SCOPED_TRACE("d=" + std::to_string(c.cube.dimension) + " level " + std::to_string(c.level) +
                   (pipeline ? " pipelined" : "") + ", device level " + std::to_string(device_level));
      expect_same_run(*game, c.cube.dimension, run, c.restarts + 1);
    }
  }
}

// Level-2 searches in launches of 20,000, more than an H100 holds warps, so one search per thread: the CPU
// frames' best snake, search and work.
TEST(SnakeCudaNmcs, Level2SearchesOnePerThreadAgreeWithTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({4, false, "uniform"});
  gsdk::core::NmcsSettings settings;
  settings.level = 2;
  settings.budget.restarts = 19999;
  settings.budget.searches_in_parallel = 20000;
  settings.pipeline = false;
  const Pair run = run_both(*game, 3, settings, 2, 1u << 16);
  expect_same_run(*game, 4, run, 20000);
}

TEST(SnakeCudaNmcs, Level2ReachesTheOptimumOfSmallCubes) {
  GSDK_REQUIRE_GPU();
  constexpr int64_t kOptimum[] = {0, 1, 2, 4, 7, 13, 26};
  for (uint32_t d = 3; d <= 6; ++d) {
    const auto game = make_game({d, true, "uniform"});
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 7, 1);
    const auto level1 = gsdk::core::make_cuda_level1_searcher(*game, 7, 0, 1u << 16);
    gsdk::core::NmcsSettings settings;
    settings.level = 2;
    settings.budget.restarts = 100000;
    settings.budget.searches_in_parallel = 256;
    settings.budget.time_seconds = 30;
    settings.budget.stop_at_score = kOptimum[d];
    const NestedSearchOutcome outcome = gsdk::core::run_nmcs(*game, settings, *evaluator, {}, level1.get());
    EXPECT_EQ(outcome.best.score, kOptimum[d]) << "d=" << d;
    expect_snake(*game, d, outcome.best);
  }
}

// Searches of `level` from the initial state, handed to the GPU after a deadline that has passed.
std::vector<gsdk::core::Level1Outcome> stopped_searches(const gsdk::core::GameInstance& game, uint64_t seed,
                                                        uint32_t level, uint32_t count) {
  const auto searcher = gsdk::core::make_cuda_level1_searcher(game, seed, 0, 1u << 16, 2, level);
  searcher->stop_at(std::chrono::steady_clock::now());
  const gsdk::core::StateBlob start = game.initial_state();
  std::vector<gsdk::core::Level1Task> tasks;
  for (uint32_t i = 0; i < count; ++i) tasks.push_back({start.data(), uint64_t{i} * 5000 + 3, i + 1});
  std::vector<gsdk::core::Level1Outcome> outcomes(count);
  searcher->search(tasks, outcomes);
  return outcomes;
}

// Stopped before it starts, a level-1 search plays its first step only: the best of one playout per child of
// the initial state (streams first, first + 1, ...), scored as the CPU plays them. 500 searches run one per
// warp, 20,000 one per thread.
TEST(SnakeCudaNmcs, Level1SearchesStoppedBeforeTheyStartPlayOneStep) {
  GSDK_REQUIRE_GPU();
  for (const Settings cube : {Settings{8, false, "uniform"}, Settings{9, true, "tight"}}) {
    const auto game = make_game(cube);
    const uint64_t seed = 21;
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, seed, 2);
    const gsdk::core::StateBlob start = game->initial_state();
    std::vector<uint32_t> legal(game->max_moves());
    legal.resize(game->checked_legal_moves(start, legal));
    std::vector<gsdk::core::StateBlob> children(legal.size(), start);
    for (size_t c = 0; c < legal.size(); ++c) game->apply_move(children[c], legal[c]);
    for (const uint32_t count : {500u, 20000u}) {
      const auto outcomes = stopped_searches(*game, seed, 1, count);
      std::vector<gsdk::core::PlayoutTask> playouts;
      for (uint32_t i = 0; i < count; ++i)
        for (size_t c = 0; c < children.size(); ++c) playouts.push_back({children[c].data(), uint64_t{i} * 5000 + 3 + c});
      std::vector<int64_t> scores(playouts.size());
      evaluator->evaluate(playouts, scores);
      for (uint32_t i = 0; i < count; ++i) {
        SCOPED_TRACE("d=" + std::to_string(cube.dimension) + ", " + std::to_string(count) + " searches, search " +
                     std::to_string(i));
        const auto first = scores.begin() + i * children.size();
        ASSERT_EQ(outcomes[i].score, *std::max_element(first, first + children.size()));
        ASSERT_EQ(outcomes[i].playouts, children.size());
        ASSERT_EQ(outcomes[i].moves.front(), legal[std::max_element(first, first + children.size()) - first]);
        ASSERT_EQ(gsdk::core::replay_score(*game, outcomes[i].moves), outcomes[i].score);
      }
    }
  }
}

// Stopped before it starts, a level-2 search runs its first child's level-1 search (whole: level 2 reads the
// stop between children only) and ends with that child's snake.
TEST(SnakeCudaNmcs, Level2SearchesStoppedBeforeTheyStartSearchOneChild) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({10, true, "tight"});
  for (const auto& found : stopped_searches(*game, 4, 2, 300)) {
    ASSERT_EQ(found.level1_searches, 1u);
    ASSERT_GT(found.playouts, 0u);
    ASSERT_EQ(found.level1_steps + 1, found.moves.size()); // the child's move, then its level-1 sequence
    ASSERT_EQ(found.record_moves, found.moves);
    expect_snake(*game, 10, {found.score, found.moves});
  }
}

// Whole level-2 searches in a large cube run for minutes each; a 3-second run must end within seconds of its
// budget all the same, with a checked snake (before stop requests this run took over ten minutes).
TEST(SnakeCudaNmcs, TimedLevel2SearchesOnTheGpuEndAtTheDeadline) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({10, true, "tight"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 8, 1);
  const auto searcher = gsdk::core::make_cuda_level1_searcher(*game, 8, 0, 1u << 16, 2, 2);
  gsdk::core::NmcsSettings settings;
  settings.level = 2;
  settings.budget.restarts = 1000000;
  settings.budget.searches_in_parallel = 65536;
  settings.budget.time_seconds = 3;
  const NestedSearchOutcome outcome = gsdk::core::run_nmcs(*game, settings, *evaluator, {}, searcher.get());
  EXPECT_TRUE(outcome.stopped_by_time);
  EXPECT_LT(outcome.wall_seconds, 30.0);
  EXPECT_GT(outcome.best.score, 100);
  expect_snake(*game, 10, outcome.best);
}

} // namespace
} // namespace snake
