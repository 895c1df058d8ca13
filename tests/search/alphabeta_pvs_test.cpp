// alphabeta_pvs_test.cpp - the alpha-beta agent's principal variation search, move ordering and clock: at a fixed
// depth its value is plain minimax's on 4x4 tic-tac-toe and on Othello middlegames (null windows, re-searches,
// the history heuristic change how fast, never what), its move is worth that value (it may differ
// from another search's only among moves of equal value), the ordering it carries from move to move through a game
// changes no value, and a game clock's budget ends a move's search however much deeper it could go.
#include <random>

#include <gtest/gtest.h>

#include "gsdk/core/agents/agents.hpp"
#include "minimax_reference.hpp"
#include "play/agent_spec.hpp"
#include "tictactoe_fixture.hpp"

namespace {

using gsdk::core::GameInstance;
using gsdk::core::StateBlob;
using gsdk::test::minimax;
using gsdk::test::move_value;

class AlphaBetaPvs : public gsdk::test::TicTacToeSearchTest {
protected:
  static std::unique_ptr<GameInstance> othello() {
    catalog_->load_file(gsdk::test::plugin_dir() / "othello.so");
    return make("othello");
  }
};

std::unique_ptr<gsdk::core::Agent> alphabeta(const GameInstance& game, const std::string& options) {
  auto agent = gsdk::core::make_agent(game, gsdk::host::parse_agent_spec("alphabeta:" + options));
  agent->new_game(1);
  return agent;
}

// A state `plies` uniformly random moves into a game (seeded), or the last state before its end.
StateBlob random_position(const GameInstance& game, int plies, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint32_t> moves(game.max_moves());
  StateBlob s = game.initial_state();
  for (int ply = 0; ply < plies; ++ply) {
    const uint32_t n = game.checked_legal_moves(s, moves);
    StateBlob next = s;
    game.apply_move(next, moves[random() % n]);
    if (game.current_player(next) == GSDK_PLAYER_TERMINAL) break;
    s = next;
  }
  return s;
}

// The agent's value at `depth` is minimax's, and its move is worth that value.
void expect_minimax_value_and_move(const GameInstance& game, const StateBlob& s, int depth, const std::string& extra) {
  const auto agent = alphabeta(game, "depth=" + std::to_string(depth) + extra);
  const uint32_t move = agent->choose_move(s);
  const int32_t player = game.current_player(s);
  const int64_t truth = minimax(game, s, player, depth);
  const std::string where = game.state_to_string(s) + " depth " + std::to_string(depth) + extra;
  EXPECT_EQ(agent->last_move().value, truth) << where;
  EXPECT_EQ(move_value(game, s, player, move, depth), truth) << where << ": the move played is worth less";
}

TEST_F(AlphaBetaPvs, ValueIsMinimaxOnFourByFourTicTacToe) {
  const auto game = tictactoe(toml::table{{"board_size", 4}});
  for (uint64_t seed = 0; seed < 6; ++seed)
    for (int depth : {2, 3, 4, 5})
      for (const char* extra : {"", ",tt_mb=0"})
        expect_minimax_value_and_move(*game, random_position(*game, 4 + static_cast<int>(seed), seed), depth, extra);
}

TEST_F(AlphaBetaPvs, ValueIsMinimaxOnOthelloMiddlegames) {
  const auto game = othello();
  for (uint64_t seed = 0; seed < 6; ++seed)
    for (int depth : {2, 3, 4})
      expect_minimax_value_and_move(*game, random_position(*game, 10 + 3 * static_cast<int>(seed), seed), depth, "");
}

// One agent plays a whole Othello game against itself: the table and history it carries from move to move
// order its later searches, and each value is still minimax's.
TEST_F(AlphaBetaPvs, OrderingCarriedThroughAGameChangesNoValue) {
  const auto game = othello();
  const auto agent = alphabeta(*game, "depth=3");
  StateBlob s = random_position(*game, 4, 7);
  int moves = 0;
  while (game->current_player(s) >= 0) {
    const uint32_t move = agent->choose_move(s);
    EXPECT_EQ(agent->last_move().value, minimax(*game, s, game->current_player(s), 3)) << game->state_to_string(s);
    agent->observe_move(s, move);
    game->apply_move(s, move);
    ++moves;
  }
  EXPECT_GE(moves, 40) << "an Othello game from 4 plies in lasts about 56 more";
}

// A clock's budget of 0.05 s (set_move_time, as GTP gives it) replaces the spec's 10 s: the search of a 5x5 board,
// far from its end, stops within it (a generous bound: a loaded machine may add a scheduling delay).
TEST_F(AlphaBetaPvs, AClockBudgetEndsTheSearch) {
  const auto game = tictactoe(toml::table{{"board_size", 5}});
  const auto agent = alphabeta(*game, "time=10");
  agent->set_move_time(0.05);
  const uint32_t move = agent->choose_move(game->initial_state());
  EXPECT_LT(move, 25u);
  EXPECT_GE(agent->last_move().depth, 1u);
  EXPECT_LT(agent->last_move().seconds, 1.0) << "the spec's 10 s a move was replaced by the clock's 0.05 s";
}

} // namespace
