// rules_test.cpp - the bitboard rules against the square-by-square reference on random boards, the
// opening, passes, the end of the game and the score.
#include <gtest/gtest.h>

#include <random>

#include "reference_rules.hpp"
#include "rules/board_text.hpp"
#include "rules/position.hpp"

namespace othello {
namespace {

// Random disjoint boards of every density, many with long lines that reach the edges.
std::pair<Bitboard, Bitboard> random_board(std::mt19937_64& random) {
  const int density = static_cast<int>(random() % 100);
  Bitboard own = 0, opponent = 0;
  for (uint32_t s = 0; s < 64; ++s) {
    const int roll = static_cast<int>(random() % 100);
    if (roll < density / 3) own |= square_bit(s);
    else if (roll < density) opponent |= square_bit(s);
  }
  return {own, opponent};
}

TEST(OthelloRules, MovesAndFlipsMatchTheReferenceOnRandomBoards) {
  std::mt19937_64 random(2024);
  for (int trial = 0; trial < 20000; ++trial) {
    const auto [own, opponent] = random_board(random);
    const Bitboard moves = legal_moves(own, opponent);
    ASSERT_EQ(moves, test::reference_moves(own, opponent)) << "trial " << trial;
    for (Bitboard rest = moves; rest; rest &= rest - 1) {
      const uint32_t square = lowest_square(rest);
      ASSERT_EQ(flips(own, opponent, square), test::reference_flips(own, opponent, static_cast<int>(square)))
          << "trial " << trial << " square " << move_name(square);
    }
  }
}

TEST(OthelloRules, LinesDoNotWrapAroundTheBoardEdge) {
  // Black h3, white a4 b4: on a real board h3 and a4 are not neighbours, so c4 is no move for black.
  const Bitboard own = square_bit(23), opponent = square_bit(24) | square_bit(25);
  EXPECT_EQ(legal_moves(own, opponent), Bitboard{0});
  EXPECT_EQ(test::reference_moves(own, opponent), Bitboard{0});
}

TEST(OthelloRules, TheOpeningOffersFourMovesAndD3FlipsD4) {
  const Position start = start_position();
  const Bitboard expected = square_bit(19) | square_bit(26) | square_bit(37) | square_bit(44); // d3 c4 f5 e6
  EXPECT_EQ(legal_moves(start), expected);
  Position p = start;
  play(p, *parse_move_name("d3"));
  EXPECT_EQ(p.side, kWhite);
  EXPECT_EQ(black_discs(p), square_bit(19) | square_bit(27) | square_bit(28) | square_bit(35));
  EXPECT_EQ(white_discs(p), square_bit(36));
}

TEST(OthelloRules, APlayerWithoutMovesPassesAndTheGameEndsWhenNeitherCan) {
  // Black b1 beside white a1: black's only line ends at the edge, white flanks b1 from a1 to c1.
  Position p{square_bit(1), square_bit(0), kBlack, 0};
  EXPECT_EQ(legal_moves(p), Bitboard{0});
  EXPECT_TRUE(opponent_can_move(p));
  EXPECT_FALSE(game_over(p));
  EXPECT_EQ(move_set(p, Convention::standard).pass_only, true);
  EXPECT_EQ(move_set(p, Convention::finished_not_leaf).pass_only, true);
  Position settled = p;
  settle(settled, Convention::free_pass);
  EXPECT_EQ(settled.side, kWhite);
  EXPECT_EQ(legal_moves(settled), square_bit(2));

  play(p, kPass);
  play(p, 2); // white c1 turns b1 over: only white discs remain
  EXPECT_TRUE(game_over(p));
  EXPECT_EQ(final_score(p), -64);
  EXPECT_EQ(perft1(p, Convention::standard), 1u);
  EXPECT_EQ(perft1(p, Convention::finished_not_leaf), 0u);
  EXPECT_EQ(perft1(p, Convention::free_pass), 1u);
}

TEST(OthelloRules, FinalScoreGivesTheEmptySquaresToTheWinner) {
  // 28 black discs on a1..d4, 27 white on f5..h8, 9 empty between: no line joins the colours through
  // an empty square, so the game is over, and black wins 28-27 plus the 9 empties.
  const Position p{(Bitboard{1} << 28) - 1, ((Bitboard{1} << 27) - 1) << 37, kBlack, 0};
  ASSERT_TRUE(game_over(p)) << to_text(p);
  EXPECT_EQ(final_score(p), 28 - 27 + 9);
  Position swapped = p;
  pass(swapped);
  EXPECT_EQ(final_score(swapped), 10); // the side to move does not change the score
  const Position drawn = parse_text(std::string(32, 'X') + std::string(32, 'O') + " X");
  EXPECT_TRUE(game_over(drawn));
  EXPECT_EQ(final_score(drawn), 0);
}

} // namespace
} // namespace othello
