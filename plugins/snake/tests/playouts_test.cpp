// playouts_test.cpp - the CPU playout table: results independent of how a range is cut; every playout's
// replay a valid snake by the independent checker, of the length the histogram counted; Kinny's policy
// playing longer snakes than uniform; starts from a given snake; foreign starts refused.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "checker/snake_check.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_game;
using test::request;
using test::run_cpu;
using test::Settings;
using test::Summary;

std::vector<uint32_t> replay(const gsdk::core::GameInstance& game, uint64_t seed, uint64_t playout,
                             const gsdk::core::StateBlob* start = nullptr) {
  std::vector<uint32_t> moves(kMaxLength);
  char error[256] = {};
  const uint32_t n =
      game.tables().replay->playout_moves(game.handle(), seed, playout, start ? start->data() : nullptr, moves.data(),
                                          static_cast<uint32_t>(moves.size()), error, sizeof error);
  EXPECT_EQ(error[0], '\0') << error;
  moves.resize(n);
  return moves;
}

// Mean and variance of the lengths a summary counted.
std::pair<double, double> moments(const Summary& summary) {
  double sum = 0, squares = 0;
  for (size_t length = 0; length < summary.histogram.size(); ++length) {
    sum += double(length) * double(summary.histogram[length]);
    squares += double(length) * double(length) * double(summary.histogram[length]);
  }
  const double mean = sum / double(summary.s.playouts);
  return {mean, squares / double(summary.s.playouts) - mean * mean};
}

TEST(SnakePlayouts, ARangeCutInPiecesGivesTheSameSummary) {
  for (const char* policy : {"uniform", "kinny", "tight"}) {
    const auto game = make_game({8, true, policy});
    Summary whole(*game), parts(*game), part(*game);
    run_cpu(*game, request(5, 100, 3000), whole);
    run_cpu(*game, request(5, 100, 1234), parts);
    run_cpu(*game, request(5, 1334, 1766), part);
    gsdk::merge_summary(parts.s, part.s);
    EXPECT_EQ(whole.histogram, parts.histogram) << policy;
    EXPECT_EQ(whole.s.playouts, 3000u);
    EXPECT_EQ(whole.s.best_score, parts.s.best_score);
    EXPECT_EQ(whole.s.best_playout, parts.s.best_playout);
    EXPECT_EQ(whole.s.worst_playout, parts.s.worst_playout);
    EXPECT_LT(whole.s.worst_score + 10, whole.s.best_score) << "random snakes vary in length";
  }
}

TEST(SnakePlayouts, EveryReplayIsAValidSnakeOfTheLengthTheHistogramCounted) {
  const Settings settings[] = {{3, true, "uniform"}, {5, false, "kinny"},    {8, true, "uniform"},
                               {8, true, "kinny"},   {10, false, "uniform"}, {13, true, "kinny"},
                               {9, true, "tight"},   {12, false, "tight"}};
  for (const Settings& setting : settings) {
    const auto game = make_game(setting);
    const uint64_t seed = 77, first = 1000, count = setting.dimension > 10 ? 20 : 300;
    Summary summary(*game);
    run_cpu(*game, request(seed, first, count), summary);
    std::vector<uint64_t> replayed(summary.histogram.size());
    for (uint64_t playout = first; playout < first + count; ++playout) {
      const std::vector<uint32_t> moves = replay(*game, seed, playout);
      const snake::checker::SnakeVerdict verdict =
          snake::checker::check_snake({setting.dimension, moves, snake::checker::walk_vertices(moves)});
      ASSERT_TRUE(verdict.ok) << "d=" << setting.dimension << " playout " << playout << ": " << verdict.violation;
      ++replayed[moves.size()];
      // The per-state table agrees the replayed snake is finished, at that length.
      gsdk::core::StateBlob s = game->initial_state();
      for (uint32_t k : moves) game->apply_move(s, k);
      ASSERT_EQ(game->current_player(s), GSDK_PLAYER_TERMINAL);
      ASSERT_EQ(game->score(s), static_cast<int64_t>(moves.size()));
    }
    EXPECT_EQ(replayed, summary.histogram) << "d=" << setting.dimension << " " << setting.policy;
    EXPECT_EQ(replay(*game, seed, summary.s.best_playout).size(), static_cast<size_t>(summary.s.best_score));
  }
}

