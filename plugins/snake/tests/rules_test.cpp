// rules_test.cpp - the per-state rules against the square-by-square reference on random snakes in several
// dimensions, with and without symmetry breaking; what symmetry breaking forces; Kinny's candidates; the
// length bound.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "reference_rules.hpp"
#include "rules/random_snake.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_rules;
using test::Settings;

std::vector<uint32_t> legal_moves(const Game& game, const State& s) {
  std::vector<uint32_t> moves(game.max_moves());
  moves.resize(game.legal_moves(s, moves.data(), nullptr));
  return moves;
}

TEST(SnakeRules, LegalMovesMatchTheReferenceOnRandomSnakes) {
  std::mt19937_64 random(11);
  for (uint32_t d : {3u, 4u, 5u, 7u, 9u, 13u}) {
    for (bool symmetry : {true, false}) {
      const Game game = make_rules({d, symmetry, "uniform"});
      for (int trial = 0; trial < (d > 9 ? 4 : 40); ++trial) {
        State s;
        game.initial_state(s);
        std::vector<uint32_t> vertices{0}, moves;
        for (;;) {
          const std::vector<uint32_t> legal = legal_moves(game, s);
          ASSERT_EQ(legal, test::reference_legal_moves(d, symmetry, vertices, moves))
              << "d=" << d << " symmetry " << symmetry << " at " << game.state_to_string(s);
          ASSERT_EQ(game.current_player(s), legal.empty() ? GSDK_PLAYER_TERMINAL : 0);
          if (legal.empty()) break;
          const uint32_t k = legal[random() % legal.size()];
          game.apply_move(s, k);
          moves.push_back(k);
          vertices.push_back(vertices.back() ^ (1u << k));
          ASSERT_EQ(s.head, vertices.back());
        }
        EXPECT_EQ(game.score(s), static_cast<int64_t>(moves.size()));
        EXPECT_LE(moves.size(), length_bound(d));
      }
    }
  }
}

TEST(SnakeRules, SymmetryBreakingForcesTheFirstMovesAndTakesNewDimensionsInOrder) {
  const Game game = make_rules({6, true, "uniform"});
  State s;
  game.initial_state(s);
  for (uint32_t k : {0u, 1u, 2u}) {
    EXPECT_EQ(legal_moves(game, s), std::vector<uint32_t>{k});
    game.apply_move(s, k);
  }
  // On 0, 1, 3, 7: vertex 6 (dimension 0) is free, 5 touches 1, 3 is taken, and of the new dimensions only
  // 3 (vertex 15) may be opened.
  EXPECT_EQ(legal_moves(game, s), (std::vector<uint32_t>{0, 3}));

  std::mt19937_64 random(5);
  for (int trial = 0; trial < 200; ++trial) {
    game.initial_state(s);
    uint32_t next_new = 0;
    for (auto legal = legal_moves(game, s); !legal.empty(); legal = legal_moves(game, s)) {
      const uint32_t k = legal[random() % legal.size()];
      ASSERT_LE(k, next_new) << "dimension " << k << " used before " << next_new;
      if (k == next_new) ++next_new;
      game.apply_move(s, k);
    }
  }

  const Game free = make_rules({6, false, "uniform"});
  free.initial_state(s);
  EXPECT_EQ(legal_moves(free, s), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(SnakeRules, KinnyCandidatesAreTheMovesThatLeaveExactlyOneContinuation) {
  std::mt19937_64 random(17);
  int states_with_preference = 0, states_without = 0;
  for (uint32_t d : {5u, 8u, 10u}) {
    const Game game = make_rules({d, true, "kinny"});
    for (int trial = 0; trial < 30; ++trial) {
      State s;
      game.initial_state(s);
      for (auto legal = legal_moves(game, s); !legal.empty(); legal = legal_moves(game, s)) {
        uint32_t expected = 0, legal_mask = 0;
        for (uint32_t k : legal) {
          legal_mask |= 1u << k;
          State child = s;
          game.apply_move(child, k);
          if (legal_moves(game, child).size() == 1) expected |= 1u << k;
        }
        (expected ? states_with_preference : states_without) += 1;
        if (!expected) expected = legal_mask;
        const uint32_t candidates =
            candidate_dimensions(game.rules(), Policy::kinny, ConstWordBits{s.blocked}, walk_of(s), legal_mask);
        ASSERT_EQ(candidates, expected) << game.state_to_string(s);
        EXPECT_EQ(candidate_dimensions(game.rules(), Policy::uniform, ConstWordBits{s.blocked}, walk_of(s), legal_mask),
                  legal_mask);
        game.apply_move(s, legal[random() % legal.size()]);
      }
    }
  }
  EXPECT_GT(states_with_preference, 100);
  EXPECT_GT(states_without, 100);
}

// Tight's candidates are the moves with the fewest positive continuations, found here by playing every move.
TEST(SnakeRules, TightCandidatesAreTheMovesThatLeaveTheFewestContinuationsButOne) {
  std::mt19937_64 random(23);
  int states_avoiding_a_dead_end = 0;
  for (uint32_t d : {5u, 8u, 10u}) {
    const Game game = make_rules({d, true, "tight"});
    for (int trial = 0; trial < 30; ++trial) {
      State s;
      game.initial_state(s);
      for (auto legal = legal_moves(game, s); !legal.empty(); legal = legal_moves(game, s)) {
        uint32_t expected = 0, legal_mask = 0, dead_ends = 0;
        size_t fewest = SIZE_MAX;
        for (uint32_t k : legal) {
          legal_mask |= 1u << k;
          State child = s;
          game.apply_move(child, k);
          const size_t after = legal_moves(game, child).size();
          if (after == 0) dead_ends |= 1u << k;
          if (after == 0 || after > fewest) continue;
          if (after < fewest) expected = 0, fewest = after;
          expected |= 1u << k;
        }
        if (dead_ends && expected) ++states_avoiding_a_dead_end;
        if (!expected) expected = legal_mask;
        ASSERT_EQ(candidate_dimensions(game.rules(), Policy::tight, ConstWordBits{s.blocked}, walk_of(s), legal_mask),
                  expected)
            << game.state_to_string(s);
        game.apply_move(s, legal[random() % legal.size()]);
      }
    }
  }
  EXPECT_GT(states_avoiding_a_dead_end, 20);
}

TEST(SnakeRules, LengthBoundIsAboveEveryKnownRecordAndExactInDimensionThree) {
  const uint32_t records[] = {4, 7, 13, 26, 50, 98, 191, 379, 746, 1476, 2924}; // d = 3..13
  for (uint32_t d = kMinDimension; d <= kMaxDimension; ++d) EXPECT_GE(length_bound(d), records[d - 3]) << d;
  EXPECT_EQ(length_bound(3), 4u);
  EXPECT_EQ(kMaxLength, length_bound(13));
}

} // namespace
} // namespace snake
