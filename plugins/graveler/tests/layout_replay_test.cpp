// layout_replay_test.cpp - graveler's random-word layout and replay: every pair of battles owns exactly
// words_per_pair consecutive MWC64X words (29 for 231 rolls) and count_pair consumes exactly those, so
// no two battles share a word; the layout wastes less than a few words; battle_faces (the replay's
// randomness made visible) has one face in 1..4 per roll and as many 1s as battle_ones, for every
// layout (shared and separate tails); replay_playout from a start state covers the remaining rolls.
#include <random>

#include <gtest/gtest.h>

#include "graveler_game.hpp"
#include "graveler_test_util.hpp"

namespace {

using graveler::BattleLayout;

using graveler::test::make_game;

TEST(GravelerLayout, ChallengeLayoutIs29WordsPerPair) {
  const BattleLayout l = BattleLayout::for_rolls(231);
  EXPECT_EQ(l.full_words, 7);
  EXPECT_EQ(l.tail_rolls, 7);
  EXPECT_TRUE(l.shared_tail);
  EXPECT_EQ(l.words_per_pair, 29);
}

TEST(GravelerLayout, PairsConsumeExactlyTheirWordsForEveryRollCount) {
  for (int rolls = 1; rolls <= graveler::kMaxRolls; ++rolls) {
    const BattleLayout l = BattleLayout::for_rolls(rolls);
    // Enough bits for two battles of two bits per roll, and little waste.
    ASSERT_GE(32 * l.words_per_pair, 4 * rolls) << rolls;
    ASSERT_LE(l.words_per_pair, (4 * rolls + 31) / 32 + 3) << rolls;
    ASSERT_EQ(l.shared_tail, l.tail_rolls <= 8) << rolls;
    for (const uint64_t pair : {uint64_t{0}, uint64_t{5}, uint64_t{1} << 35}) {
      gsdk::rng::Mwc64x g = gsdk::rng::Mwc64x::at(17, pair * static_cast<uint64_t>(l.words_per_pair));
      int a = 0, b = 0;
      graveler::count_pair(g, l, a, b);
      ASSERT_EQ(g.state, gsdk::rng::Mwc64x::at(17, (pair + 1) * static_cast<uint64_t>(l.words_per_pair)).state)
          << "rolls " << rolls << ": a pair must consume exactly its " << l.words_per_pair << " words";
      ASSERT_GE(a, 0);
      ASSERT_LE(a, rolls);
      ASSERT_GE(b, 0);
      ASSERT_LE(b, rolls);
    }
  }
}

TEST(GravelerLayout, BattleFacesCountTheSameOnesAsBattleOnes) {
  std::mt19937_64 random(1);
  for (int rolls = 1; rolls <= 80; ++rolls) {
    const BattleLayout l = BattleLayout::for_rolls(rolls);
    for (uint64_t b = 0; b < 40; ++b) {
      const auto faces = graveler::Game::battle_faces(5, l, b);
      ASSERT_EQ(faces.size(), static_cast<size_t>(rolls));
      ASSERT_EQ(std::count(faces.begin(), faces.end(), 1u), graveler::battle_ones(5, l, b)) << rolls << " " << b;
    }
  }
  for (const int rolls : graveler::test::kRollCounts) {
    const BattleLayout l = BattleLayout::for_rolls(rolls);
    for (int i = 0; i < 300; ++i) {
      const uint64_t battle = i < 100 ? static_cast<uint64_t>(i) : random() >> 12;
      const auto faces = graveler::Game::battle_faces(123, l, battle);
      ASSERT_EQ(faces.size(), static_cast<size_t>(rolls));
      for (uint32_t f : faces) ASSERT_TRUE(f >= 1 && f <= 4) << f;
      ASSERT_EQ(std::count(faces.begin(), faces.end(), 1u), graveler::battle_ones(123, l, battle))
          << "rolls " << rolls << " battle " << battle;
    }
  }
}

TEST(GravelerLayout, TheTwoBattlesOfAPairRollDifferentFaces) {
  const BattleLayout l = BattleLayout::for_rolls(231);
  int identical = 0;
  for (uint64_t q = 0; q < 200; ++q)
    identical += graveler::Game::battle_faces(9, l, 2 * q) == graveler::Game::battle_faces(9, l, 2 * q + 1);
  EXPECT_EQ(identical, 0);
}

TEST(GravelerReplay, ReplayIsTheBattlesFaces) {
  const graveler::Game game = make_game(231);
  for (const uint64_t playout : {uint64_t{0}, uint64_t{1}, uint64_t{37378}, uint64_t{999999999}}) {
    const auto moves = game.replay_playout(1, playout, nullptr);
    EXPECT_EQ(moves, graveler::Game::battle_faces(1, BattleLayout::for_rolls(231), playout));
    graveler::State s;
    game.initial_state(s);
    for (uint32_t m : moves) game.apply_move(s, m);
    EXPECT_EQ(game.current_player(s), GSDK_PLAYER_TERMINAL);
    EXPECT_EQ(game.score(s), graveler::battle_ones(1, BattleLayout::for_rolls(231), playout));
  }
}

TEST(GravelerReplay, FromAStartStateCoversTheRemainingRolls) {
  const graveler::Game game = make_game(231);
  const graveler::State start = game.state_from_string("rolls=200 ones=40");
  for (uint64_t playout = 0; playout < 50; ++playout) {
    const auto moves = game.replay_playout(4, playout, &start);
    ASSERT_EQ(moves.size(), 31u);
    graveler::State s = start;
    for (uint32_t m : moves) game.apply_move(s, m);
    EXPECT_EQ(game.current_player(s), GSDK_PLAYER_TERMINAL);
    EXPECT_EQ(game.score(s), 40 + graveler::battle_ones(4, BattleLayout::for_rolls(31), playout));
  }
  const graveler::State done = game.state_from_string("rolls=231 ones=70");
  EXPECT_TRUE(game.replay_playout(4, 3, &done).empty());
}

TEST(GravelerReplay, BatchScoresFromAStartStateMatchReplays) {
  const graveler::Game game = make_game(231);
  const graveler::State start = game.state_from_string("rolls=100 ones=25");
  graveler::test::Summary s(232);
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  r.seed = 8;
  r.first_playout = 1001;
  r.playout_count = 20001;
  r.start_state = &start;
  r.simd_level = GSDK_SIMD_AVX512;
  game.cpu_playouts(r, s.s);
  ASSERT_EQ(s.s.playouts, 20001u);
  for (const uint64_t p : {s.s.best_playout, s.s.worst_playout}) {
    graveler::State t = start;
    for (uint32_t m : game.replay_playout(8, p, &start)) game.apply_move(t, m);
    EXPECT_EQ(game.score(t), p == s.s.best_playout ? s.s.best_score : s.s.worst_score);
  }
}

} // namespace