// Kinny's preference for tight moves trades a lower mean for a much wider spread, and longer best snakes
// (what a search that keeps the best playout wants).
TEST(SnakePlayouts, KinnysPolicySpreadsTheLengthsAndFindsLongerSnakesThanUniform) {
  const auto uniform = make_game({9, true, "uniform"});
  const auto kinny = make_game({9, true, "kinny"});
  Summary u(*uniform), k(*kinny);
  run_cpu(*uniform, request(1, 0, 20000), u);
  run_cpu(*kinny, request(1, 0, 20000), k);
  const auto [uniform_mean, uniform_variance] = moments(u);
  const auto [kinny_mean, kinny_variance] = moments(k);
  EXPECT_GT(kinny_variance, 2 * uniform_variance) << uniform_variance << " " << kinny_variance;
  EXPECT_GT(k.s.best_score, u.s.best_score + 5);
  EXPECT_NE(kinny_mean, uniform_mean);
}

// Tight never walks into a dead end while another move stays open: its snakes are longer on average and at
// best than Kinny's.
TEST(SnakePlayouts, TightPolicyFindsLongerSnakesThanKinnys) {
  const auto kinny = make_game({9, true, "kinny"});
  const auto tight = make_game({9, true, "tight"});
  Summary k(*kinny), t(*tight);
  run_cpu(*kinny, request(1, 0, 20000), k);
  run_cpu(*tight, request(1, 0, 20000), t);
  EXPECT_GT(moments(t).first, moments(k).first + 20);
  EXPECT_GT(t.s.best_score, k.s.best_score + 5);
}

TEST(SnakePlayouts, PlayoutsFromAGivenSnakeContinueIt) {
  const auto game = make_game({7, true, "kinny"});
  const gsdk::core::StateBlob start = game->state_from_string("d=7 moves 0 1 2 0 3 1 0 4 2");
  Summary summary(*game);
  run_cpu(*game, request(9, 0, 500, start.data()), summary);
  EXPECT_GE(summary.s.worst_score, 9);
  const std::vector<uint32_t> prefix = {0, 1, 2, 0, 3, 1, 0, 4, 2};
  for (uint64_t playout = 0; playout < 500; playout += 37) {
    std::vector<uint32_t> moves = prefix;
    for (uint32_t k : replay(*game, 9, playout, &start)) moves.push_back(k);
    const auto verdict = snake::checker::check_snake({7, moves, snake::checker::walk_vertices(moves)});
    EXPECT_TRUE(verdict.ok) << verdict.violation;
  }
}

// The message the CPU table gives for a start state, or "" when it accepts it.
std::string start_refusal(const gsdk::core::GameInstance& game, const gsdk::core::StateBlob& start) {
  Summary summary(game);
  const gsdk_playout_request r = request(1, 0, 10, start.data());
  char error[256] = {};
  const int32_t status = game.tables().cpu_playouts->run(game.handle(), &r, &summary.s, error, sizeof error);
  EXPECT_EQ(status == GSDK_OK, error[0] == '\0');
  return error;
}

TEST(SnakePlayouts, StartsThatAreNotSnakesOfTheGameAreRefused) {
  const auto game = make_game({8, true, "uniform"});
  const gsdk::core::StateBlob good = game->state_from_string("d=8 moves 0 1 2 0 3");
  EXPECT_EQ(start_refusal(*game, good), "");
  const std::string prefix = "snake: the playout start state is not a snake of this game (dimension 8): ";
  EXPECT_EQ(start_refusal(*game, make_game({6, true, "uniform"})->initial_state()), prefix + "its dimension is 6");
  const gsdk::core::StateBlob free_start = make_game({8, false, "uniform"})->state_from_string("d=8 moves 4");
  EXPECT_EQ(start_refusal(*game, free_start), prefix + "its move 0 (4) is illegal");
  State tampered;
  std::memcpy(&tampered, good.data(), sizeof tampered);
  tampered.length = static_cast<uint16_t>(kMaxLength); // would overrun the histogram if it were believed
  gsdk::core::StateBlob blob(sizeof tampered);
  std::memcpy(blob.data(), &tampered, sizeof tampered);
  EXPECT_EQ(start_refusal(*game, blob), prefix + "its length is " + std::to_string(kMaxLength));
  tampered.length = 5;
  tampered.head ^= 1u << 7;
  std::memcpy(blob.data(), &tampered, sizeof tampered);
  EXPECT_EQ(start_refusal(*game, blob), prefix + "its bitset or head disagrees with its moves");
}

} // namespace
} // namespace snake
