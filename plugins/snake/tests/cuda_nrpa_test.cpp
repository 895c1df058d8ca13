// cuda_nrpa_test.cpp - NRPA searches run whole on the GPU find what Rosin's recursion finds on the host,
// sequence for sequence, from arbitrary starting policies, at levels 1 to 3, in small and large cubes (d =
// 13 fills every bit of the kernel's step words), over several launches; and a run that hands its lowest
// levels to the GPU ends with the CPU run's best. A stop request (ABI 1.6) ends searches at their next
// playout with their best so far, and keeps a timed run of long searches within its budget. Skipped without
// a GPU, except the refusal of blocked sub-cubes.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "gpu.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/core/nested/nrpa_searcher.hpp"
#include "reference_nrpa.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using gsdk::core::NestedSearchOutcome;
using test::make_game;

TEST(SnakeCudaNrpa, SearchesFindWhatTheRecursiveReferenceFinds) {
  GSDK_REQUIRE_GPU();
  struct Case {
    uint32_t dimension;
    uint32_t level;
    uint32_t iterations;
    uint32_t searches;
  };
  // Launches of a third of the searches: one search per warp, except for the 30,000 (launches of 10,001, more
  // than an H100 holds warps), one per thread.
  const Case cases[] = {{5, 1, 20, 300}, {7, 2, 6, 150}, {9, 1, 10, 70}, {6, 3, 3, 40}, {13, 1, 2, 12}, {5, 1, 4, 30000}};
  for (const Case& c : cases) {
    const auto game = make_game({c.dimension, c.dimension != 7, "uniform"});
    const uint32_t code_count = game->tables().move_codes->code_count(game->handle());
    const uint64_t seed = 1000 + c.dimension;
    const double alpha = 0.8;
    // Policies far from zero, so that the draws depend on every weight's last bits.
    std::mt19937_64 random(c.dimension);
    std::uniform_real_distribution<double> weight(-4.0, 4.0);
    std::vector<std::vector<double>> policies(c.searches, std::vector<double>(code_count));
    std::vector<gsdk::core::NrpaCall> calls;
    for (uint32_t i = 0; i < c.searches; ++i) {
      for (double& w : policies[i]) w = weight(random);
      calls.push_back({policies[i].data(), (uint64_t{i} << 30) + 7});
    }
    const auto searcher = gsdk::core::make_cuda_nrpa_searcher(*game, seed, c.level, c.iterations, alpha, 0,
                                                              c.searches / 3 + 1); // several launches
    std::vector<gsdk::core::NrpaCallResult> results(c.searches);
    searcher->search(calls, results);
    const test::ReferenceNrpa reference(*game, seed, c.iterations, alpha);
    for (uint32_t i = 0; i < c.searches; ++i) {
      uint64_t stream = calls[i].first_stream;
      const test::ReferenceSequence expected = reference.search(c.level, policies[i], stream);
      ASSERT_EQ(results[i].score, expected.score) << "d=" << c.dimension << " level " << c.level << " search " << i;
      ASSERT_EQ(results[i].moves, expected.moves) << "d=" << c.dimension << " level " << c.level << " search " << i;
    }
  }
}

// Blocked sub-cubes are refused before any device work (the kernel's playouts start in the whole cube), so
// this runs without a GPU too.
TEST(SnakeCudaNrpa, BlockedSubcubesAreRefused) {
  const auto game = make_game({6, false, "uniform", "1*****"});
  const gsdk_cuda_nrpa_searches& table = *game->tables().cuda_nrpa_searches;
  char error[256] = {};
  EXPECT_NE(table.run(game->handle(), 1, 1, 1, 1.0, nullptr, nullptr, 1, 0, nullptr, nullptr, 0, nullptr, nullptr,
                      error, sizeof error),
            GSDK_OK);
  EXPECT_NE(std::string(error).find("NRPA on the GPU plays its playouts in the whole cube; with blocked_subcubes"),
            std::string::npos)
      << error;
}

