// blocked_subcubes_test.cpp - snakes in a cube with blocked sub-cubes: the patterns read as documented, no
// legal move, playout or search ever enters a blocked vertex, a state text that does is refused naming the
// vertex, and NMCS level 2 reaches the optimum of the sub-cube left free (a 6-cube without its upper half is
// a 5-cube: 13 edges).
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "checker/snake_check.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "rules/blocked_subcubes.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_game;
using test::make_rules;

TEST(SnakeBlockedSubcubes, PatternsFixTheirBitsHighestDimensionFirst) {
  const std::vector<Subcube> cubes = parse_subcubes(" 10********, *********1 ", 10);
  ASSERT_EQ(cubes.size(), 2u);
  EXPECT_EQ(cubes[0].fixed, 0b1100000000u);
  EXPECT_EQ(cubes[0].value, 0b1000000000u);
  EXPECT_TRUE(cubes[0].contains(0b1011111111u));
  EXPECT_FALSE(cubes[0].contains(0b1100000000u));
  EXPECT_EQ(cubes[1].fixed, 1u);
  EXPECT_EQ(cubes[1].value, 1u);
  EXPECT_TRUE(parse_subcubes("", 5).empty());
  EXPECT_TRUE(parse_subcubes("  ", 5).empty());
}

std::string parse_refusal(std::string_view list, uint32_t dimension) {
  try {
    parse_subcubes(list, dimension);
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

TEST(SnakeBlockedSubcubes, BadPatternsAreRefusedNamingThePatternAndTheFault) {
  EXPECT_EQ(parse_refusal("1***", 5),
            "sub-cube '1***' has 4 characters; expected 5 characters '0', '1' or '*', highest dimension first");
  EXPECT_EQ(parse_refusal("1**x*", 5), "sub-cube '1**x*': character 4 'x' is not '0', '1' or '*'; expected 5 "
                                       "characters '0', '1' or '*', highest dimension first");
  EXPECT_EQ(parse_refusal("0*0**", 5), "sub-cube '0*0**' contains vertex 0, where every snake starts");
  EXPECT_EQ(parse_refusal("*****", 5), "sub-cube '*****' contains vertex 0, where every snake starts");
  EXPECT_EQ(parse_refusal("1****,,01***", 5),
            "an empty sub-cube in the list '1****,,01***' (two commas, or one at an end)");
  EXPECT_EQ(parse_refusal("1****,", 5), "an empty sub-cube in the list '1****,' (two commas, or one at an end)");
}

TEST(SnakeBlockedSubcubes, RandomSnakesNeverEnterABlockedVertex) {
  const Game game = make_rules({7, false, "uniform", "1**1***,*1*0**1"});
  const std::vector<Subcube> cubes = parse_subcubes("1**1***,*1*0**1", 7);
  std::mt19937_64 random(11);
  uint32_t longest = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    State s;
    game.initial_state(s);
    std::vector<uint32_t> moves(7);
    for (uint32_t n; (n = game.legal_moves(s, moves.data(), nullptr)) > 0;) {
      game.apply_move(s, moves[random() % n]);
      for (const Subcube& cube : cubes) ASSERT_FALSE(cube.contains(s.head)) << game.state_to_string(s);
    }
    longest = std::max<uint32_t>(longest, s.length);
  }
  EXPECT_GT(longest, 10u); // the snakes did move through the free part of the cube
}

TEST(SnakeBlockedSubcubes, AStateTextThatEntersABlockedSubcubeIsRefused) {
  const Game game = make_rules({4, false, "uniform", "***1"});
  try {
    game.state_from_string("d=4 moves 1 0");
    FAIL() << "a move into a blocked sub-cube was accepted";
  } catch (const gsdk::PluginError& e) {
    EXPECT_STREQ(e.what(), "snake: move 1 '0' is illegal: vertex 3 is in a blocked sub-cube");
  }
  EXPECT_EQ(game.state_to_string(game.state_from_string("d=4 moves 1 2 3")), "d=4 moves 1 2 3");
}

TEST(SnakeBlockedSubcubes, PlayoutsStayOutOfTheBlockedHalf) {
  // The 6-cube less its upper half is a 5-cube, whose longest snake has 13 edges.
  const auto game = make_game({6, false, "tight", "1*****"});
  test::Summary summary(*game);
  test::run_cpu(*game, test::request(3, 0, 20000), summary);
  EXPECT_GE(summary.s.best_score, 11);
  EXPECT_LE(summary.s.best_score, 13);
  for (size_t length = 14; length < summary.histogram.size(); ++length) EXPECT_EQ(summary.histogram[length], 0u);
  // The same playouts in the whole 6-cube do go past 13, so the bound above is the blocking's doing.
  const auto whole = make_game({6, false, "tight"});
  test::Summary free(*whole);
  test::run_cpu(*whole, test::request(3, 0, 20000), free);
  EXPECT_GT(free.s.best_score, 13);
}

TEST(SnakeBlockedSubcubes, NmcsReachesTheOptimumOfTheFreeSubcube) {
  const auto game = make_game({6, false, "uniform", "1*****"});
  const auto evaluator = gsdk::core::make_cpu_batch_evaluator(*game, 7, 1);
  gsdk::core::NmcsSettings settings = test::nmcs_settings(2, 20, 1);
  const auto outcome = gsdk::core::run_nmcs(*game, settings, *evaluator);
  EXPECT_EQ(outcome.best.score, 13);
  const auto vertices = snake::checker::walk_vertices(outcome.best.moves);
  for (const uint32_t v : vertices) EXPECT_LT(v, 32u);
  EXPECT_TRUE(snake::checker::check_snake({6, outcome.best.moves, vertices}).ok);
}

} // namespace
} // namespace snake
