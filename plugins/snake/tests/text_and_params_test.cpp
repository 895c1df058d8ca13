// text_and_params_test.cpp - the state text (round trips, and every kind of bad text refused with a
// message naming the token, its place and what was expected) and the parameters (bad values refused
// with a message naming the parameter and the expected values).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_rules;

// The message state_from_string gives for text, or "" when it accepts it.
std::string refusal(const Game& game, const std::string& text) {
  try {
    game.state_from_string(text);
    return "";
  } catch (const gsdk::PluginError& e) {
    return e.what();
  }
}

TEST(SnakeText, StatesRoundTripThroughText) {
  std::mt19937_64 random(3);
  for (uint32_t d : {3u, 8u, 13u}) {
    const Game game = make_rules({d, d != 8, "uniform"});
    State s;
    game.initial_state(s);
    EXPECT_EQ(game.state_to_string(s), "d=" + std::to_string(d) + " moves");
    std::vector<uint32_t> moves(d);
    for (uint32_t n; (n = game.legal_moves(s, moves.data(), nullptr)) > 0;) {
      game.apply_move(s, moves[random() % n]);
      const State parsed = game.state_from_string(game.state_to_string(s));
      ASSERT_EQ(std::memcmp(&parsed, &s, sizeof s), 0) << game.state_to_string(s);
    }
  }
  const Game game = make_rules({5, true, "uniform"});
  const State s = game.state_from_string("  d=5\tmoves 0 1\n2 0  3 ");
  EXPECT_EQ(game.state_to_string(s), "d=5 moves 0 1 2 0 3");
  EXPECT_EQ(s.head, 0b01110u);
  EXPECT_EQ(game.score(s), 5);
}

TEST(SnakeText, BadTextIsRefusedWithTheTokenAndTheReason) {
  const Game game = make_rules({5, true, "uniform"});
  EXPECT_EQ(refusal(game, ""), "snake: empty snake text; expected 'd=5 moves K1 K2 ...'");
  EXPECT_EQ(refusal(game, "dim=5 moves"),
            "snake: first word 'dim=5' is not the dimension; expected 'd=5 moves K1 K2 ...'");
  EXPECT_EQ(refusal(game, "d=6 moves 0"), "snake: the text is a snake of dimension 6 but this game has dimension 5");
  EXPECT_EQ(refusal(game, "d=5 0 1"), "snake: second word '0'; expected 'd=5 moves K1 K2 ...'");
  EXPECT_EQ(refusal(game, "d=5"), "snake: second word missing; expected 'd=5 moves K1 K2 ...'");
  EXPECT_EQ(refusal(game, "d=5 moves 0 1 x"), "snake: move 2 'x' is not a dimension 0..4");
  EXPECT_EQ(refusal(game, "d=5 moves 0 5"), "snake: move 1 '5' is not a dimension 0..4");
  EXPECT_EQ(refusal(game, "d=5 moves 0 -1"), "snake: move 1 '-1' is not a dimension 0..4");
  EXPECT_EQ(refusal(game, "d=5 moves 0 1 2 4"),
            "snake: move 3 '4' is illegal: symmetry breaking allows only dimensions used before or the lowest "
            "unused one (3)");
  EXPECT_EQ(refusal(game, "d=5 moves 0 2"),
            "snake: move 1 '2' is illegal: symmetry breaking allows only dimensions used before or the lowest "
            "unused one (1)");
  EXPECT_EQ(refusal(game, "d=5 moves 0 1 0"),
            "snake: move 2 '0' is illegal: vertex 2 is on the snake or next to an earlier vertex");
  EXPECT_EQ(refusal(game, "d=5 moves 0 0"), "snake: move 1 '0' is illegal: vertex 0 is on the snake or next to an "
                                            "earlier vertex");
  // Without symmetry breaking the same first moves are fine.
  const Game free = make_rules({5, false, "uniform"});
  EXPECT_EQ(refusal(free, "d=5 moves 3 4 1"), "");
}

// The message creating the game with these values gives, or "" when it accepts them.
std::string creation_refusal(const std::vector<gsdk_param_value>& values) {
  const gsdk_game& table = *gsdk::test::linked_plugin_tables("snake").game;
  gsdk_game_instance* instance = nullptr;
  char error[512] = {};
  const int32_t status =
      table.create(values.data(), static_cast<uint32_t>(values.size()), &instance, error, sizeof error);
  if (status == GSDK_OK) table.destroy(instance);
  return status == GSDK_OK ? "" : error;
}

TEST(SnakeParams, BadValuesAreRefusedNamingTheParameter) {
  EXPECT_EQ(creation_refusal(test::param_values({8, true, "uniform"})), "");
  EXPECT_EQ(creation_refusal(test::param_values({13, false, "kinny"})), "");
  EXPECT_EQ(creation_refusal(test::param_values({9, true, "tight"})), "");
  EXPECT_EQ(creation_refusal(test::param_values({2, true, "uniform"})), "dimension = 2, expected an integer in 3..13");
  EXPECT_EQ(creation_refusal(test::param_values({14, true, "uniform"})),
            "dimension = 14, expected an integer in 3..13");
  EXPECT_EQ(creation_refusal(test::param_values({8, true, "greedy"})),
            "policy = 'greedy', expected 'uniform', 'kinny' or 'tight'");
  EXPECT_EQ(creation_refusal(test::param_values({5, false, "uniform", "1****"})), "");
  EXPECT_EQ(creation_refusal(test::param_values({8, true, "uniform", "", "free"})), "");
  EXPECT_EQ(creation_refusal(test::param_values({8, true, "uniform", "", "deepest"})),
            "evaluation = 'deepest', expected 'reachable' or 'free'");
  EXPECT_EQ(creation_refusal(test::param_values({5, false, "uniform", "1***"})),
            "blocked_subcubes = '1***': sub-cube '1***' has 4 characters; expected 5 characters '0', '1' or '*', "
            "highest dimension first");
  EXPECT_EQ(creation_refusal(test::param_values({5, true, "uniform", "1****"})),
            "blocked_subcubes = '1****' needs symmetry_breaking = false: a blocked sub-cube breaks the symmetry that "
            "symmetry breaking relies on");
  EXPECT_EQ(creation_refusal({}), "parameter 'dimension' was not passed by the host");
}

TEST(SnakeParams, DeclarationsGiveTheDocumentedDefaultsAndRange) {
  const auto params = Game::parameters();
  ASSERT_EQ(params.size(), 5u);
  EXPECT_STREQ(params[0].name, "dimension");
  EXPECT_EQ(params[0].default_int, 8);
  EXPECT_EQ(params[0].min_value, 3);
  EXPECT_EQ(params[0].max_value, 13);
  EXPECT_STREQ(params[1].name, "symmetry_breaking");
  EXPECT_EQ(params[1].default_int, 1);
  EXPECT_STREQ(params[2].name, "policy");
  EXPECT_STREQ(params[2].default_string, "uniform");
  EXPECT_STREQ(params[3].name, "blocked_subcubes");
  EXPECT_STREQ(params[3].default_string, "");
  EXPECT_STREQ(params[4].name, "evaluation");
  EXPECT_STREQ(params[4].default_string, "reachable");
}

} // namespace
} // namespace snake