// Level-2 and level-3 runs with many searches side by side and restarts: on the CPU, with level-1 searches
// on the GPU and with level-2 searches on the GPU, the same best snake from the same search after the same
// playouts.
TEST(SnakeCudaNrpa, RunsWithTheLowerLevelsOnTheGpuEndAsOnTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({8, true, "uniform"});
  for (const uint32_t level : {2u, 3u}) {
    gsdk::core::NrpaSettings settings;
    settings.seed = 5;
    settings.level = level;
    settings.iterations = level == 2 ? 20 : 6;
    settings.budget.restarts = 40;
    settings.budget.searches_in_parallel = 17;
    settings.threads = 2;
    const NestedSearchOutcome cpu = gsdk::core::run_nrpa(*game, settings);
    for (uint32_t device_level = 1; device_level <= 2; ++device_level) {
      const auto searcher = gsdk::core::make_cuda_nrpa_searcher(*game, settings.seed, device_level, settings.iterations,
                                                                settings.alpha, 0, settings.budget.searches_in_parallel, 2);
      const NestedSearchOutcome gpu = gsdk::core::run_nrpa(*game, settings, {}, searcher.get());
      SCOPED_TRACE("level " + std::to_string(level) + ", device level " + std::to_string(device_level));
      EXPECT_EQ(gpu.best.score, cpu.best.score);
      EXPECT_EQ(gpu.best.moves, cpu.best.moves);
      EXPECT_EQ(gpu.best_search, cpu.best_search);
      EXPECT_EQ(gpu.playouts, cpu.playouts);
      EXPECT_EQ(gpu.searches_finished, 41u);
    }
  }
}

// Stopped before it starts, an NRPA search of any level plays one playout of its starting policy and returns
// it: the reference's level-1 search of one iteration. 300 searches run one per warp, 9,000 one per thread.
TEST(SnakeCudaNrpa, SearchesStoppedBeforeTheyStartReturnTheirFirstPlayout) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({8, true, "uniform"});
  const uint32_t code_count = game->tables().move_codes->code_count(game->handle());
  const uint64_t seed = 77;
  const double alpha = 1.0;
  const test::ReferenceNrpa one_playout(*game, seed, 1, alpha);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> weight(-2.0, 2.0);
  for (const uint32_t count : {300u, 9000u}) {
    std::vector<std::vector<double>> policies(count, std::vector<double>(code_count));
    std::vector<gsdk::core::NrpaCall> calls;
    for (uint32_t i = 0; i < count; ++i) {
      for (double& w : policies[i]) w = weight(random);
      calls.push_back({policies[i].data(), uint64_t{i} * 1000000 + 11});
    }
    const auto expected_policies = policies; // the searches adapt theirs
    const auto searcher = gsdk::core::make_cuda_nrpa_searcher(*game, seed, 3, 50, alpha, 0, count);
    searcher->stop_at(std::chrono::steady_clock::now());
    std::vector<gsdk::core::NrpaCallResult> results(count);
    searcher->search(calls, results);
    for (uint32_t i = 0; i < count; ++i) {
      uint64_t stream = calls[i].first_stream;
      const test::ReferenceSequence expected = one_playout.search(1, expected_policies[i], stream);
      ASSERT_EQ(results[i].stopped_after, 1u) << count << " searches, search " << i;
      ASSERT_EQ(results[i].score, expected.score) << count << " searches, search " << i;
      ASSERT_EQ(results[i].moves, expected.moves) << count << " searches, search " << i;
    }
  }
}

// Whole level-3 searches of 10^6 playouts in a large cube take minutes each; a 2-second run must end within
// seconds of its budget all the same, counting only the playouts the stopped searches ran.
TEST(SnakeCudaNrpa, TimedWholeSearchesOnTheGpuEndAtTheDeadline) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({10, true, "uniform"});
  gsdk::core::NrpaSettings settings;
  settings.level = 3;
  settings.iterations = 100;
  settings.budget.restarts = 100000;
  settings.budget.searches_in_parallel = 2000;
  settings.budget.time_seconds = 2;
  settings.threads = 2;
  const auto searcher = gsdk::core::make_cuda_nrpa_searcher(*game, settings.seed, 3, settings.iterations,
                                                            settings.alpha, 0, settings.budget.searches_in_parallel, 2);
  const NestedSearchOutcome outcome = gsdk::core::run_nrpa(*game, settings, {}, searcher.get());
  EXPECT_TRUE(outcome.stopped_by_time);
  EXPECT_LT(outcome.wall_seconds, 30.0);
  EXPECT_GT(outcome.playouts, 2000u);
  EXPECT_LT(outcome.playouts, uint64_t{2000} * 1000000); // not counted as whole searches
  EXPECT_GT(outcome.best.score, 100);
  EXPECT_EQ(gsdk::core::replay_score(*game, outcome.best.moves), outcome.best.score);
}

} // namespace
} // namespace snake
