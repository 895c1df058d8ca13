// mcts_test.cpp - the UCT tree itself on test_nim: visits add up to the playouts spent, the most
// visited root move is the winning one, reuse keeps a move's subtree with its statistics, the node
// cap holds however long the search runs, batches of leaves spread under virtual loss, and an
// expansion evaluates all its children when asked to.
#include <algorithm>

#include <gtest/gtest.h>

#include "gsdk/core/agents/mcts.hpp"
#include "search_fixture.hpp"

namespace {

using gsdk::core::RootChild;
using gsdk::core::SearchTree;
using gsdk::core::TreeSettings;
using Mcts = gsdk::test::SearchTest;

const RootChild& most_visited(const std::vector<RootChild>& children) {
  return *std::max_element(children.begin(), children.end(),
                           [](const RootChild& a, const RootChild& b) { return a.visits < b.visits; });
}

TEST_F(Mcts, VisitsAddUpAndTheWinningMoveIsMostVisited) {
  const auto game = nim();
  SearchTree tree(*game, gsdk::core::make_cpu_evaluator(*game), TreeSettings{0.7, 4, 100000});
  tree.reset(3);
  tree.set_root(game->state_from_string("stones=9 to_move=0")); // taking 1 leaves 8, a lost pile
  uint64_t spent = 0;
  for (int i = 0; i < 1000; ++i) spent += tree.iterate();
  EXPECT_EQ(spent, 4000u);
  EXPECT_EQ(tree.root_visits(), 4000u);
  const auto children = tree.root_children();
  ASSERT_EQ(children.size(), 3u);
  uint64_t child_visits = 0;
  for (const auto& c : children) child_visits += c.visits;
  EXPECT_EQ(child_visits, 4000u) << "the root is expanded at once, so every playout goes through a child";
  EXPECT_EQ(most_visited(children).move, 1u);
  // Finished games in the tree are scored without playouts, so the evaluator ran fewer.
  EXPECT_LT(tree.evaluator().playouts_run(), 4000u);
}

TEST_F(Mcts, ReuseKeepsThePlayedMovesSubtree) {
  const auto game = nim();
  SearchTree tree(*game, gsdk::core::make_cpu_evaluator(*game), TreeSettings{});
  tree.reset(1);
  const auto root = game->initial_state();
  tree.set_root(root);
  for (int i = 0; i < 3000; ++i) tree.iterate();
  const RootChild played = tree.root_children()[1]; // take2
  ASSERT_GT(played.visits, 1u);
  const uint64_t before = tree.node_count();
  ASSERT_TRUE(tree.advance(root, played.move));
  EXPECT_EQ(tree.root_visits(), played.visits);
  EXPECT_LT(tree.node_count(), before);
  uint64_t grandchildren = 0;
  for (const auto& c : tree.root_children()) grandchildren += c.visits;
  EXPECT_EQ(grandchildren, played.visits - 1) << "all but the first visit (the leaf's own evaluation) went below it";

  // The kept tree is the new position's: set_root keeps it, and searching goes on from its counts.
  auto after = root;
  game->apply_move(after, played.move);
  tree.set_root(after);
  EXPECT_EQ(tree.root_visits(), played.visits);
  tree.iterate();
  EXPECT_EQ(tree.root_visits(), played.visits + 1);

  // A move from a state that is not the root empties the tree.
  EXPECT_FALSE(tree.advance(root, 1));
  EXPECT_TRUE(tree.empty());
}

TEST_F(Mcts, TheNodeCapHolds) {
  const auto game = nim(toml::table{{"stones", 200}});
  SearchTree tree(*game, gsdk::core::make_cpu_evaluator(*game), TreeSettings{0.7, 1, 40});
  tree.reset(9);
  tree.set_root(game->initial_state());
  for (int i = 0; i < 2000; ++i) tree.iterate();
  EXPECT_LE(tree.node_count(), 40u);
  EXPECT_GE(tree.node_count(), 38u) << "expansion goes on until the next one would not fit";
  EXPECT_EQ(tree.root_visits(), 2000u);
}

TEST_F(Mcts, TerminalLeavesAreScoredExactly) {
  const auto game = nim();
  SearchTree tree(*game, gsdk::core::make_cpu_evaluator(*game), TreeSettings{0.7, 8, 1000});
  tree.reset(2);
  tree.set_root(game->state_from_string("stones=2 to_move=1"));
  for (int i = 0; i < 200; ++i) tree.iterate();
  const auto children = tree.root_children();
  ASSERT_EQ(children.size(), 2u);
  // take2 wins for player 1 at once: player 0 scores 0 points on every visit of it.
  EXPECT_EQ(children[1].points, 0.0);
  EXPECT_EQ(most_visited(children).move, 2u);
}

// A tree over nim from 9 stones (take1 is the winning move) that makes `batch` selections per iteration
// and evaluates one leaf or (evaluate_children) every child of an expansion.
SearchTree batched_tree(const gsdk::core::GameInstance& game, uint32_t leaf, uint32_t batch, uint64_t seed,
                        bool evaluate_children = false) {
  TreeSettings settings{0.7, leaf, 100000};
  settings.batch = batch;
  settings.evaluate_children = evaluate_children;
  SearchTree tree(game, gsdk::core::make_cpu_evaluator(game), settings);
  tree.reset(seed);
  tree.set_root(game.state_from_string("stones=9 to_move=0"));
  return tree;
}

TEST_F(Mcts, ABatchSpreadsOverTheChildrenUnderVirtualLoss) {
  const auto game = nim();
  SearchTree tree = batched_tree(*game, 2, 3, 4);
  EXPECT_EQ(tree.iterate(), 6u);
  // Without the pending selections counted, all three would have gone to the first child.
  for (const RootChild& c : tree.root_children()) EXPECT_EQ(c.visits, 2u) << "move " << c.move;
  // A smaller allowance cuts the batch (never below one leaf).
  EXPECT_EQ(tree.iterate(4), 4u);
  EXPECT_EQ(tree.iterate(1), 2u);
  EXPECT_EQ(tree.root_visits(), 12u);
}

TEST_F(Mcts, APipelinedTreeBacksEachBatchUpOneIterationLater) {
  const auto game = nim();
  TreeSettings settings{0.7, 2, 100000, 3, 2};
  SearchTree tree(*game, gsdk::core::make_cpu_evaluator(*game), settings);
  tree.reset(4);
  tree.set_root(game->state_from_string("stones=9 to_move=0"));
  EXPECT_EQ(tree.iterate(), 6u);
  EXPECT_EQ(tree.root_visits(), 0u); // the first batch is still in flight
  EXPECT_EQ(tree.iterate(), 6u);
  EXPECT_EQ(tree.root_visits(), 6u);
  // The second batch was selected under the first one's virtual losses too: six leaves over three
  // children, two each, instead of the first batch's choices again.
  tree.settle();
  EXPECT_EQ(tree.root_visits(), 12u);
  for (const RootChild& c : tree.root_children()) EXPECT_EQ(c.visits, 4u) << "move " << c.move;
}

TEST_F(Mcts, BatchedSearchAddsUpAndFindsTheWinningMove) {
  const auto game = nim();
  SearchTree tree = batched_tree(*game, 4, 16, 3);
  uint64_t spent = 0;
  for (int i = 0; i < 100; ++i) spent += tree.iterate();
  EXPECT_EQ(spent, 6400u);
  EXPECT_EQ(tree.root_visits(), 6400u);
  uint64_t child_visits = 0;
  for (const auto& c : tree.root_children()) child_visits += c.visits;
  EXPECT_EQ(child_visits, 6400u);
  EXPECT_EQ(most_visited(tree.root_children()).move, 1u);
}

TEST_F(Mcts, EvaluatingChildrenScoresEveryChildOfAnExpansion) {
  const auto game = nim();
  SearchTree tree = batched_tree(*game, 2, 1, 4, true);
  EXPECT_EQ(tree.iterate(), 6u) << "the root's three children, two playouts each";
  EXPECT_EQ(tree.node_count(), 4u);
  for (const RootChild& c : tree.root_children()) EXPECT_EQ(c.visits, 2u) << "move " << c.move;
  // The next selection reaches an evaluated child, expands it (6 to 8 stones: three moves) and evaluates
  // all three of its children; evaluating one leaf would have added two playouts, not six.
  EXPECT_EQ(tree.iterate(), 6u);
  EXPECT_EQ(tree.node_count(), 7u);
  EXPECT_EQ(tree.root_visits(), 12u);
  std::vector<uint64_t> visits;
  for (const RootChild& c : tree.root_children()) visits.push_back(c.visits);
  std::sort(visits.begin(), visits.end());
  EXPECT_EQ(visits, (std::vector<uint64_t>{2, 2, 8}));
  // An allowance smaller than one expansion still makes one selection, with all its children.
  EXPECT_EQ(tree.iterate(1), 6u);
}

TEST_F(Mcts, EvaluatingChildrenInBatchesAddsUpAndFindsTheWinningMove) {
  const auto game = nim();
  SearchTree tree = batched_tree(*game, 4, 8, 3, true);
  uint64_t spent = 0;
  for (int i = 0; i < 100; ++i) spent += tree.iterate();
  EXPECT_EQ(tree.root_visits(), spent);
  uint64_t child_visits = 0;
  for (const auto& c : tree.root_children()) child_visits += c.visits;
  EXPECT_EQ(child_visits, spent) << "the root is never evaluated itself, only its children";
  EXPECT_EQ(most_visited(tree.root_children()).move, 1u);
}

} // namespace
