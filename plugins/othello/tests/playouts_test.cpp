// playouts_test.cpp - the CPU playout table: results independent of how a range is cut, each playout
// replayable move by move through the per-state table to the score it reported (and, under the
// `corners` and `mobility` policies, keeping to the squares the policy allows), and a custom start.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/playouts_cpu.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/playout_summary.hpp"
#include "othello_game.hpp"
#include "othello_test_support.hpp"
#include "rules/random_game.hpp"
#include "rules/stepped_game.hpp"

namespace othello {
namespace {

using test::make_game;
using test::run_cpu_playouts;
using test::Summary;

TEST(OthelloPlayouts, ARangeCutInPiecesGivesTheSameSummary) {
  const auto owner = make_game();
  const gsdk::core::GameInstance& game = *owner;
  Summary whole, parts, part;
  run_cpu_playouts(game, 5, 100, 3000, nullptr, whole);
  run_cpu_playouts(game, 5, 100, 1234, nullptr, parts);
  run_cpu_playouts(game, 5, 1334, 1766, nullptr, part);
  gsdk::merge_summary(parts.s, part.s);
  EXPECT_EQ(whole.histogram, parts.histogram);
  EXPECT_EQ(whole.s.playouts, 3000u);
  EXPECT_EQ(whole.s.best_score, parts.s.best_score);
  EXPECT_EQ(whole.s.best_playout, parts.s.best_playout);
  EXPECT_EQ(whole.s.worst_playout, parts.s.worst_playout);
  // Random games spread over many scores, both colours win some.
  uint64_t black_wins = 0, white_wins = 0;
  for (int b = 0; b < 129; ++b) (b > 64 ? black_wins : white_wins) += b == 64 ? 0 : whole.histogram[b];
  EXPECT_GT(black_wins, 1000u);
  EXPECT_GT(white_wins, 1000u);
}

TEST(OthelloPlayouts, PoliciesDrawFromCornersThenFromSquaresAwayFromEmptyCorners) {
  const Bitboard a1 = square_bit(0), b2 = square_bit(9), c3 = square_bit(18), g1 = square_bit(6), h8 = square_bit(63);
  const Bitboard all_empty = ~Bitboard{0};
  EXPECT_EQ(policy_moves(a1 | b2 | c3, all_empty, PlayoutPolicy::random), a1 | b2 | c3);
  EXPECT_EQ(policy_moves(a1 | b2 | c3 | h8, all_empty, PlayoutPolicy::corners), a1 | h8);
  EXPECT_EQ(policy_moves(b2 | c3 | g1, all_empty, PlayoutPolicy::corners), c3); // b2 and g1 lie next to empty corners
  EXPECT_EQ(policy_moves(b2 | g1, all_empty, PlayoutPolicy::corners), b2 | g1); // nothing else: all of them
  EXPECT_EQ(policy_moves(b2 | c3 | g1, all_empty & ~a1, PlayoutPolicy::corners), b2 | c3); // a1 taken: b2 is fine
}

// Against the per-state table: each square of fewest_replies leaves the opponent the fewest moves.
TEST(OthelloPlayouts, MobilityPlayoutsDrawMostlyFromTheMovesThatLeaveTheOpponentFewestReplies) {
  const auto owner = make_game();
  const gsdk::core::GameInstance& game = *owner;
  std::vector<uint32_t> moves(game.max_moves());
  for (const Position& p : test::late_positions(3, 30, 40)) {
    const Bitboard kept = policy_moves(legal_moves(p), ~(p.own | p.opponent), PlayoutPolicy::mobility);
    Bitboard fewest = 0;
    uint32_t least = 99;
    for (Bitboard rest = kept; rest; rest &= rest - 1) {
      gsdk::core::StateBlob child(sizeof(Position));
      std::memcpy(child.data(), &p, sizeof p);
      game.apply_move(child, lowest_square(rest));
      const Position& c = *reinterpret_cast<const Position*>(child.data());
      const uint32_t replies = static_cast<uint32_t>(gsdk::bits::popcount64(legal_moves(c)));
      if (replies < least) fewest = 0;
      least = std::min(least, replies);
      if (replies == least) fewest |= rest & (0 - rest);
    }
    EXPECT_EQ(fewest_replies(kept, p.own, p.opponent), fewest);
    for (uint64_t draw : {uint64_t{0x123456789abcdef0}, uint64_t{0xfedcba9876543211}, uint64_t{0x8000000000000002}}) {
      const uint32_t square = playout_square(legal_moves(p), p.own, p.opponent, PlayoutPolicy::mobility, draw);
      // One draw in four (its low two bits zero) keeps every square corners would.
      EXPECT_NE(square_bit(square) & ((draw & 3) == 0 ? kept : fewest), 0u) << std::hex << draw;
    }
  }
}

TEST(OthelloPlayouts, CornersPlayoutsTakeAnOfferedCorner) {
  const auto owner = make_game("standard", 0, "corners");
  const gsdk::core::GameInstance& game = *owner;
  // Black to move can take a1 (over b2) among several squares.
  const auto s = game.state_from_string("--------"
                                        "-O------"
                                        "--X-----"
                                        "---OX---"
                                        "---XO---" +
                                        std::string(24, '-') + " X");
  const Position p = *reinterpret_cast<const Position*>(s.data());
  ASSERT_NE(legal_moves(p) & square_bit(0), 0u);
  ASSERT_GT(gsdk::bits::popcount64(legal_moves(p)), 2);
  const auto& replay = *game.tables().replay;
  for (uint64_t playout = 0; playout < 50; ++playout) {
    uint32_t moves[80];
    char error[256] = {};
    ASSERT_GT(replay.playout_moves(game.handle(), 3, playout, s.data(), moves, 80, error, sizeof error), 0u) << error;
    EXPECT_EQ(moves[0], 0u) << "playout " << playout;
  }
}

TEST(OthelloPlayouts, EveryPlayoutReplaysThroughThePerStateTableToItsScore) {
  const std::pair<const char*, PlayoutPolicy> policies[] = {
      {"random", PlayoutPolicy::random}, {"corners", PlayoutPolicy::corners}, {"mobility", PlayoutPolicy::mobility}};
  for (const auto& [policy, rule] : policies)
    for (const char* convention : {"standard", "finished_not_leaf", "free_pass"}) {
      const auto owner = make_game(convention, 0, policy);
      const gsdk::core::GameInstance& game = *owner;
      const auto& replay = *game.tables().replay;
      for (uint64_t playout = 0; playout < 200; ++playout) {
        std::vector<uint32_t> moves(200);
        char error[256] = {};
        const uint32_t n =
            replay.playout_moves(game.handle(), 9, playout, nullptr, moves.data(), 200, error, sizeof error);
        ASSERT_GT(n, 0u) << error;
        auto s = game.initial_state();
        std::vector<uint32_t> legal(game.max_moves());
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t count = game.checked_legal_moves(s, legal);
          ASSERT_NE(std::find(legal.begin(), legal.begin() + count, moves[i]), legal.begin() + count)
              << convention << " playout " << playout << " move " << i;
          const Position& p = *reinterpret_cast<const Position*>(s.data());
          const Bitboard allowed = policy_moves(legal_moves(p), ~(p.own | p.opponent), rule);
          ASSERT_TRUE(moves[i] == kPass || (allowed & square_bit(moves[i])) != 0)
              << policy << " playout " << playout << " move " << i;
          game.apply_move(s, moves[i]);
        }
        ASSERT_EQ(game.current_player(s), GSDK_PLAYER_TERMINAL) << convention << " playout " << playout;
        EXPECT_EQ(game.score(s), random_game(start_position(), 9, playout, rule))
            << convention << " playout " << playout;
      }
    }
}

// The GPU's form of the game: every playout the same score, from the start, from late positions (where
// passes come), from one where the mover must pass first and from a finished one.
TEST(OthelloPlayouts, SteppedGamesScoreAsRandomGamesUnderEveryPolicy) {
  std::vector<Position> starts = test::late_positions(5, 20, 8);
  starts.push_back(start_position());
  const Position must_pass{square_bit(1), square_bit(0), kBlack, 0}; // white a1, black b1: only white can play (c1)
  ASSERT_EQ(legal_moves(must_pass), 0u);
  ASSERT_NE(legal_moves(must_pass.opponent, must_pass.own), 0u);
  starts.push_back(must_pass);
  starts.push_back(Position{~Bitboard{0} >> 1, Bitboard{1} << 63, kWhite, 0}); // full board
  int scores_seen[129] = {};
  for (const PlayoutPolicy policy : {PlayoutPolicy::random, PlayoutPolicy::corners, PlayoutPolicy::mobility})
    for (size_t i = 0; i < starts.size(); ++i)
      for (uint64_t playout = 0; playout < 400; ++playout) {
        const int32_t score = random_game(starts[i], 21, playout, policy);
        ASSERT_EQ(stepped_game(starts[i], 21, playout, policy), score)
            << "policy " << static_cast<int>(policy) << " start " << i << " playout " << playout;
        ++scores_seen[score + 64];
      }
  EXPECT_GT(std::count_if(std::begin(scores_seen), std::end(scores_seen), [](int n) { return n > 0; }), 40);
}

TEST(OthelloPlayouts, StartFromAGivenPositionAndRejectMalformedOnes) {
  const auto owner = make_game();
  const gsdk::core::GameInstance& game = *owner;
  // One move from the end: black e1 turns b1..d1 over and fills the board.
  const auto s = game.state_from_string("XOOO-XXX" + std::string(56, 'X') + " X");
  Summary one;
  run_cpu_playouts(game, 1, 0, 50, s.data(), one);
  EXPECT_EQ(one.histogram[64 + 64], 50u); // every playout: black 64
  Position bad{1, 1, kBlack, 0};
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  r.playout_count = 1;
  r.start_state = &bad;
  Summary none;
  char error[256] = {};
  EXPECT_EQ(game.tables().cpu_playouts->run(game.handle(), &r, &none.s, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(error).find("not an Othello position"), std::string::npos);
}

TEST(OthelloPlayouts, TheAvx512KernelPlaysTheSameGamesAsThePortableOneUnderEveryPolicy) {
  if (cpu::best_simd_level() < GSDK_SIMD_AVX512) GTEST_SKIP() << "this processor lacks AVX-512 F or BMI2";
  const auto owner = make_game();
  const gsdk::core::GameInstance& game = *owner;
  const auto midgame = game.state_from_string("-----------X-O-----XXOO----XXXO----OXXO----O--X----------------- O");
  const Position* starts[] = {nullptr, reinterpret_cast<const Position*>(midgame.data())};
  const uint64_t ranges[][2] = {{0, 1}, {0, 7}, {3, 8}, {100, 1001}, {uint64_t{1} << 50, 20000}};
  for (const PlayoutPolicy policy : {PlayoutPolicy::random, PlayoutPolicy::corners, PlayoutPolicy::mobility})
    for (const Position* start : starts)
      for (const auto& range : ranges) {
        Summary scalar, simd;
        const Position from = start ? *start : start_position();
        cpu::playouts_scalar(from, 77, range[0], range[1], policy, scalar.s);
        cpu::playouts_avx512(from, 77, range[0], range[1], policy, simd.s);
        EXPECT_EQ(simd.histogram, scalar.histogram)
            << "policy " << static_cast<int>(policy) << " first " << range[0] << " count " << range[1];
        EXPECT_EQ(simd.s.playouts, range[1]);
        EXPECT_EQ(simd.s.best_playout, scalar.s.best_playout);
        EXPECT_EQ(simd.s.worst_playout, scalar.s.worst_playout);
      }
}

} // namespace
} // namespace othello
