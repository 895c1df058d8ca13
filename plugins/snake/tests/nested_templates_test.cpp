// nested_templates_test.cpp - the SDK's GPU nested-search routines (gsdk/nested/) run on the host over snake's
// device rules (cuda/device_rules.hpp) find what core's CPU searches and Rosin's recursion find, snake for
// snake: level-1 NMCS under each policy, with and without symmetry breaking and from a box of blocked
// sub-cubes, level-2 NMCS with its record, and NRPA of levels 1 to 3 from arbitrary policies. They are the
// routines snake's CUDA kernels run (cuda_*_test.cpp compare those with the CPU on a GPU), so this pins what
// the kernels compute without one.
#include <gtest/gtest.h>

#include <random>

#include "cuda/device_rules.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "host_nested_search.hpp"
#include "reference_nrpa.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using gsdk::core::NestedSearchOutcome;
using test::make_game;
using test::make_rules;
using test::Settings;

cuda::DeviceRules rules_of(const Settings& cube) {
  const Game game = make_rules(cube);
  return cuda::device_rules(game.rules(), game.policy());
}

TEST(SnakeNestedTemplates, Level1SearchesFindWhatCoreFinds) {
  const Settings cubes[] = {{5, true, "uniform"},
                            {7, false, "kinny"},
                            {8, true, "tight"},
                            {9, true, "uniform"},
                            {7, false, "uniform", "1**1***"}};
  for (const Settings& cube : cubes) {
    const auto game = make_game(cube);
    for (const uint64_t seed : {uint64_t{1}, uint64_t{99}}) {
      SCOPED_TRACE("d=" + std::to_string(cube.dimension) + " " + cube.policy + " " + cube.blocked_subcubes + " seed " +
                   std::to_string(seed));
      const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, seed, 2);
      const NestedSearchOutcome cpu = gsdk::core::run_nmcs(*game, test::nmcs_settings(1, 0, 1), *evaluator);
      const gsdk::test::HostLevel1 host =
          gsdk::test::host_level1_search(rules_of(cube), game->initial_state(), seed, 0);
      EXPECT_EQ(host.found.score, cpu.best.score);
      EXPECT_EQ(host.moves, cpu.best.moves);
      EXPECT_EQ(host.found.playouts, cpu.playouts);
    }
  }
}

TEST(SnakeNestedTemplates, Level2SearchesFindWhatCoreFinds) {
  for (const Settings& cube : {Settings{6, true, "uniform"}, Settings{7, true, "tight"}}) {
    const auto game = make_game(cube);
    SCOPED_TRACE("d=" + std::to_string(cube.dimension) + " " + cube.policy);
    const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 3, 2);
    const NestedSearchOutcome cpu = gsdk::core::run_nmcs(*game, test::nmcs_settings(2, 0, 1), *evaluator);
    const gsdk::test::HostLevel2 host = gsdk::test::host_level2_search(rules_of(cube), game->initial_state(), 3, 0, 0);
    EXPECT_EQ(host.found.score, cpu.best.score);
    EXPECT_EQ(host.record, cpu.best.moves);
    EXPECT_EQ(host.found.playouts, cpu.playouts);
    EXPECT_EQ(host.found.level1_searches, cpu.level1_searches);
    EXPECT_EQ(host.found.level1_steps, cpu.level1_steps);
  }
}

// Policies far from zero, so that the draws depend on every weight's last bits.
TEST(SnakeNestedTemplates, NrpaSearchesFindWhatTheRecursiveReferenceFinds) {
  struct Case {
    uint32_t dimension, level, iterations, searches;
  };
  for (const Case c : {Case{5, 1, 20, 8}, Case{7, 2, 6, 4}, Case{6, 3, 3, 3}, Case{10, 1, 3, 2}}) {
    const Settings cube{c.dimension, c.dimension != 7, "uniform"};
    const auto game = make_game(cube);
    const cuda::DeviceRules rules = rules_of(cube);
    const uint64_t seed = 1000 + c.dimension;
    const test::ReferenceNrpa reference(*game, seed, c.iterations, 0.8);
    std::mt19937_64 random(c.dimension);
    std::uniform_real_distribution<double> weight(-4.0, 4.0);
    for (uint32_t i = 0; i < c.searches; ++i) {
      std::vector<double> policy(rules.code_count());
      for (double& w : policy) w = weight(random);
      uint64_t stream = (uint64_t{i} << 30) + 7;
      const test::ReferenceSequence expected = reference.search(c.level, policy, stream);
      const gsdk::test::HostNrpa host =
          gsdk::test::host_nrpa_search(rules, seed, c.level, c.iterations, 0.8, policy, (uint64_t{i} << 30) + 7);
      ASSERT_EQ(host.found.score, expected.score) << "d=" << c.dimension << " level " << c.level << " search " << i;
      ASSERT_EQ(host.moves, expected.moves) << "d=" << c.dimension << " level " << c.level << " search " << i;
    }
  }
}

} // namespace
} // namespace snake
