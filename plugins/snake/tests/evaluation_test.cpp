// evaluation_test.cpp - snake's evaluations (gsdk.evaluation.v1): 'free' and 'reachable' on hand-worked snakes of the
// 3-cube, and against a plain breadth-first search over the reference rules (reference_snakes.hpp) on random snakes
// of dimensions 3..10 (the bit-parallel fill's in-word shifts and word swaps both), inside the scale; the hash
// follows the canonical state; the table through the plugin's glue.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "reference_snakes.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_rules;
using test::Path;
using test::Settings;

State state_of(const Game& game, const Path& p) {
  State s;
  game.initial_state(s);
  for (uint32_t k : p.moves) game.apply_move(s, k);
  return s;
}

Path path_of(const std::vector<uint32_t>& moves) {
  Path p;
  for (uint32_t k : moves) p = test::extended(p, k);
  return p;
}

// Worked by hand in the 3-cube (vertices 0..7):
//  - the empty snake: 7 free vertices, all reachable, each with 3 open neighbours: 2*7 = 14;
//  - moves 0 (head 1; 0, 2, 4 blocked): free 3, 5, 6, 7, all reachable; 6's neighbours 2, 4 are blocked, so it is
//    the one dead end: 2*4 - 0 = 8;
//  - moves 0 1 (head 3; 0..5 blocked): free 6, 7, reachable 3-7-6; 6 is a dead end: 2*2 = 4.
TEST(SnakeEvaluation, HandWorkedSnakesOfTheThreeCube) {
  const Game free = make_rules(Settings{3, false, "uniform", "", "free"});
  const Game reachable = make_rules(Settings{3, false, "uniform", "", "reachable"});
  const struct {
    std::vector<uint32_t> moves;
    int32_t free, reachable;
  } cases[] = {{{}, 7, 14}, {{0}, 4, 8}, {{0, 1}, 2, 4}};
  for (const auto& c : cases) {
    EXPECT_EQ(free.evaluate(state_of(free, path_of(c.moves))), c.free) << c.moves.size();
    EXPECT_EQ(reachable.evaluate(state_of(reachable, path_of(c.moves))), c.reachable) << c.moves.size();
  }
  EXPECT_EQ(free.evaluation_scale(), 32);
}

// Along random games, both measures equal the reference search's, and the games meet unreachable free vertices and
// two or more dead ends, so both of the formula's corrections are exercised.
TEST(SnakeEvaluation, UnreachableVerticesAndExtraDeadEndsCost) {
  bool saw_unreachable = false, saw_dead_ends = false;
  std::mt19937 random(3);
  for (const uint32_t d : {3u, 4u, 5u, 6u, 7u, 8u, 10u}) {
    const Game free = make_rules(Settings{d, d % 2 == 0, "uniform", "", "free"});
    const Game reachable = make_rules(Settings{d, d % 2 == 0, "uniform", "", "reachable"});
    for (int g = 0; g < (d >= 8 ? 6 : 30); ++g) {
      Path p;
      State s = state_of(free, p);
      for (uint32_t moves[kMaxDimension], n; (n = free.legal_moves(s, moves, nullptr)) != 0;) {
        const test::ReferenceFitness expected = test::reference_fitness(d, p);
        ASSERT_EQ(free.evaluate(s), int32_t(expected.free)) << d << " " << free.state_to_string(s);
        ASSERT_EQ(reachable.evaluate(s), expected.reachable_value()) << d << " " << free.state_to_string(s);
        ASSERT_GE(reachable.evaluate(s), 0);
        ASSERT_LT(reachable.evaluate(s), reachable.evaluation_scale());
        saw_unreachable |= expected.reachable < expected.free;
        saw_dead_ends |= expected.dead_ends >= 2;
        const uint32_t k = moves[random() % n];
        free.apply_move(s, k);
        p = test::extended(p, k);
      }
    }
  }
  EXPECT_TRUE(saw_unreachable);
  EXPECT_TRUE(saw_dead_ends);
}

TEST(SnakeEvaluation, ScaleBoundsTheLargestValueOfEveryDimension) {
  for (uint32_t d = kMinDimension; d <= kMaxDimension; ++d) {
    const Game game = make_rules(Settings{d, true});
    State empty;
    game.initial_state(empty);
    // The empty snake has the most free vertices, all reachable, none a dead end: the largest value.
    EXPECT_EQ(game.evaluate(empty), 2 * ((1 << d) - 1)) << d;
    EXPECT_LT(game.evaluate(empty), game.evaluation_scale()) << d;
    EXPECT_LE(game.evaluation_scale(), 1 << 24);
  }
}

TEST(SnakeEvaluation, HashesDifferForDifferentCanonicalStates) {
  const Game game = make_rules(Settings{5, false});
  std::vector<Path> snakes;
  test::every_snake(4, false, Path{}, snakes); // 4-cube paths are 5-cube snakes too
  std::set<std::string> keys;
  std::set<uint64_t> hashes;
  for (const Path& p : snakes) {
    State c = state_of(game, p);
    game.canonical_state(c);
    keys.insert(std::string(reinterpret_cast<const char*>(&c), sizeof c));
    hashes.insert(game.state_hash(c));
  }
  EXPECT_EQ(hashes.size(), keys.size());
}

TEST(SnakeEvaluation, TheTableGivesTheSameValuesThroughTheGlue) {
  const auto game = test::make_game(Settings{6, false, "uniform", "", "free"});
  const gsdk_evaluation* table = game->tables().evaluation;
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->scale(game->handle()), 256);
  const gsdk::core::StateBlob s = game->state_from_string("d=6 moves 0 1 2 0 3");
  int32_t value = 0;
  char error[256] = {};
  ASSERT_EQ(table->evaluate(game->handle(), s.data(), 1, &value, error, sizeof error), GSDK_OK) << error;
  EXPECT_EQ(value, int32_t(test::reference_fitness(6, path_of({0, 1, 2, 0, 3})).free));
}

} // namespace
} // namespace snake
