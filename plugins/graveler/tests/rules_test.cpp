// rules_test.cpp - graveler's per-state rules (graveler::Game): parameters, chance nodes with four
// faces of probability 1/4, terminal after `rolls` rolls, scoring, text round trips, and
// state_from_string / cpu_playouts errors that name the problem.
#include <gtest/gtest.h>

#include "cpu/battles_cpu.hpp"
#include "graveler_game.hpp"
#include "graveler_test_util.hpp"

namespace {

using gsdk::PluginError;

using graveler::test::make_game;

std::string error_of(const graveler::Game& game, const std::string& text) {
  try {
    game.state_from_string(text);
  } catch (const PluginError& e) {
    EXPECT_EQ(e.status(), GSDK_ERR_INVALID_ARGUMENT);
    return e.what();
  }
  ADD_FAILURE() << "'" << text << "' was accepted";
  return "";
}

TEST(GravelerRules, ParametersAreDeclaredAndChecked) {
  const auto params = graveler::Game::parameters();
  ASSERT_EQ(params.size(), 1u);
  EXPECT_STREQ(params[0].name, "rolls");
  EXPECT_EQ(params[0].type, GSDK_PARAM_INT);
  EXPECT_EQ(params[0].default_int, 231);
  EXPECT_EQ(params[0].min_value, 1);
  EXPECT_EQ(params[0].max_value, graveler::kMaxRolls);
  try {
    make_game(0);
    FAIL() << "rolls = 0 accepted";
  } catch (const PluginError& e) {
    EXPECT_STREQ(e.what(), "rolls = 0 is out of range [1, 1024]");
  }
  EXPECT_THROW(make_game(1025), PluginError);
  EXPECT_THROW(graveler::Game(gsdk::Params(nullptr, 0)), PluginError) << "the host must pass rolls";
}

TEST(GravelerRules, ChanceNodesUntilTheLastRoll) {
  const graveler::Game game = make_game(10);
  EXPECT_EQ(game.max_moves(), 4u);
  EXPECT_EQ(game.score_range(), (std::pair<int64_t, int64_t>{0, 10}));
  graveler::State s;
  game.initial_state(s);
  EXPECT_EQ(s.rolls_done, 0);
  EXPECT_EQ(s.ones, 0);
  const uint32_t faces[10] = {1, 2, 3, 4, 1, 1, 4, 3, 2, 1};
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(game.current_player(s), GSDK_PLAYER_CHANCE);
    uint32_t moves[4] = {};
    double p[4] = {};
    ASSERT_EQ(game.legal_moves(s, moves, p), 4u);
    EXPECT_EQ(std::vector<uint32_t>(moves, moves + 4), (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_DOUBLE_EQ(p[0] + p[1] + p[2] + p[3], 1.0);
    for (double x : p) EXPECT_DOUBLE_EQ(x, 0.25);
    game.apply_move(s, faces[i]);
  }
  EXPECT_EQ(game.current_player(s), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(game.score(s), 4) << "four 1s were rolled";
  uint32_t moves[4];
  EXPECT_EQ(game.legal_moves(s, moves, nullptr), 0u);
}

TEST(GravelerRules, TextRoundTrip) {
  const graveler::Game game = make_game(231);
  const graveler::State s{117, 30};
  EXPECT_EQ(game.state_to_string(s), "rolls=117 ones=30");
  const graveler::State back = game.state_from_string(game.state_to_string(s));
  EXPECT_EQ(back.rolls_done, 117);
  EXPECT_EQ(back.ones, 30);
  EXPECT_EQ(game.state_from_string("  rolls=231 ones=231  ").ones, 231) << "surrounding blanks are fine";
  EXPECT_EQ(game.move_to_string(s, 3), "3");
}

TEST(GravelerRules, StateFromStringErrorsNameTheProblem) {
  const graveler::Game game = make_game(231);
  EXPECT_EQ(error_of(game, "hello"), "graveler state 'hello': expected 'rolls=R ones=O'");
  EXPECT_EQ(error_of(game, "rolls=3"), "graveler state 'rolls=3': expected 'rolls=R ones=O'");
  EXPECT_EQ(error_of(game, "rolls=3 ones=1 extra"), "graveler state 'rolls=3 ones=1 extra': expected 'rolls=R ones=O'");
  EXPECT_EQ(error_of(game, "rolls=300 ones=0"), "graveler state 'rolls=300 ones=0': rolls=300 exceeds the game's 231 rolls");
  EXPECT_EQ(error_of(game, "rolls=5 ones=6"), "graveler state 'rolls=5 ones=6': ones=6 exceeds rolls=5");
  EXPECT_TRUE(error_of(game, "rolls=-1 ones=0").find("exceeds") != std::string::npos);
}

TEST(GravelerRules, BatchRefusesAMisSizedHistogram) {
  const graveler::Game game = make_game(231);
  graveler::test::Summary s(10);
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  r.playout_count = 5;
  try {
    game.cpu_playouts(r, s.s);
    FAIL() << "accepted a 10-bin histogram";
  } catch (const PluginError& e) {
    EXPECT_STREQ(e.what(), "summary histogram has 10 bins, graveler needs 232");
  }
  EXPECT_EQ(s.s.playouts, 0u);
}

TEST(GravelerRules, BatchRefusesAnImpossibleStartState) {
  const graveler::Game game = make_game(50);
  graveler::test::Summary s(51);
  const graveler::State bad{60, 0};
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  r.playout_count = 5;
  r.start_state = &bad;
  try {
    game.cpu_playouts(r, s.s);
    FAIL() << "accepted rolls=60 in a 50-roll game";
  } catch (const PluginError& e) {
    EXPECT_STREQ(e.what(), "start state rolls=60 ones=0 is not a graveler state");
  }
}

TEST(GravelerRules, ExactDistributionRefusesWrongBinCount) {
  const graveler::Game game = make_game(20);
  std::vector<double> p(20);
  EXPECT_THROW(game.exact_score_distribution(p.data(), 20), PluginError);
}

TEST(GravelerRules, BestSimdLevelIsTheDispatchers) {
  EXPECT_EQ(graveler::Game::best_simd_level(), graveler::cpu::best_simd_level());
}

} // namespace
