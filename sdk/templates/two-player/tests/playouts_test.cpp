// playouts_test.cpp - connect_four's CPU batch playouts against the per-state table: a playout played move
// by move through legal_moves/apply_move on the same random stream (the stream contract: playout i draws
// from PhiloxStream(seed, i) alone, one column uniformly among the legal ones) ends as the batch counted;
// replay gives its moves; start states are honoured; ranges split anywhere; bad requests are refused.
#include <gtest/gtest.h>

#include "gsdk/playout_request.hpp"
#include "gsdk/playout_summary.hpp"
#include "test_game.hpp"

namespace connect_four {
namespace {

using test::game;
using test::position;

struct Summary {
  Summary() : histogram(3) {
    s.histogram = histogram.data();
    s.histogram_bins = 3;
    gsdk::reset_summary(s);
  }
  std::vector<uint64_t> histogram;
  gsdk_playout_summary s{};
};

// Playout `playout` from `start` through the per-state table; its moves go to `moves`.
int64_t per_state_playout(State s, uint64_t seed, uint64_t playout, std::vector<uint32_t>& moves) {
  gsdk::rng::PhiloxStream random(seed, playout);
  std::vector<uint32_t> legal(game().max_moves());
  while (game().current_player(s) != GSDK_PLAYER_TERMINAL) {
    const uint32_t n = game().legal_moves(s, legal.data(), nullptr);
    moves.push_back(legal[random.below(n)]);
    game().apply_move(s, moves.back());
  }
  return game().score(s);
}

// Runs playouts [0, count) from `start` through the batch table and checks each against the per-state path
// and replay.
void expect_batch_matches_per_state(const State* start, uint64_t seed, uint64_t count) {
  Summary batch;
  game().cpu_playouts(gsdk::playout_request(seed, 0, count, start), batch.s);
  ASSERT_EQ(batch.s.playouts, count);
  Summary rebuilt;
  State from;
  game().initial_state(from);
  if (start) from = *start;
  for (uint64_t i = 0; i < count; ++i) {
    std::vector<uint32_t> moves;
    gsdk::record_playout(rebuilt.s, per_state_playout(from, seed, i, moves), i, -1);
    ASSERT_EQ(game().replay_playout(seed, i, start), moves) << "playout " << i;
  }
  EXPECT_EQ(batch.histogram, rebuilt.histogram);
  EXPECT_EQ(batch.s.best_score, rebuilt.s.best_score);
  EXPECT_EQ(batch.s.best_playout, rebuilt.s.best_playout);
  EXPECT_EQ(batch.s.worst_playout, rebuilt.s.worst_playout);
}

TEST(Playouts, BatchFromTheEmptyBoardMatchesPerStatePlayouts) {
  expect_batch_matches_per_state(nullptr, 7, 2000);
}

TEST(Playouts, BatchHonoursTheStartState) {
  const State middle = position("4453");
  expect_batch_matches_per_state(&middle, 8, 500);
  // X to move with a win at hand (columns 1 and 5), which random play often misses.
  const State threat = position("223344");
  expect_batch_matches_per_state(&threat, 9, 500);
  // A finished game: every playout is that result, without a move.
  const State won = position("1122334");
  Summary summary;
  game().cpu_playouts(gsdk::playout_request(1, 0, 10, &won), summary.s);
  EXPECT_EQ(summary.histogram, (std::vector<uint64_t>{0, 0, 10}));
  EXPECT_TRUE(game().replay_playout(1, 3, &won).empty());
}

TEST(Playouts, AnySplitOfTheRangeGivesTheSameSummary) {
  Summary whole, split;
  game().cpu_playouts(gsdk::playout_request(3, 100, 1000), whole.s);
  game().cpu_playouts(gsdk::playout_request(3, 100, 333), split.s);
  game().cpu_playouts(gsdk::playout_request(3, 433, 667), split.s);
  EXPECT_EQ(split.histogram, whole.histogram);
  EXPECT_EQ(split.s.best_playout, whole.s.best_playout);
  EXPECT_EQ(split.s.worst_playout, whole.s.worst_playout);
  EXPECT_GT(whole.histogram[0], 0u);
  EXPECT_GT(whole.histogram[2], whole.histogram[0]) << "random games favour the first player";
}

TEST(Playouts, BadRequestsAreRefused) {
  Summary summary;
  State overlapping{{1, 1}};
  try {
    game().cpu_playouts(gsdk::playout_request(1, 0, 1, &overlapping), summary.s);
    ADD_FAILURE() << "a start state with a cell held by both players was accepted";
  } catch (const gsdk::PluginError& e) {
    EXPECT_STREQ(e.what(),
                 "the playout start state is not a connect_four position: a cell holds discs of both players");
  }
  std::vector<uint64_t> histogram(5);
  gsdk_playout_summary wrong{};
  wrong.histogram = histogram.data();
  wrong.histogram_bins = 5;
  gsdk::reset_summary(wrong);
  EXPECT_THROW(game().cpu_playouts(gsdk::playout_request(1, 0, 1), wrong), gsdk::PluginError);
}

} // namespace
} // namespace connect_four
