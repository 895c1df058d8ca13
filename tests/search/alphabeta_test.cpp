// alphabeta_test.cpp - the generic alpha-beta agent on test_tictactoe, a game that brings an evaluation and an
// exact range but no search code: its depth-bounded value equals a brute-force minimax's, with the
// transposition table on or off; it takes a forced win and never loses tic-tac-toe; the exact range solves from
// any depth bound; a depth bound plays the same move every time; a time bound is honoured; bad spec keys and
// games without the evaluation table are refused with messages.
#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>

#include "gsdk/core/agents/agents.hpp"
#include "play/agent_spec.hpp"
#include "minimax_reference.hpp"
#include "tictactoe_fixture.hpp"

namespace {

using gsdk::core::AgentSettings;
using gsdk::core::GameInstance;
using gsdk::core::StateBlob;
using gsdk::test::losses_against_random;
using gsdk::test::minimax;

class AlphaBeta : public gsdk::test::TicTacToeSearchTest {};

AgentSettings alphabeta(const std::string& options) {
  return gsdk::host::parse_agent_spec("alphabeta:" + options);
}

int64_t searched_value(const GameInstance& game, const StateBlob& state, const std::string& options) {
  const auto agent = gsdk::core::make_agent(game, alphabeta(options));
  agent->new_game(1);
  agent->choose_move(state);
  return agent->last_move().value;
}

const char* const kPositions[] = {".........  X", "X...O....  X", "XO..X...O  X", "XX.OO....  X", "X.O.O.X..  X"};

StateBlob position(const GameInstance& game, const std::string& text) {
  std::string trimmed = text;
  trimmed.erase(std::remove(trimmed.begin(), trimmed.end(), ' '), trimmed.end());
  return game.state_from_string(trimmed.substr(0, trimmed.size() - 1) + " " + trimmed.back());
}

TEST_F(AlphaBeta, DepthBoundedValueIsBruteForceMinimaxWithAndWithoutTheTable) {
  const auto game = tictactoe();
  for (const char* text : kPositions)
    for (int depth : {1, 2, 3, 4}) {
      const StateBlob s = position(*game, text);
      const int64_t truth = minimax(*game, s, game->current_player(s), depth);
      const std::string bound = "depth=" + std::to_string(depth);
      EXPECT_EQ(searched_value(*game, s, bound), truth) << text << " " << bound;
      EXPECT_EQ(searched_value(*game, s, bound + ",tt_mb=0"), truth) << text << " " << bound << " without a table";
    }
}

TEST_F(AlphaBeta, TakesAForcedWin) {
  const auto game = tictactoe();
  // X to move: 2 completes the top row; O threatens 5 as well, so only the win counts.
  const StateBlob s = position(*game, "XX.OO.... X");
  EXPECT_EQ(game->move_to_string(s, gsdk::core::make_agent(*game, alphabeta("depth=2"))->choose_move(s)), "2");
  // O to move must block X's top row at 2 or lose; at depth 3 alpha-beta sees it.
  const StateBlob block = position(*game, "XX..O.... O");
  EXPECT_EQ(game->move_to_string(block, gsdk::core::make_agent(*game, alphabeta("depth=3"))->choose_move(block)), "2");
}

TEST_F(AlphaBeta, NeverLosesTicTacToe) {
  const auto game = tictactoe();
  EXPECT_EQ(losses_against_random(*game, alphabeta("depth=9"), 20), 0);
  EXPECT_EQ(searched_value(*game, game->initial_state(), "depth=9"), 0) << "tic-tac-toe is a draw";
}

TEST_F(AlphaBeta, TheExactRangeIsSolvedWhateverTheDepthBound) {
  const auto game = tictactoe(toml::table{{"exact_empties", 9}});
  EXPECT_EQ(searched_value(*game, game->initial_state(), "depth=1"), 0) << "solved: a draw, not an evaluation";
  EXPECT_EQ(losses_against_random(*game, alphabeta("depth=1"), 20), 0);
  const auto shallow = tictactoe();
  EXPECT_GT(losses_against_random(*shallow, alphabeta("depth=1"), 40) +
                (searched_value(*shallow, shallow->initial_state(), "depth=1") != 0),
            0)
      << "without the exact range, depth 1 sees only an evaluation";
}

TEST_F(AlphaBeta, ADepthBoundPlaysTheSameMoveEveryTime) {
  const auto game = tictactoe(toml::table{{"board_size", 4}});
  const StateBlob s = game->initial_state();
  const std::string first = gsdk::core::choose_move_text(*game, game->state_to_string(s), alphabeta("depth=4"), 1);
  for (uint64_t seed : {2, 3, 4})
    EXPECT_EQ(gsdk::core::choose_move_text(*game, game->state_to_string(s), alphabeta("depth=4"), seed), first);
}

TEST_F(AlphaBeta, ATimeBoundEndsTheSearch) {
  const auto game = tictactoe(toml::table{{"board_size", 5}});
  const auto agent = gsdk::core::make_agent(*game, alphabeta("time=0.05"));
  agent->new_game(1);
  const StateBlob s = game->initial_state();
  const uint32_t move = agent->choose_move(s);
  EXPECT_LT(move, 25u);
  EXPECT_GE(agent->last_move().depth, 1u);
  EXPECT_LT(agent->last_move().depth, 25u) << "a 5x5 board cannot be searched to its end in 50 ms";
  EXPECT_LT(agent->last_move().seconds, 1.0);
}

void expect_spec_refused(const std::string& spec, const std::string& part) {
  try {
    gsdk::host::parse_agent_spec(spec);
    ADD_FAILURE() << spec << " was accepted";
  } catch (const gsdk::host::AgentSpecError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST_F(AlphaBeta, BadSpecsAndGamesWithoutAnEvaluationAreRefused) {
  expect_spec_refused("alphabeta:depth=0", "depth must be an integer from 1 to 1000, got '0'");
  expect_spec_refused("alphabeta:tt_mb=lots", "tt_mb must be an integer");
  expect_spec_refused("alphabeta:playouts=5", "unknown key 'playouts' for alphabeta");
  expect_spec_refused("alphabeta:depth=3,depth=4", "key 'depth' is given twice");
  EXPECT_EQ(gsdk::host::parse_agent_spec("alphabeta").seconds, 1.0);
  EXPECT_EQ(gsdk::host::parse_agent_spec("alphabeta:depth=5").seconds, 0.0);
  try {
    gsdk::core::make_agent(*nim(), alphabeta("depth=3"));
    ADD_FAILURE() << "test_nim has no evaluation table";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("game 'test_nim' has no evaluation table (gsdk.evaluation.v1)"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
