// environment_test.cpp - chess for vectorised environments: move codes distinct and in range over random games and
// over every kind of promotion, and the observation planes of the start position and, from black's view, after e4.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "chess_game.hpp"
#include "rules/fen.hpp"
#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace chess {
namespace {

Game make_game() {
  const gsdk_param_value leaf{"gpu_leaf_kernel", GSDK_PARAM_STRING, 0, 0, 0.0, "thread"};
  return Game(gsdk::Params(&leaf, 1));
}

// The codes of p's legal moves, each checked below code_count and distinct.
std::set<uint32_t> distinct_codes(const Game& game, const Position& p) {
  std::vector<uint32_t> moves(game.max_moves());
  const uint32_t n = game.legal_moves(p, moves.data(), nullptr);
  std::set<uint32_t> codes;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t code = game.move_code(p, moves[k]);
    EXPECT_LT(code, game.code_count());
    EXPECT_TRUE(codes.insert(code).second) << "code " << code << " twice in " << to_fen(p);
  }
  return codes;
}

TEST(ChessEnvironment, MoveCodesAreDistinctInRandomGamesAndAmongPromotions) {
  const Game game = make_game();
  std::mt19937_64 random(7);
  std::vector<uint32_t> moves(game.max_moves());
  for (int g = 0; g < 100; ++g) {
    Position p;
    game.initial_state(p);
    for (int ply = 0; ply < 300 && game.current_player(p) != GSDK_PLAYER_TERMINAL; ++ply) {
      distinct_codes(game, p);
      game.apply_move(p, moves[random() % game.legal_moves(p, moves.data(), nullptr)]);
    }
  }
  // White's b7 pawn takes a8 or c8 or pushes to b8, four pieces each; black's g2 pawn the same towards g1; and three
  // king moves.
  EXPECT_EQ(distinct_codes(game, parse_fen("r1n4k/1P6/8/8/8/8/8/7K w - - 0 1")).size(), 12u + 3u);
  EXPECT_EQ(distinct_codes(game, parse_fen("k7/8/8/8/8/8/6p1/K4N1R b - - 0 1")).size(), 12u + 3u);
}

// The squares set in one plane of an observation.
std::set<int> plane(const std::vector<uint8_t>& observation, int index) {
  std::set<int> squares;
  for (int s = 0; s < 64; ++s)
    if (observation[64 * index + s]) squares.insert(s);
  return squares;
}

std::vector<uint8_t> observe(const Game& game, const Position& p) {
  EXPECT_EQ(game.observation_shape(), (std::vector<uint32_t>{18, 8, 8}));
  std::vector<uint8_t> observation(18 * 64, 9);
  game.fill_observations(&p, 1, observation.data());
  for (const uint8_t byte : observation) EXPECT_LE(byte, 1u);
  return observation;
}

TEST(ChessEnvironment, ObservationsSeeTheBoardFromTheMoversSide) {
  const Game game = make_game();
  Position p;
  game.initial_state(p);
  auto o = observe(game, p);
  EXPECT_EQ(plane(o, 0), (std::set<int>{8, 9, 10, 11, 12, 13, 14, 15}));   // white pawns, rank 2
  EXPECT_EQ(plane(o, 3), (std::set<int>{0, 7}));                           // white rooks
  EXPECT_EQ(plane(o, 4), (std::set<int>{3}));                              // white queen, d1
  EXPECT_EQ(plane(o, 5), (std::set<int>{4}));                              // white king, e1
  EXPECT_EQ(plane(o, 6), (std::set<int>{48, 49, 50, 51, 52, 53, 54, 55})); // black pawns, rank 7
  EXPECT_EQ(plane(o, 11), (std::set<int>{60}));                            // black king, e8
  EXPECT_TRUE(plane(o, 12).empty());
  for (int right = 13; right <= 16; ++right) EXPECT_EQ(plane(o, right).size(), 64u) << "castling plane " << right;
  EXPECT_TRUE(plane(o, 17).empty());

  // After e4, with a black pawn on d4 to take it en passant (a FEN's target square counts only then); white has
  // lost long castling.
  p = parse_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQq e3 0 3");
  o = observe(game, p);
  EXPECT_EQ(plane(o, 0), (std::set<int>{8, 9, 10, 12, 13, 14, 15, 35})); // black pawns mirrored, d4 = 27 to 35
  EXPECT_EQ(plane(o, 4), (std::set<int>{3}));                            // black queen d8, mirrored to d1
  EXPECT_EQ(plane(o, 5), (std::set<int>{4}));                            // black king e8, mirrored to e1
  EXPECT_EQ(plane(o, 6), (std::set<int>{48, 49, 50, 51, 36, 53, 54, 55})); // white pawns; e4 = 28 mirrored to 36
  EXPECT_EQ(plane(o, 12), (std::set<int>{44}));                          // en passant on e3 = 20, mirrored
  EXPECT_EQ(plane(o, 13).size(), 0u);  // black short: not in "KQq"
  EXPECT_EQ(plane(o, 14).size(), 64u); // black long
  EXPECT_EQ(plane(o, 15).size(), 64u); // white short
  EXPECT_EQ(plane(o, 16).size(), 64u); // white long
  EXPECT_EQ(plane(o, 17).size(), 64u); // black to move
}

} // namespace
} // namespace chess
