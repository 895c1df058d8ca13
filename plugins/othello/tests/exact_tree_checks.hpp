// exact_tree_checks.hpp - checks of UCT trees over othello with exact endgames (exact_empties), shared by
// the CPU tests and the CUDA tests: solved nodes hold perfect play's value and are never expanded, and a
// tree whose exact values lie a few plies down finds winning moves, whichever way its evaluator solves.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "gsdk/core/agents/mcts.hpp"
#include "othello_test_support.hpp"
#include "rules/board_text.hpp"

namespace othello::test {

using EvaluatorMaker = std::function<std::unique_ptr<gsdk::core::LeafEvaluator>(const gsdk::core::GameInstance&)>;

// Player 0's (black's) points per playout of a child solved by perfect play.
inline double black_points(const Position& child) {
  const int32_t outcome = perfect_play_outcome(child);
  const int32_t black = child.side == kBlack ? outcome : -outcome;
  return black > 0 ? 1.0 : black == 0 ? 0.5 : 0.0;
}

inline gsdk::core::TreeSettings exact_tree_settings() {
  gsdk::core::TreeSettings settings{0.7, 4, 1u << 20};
  settings.batch = 8;
  settings.in_flight = 2;
  settings.evaluate_children = true;
  return settings;
}

// A tree from `p` grown for `iterations` iterations (seed `seed`) and settled.
inline std::unique_ptr<gsdk::core::SearchTree> grown_tree(const gsdk::core::GameInstance& game,
                                                          const EvaluatorMaker& make_evaluator, const Position& p,
                                                          int iterations, uint64_t seed) {
  auto tree = std::make_unique<gsdk::core::SearchTree>(game, make_evaluator(game), exact_tree_settings());
  tree->reset(seed);
  tree->set_root(game.state_from_string(to_text(p)));
  for (int i = 0; i < iterations; ++i) tree->iterate();
  tree->settle();
  return tree;
}

// Roots with 11 empty squares under exact_empties 10: every child is exact, so the tree is the root and
// its children however long it runs, and each solved child's statistics are its exact value, playout by
// playout. An evaluator that solves apart solves a child only when the search selects it a second time
// (its first evaluation a provisional one): children evaluated once are not checked. `apart`: whether
// the evaluator is expected to solve apart.
inline void expect_solved_children_hold_exact_values(const EvaluatorMaker& make_evaluator, bool apart) {
  const auto game = make_game("standard", 10);
  for (const Position& p : late_positions(5, 11, 6)) {
    const auto tree = grown_tree(*game, make_evaluator, p, 60, 3);
    const auto children = tree->root_children();
    EXPECT_EQ(tree->node_count(), 1 + children.size()) << to_text(p) << ": a solved node was expanded";
    ASSERT_EQ(tree->evaluator().solves_apart(), apart) << tree->evaluator().describe();
    const uint64_t once = apart ? exact_tree_settings().leaf : 0;
    int checked = 0;
    for (const auto& c : children) {
      Position child = p;
      play(child, c.move);
      if (game_over(child) || c.visits == once) continue;
      ++checked;
      EXPECT_EQ(c.points, black_points(child) * static_cast<double>(c.visits)) << to_text(p) << " move " << c.move;
    }
    EXPECT_GE(checked, 2) << to_text(p);
  }
}

// Roots with 13 empty squares under exact_empties 10, with some moves winning and some not: the most
// visited root move after a short search must win. Returns how many of `count` roots it got right.
inline int winning_moves_found(const EvaluatorMaker& make_evaluator, int count) {
  const auto game = make_game("standard", 10);
  int right = 0, decisive = 0;
  for (const Position& p : late_positions(31, 13, 100)) {
    std::vector<uint32_t> winners;
    int moves = 0;
    for (Bitboard rest = legal_moves(p); rest; rest &= rest - 1, ++moves) {
      Position child = p;
      play(child, lowest_square(rest));
      if (perfect_play_outcome(child) < 0) winners.push_back(lowest_square(rest));
    }
    if (winners.empty() || static_cast<int>(winners.size()) == moves) continue;
    const auto children = grown_tree(*game, make_evaluator, p, 150, 7)->root_children();
    const auto chosen = std::max_element(children.begin(), children.end(),
                                         [](const auto& a, const auto& b) { return a.visits < b.visits; });
    right += std::find(winners.begin(), winners.end(), chosen->move) != winners.end() ? 1 : 0;
    if (++decisive == count) break;
  }
  EXPECT_EQ(decisive, count);
  return right;
}

} // namespace othello::test
