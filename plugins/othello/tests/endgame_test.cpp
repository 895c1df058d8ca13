// endgame_test.cpp - perfect play near the end: the rules' solver (perfect_play_outcome, perfect_line)
// against the tests' exhaustive one, and the exact_empties parameter in the CPU playout table, its
// replay, and UCT trees and agents that get exact values from it (solved among the playouts, or apart
// as a device does).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "endgame_solver.hpp"
#include "exact_tree_checks.hpp"
#include "gsdk/core/agents/agents.hpp"
#include "othello_test_support.hpp"
#include "rules/board_text.hpp"
#include "rules/endgame.hpp"

namespace othello {
namespace {

int sign(int v) { return (v > 0) - (v < 0); }

TEST(OthelloEndgame, PerfectPlayOutcomeIsTheSignOfTheExactScore) {
  int checked = 0;
  for (uint32_t empty = 1; empty <= 12; ++empty) {
    for (const Position& p : test::late_positions(100 + empty, empty, 30)) {
      ASSERT_EQ(perfect_play_outcome(p), sign(test::solve(p))) << to_text(p);
      // The same position with the other side to move: it may have to pass, or the game may be over.
      Position other = p;
      pass(other);
      ASSERT_EQ(perfect_play_outcome(other), sign(test::solve(other))) << to_text(other);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 12 * 30);
}

TEST(OthelloEndgame, APerfectLineEndsWithThePerfectPlayOutcome) {
  for (const Position& start : test::late_positions(7, 10, 40)) {
    Position p = start;
    perfect_line(start, [&](uint32_t move) {
      if (move == kPass) {
        ASSERT_EQ(legal_moves(p), 0u) << to_text(start);
        pass(p);
        return;
      }
      ASSERT_NE(legal_moves(p) & square_bit(move), 0u) << to_text(start) << ": " << move_name(move);
      play(p, move);
    });
    ASSERT_TRUE(game_over(p)) << to_text(start);
    const int black = sign(final_score(p));
    EXPECT_EQ(start.side == kBlack ? black : -black, perfect_play_outcome(start)) << to_text(start);
  }
}

TEST(OthelloEndgame, PlayoutsFromSolvedStartsReportPerfectPlayAndOthersStayRandom) {
  const auto exact = test::make_game("standard", 10);
  const auto plain = test::make_game("standard", 0);
  for (const Position& p : test::late_positions(3, 10, 20)) {
    test::Summary s;
    test::run_cpu_playouts(*exact, 5, 1000, 64, &p, s);
    const int black = (p.side == kBlack ? 1 : -1) * perfect_play_outcome(p);
    EXPECT_EQ(s.histogram[64 + black], 64u) << to_text(p);
    EXPECT_EQ(s.s.playouts, 64u);
    EXPECT_EQ(s.s.best_score, black);
    EXPECT_EQ(s.s.best_playout, 1000u);
    // The replay of a solved playout is a perfect game, which the per-state table plays to its end.
    auto state = exact->state_from_string(to_text(p));
    const gsdk_replay& replay = *exact->tables().replay;
    std::vector<uint32_t> moves(128);
    char error[256] = {};
    const uint32_t n = replay.playout_moves(exact->handle(), 5, 1003, state.data(), moves.data(),
                                            static_cast<uint32_t>(moves.size()), error, sizeof error);
    ASSERT_GT(n, 0u) << error;
    for (uint32_t k = 0; k < n; ++k) exact->apply_move(state, moves[k]);
    EXPECT_EQ(exact->current_player(state), GSDK_PLAYER_TERMINAL) << to_text(p);
    EXPECT_EQ(sign(static_cast<int>(exact->score(state))), black) << to_text(p);
  }
  // One more empty square than exact_empties: the random playouts of the plain game.
  for (const Position& p : test::late_positions(4, 11, 5)) {
    test::Summary a, b;
    test::run_cpu_playouts(*exact, 9, 0, 500, &p, a);
    test::run_cpu_playouts(*plain, 9, 0, 500, &p, b);
    EXPECT_EQ(a.histogram, b.histogram) << to_text(p);
    EXPECT_EQ(a.s.best_playout, b.s.best_playout);
  }
}

TEST(OthelloEndgame, ExactEmptiesZeroLeavesAFullBoardToItsDiscCount) {
  // A full board is over: with exact_empties 0 its playouts report the disc count, not an outcome.
  const auto plain = test::make_game("standard", 0);
  const auto full = plain->state_from_string(std::string(40, 'X') + std::string(24, 'O') + " X");
  test::Summary s;
  test::run_cpu_playouts(*plain, 1, 0, 3, full.data(), s);
  EXPECT_EQ(s.histogram[64 + 16], 3u);
}

// With exact values at every child, a UCT agent needs one evaluation per child to find a winning move.
TEST(OthelloEndgame, UctWithExactEndgamesFindsTheWinWithOnePlayoutPerChild) {
  const auto exact = test::make_game("standard", 12);
  gsdk::core::AgentSettings uct;
  uct.kind = gsdk::core::AgentKind::uct;
  uct.evaluate_children = true;
  uct.playouts = 40; // the root's children, and not much more
  int decisive = 0;
  for (const Position& p : test::late_positions(23, 11, 200)) {
    int winning = 0, moves = 0;
    std::vector<std::string> winners;
    for (Bitboard rest = legal_moves(p); rest; rest &= rest - 1, ++moves) {
      Position child = p;
      play(child, lowest_square(rest));
      if (perfect_play_outcome(child) < 0) winners.push_back(move_name(lowest_square(rest)));
    }
    winning = static_cast<int>(winners.size());
    if (winning == 0 || winning == moves) continue;
    const std::string chosen = gsdk::core::choose_move_text(*exact, to_text(p), uct, 3);
    EXPECT_NE(std::find(winners.begin(), winners.end(), chosen), winners.end())
        << to_text(p) << ": chose " << chosen << ", " << winning << " of " << moves << " moves win";
    if (++decisive == 10) break;
  }
  EXPECT_EQ(decisive, 10);
}

// Solves apart as a device does: exact states get random playouts in playout batches and are solved
// only in solve batches, which are ready at every third poll and hold at most 64 states, so exact nodes
// wait for their values across iterations.
class SlowSolvingEvaluator final : public gsdk::core::LeafEvaluator {
public:
  explicit SlowSolvingEvaluator(const gsdk::core::GameInstance& game)
      : random_game_(test::make_game("standard", 0)), random_(gsdk::core::make_cpu_evaluator(*random_game_)),
        solver_(gsdk::core::make_cpu_evaluator(game)) {}

  gsdk::core::WinDrawLoss evaluate(const gsdk::core::StateBlob& state, uint64_t playouts) override {
    return (solving_ ? solver_ : random_)->evaluate(state, playouts);
  }
  bool solve_apart() override { return true; }
  bool solves_apart() const override { return true; }
  uint32_t max_solves() const override { return 64; }
  void start_solves(const std::vector<unsigned char>& packed_states, uint32_t count, uint64_t playouts) override {
    solving_ = true;
    LeafEvaluator::start_solves(packed_states, count, playouts);
    solving_ = false;
  }
  bool solves_ready() override { return ++polls_ % 3 == 0; }
  std::string describe() const override { return "cpu, slow solves apart"; }

private:
  std::unique_ptr<gsdk::core::GameInstance> random_game_; // exact_empties 0: every state played at random
  std::unique_ptr<gsdk::core::LeafEvaluator> random_, solver_;
  bool solving_ = false;
  uint64_t polls_ = 0;
};

std::unique_ptr<gsdk::core::LeafEvaluator> slow_solves(const gsdk::core::GameInstance& game) {
  return std::make_unique<SlowSolvingEvaluator>(game);
}

TEST(OthelloExactTree, SolvedNodesHoldPerfectPlaysValueAndAreNeverExpanded) {
  test::expect_solved_children_hold_exact_values(gsdk::core::make_cpu_evaluator, false);
}

TEST(OthelloExactTree, NodesSolvedApartHoldPerfectPlaysValueAndAreNeverExpanded) {
  test::expect_solved_children_hold_exact_values(slow_solves, true);
}

TEST(OthelloExactTree, ExactValuesThreePliesDownLeadToWinningMoves) {
  EXPECT_EQ(test::winning_moves_found(gsdk::core::make_cpu_evaluator, 20), 20);
}

TEST(OthelloExactTree, ExactValuesSolvedApartThreePliesDownLeadToWinningMoves) {
  EXPECT_EQ(test::winning_moves_found(slow_solves, 20), 20);
}

} // namespace
} // namespace othello
