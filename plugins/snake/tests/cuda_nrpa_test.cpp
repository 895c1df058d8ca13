// cuda_nrpa_test.cpp - NRPA searches run whole on the GPU find what Rosin's recursion finds on the host,
// sequence for sequence, from arbitrary starting policies, at levels 1 to 3, in small and large cubes (d =
// 13 fills every bit of the kernel's step words), over several launches; and a run that hands its lowest
// levels to the GPU ends with the CPU run's best. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "gpu.hpp"
#include "gsdk/core/nested_search.hpp"
#include "gsdk/core/nrpa_searcher.hpp"
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

} // namespace
} // namespace snake
