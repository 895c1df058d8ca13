// nested_templates_test.cpp - the SDK's GPU nested-search routines (gsdk/nested/) run on the host over
// test_chain's device rules find what core's CPU searches find through the plugin's tables, sequence for
// sequence: level-1 and level-2 NMCS (from the initial state and from a start), NRPA of levels 1 to 3, and
// their stop requests. test_chain's move codes recur along a chain, so NRPA must defer its adaptation: adapting
// in place gives other policies (checked here too). The same routines are what the CUDA kernels run
// (gpu_nested_search_test.cpp compares those with the CPU on a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "chain_fixture.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/nrpa/adaptation.hpp"
#include "host_nested_search.hpp"
#include "test_chain_device_rules.hpp"

namespace gsdk::test {
namespace {

using NestedTemplates = ChainTest;
using test_chain::DeviceRules;

core::NmcsSettings one_search(uint32_t level, std::vector<std::vector<uint32_t>> starts = {}) {
  core::NmcsSettings settings;
  settings.level = level;
  settings.starts = std::move(starts);
  return settings;
}

TEST_F(NestedTemplates, Level1SearchesFindWhatCoreFinds) {
  for (const uint32_t numbers : {2u, 9u, 20u, 32u}) {
    const auto game = chain(numbers);
    for (const uint64_t seed : {uint64_t{1}, uint64_t{6}, uint64_t{1234}}) {
      SCOPED_TRACE(std::to_string(numbers) + " numbers, seed " + std::to_string(seed));
      const auto evaluator = core::make_cpu_batch_evaluator(*game, seed, 1);
      const core::NestedSearchOutcome cpu = core::run_nmcs(*game, one_search(1), *evaluator);
      const HostLevel1 host = host_level1_search(DeviceRules{numbers}, game->initial_state(), seed, 0);
      EXPECT_EQ(host.found.score, cpu.best.score);
      EXPECT_EQ(host.moves, cpu.best.moves);
      EXPECT_EQ(host.found.playouts, cpu.playouts);
      EXPECT_EQ(host.found.move_count, cpu.level1_steps);
    }
  }
}

TEST_F(NestedTemplates, Level1SearchesFromAStartFindWhatCoreFinds) {
  const auto game = chain(24);
  const std::vector<uint32_t> start_moves{11, 5}; // 12 6
  const auto evaluator = core::make_cpu_batch_evaluator(*game, 3, 1);
  const core::NestedSearchOutcome cpu = core::run_nmcs(*game, one_search(1, {start_moves}), *evaluator);
  const HostLevel1 host = host_level1_search(DeviceRules{24}, game->state_from_string("chain 12 6"), 3, 0);
  std::vector<uint32_t> whole = start_moves;
  whole.insert(whole.end(), host.moves.begin(), host.moves.end());
  EXPECT_EQ(host.found.score, cpu.best.score);
  EXPECT_EQ(whole, cpu.best.moves);
  EXPECT_EQ(host.found.playouts, cpu.playouts);
}

TEST_F(NestedTemplates, Level2SearchesFindWhatCoreFinds) {
  for (const uint32_t numbers : {7u, 16u, 26u}) {
    const auto game = chain(numbers);
    for (const uint64_t seed : {uint64_t{2}, uint64_t{41}}) {
      SCOPED_TRACE(std::to_string(numbers) + " numbers, seed " + std::to_string(seed));
      const auto evaluator = core::make_cpu_batch_evaluator(*game, seed, 1);
      const core::NestedSearchOutcome cpu = core::run_nmcs(*game, one_search(2), *evaluator);
      const HostLevel2 host = host_level2_search(DeviceRules{numbers}, game->initial_state(), seed, 0, 0);
      EXPECT_EQ(host.found.score, cpu.best.score);
      EXPECT_EQ(host.record, cpu.best.moves); // the run's record: the smallest of the best score's sequences
      EXPECT_EQ(core::replay_score(*game, host.moves), host.found.score);
      EXPECT_EQ(host.found.playouts, cpu.playouts);
      EXPECT_EQ(host.found.level1_searches, cpu.level1_searches);
      EXPECT_EQ(host.found.level1_steps, cpu.level1_steps);
    }
  }
}

TEST_F(NestedTemplates, NrpaSearchesFindWhatCoreFinds) {
  struct Case {
    uint32_t numbers, level, iterations;
  };
  for (const Case c : {Case{10, 1, 30}, Case{20, 2, 8}, Case{32, 2, 6}, Case{14, 3, 4}}) {
    const auto game = chain(c.numbers);
    for (const uint64_t seed : {uint64_t{5}, uint64_t{808}}) {
      SCOPED_TRACE(std::to_string(c.numbers) + " numbers, level " + std::to_string(c.level) + ", seed " +
                   std::to_string(seed));
      core::NrpaSettings settings;
      settings.seed = seed;
      settings.level = c.level;
      settings.iterations = c.iterations;
      settings.alpha = 0.7;
      const core::NestedSearchOutcome cpu = core::run_nrpa(*game, settings);
      const HostNrpa host = host_nrpa_search(DeviceRules{c.numbers}, seed, c.level, c.iterations, settings.alpha,
                                             std::vector<double>(c.numbers, 0.0), 0);
      EXPECT_EQ(host.found.score, cpu.best.score);
      EXPECT_EQ(host.moves, cpu.best.moves);
      EXPECT_EQ(host.found.reserved, 0u); // ran whole
    }
  }
}

// The deferred adaptation gives the bits of Rosin's (every weight from the policy before it, the deltas added to
// a copy); adding each step's deltas in place does not when codes recur, as test_chain's do.
TEST_F(NestedTemplates, RecurringCodesNeedTheDeferredAdaptation) {
  const DeviceRules rules{24};
  std::mt19937_64 random(9);
  std::uniform_real_distribution<double> weight(-3.0, 3.0);
  std::vector<double> policy(rules.code_count());
  for (double& w : policy) w = weight(random);
  HostWorkspace workspace(rules.workspace_words());
  std::vector<DeviceRules::Step> steps(rules.max_game_length());
  const nested::PlayoutEnd end = nested::policy_playout(rules, workspace.slot(), policy.data(), 17, 3, steps.data());
  ASSERT_GT(end.length, 3u);

  std::vector<double> rosin = policy, weights(DeviceRules::kMaxMoves);
  uint32_t codes[DeviceRules::kMaxMoves];
  for (uint32_t t = 0; t < end.length; ++t)
    nrpa::step_deltas(policy.data(), codes, rules.step_codes(steps[t], codes), rules.played_code(steps[t]), 0.9,
                      weights.data(), nrpa::AddToPolicy{rosin.data()});
  std::vector<uint32_t> delta_codes(nested::deferred_deltas(rules));
  std::vector<double> delta_values(delta_codes.size());
  std::vector<double> deferred = policy;
  nested::adapt(rules, 0.9, deferred.data(), steps.data(), end.length, delta_codes.data(), delta_values.data());
  EXPECT_EQ(deferred, rosin);

  std::vector<double> in_place = policy;
  for (uint32_t t = 0; t < end.length; ++t)
    nrpa::step_deltas(in_place.data(), codes, rules.step_codes(steps[t], codes), rules.played_code(steps[t]), 0.9,
                      weights.data(), nrpa::AddToPolicy{in_place.data()});
  EXPECT_NE(in_place, rosin);
}

TEST_F(NestedTemplates, StoppedSearchesEndAfterTheirFirstStepOrPlayout) {
  const auto game = chain(20);
  const uint32_t stop = 1;
  const DeviceRules rules{20};
  // Level 1: one step, a playout for each of the 20 first numbers (streams 7 ..), the best child's sequence.
  const HostLevel1 level1 = host_level1_search(rules, game->initial_state(), 4, 7, &stop);
  EXPECT_EQ(level1.found.playouts, 20u);
  std::vector<core::StateBlob> children(20, game->initial_state());
  std::vector<core::PlayoutTask> playouts;
  for (uint32_t k = 0; k < 20; ++k) {
    game->apply_move(children[k], k);
    playouts.push_back({children[k].data(), 7 + k});
  }
  std::vector<int64_t> scores(20);
  core::make_cpu_batch_evaluator(*game, 4, 1)->evaluate(playouts, scores);
  const auto best = std::max_element(scores.begin(), scores.end());
  EXPECT_EQ(level1.found.score, *best);
  ASSERT_FALSE(level1.moves.empty());
  EXPECT_EQ(level1.moves.front(), static_cast<uint32_t>(best - scores.begin()));
  EXPECT_EQ(core::replay_score(*game, level1.moves), level1.found.score);
  // Level 2: one child, its whole level-1 search.
  const HostLevel2 level2 = host_level2_search(rules, game->initial_state(), 4, 0, 0, &stop);
  EXPECT_EQ(level2.found.level1_searches, 1u);
  EXPECT_EQ(level2.found.level1_steps + 1, level2.moves.size());
  EXPECT_EQ(level2.record, level2.moves);
  EXPECT_EQ(core::replay_score(*game, level2.moves), level2.found.score);
  // NRPA of any level: its first playout, what a level-1 search of one iteration plays.
  const HostNrpa stopped = host_nrpa_search(rules, 4, 3, 10, 1.0, std::vector<double>(20, 0.5), 11, &stop);
  const HostNrpa one_playout = host_nrpa_search(rules, 4, 1, 1, 1.0, std::vector<double>(20, 0.5), 11);
  EXPECT_EQ(stopped.found.reserved, 1u);
  EXPECT_EQ(stopped.found.score, one_playout.found.score);
  EXPECT_EQ(stopped.moves, one_playout.moves);
}

} // namespace
} // namespace gsdk::test
