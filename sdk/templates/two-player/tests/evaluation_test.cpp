// evaluation_test.cpp - connect_four's static evaluation (evaluation.hpp): zero on the empty board, for the side to
// move and against it as open lines say, strictly inside the scale in every position of random games that is not
// finished (the only positions a search evaluates), and equal hashes for one position reached in two orders.
#include <gtest/gtest.h>

#include "test_game.hpp"

namespace connect_four {
namespace {

using test::game;
using test::position;

TEST(Evaluation, TheEmptyBoardIsEven) {
  State s;
  game().initial_state(s);
  EXPECT_EQ(game().evaluate(s), 0);
}

TEST(Evaluation, OpenLinesCountForTheirOwner) {
  // X has three in the bottom row (columns 1-3) with column 4 open, O two on top of them: bad for O, to move.
  EXPECT_LT(game().evaluate(position("11223")), 0);
  // The same after O's 7 far away, X to move: good for X.
  EXPECT_GT(game().evaluate(position("112237")), 0);
}

TEST(Evaluation, EveryUnfinishedPositionOfRandomGamesIsInsideTheScale) {
  const int32_t scale = game().evaluation_scale();
  for (uint64_t playout = 0; playout < 200; ++playout) {
    State s;
    game().initial_state(s);
    bool inside = true;
    play_out(s, 7, playout, [&](uint32_t) {
      if (game_over(s)) return; // never evaluated: a search scores a finished game exactly
      const int32_t value = game().evaluate(s);
      inside = inside && value > -scale && value < scale;
    });
    EXPECT_TRUE(inside) << "playout " << playout;
  }
}

TEST(Evaluation, OnePositionHashesTheSameWhateverTheMoveOrder) {
  EXPECT_EQ(game().state_hash(position("4453")), game().state_hash(position("4354")));
  EXPECT_NE(game().state_hash(position("4453")), game().state_hash(position("4435")));
}

} // namespace
} // namespace connect_four
