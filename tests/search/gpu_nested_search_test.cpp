// gpu_nested_search_test.cpp - test_chain's CUDA nested-search tables, which it gets from the SDK's templates,
// find on the GPU what core finds on the CPU for the same seed: NMCS level 1 and 2 (device level 1, and whole
// level-2 searches) and NRPA with its lower levels on the GPU, the same best sequence from the same search after
// the same work; NRPA searches from arbitrary policies equal the SDK's routine run on the host (itself checked
// against core by nested_templates_test.cpp), in launches of one search per warp and one per thread; stop
// requests end each kind of search where its table says. Skipped without a GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "chain_fixture.hpp"
#include "gpu.hpp"
#include "gsdk/core/nested/level1_searcher.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/core/nested/nrpa_searcher.hpp"
#include "host_nested_search.hpp"
#include "test_chain_device_rules.hpp"

namespace gsdk::test {
namespace {

using ChainCudaSearch = ChainTest;
using test_chain::DeviceRules;

core::NmcsSettings nmcs_settings(uint32_t level, uint32_t restarts, uint32_t side_by_side) {
  core::NmcsSettings settings;
  settings.level = level;
  settings.budget.restarts = restarts;
  settings.budget.searches_in_parallel = side_by_side;
  return settings;
}

void expect_same_run(const core::NestedSearchOutcome& gpu, const core::NestedSearchOutcome& cpu, uint32_t searches) {
  EXPECT_EQ(gpu.best.score, cpu.best.score);
  EXPECT_EQ(gpu.best.moves, cpu.best.moves);
  EXPECT_EQ(gpu.best_search, cpu.best_search);
  EXPECT_EQ(gpu.playouts, cpu.playouts);
  EXPECT_EQ(gpu.level1_steps, cpu.level1_steps);
  EXPECT_EQ(gpu.level1_searches, cpu.level1_searches);
  EXPECT_EQ(gpu.searches_finished, searches);
}

// Launches of 64 searches run one per warp; a launch of 20,000 (more than an H100 holds warps) one per thread.
TEST_F(ChainCudaSearch, Level1RunsFindWhatTheCpuFinds) {
  GSDK_REQUIRE_GPU();
  struct Case {
    uint32_t numbers, restarts, side_by_side, max_batch;
  };
  for (const Case c :
       {Case{12, 199, 100, 64}, Case{24, 199, 100, 64}, Case{32, 99, 50, 64}, Case{20, 29999, 20000, 1u << 16}}) {
    const auto game = chain(c.numbers);
    for (const uint64_t seed : {uint64_t{1}, uint64_t{5}, uint64_t{31}}) {
      SCOPED_TRACE(std::to_string(c.numbers) + " numbers, seed " + std::to_string(seed) + ", launches of " +
                   std::to_string(c.max_batch));
      const core::NmcsSettings settings = nmcs_settings(1, c.restarts, c.side_by_side);
      const auto evaluator = core::make_cpu_batch_evaluator(*game, seed, 2);
      const auto device = core::make_cuda_level1_searcher(*game, seed, 0, c.max_batch, 2, 1);
      expect_same_run(core::run_nmcs(*game, settings, *evaluator, {}, device.get()),
                      core::run_nmcs(*game, settings, *evaluator), c.restarts + 1);
    }
  }
}

TEST_F(ChainCudaSearch, Level2RunsFindWhatTheCpuFinds) {
  GSDK_REQUIRE_GPU();
  for (const uint32_t numbers : {10u, 24u}) {
    const auto game = chain(numbers);
    for (const uint64_t seed : {uint64_t{2}, uint64_t{77}}) {
      const core::NmcsSettings settings = nmcs_settings(2, 15, 8);
      const auto evaluator = core::make_cpu_batch_evaluator(*game, seed, 2);
      const core::NestedSearchOutcome cpu = core::run_nmcs(*game, settings, *evaluator);
      for (const uint32_t device_level : {1u, 2u}) {
        SCOPED_TRACE(std::to_string(numbers) + " numbers, seed " + std::to_string(seed) + ", device level " +
                     std::to_string(device_level));
        const auto device = core::make_cuda_level1_searcher(*game, seed, 0, 64, 2, device_level);
        expect_same_run(core::run_nmcs(*game, settings, *evaluator, {}, device.get()), cpu, 16);
      }
    }
  }
}

TEST_F(ChainCudaSearch, NrpaRunsWithTheLowerLevelsOnTheGpuEndAsOnTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto game = chain(24);
  for (const uint32_t level : {2u, 3u}) {
    core::NrpaSettings settings;
    settings.seed = 13;
    settings.level = level;
    settings.iterations = level == 2 ? 12 : 5;
    settings.alpha = 0.8;
    settings.budget.restarts = 30;
    settings.budget.searches_in_parallel = 11;
    settings.threads = 2;
    const core::NestedSearchOutcome cpu = core::run_nrpa(*game, settings);
    for (uint32_t device_level = 1; device_level <= level; ++device_level) {
      SCOPED_TRACE("level " + std::to_string(level) + ", device level " + std::to_string(device_level));
      const auto searcher = core::make_cuda_nrpa_searcher(*game, settings.seed, device_level, settings.iterations,
                                                          settings.alpha, 0, settings.budget.searches_in_parallel, 2);
      const core::NestedSearchOutcome gpu = core::run_nrpa(*game, settings, {}, searcher.get());
      EXPECT_EQ(gpu.best.score, cpu.best.score);
      EXPECT_EQ(gpu.best.moves, cpu.best.moves);
      EXPECT_EQ(gpu.best_search, cpu.best_search);
      EXPECT_EQ(gpu.playouts, cpu.playouts);
      EXPECT_EQ(gpu.searches_finished, 31u);
    }
  }
}

// Policies far from zero, so that draws depend on every weight's last bits. 300 searches run one per warp,
// 12,000 (launches of 12,000) one per thread.
TEST_F(ChainCudaSearch, NrpaSearchesFromArbitraryPoliciesEqualTheHostRoutine) {
  GSDK_REQUIRE_GPU();
  const uint32_t numbers = 28;
  const auto game = chain(numbers);
  const DeviceRules rules{numbers};
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> weight(-4.0, 4.0);
  for (const uint32_t count : {300u, 12000u}) {
    std::vector<std::vector<double>> policies(count, std::vector<double>(numbers));
    std::vector<core::NrpaCall> calls;
    for (uint32_t i = 0; i < count; ++i) {
      for (double& w : policies[i]) w = weight(random);
      calls.push_back({policies[i].data(), (uint64_t{i} << 30) + 9});
    }
    const uint32_t level = count == 300 ? 2 : 1, iterations = count == 300 ? 7 : 10;
    const auto searcher = core::make_cuda_nrpa_searcher(*game, 8, level, iterations, 0.9, 0, count);
    std::vector<core::NrpaCallResult> results(count);
    searcher->search(calls, results);
    for (uint32_t i = 0; i < count; ++i) {
      const HostNrpa expected = host_nrpa_search(rules, 8, level, iterations, 0.9, policies[i], calls[i].first_stream);
      ASSERT_EQ(results[i].score, expected.found.score) << count << " searches, search " << i;
      ASSERT_EQ(results[i].moves, expected.moves) << count << " searches, search " << i;
    }
  }
}

// Searches handed to the GPU after a deadline that has passed end as the host routine ends with its stop set:
// level 1 after one step, level 2 after one child, NRPA after one playout.
TEST_F(ChainCudaSearch, StoppedSearchesEndWhereTheirTablesSay) {
  GSDK_REQUIRE_GPU();
  const uint32_t numbers = 22, count = 500;
  const auto game = chain(numbers);
  const DeviceRules rules{numbers};
  const uint32_t stop = 1;
  const core::StateBlob start = game->initial_state();
  std::vector<core::Level1Task> tasks;
  for (uint32_t i = 0; i < count; ++i) tasks.push_back({start.data(), uint64_t{i} * 5000 + 3, i + 1});
  for (const uint32_t level : {1u, 2u}) {
    const auto searcher = core::make_cuda_level1_searcher(*game, 6, 0, count, 2, level);
    searcher->stop_at(std::chrono::steady_clock::now());
    std::vector<core::Level1Outcome> outcomes(count);
    searcher->search(tasks, outcomes);
    for (uint32_t i = 0; i < count; ++i) {
      SCOPED_TRACE("level " + std::to_string(level) + ", search " + std::to_string(i));
      if (level == 1) {
        const HostLevel1 expected = host_level1_search(rules, start, 6, tasks[i].first_stream, &stop);
        ASSERT_EQ(outcomes[i].score, expected.found.score);
        ASSERT_EQ(outcomes[i].playouts, expected.found.playouts);
        ASSERT_EQ(outcomes[i].moves, expected.moves);
      } else {
        const HostLevel2 expected = host_level2_search(rules, start, 6, tasks[i].first_stream, tasks[i].id, &stop);
        ASSERT_EQ(outcomes[i].score, expected.found.score);
        ASSERT_EQ(outcomes[i].level1_searches, 1u);
        ASSERT_EQ(outcomes[i].moves, expected.moves);
        ASSERT_EQ(outcomes[i].record_moves, expected.record);
      }
    }
  }
  const auto nrpa = core::make_cuda_nrpa_searcher(*game, 6, 3, 20, 1.0, 0, count);
  nrpa->stop_at(std::chrono::steady_clock::now());
  const std::vector<double> policy(numbers, 0.25);
  std::vector<core::NrpaCall> calls;
  for (uint32_t i = 0; i < count; ++i) calls.push_back({policy.data(), uint64_t{i} * 1000 + 1});
  std::vector<core::NrpaCallResult> results(count);
  nrpa->search(calls, results);
  for (uint32_t i = 0; i < count; ++i) {
    const HostNrpa expected = host_nrpa_search(rules, 6, 3, 20, 1.0, policy, calls[i].first_stream, &stop);
    ASSERT_EQ(results[i].stopped_after, 1u) << "search " << i;
    ASSERT_EQ(results[i].score, expected.found.score) << "search " << i;
    ASSERT_EQ(results[i].moves, expected.moves) << "search " << i;
  }
}

} // namespace
} // namespace gsdk::test
