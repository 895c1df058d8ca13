// uct_evaluation_test.cpp - UCT whose leaves are valued by the game's evaluation (leaf_value=eval) or by it after a
// few random plies (leaf_value=cutoff:K), on test_tictactoe, a game that brings an evaluation but no search code:
// a leaf's value is the logistic of the evaluation for its mover, exact states keep their exact outcome, the agent
// takes a win and blocks a loss, never loses to random play, plays a playout budget the same way for a seed and
// any thread count; games without the evaluation table, bad keys and combinations are refused with messages.
// The CUDA case (othello's cuda_evaluate agrees with the CPU's evaluation in a search) skips without a GPU.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/agents/agents.hpp"
#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "play/agent_spec.hpp"
#include "tictactoe_fixture.hpp"

namespace {

using gsdk::core::AgentSettings;
using gsdk::core::GameInstance;
using gsdk::core::StateBlob;
using gsdk::test::losses_against_random;

class UctEvaluation : public gsdk::test::TicTacToeSearchTest {};

AgentSettings uct(const std::string& options) {
  return gsdk::host::parse_agent_spec("uct:" + options);
}

int32_t evaluation_of(const GameInstance& game, const StateBlob& state) {
  int32_t value = 0;
  char error[256] = {};
  EXPECT_EQ(game.tables().evaluation->evaluate(game.handle(), state.data(), 1, &value, error, sizeof error), GSDK_OK)
      << error;
  return value;
}

TEST_F(UctEvaluation, ALeafIsWorthTheLogisticOfItsEvaluationToItsMover) {
  const auto game = tictactoe();
  const double unit = 2;
  const auto evaluator = gsdk::core::make_evaluation_leaf_evaluator(*game, 0, unit);
  evaluator->reseed(1);
  for (const char* text : {"X...O.... X", "X...O...X O", "XX..O.... O"}) {
    const StateBlob s = game->state_from_string(text);
    const int32_t value = evaluation_of(*game, s);
    const double reward = 1 / (1 + std::exp(-value / unit));
    const double for_player0 = game->current_player(s) == 0 ? reward : 1 - reward;
    const gsdk::core::WinDrawLoss r = evaluator->evaluate(s, 1);
    EXPECT_EQ(r.valued, 1u) << text;
    EXPECT_EQ(r.playouts(), 1u) << text;
    EXPECT_DOUBLE_EQ(r.points(), for_player0) << text << " evaluates to " << value;
  }
  // A batch is exactly its states alone, and a cutoff's plies end at a finished game with its outcome.
  const StateBlob won = game->state_from_string("XX.OO.... X");
  const auto cutoff = gsdk::core::make_evaluation_leaf_evaluator(*game, 9, unit);
  cutoff->reseed(2);
  const gsdk::core::WinDrawLoss played = cutoff->evaluate(won, 50);
  EXPECT_EQ(played.valued, 0u) << "nine plies finish every game from five empties";
  EXPECT_EQ(played.playouts(), 50u);
  EXPECT_GT(played.wins, 0u);
}

// Othello's CPU playouts solve its exact range (exact_empties), as gsdk.exact_states.v1 promises; test_tictactoe's
// exact range is only alpha-beta's (its playouts stay random), so it cannot show this.
TEST_F(UctEvaluation, ExactStatesKeepTheirExactOutcome) {
  catalog_->load_file(gsdk::test::plugin_dir() / "othello.so");
  const auto game = make("othello", toml::table{{"exact_empties", 10}});
  StateBlob s = game->initial_state();
  std::vector<uint32_t> moves(game->max_moves());
  while (game->current_player(s) >= 0 && !game->is_exact(s.data()))
    game->apply_move(s, moves[game->checked_legal_moves(s, moves) - 1]);
  ASSERT_GE(game->current_player(s), 0) << "the game ended before its exact range";
  const auto evaluator = gsdk::core::make_evaluation_leaf_evaluator(*game, 0, 1);
  const auto playouts = gsdk::core::make_cpu_evaluator(*game);
  evaluator->reseed(3);
  playouts->reseed(3);
  const gsdk::core::WinDrawLoss r = evaluator->evaluate(s, 4), solved = playouts->evaluate(s, 4);
  EXPECT_EQ(r.valued, 0u) << "an exact state is never evaluated";
  EXPECT_EQ(std::max({r.wins, r.draws, r.losses}), 4u) << "every playout reports the one exact outcome";
  EXPECT_EQ(r.wins, solved.wins);
  EXPECT_EQ(r.draws, solved.draws);
  const auto cutoff = gsdk::core::make_evaluation_leaf_evaluator(*game, 3, 1);
  cutoff->reseed(3);
  EXPECT_EQ(cutoff->evaluate(s, 4).valued, 0u) << "nor cut short";
}

TEST_F(UctEvaluation, TakesTheWinAndBlocksTheLoss) {
  const auto game = tictactoe();
  for (const char* options : {"playouts=400,leaf_value=eval", "playouts=400,leaf_value=cutoff:2,leaf=2",
                              "playouts=400,leaf_value=eval,eval_unit=3"}) {
    // X to move: 2 completes the top row (O threatens 5 as well).
    EXPECT_EQ(gsdk::core::choose_move_text(*game, "XX.OO.... X", uct(options), 1), "2") << options;
    // O to move must block X's top row at 2.
    EXPECT_EQ(gsdk::core::choose_move_text(*game, "XX..O.... O", uct(options), 1), "2") << options;
  }
}

TEST_F(UctEvaluation, NeverLosesTicTacToeToRandomPlay) {
  const auto game = tictactoe();
  EXPECT_EQ(losses_against_random(*game, uct("playouts=2000,leaf_value=eval"), 20), 0);
  EXPECT_EQ(losses_against_random(*game, uct("playouts=2000,leaf_value=cutoff:3"), 20), 0);
}

// The moves of one game of the agent against itself from the empty board.
std::vector<uint32_t> self_play(const GameInstance& game, const AgentSettings& settings, uint64_t seed) {
  const auto agent = gsdk::core::make_agent(game, settings);
  agent->new_game(seed);
  std::vector<uint32_t> moves;
  StateBlob s = game.initial_state();
  while (game.current_player(s) >= 0) {
    const StateBlob before = s;
    moves.push_back(agent->choose_move(s));
    agent->observe_move(before, moves.back());
    game.apply_move(s, moves.back());
  }
  return moves;
}

TEST_F(UctEvaluation, APlayoutBudgetIsPlayedTheSameWayForASeedAndAnyThreadCount) {
  const auto game = tictactoe(toml::table{{"board_size", 4}});
  for (const char* value : {"eval", "cutoff:3"}) {
    const std::string options = std::string("playouts=1500,roots=3,leaf_value=") + value;
    const auto first = self_play(*game, uct(options + ",threads=1"), 7);
    EXPECT_EQ(self_play(*game, uct(options + ",threads=1"), 7), first) << value;
    EXPECT_EQ(self_play(*game, uct(options + ",threads=3"), 7), first) << value << ": 3 threads";
  }
}

void expect_spec_refused(const std::string& spec, const std::string& part) {
  try {
    gsdk::host::parse_agent_spec(spec);
    ADD_FAILURE() << spec << " was accepted";
  } catch (const gsdk::host::AgentSpecError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

void expect_agent_refused(const GameInstance& game, const AgentSettings& settings, const std::string& part) {
  try {
    gsdk::core::make_agent(game, settings);
    ADD_FAILURE() << "the agent was made";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST_F(UctEvaluation, BadValuesAndGamesWithoutAnEvaluationAreRefused) {
  expect_spec_refused("uct:leaf_value=fast",
                      "leaf_value must be playout, eval or cutoff:K (K random plies, then the evaluation), got 'fast'");
  expect_spec_refused("uct:leaf_value=cutoff:0",
                      "the plies K of leaf_value=cutoff:K must be an integer from 1 to 1000, "
                      "got '0'");
  expect_spec_refused("uct:leaf_value=cutoff:", "the plies K of leaf_value=cutoff:K must be an integer");
  expect_spec_refused("uct:leaf_value=eval,eval_unit=0",
                      "eval_unit must be a number above 0 and at most 16777216, got '0'");
  expect_spec_refused("uct:leaf_value=eval,eval_unit=steep", "eval_unit must be a number above 0");
  expect_spec_refused("uct:eval_unit=3", "eval_unit scales the evaluation of leaves: give it with leaf_value=eval or "
                                         "cutoff:K");
  expect_spec_refused("flatmc:leaf_value=eval", "unknown key 'leaf_value' for flatmc");
  EXPECT_EQ(uct("leaf_value=playout").leaf_value, gsdk::core::LeafValue::playout);
  EXPECT_EQ(uct("leaf_value=cutoff:5").cutoff_plies, 5u);
  EXPECT_EQ(uct("device=cuda,leaf_value=eval").leaf, 1u) << "an evaluated leaf is one evaluation, also on a GPU";

  expect_agent_refused(*nim(), uct("playouts=10,leaf_value=eval"),
                       "game 'test_nim' has no evaluation table (gsdk.evaluation.v1): leaf_value=eval needs one");
  expect_agent_refused(*nim(), uct("playouts=10,leaf_value=cutoff:4"), "leaf_value=cutoff:4 needs one");
  const auto game = tictactoe();
  expect_agent_refused(*game, uct("playouts=10,leaf_value=eval,leaf=4"),
                       "leaf_value=eval values a leaf by one evaluation; leaf must be 1, got 4");
  expect_agent_refused(*game, uct("playouts=10,leaf_value=eval,device=cuda"),
                       "game 'test_tictactoe' has no CUDA evaluation (cuda_evaluate in gsdk.evaluation.v1)");
}

// On a device the evaluations of a batch run in one cuda_evaluate launch and must equal the CPU's, so the search
// and its move are the same. Othello brings the CUDA evaluation; a build of it without one skips.
TEST_F(UctEvaluation, CudaEvaluationPlaysTheCpuMove) {
  GSDK_REQUIRE_GPU();
  catalog_->load_file(gsdk::test::plugin_dir() / "othello.so");
  const auto game = make("othello");
  if (!game->tables().evaluation || !game->tables().evaluation->cuda_evaluate)
    GTEST_SKIP() << "this othello plugin has no cuda_evaluate";
  StateBlob s = game->initial_state();
  std::vector<uint32_t> moves(game->max_moves());
  for (int ply = 0; ply < 10; ++ply) game->apply_move(s, moves[game->checked_legal_moves(s, moves) / 2]);
  const std::string text = game->state_to_string(s);
  for (const char* value : {"eval", "cutoff:4"}) {
    // Every key a device changes the default of is given, so the two searches differ in the device alone.
    const std::string options =
        std::string("playouts=3000,leaf=1,batch=64,inflight=2,evaluate=children,leaf_value=") + value;
    EXPECT_EQ(gsdk::core::choose_move_text(*game, text, uct(options + ",device=cuda"), 5),
              gsdk::core::choose_move_text(*game, text, uct(options), 5))
        << value;
  }
}

} // namespace
