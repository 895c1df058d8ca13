// leaf_evaluator_test.cpp - the playout evaluators searches use: counts add up, results follow the
// running playout counter (so N + N playouts equal 2N from a fresh seed), the CPU batch evaluator is
// the scheduler's result for the same (seed, range), and the CUDA evaluator agrees with the CPU one
// (skipped without a GPU).
#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "search_fixture.hpp"

namespace {

using gsdk::core::WinDrawLoss;
using LeafEvaluator = gsdk::test::SearchTest;

void expect_equal(const WinDrawLoss& a, const WinDrawLoss& b) {
  EXPECT_EQ(a.wins, b.wins);
  EXPECT_EQ(a.draws, b.draws);
  EXPECT_EQ(a.losses, b.losses);
}

TEST(WinDrawLossTest, ScoresAndHistogramsFoldIntoPlayerZerosOutcomes) {
  expect_equal(gsdk::core::outcome_of_score(3, 2), WinDrawLoss{2, 0, 0});
  expect_equal(gsdk::core::outcome_of_score(0), WinDrawLoss{0, 1, 0});
  expect_equal(gsdk::core::outcome_of_score(-1, 5), WinDrawLoss{0, 0, 5});
  // Bins for scores -2 .. 2.
  expect_equal(gsdk::core::outcome_of_histogram({1, 2, 3, 4, 5}, -2), WinDrawLoss{9, 3, 3});
  EXPECT_DOUBLE_EQ((WinDrawLoss{9, 3, 3}).points(), 10.5);
}

TEST_F(LeafEvaluator, GenericPlayoutsFollowTheRunningCounter) {
  const auto game = nim();
  const auto evaluator = gsdk::core::make_cpu_evaluator(*game);
  EXPECT_EQ(evaluator->describe(), "cpu (generic playouts)");
  const auto state = game->state_from_string("stones=10 to_move=1");
  evaluator->reseed(7);
  WinDrawLoss halves = evaluator->evaluate(state, 300);
  halves.add(evaluator->evaluate(state, 300));
  EXPECT_EQ(evaluator->playouts_run(), 600u);
  evaluator->reseed(7);
  const WinDrawLoss whole = evaluator->evaluate(state, 600);
  expect_equal(halves, whole);
  EXPECT_EQ(whole.playouts(), 600u);
  EXPECT_EQ(whole.draws, 0u) << "nim has no draws";
  EXPECT_GT(whole.wins, 0u);
  EXPECT_GT(whole.losses, 0u);
  // Each playout is generic_playout (seed, i): the first one alone says which way it went.
  evaluator->reseed(7);
  expect_equal(evaluator->evaluate(state, 1), gsdk::core::outcome_of_score(gsdk::core::generic_playout(*game, 7, 0, state)));
}

TEST_F(LeafEvaluator, ABatchIsOneCallPerStateInOrder) {
  const auto game = nim();
  const auto evaluator = gsdk::core::make_cpu_evaluator(*game);
  const std::vector<std::string> texts = {"stones=10 to_move=1", "stones=7 to_move=0", "stones=12 to_move=0"};
  std::vector<unsigned char> packed;
  for (const auto& text : texts) {
    const auto state = game->state_from_string(text);
    packed.insert(packed.end(), state.begin(), state.end());
  }
  evaluator->reseed(9);
  const auto batch = evaluator->evaluate_batch(packed, 3, 200);
  EXPECT_EQ(evaluator->playouts_run(), 600u);
  ASSERT_EQ(batch.size(), 3u);
  evaluator->reseed(9);
  for (size_t i = 0; i < texts.size(); ++i) {
    expect_equal(batch[i], evaluator->evaluate(game->state_from_string(texts[i]), 200));
    EXPECT_EQ(batch[i].playouts(), 200u);
  }
}

TEST_F(LeafEvaluator, BatchTableGivesTheSchedulersResultForTheSameStreams) {
  const auto game = make("graveler", toml::table{{"rolls", 20}});
  const auto evaluator = gsdk::core::make_cpu_evaluator(*game);
  EXPECT_EQ(evaluator->describe(), "cpu (plugin playouts)");
  const auto start = game->initial_state();
  evaluator->reseed(11);
  evaluator->evaluate(start, 1000); // playouts 0 .. 999
  const WinDrawLoss second = evaluator->evaluate(start, 5000); // 1000 .. 5999

  gsdk::core::PlayoutJob job;
  job.seed = 11;
  job.playouts = 6000;
  job.cpu_threads = 1;
  job.start_state = start;
  job.cpu_item_playouts = 1000; // item 0 is the first call's range
  const auto whole = gsdk::core::run_playouts(*game, job);
  ASSERT_TRUE(whole.error.empty()) << whole.error;
  job.playouts = 1000;
  const auto first = gsdk::core::run_playouts(*game, job);
  WinDrawLoss expected = gsdk::core::outcome_of_histogram(whole.result.histogram, whole.result.score_min);
  const WinDrawLoss head = gsdk::core::outcome_of_histogram(first.result.histogram, first.result.score_min);
  expected.wins -= head.wins;
  expected.draws -= head.draws;
  expected.losses -= head.losses;
  expect_equal(second, expected);
  EXPECT_GT(second.draws, 0u) << "20 rolls without a 1 happen about 0.3% of the time";
}

TEST_F(LeafEvaluator, CudaAgreesWithTheCpuBatchTable) {
  GSDK_REQUIRE_GPU();
  const auto game = make("graveler", toml::table{{"rolls", 20}});
  const auto start = game->initial_state();
  const auto cpu = gsdk::core::make_cpu_evaluator(*game);
  const auto cuda = gsdk::core::make_cuda_evaluator(*game, 0, 4096); // small batches: calls are cut
  cpu->reseed(5);
  cuda->reseed(5);
  expect_equal(cuda->evaluate(start, 10000), cpu->evaluate(start, 10000));
  expect_equal(cuda->evaluate(start, 777), cpu->evaluate(start, 777));
  EXPECT_EQ(cuda->playouts_run(), 10777u);
}

TEST_F(LeafEvaluator, CudaNeedsThePluginsCudaTable) {
  const auto game = nim();
  EXPECT_THROW(gsdk::core::make_cuda_evaluator(*game, 0, 64), std::invalid_argument);
}

} // namespace
