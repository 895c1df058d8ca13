// search_test.cpp - the core's search agents on Othello endgames, judged by an exact solver: in
// positions with at most 12 empty squares where some moves win and others do not, UCT and alpha-beta must
// choose a winning move (UCT with and without contempt for draws; alpha-beta solving exact states through the
// game's playout table, and by its own search without one), and alpha-beta never lets a won endgame go. The
// solver itself is checked against plain minimax.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "endgame_solver.hpp"
#include "gsdk/core/agents/agents.hpp"
#include "gsdk/core/agents/mcts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "othello_test_support.hpp"
#include "rules/board_text.hpp"

namespace othello {
namespace {

int minimax(const Position& p) {
  const Bitboard moves = legal_moves(p);
  if (moves == 0) {
    if (!opponent_can_move(p)) return p.side == kBlack ? final_score(p) : -final_score(p);
    Position passed = p;
    pass(passed);
    return -minimax(passed);
  }
  int best = -65;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    Position child = p;
    play(child, lowest_square(rest));
    best = std::max(best, -minimax(child));
  }
  return best;
}

TEST(OthelloEndgameSolver, AgreesWithPlainMinimax) {
  for (const Position& p : test::late_positions(5, 8, 25)) EXPECT_EQ(test::solve(p), minimax(p)) << to_text(p);
}

// The exact value of each move, from the mover's view.
std::vector<std::pair<uint32_t, int>> move_values(const Position& p) {
  std::vector<std::pair<uint32_t, int>> values;
  for (Bitboard rest = legal_moves(p); rest; rest &= rest - 1) {
    Position child = p;
    play(child, lowest_square(rest));
    values.emplace_back(lowest_square(rest), -test::solve(child));
  }
  return values;
}

// UCT with `batch` leaves per iteration must choose a winning move in 12 decisive endgames.
void expect_uct_wins_decisive_endgames(uint32_t batch, double draw_value = 0.5) {
  const auto owner = test::make_game();
  const gsdk::core::GameInstance& game = *owner;
  gsdk::core::AgentSettings uct;
  uct.kind = gsdk::core::AgentKind::uct;
  uct.playouts = 30000;
  uct.leaf = 4;
  uct.batch = batch;
  uct.draw_value = draw_value;
  int decisive = 0;
  for (const Position& p : test::late_positions(17, 12, 400)) {
    const auto values = move_values(p);
    int winning = 0;
    for (const auto& [move, value] : values) winning += value > 0;
    if (winning == 0 || winning == static_cast<int>(values.size())) continue; // no decision to get right
    ++decisive;
    const std::string chosen = gsdk::core::choose_move_text(game, to_text(p), uct, 99);
    int chosen_value = -65;
    for (const auto& [move, value] : values)
      if (move_name(move) == chosen) chosen_value = value;
    EXPECT_GT(chosen_value, 0) << to_text(p) << ": UCT (batch " << batch << ") chose " << chosen << " (exact value "
                               << chosen_value << "), " << winning << " of " << values.size() << " moves win";
    if (decisive == 12) break;
  }
  EXPECT_EQ(decisive, 12) << "too few decisive positions among the samples";
}

TEST(OthelloSearch, UctChoosesAWinningMoveInDecisiveEndgames) { expect_uct_wins_decisive_endgames(1); }

// Leaves selected 32 at a time under virtual loss, as a GPU evaluates them.
TEST(OthelloSearch, BatchedUctChoosesAWinningMoveInDecisiveEndgames) { expect_uct_wins_decisive_endgames(32); }

// Contempt must not cost wins: a draw worth a quarter still leaves a win worth more.
TEST(OthelloSearch, UctWithContemptChoosesAWinningMoveInDecisiveEndgames) { expect_uct_wins_decisive_endgames(1, 0.25); }

// Alpha-beta at depth 1 decides only through exact values: from exact_empties on the game's solver via one
// playout, without it (depth 100) its own search to the end.
void expect_alphabeta_wins_decisive_endgames(uint32_t empty, int64_t exact_empties, uint32_t depth) {
  const auto owner = test::make_game("standard", exact_empties);
  gsdk::core::AgentSettings alphabeta;
  alphabeta.kind = gsdk::core::AgentKind::alphabeta;
  alphabeta.depth = depth;
  int decisive = 0;
  for (const Position& p : test::late_positions(23, empty, 400)) {
    const auto values = move_values(p);
    int winning = 0;
    for (const auto& [move, value] : values) winning += value > 0;
    if (winning == 0 || winning == static_cast<int>(values.size())) continue;
    ++decisive;
    const std::string chosen = gsdk::core::choose_move_text(*owner, to_text(p), alphabeta, 1);
    int chosen_value = -65;
    for (const auto& [move, value] : values)
      if (move_name(move) == chosen) chosen_value = value;
    EXPECT_GT(chosen_value, 0) << to_text(p) << ": alpha-beta chose " << chosen << " (exact value " << chosen_value
                               << "), " << winning << " of " << values.size() << " moves win";
    if (decisive == 12) break;
  }
  EXPECT_EQ(decisive, 12) << "too few decisive positions among the samples";
}

TEST(OthelloSearch, AlphaBetaSolvesDecisiveEndgamesThroughThePlayoutTable) {
  expect_alphabeta_wins_decisive_endgames(12, 12, 1);
}

TEST(OthelloSearch, AlphaBetaSolvesDecisiveEndgamesByItsOwnSearch) {
  expect_alphabeta_wins_decisive_endgames(9, 0, 100);
}

// From a won position with 14 empties, alpha-beta (exact_empties=14, a shallow bound) keeps the win whatever the
// opponent plays: after each of its moves the exact solver still gives its side the win.
TEST(OthelloSearch, AWonEndgameStaysWonUnderAlphaBeta) {
  const auto owner = test::make_game("standard", 14);
  const gsdk::core::GameInstance& game = *owner;
  gsdk::core::AgentSettings alphabeta;
  alphabeta.kind = gsdk::core::AgentKind::alphabeta;
  alphabeta.depth = 2;
  std::mt19937_64 opponent_choice(5);
  int games = 0;
  for (const Position& start : test::late_positions(31, 14, 40)) {
    if (test::solve(start) <= 0) continue;
    const auto agent = gsdk::core::make_agent(game, alphabeta);
    agent->new_game(1);
    const uint32_t winner = start.side;
    Position p = start;
    while (!game_over(p)) {
      const Bitboard moves = legal_moves(p);
      if (!moves) {
        pass(p);
        continue;
      }
      uint32_t square = 0;
      if (p.side == winner) {
        const gsdk::core::StateBlob state = game.state_from_string(to_text(p));
        square = agent->choose_move(state);
        ASSERT_TRUE(moves & square_bit(square)) << to_text(p) << ": alpha-beta played an illegal " << square;
      } else {
        square = nth_square(moves, static_cast<uint32_t>(opponent_choice() % gsdk::bits::popcount64(moves)));
      }
      play(p, square);
      if (game_over(p)) break;
      const int for_winner = p.side == winner ? test::solve(p) : -test::solve(p);
      ASSERT_GT(for_winner, 0) << "from " << to_text(start) << ": the win was lost at " << to_text(p);
    }
    const int final_for_winner = winner == kBlack ? final_score(p) : -final_score(p);
    EXPECT_GT(final_for_winner, 0) << to_text(start);
    if (++games == 4) break;
  }
  EXPECT_EQ(games, 4) << "too few won positions among the samples";
}

// One empty square whose move ends the game 32-32: every visit of the root's only child is a draw,
// worth draw_value to the root's player and the rest to the other.
TEST(OthelloSearch, DrawsCountAtTheRootPlayersDrawValue) {
  const auto owner = test::make_game();
  const gsdk::core::GameInstance& game = *owner;
  int checked = 0;
  for (const Position& p : test::late_positions(5, 1, 3000)) {
    Position after = p;
    play(after, lowest_square(legal_moves(p)));
    if (!game_over(after) || final_score(after) != 0) continue;
    gsdk::core::TreeSettings settings{0.7, 4, 1000};
    settings.draw_value = 0.2;
    gsdk::core::SearchTree tree(game, gsdk::core::make_cpu_evaluator(game), settings);
    tree.reset(1);
    tree.set_root(game.state_from_string(to_text(p)));
    for (int i = 0; i < 5; ++i) tree.iterate();
    const auto children = tree.root_children();
    ASSERT_EQ(children.size(), 1u) << to_text(p);
    ASSERT_EQ(children[0].visits, 20u);
    const double player0_draw = p.side == kBlack ? 0.2 : 0.8; // Black is player 0
    EXPECT_DOUBLE_EQ(children[0].points, 20 * player0_draw) << to_text(p);
    if (++checked == 4) break;
  }
  EXPECT_EQ(checked, 4) << "too few drawn last moves among the samples";
}

} // namespace
} // namespace othello
