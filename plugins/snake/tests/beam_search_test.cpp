// beam_search_test.cpp - the core's beam search on snake: beams wide enough to hold every snake of a level reach the
// optima of the 4-, 5- and 6-cubes (7, 13, 26 edges), with or without symmetry breaking; dedup by the canonical key
// finds transposed snakes; every best snake passes the independent checker; a smaller cube's snake warm-starts a
// larger cube's beam, which keeps it as its prefix.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "checker/snake_check.hpp"
#include "gsdk/core/beam/beam_search.hpp"
#include "snake_test_support.hpp"

namespace snake::test {
namespace {

gsdk::core::NestedSearchOutcome beam(const gsdk::core::GameInstance& game, uint32_t width,
                                     std::vector<std::vector<uint32_t>> starts = {}) {
  gsdk::core::BeamSettings settings;
  settings.width = width;
  settings.starts = std::move(starts);
  const auto device = gsdk::core::make_cpu_beam_device(game, 2);
  return gsdk::core::run_beam(game, settings, *device);
}

TEST(SnakeBeam, BeamsThatHoldEveryLevelReachTheOptimaOfSmallCubes) {
  struct Case {
    uint32_t dimension;
    bool symmetry_breaking;
    int64_t optimum;
  };
  for (const Case c : {Case{4, true, 7}, Case{4, false, 7}, Case{5, true, 13}, Case{5, false, 13}, Case{6, true, 26}}) {
    Settings s;
    s.dimension = c.dimension;
    s.symmetry_breaking = c.symmetry_breaking;
    const auto game = make_game(s);
    const gsdk::core::NestedSearchOutcome outcome = beam(*game, 1u << 17);
    EXPECT_EQ(outcome.best.score, c.optimum) << "d=" << c.dimension << " symmetry breaking " << c.symmetry_breaking;
    if (c.dimension >= 5) {
      EXPECT_GT(outcome.beam_duplicates, 0u) << "snakes of a level that differ only in their moves' order share a key";
    }
    const Game rules = make_rules(s);
    EXPECT_NO_THROW(rules.check_sequence(outcome.best.moves));
  }
}

TEST(SnakeBeam, WithoutDedupTheSameBeamKeepsTranspositions) {
  Settings s;
  s.dimension = 6;
  const auto game = make_game(s);
  gsdk::core::BeamSettings settings;
  settings.width = 1u << 17;
  settings.dedup = false;
  const auto device = gsdk::core::make_cpu_beam_device(*game, 2);
  const gsdk::core::NestedSearchOutcome outcome = gsdk::core::run_beam(*game, settings, *device);
  EXPECT_EQ(outcome.best.score, 26);
  EXPECT_EQ(outcome.beam_duplicates, 0u);
  settings.dedup = true;
  EXPECT_GT(gsdk::core::run_beam(*game, settings, *device).beam_children, 0u);
  EXPECT_LT(gsdk::core::run_beam(*game, settings, *device).beam_children, outcome.beam_children)
      << "dedup prunes transposed snakes";
}

TEST(SnakeBeam, ASmallerCubesSnakeWarmStartsALargerCubesBeam) {
  Settings five;
  five.dimension = 5;
  const std::vector<uint32_t> snake5 = beam(*make_game(five), 1u << 14).best.moves;
  ASSERT_EQ(snake5.size(), 13u);
  Settings seven;
  seven.dimension = 7;
  const auto game = make_game(seven);
  const gsdk::core::NestedSearchOutcome outcome = beam(*game, 200, {snake5});
  ASSERT_GE(outcome.best.moves.size(), snake5.size());
  EXPECT_TRUE(std::equal(snake5.begin(), snake5.end(), outcome.best.moves.begin()));
  EXPECT_GT(outcome.best.score, 30) << "the 7-cube's snakes go on well past the 5-cube's";
  EXPECT_NO_THROW(make_rules(seven).check_sequence(outcome.best.moves));
}

} // namespace
} // namespace snake::test
