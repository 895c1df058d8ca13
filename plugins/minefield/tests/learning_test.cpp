// learning_test.cpp - the CPU trainer on the minefield: convergence to the exact optimum on a tiny grid,
// the east-wall trap of first-action ties, and results that do not depend on how a run is cut.
#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "minefield_test_util.hpp"

namespace minefield {
namespace {

using test::GameParams;
using test::make_game;
using test::Training;

uint32_t manhattan(const Board& b, uint32_t from, uint32_t to) {
  return static_cast<uint32_t>(std::abs(static_cast<int>(b.column(from)) - static_cast<int>(b.column(to))) +
                               std::abs(static_cast<int>(b.row(from)) - static_cast<int>(b.row(to))));
}

TEST(MinefieldLearning, ConvergesToTheExactOptimumOnATinyGrid) {
  GameParams p;
  p.size = 5;
  p.mines = 0;
  p.agents = 16;
  p.map_seed = 3;
  const auto game = make_game(p);
  const Board& b = game->board();
  Training t(*game, 1, 800);
  for (uint32_t k = 0; k < 800; ++k) t.thresholds[k] = k < 600 ? 0x80000000u : 0; // explore half the time, then not
  t.bind();
  test::train_on_cpu(*game, t);
  for (uint32_t s : b.starts) {
    const float* row = &t.tables[s * kActions];
    const uint32_t k = manhattan(b, s, b.flag);
    // A cell k moves from the flag is worth 0.9^(k-1): the reward is paid on the k-th move.
    EXPECT_NEAR(*std::max_element(row, row + kActions), std::pow(0.9, k - 1.0), 1e-4) << "cell " << s;
    // The greedy path is a shortest one.
    uint32_t cell = s, moves = 0;
    while (cell != b.flag && moves <= 2 * p.size) {
      const float* r = &t.tables[cell * kActions];
      cell = game->environment().neighbour(cell, static_cast<uint32_t>(std::max_element(r, r + kActions) - r));
      ++moves;
    }
    EXPECT_EQ(moves, k) << "greedy path from cell " << s;
  }
  // With exploration off, the last episode's agents walked straight to the flag until 3 of 16 (20%) or
  // fewer were still walking; the board has no mines to fail on.
  EXPECT_GE(t.stat(0, 799, GSDK_QL_STAT_SUCCESSES), 13u);
  EXPECT_EQ(t.stat(0, 799, GSDK_QL_STAT_FAILURES), 0u);
  EXPECT_LE(t.stat(0, 799, GSDK_QL_STAT_STEPS), 2 * 4u);
}

TEST(MinefieldLearning, FirstActionTiesPileGreedyAgentsAgainstTheEastWall) {
  GameParams p;
  p.size = 10;
  p.mines = 0;
  p.agents = 64;
  p.step_limit = 100;
  p.map_seed = 8;
  const auto game = make_game(p);
  const Board& b = game->board();
  ASSERT_LT(b.column(b.flag), 9u) << "this map's flag should not be on the east wall";
  uint64_t east[2] = {}, all[2] = {};
  uint32_t successes[2] = {};
  for (int first = 0; first < 2; ++first) {
    Training t(*game, 1, 30, first ? GSDK_QL_FIRST_MAX_TIES : 0);
    std::fill(t.thresholds.begin(), t.thresholds.end(), 0u); // greedy from the start, zero tables
    test::train_on_cpu(*game, t);
    for (uint32_t c = 0; c < b.cell_count(); ++c) {
      all[first] += t.visits[c];
      if (b.column(c) == 9) east[first] += t.visits[c];
    }
    for (uint32_t k = 0; k < 30; ++k) successes[first] += t.stat(0, k, GSDK_QL_STAT_SUCCESSES);
  }
  // Ties to "right" send every agent east, where bumping the wall pays 0 and keeps the tie: stuck.
  EXPECT_GT(static_cast<double>(east[1]) / all[1], 0.8);
  EXPECT_LT(static_cast<double>(east[0]) / all[0], 0.3);
  EXPECT_GT(successes[0], 4 * successes[1] + 10);
}

TEST(MinefieldLearning, EnvironmentRangesAndEpisodeChunksGiveTheSameRun) {
  GameParams p;
  p.size = 12;
  p.agents = 40;
  const auto game = make_game(p);
  Training whole(*game, 6, 60);
  test::train_on_cpu(*game, whole);

  // Environments 0-1, 2-3, 4-5 in separate requests.
  Training parts(*game, 6, 60);
  for (uint32_t first = 0; first < 6; first += 2) {
    gsdk_qlearning_request r = parts.request;
    r.first_environment = first;
    r.environment_count = 2;
    r.q_tables = parts.tables.data() + uint64_t{first} * parts.states * kActions;
    r.episode_stats = parts.stats.data() + uint64_t{first} * 60 * GSDK_QL_STAT_COUNT;
    r.visits = parts.visits.data() + uint64_t{first} * parts.states;
    gsdk::qlearning::train_cpu(game->environment(), r, game->start_states());
  }
  EXPECT_EQ(parts.tables, whole.tables);
  EXPECT_EQ(parts.stats, whole.stats);
  EXPECT_EQ(parts.visits, whole.visits);

  // Episodes 0-24 then 25-59, the tables carried over.
  Training chunks(*game, 6, 60);
  std::vector<uint32_t> stats(6 * 60 * GSDK_QL_STAT_COUNT);
  for (auto [first, count] : {std::pair<uint32_t, uint32_t>{0, 25}, {25, 35}}) {
    std::vector<uint32_t> chunk_stats(6 * count * GSDK_QL_STAT_COUNT);
    gsdk_qlearning_request r = chunks.request;
    r.first_episode = first;
    r.episode_count = count;
    r.explore_thresholds = chunks.thresholds.data() + first;
    r.episode_stats = chunk_stats.data();
    gsdk::qlearning::train_cpu(game->environment(), r, game->start_states());
    for (uint32_t e = 0; e < 6; ++e)
      std::copy_n(&chunk_stats[e * count * GSDK_QL_STAT_COUNT], count * GSDK_QL_STAT_COUNT,
                  &stats[(e * 60 + first) * GSDK_QL_STAT_COUNT]);
  }
  EXPECT_EQ(chunks.tables, whole.tables);
  EXPECT_EQ(stats, whole.stats);
}

TEST(MinefieldLearning, EpisodeStatisticsAddUp) {
  GameParams p;
  p.size = 20;
  p.agents = 100;
  p.step_limit = 50;
  const auto game = make_game(p);
  Training t(*game, 3, 40);
  test::train_on_cpu(*game, t);
  for (uint32_t e = 0; e < 3; ++e) {
    for (uint32_t k = 0; k < 40; ++k) {
      const uint32_t ended = t.stat(e, k, GSDK_QL_STAT_SUCCESSES) + t.stat(e, k, GSDK_QL_STAT_FAILURES);
      const uint32_t steps = t.stat(e, k, GSDK_QL_STAT_STEPS);
      EXPECT_GE(steps, 1u);
      EXPECT_LE(steps, 50u);
      EXPECT_LE(ended, 100u);
      // An episode ends when 20 or fewer of 100 agents move, or at the step limit.
      if (steps < 50) {
        EXPECT_GE(ended, 80u);
      }
      // Every step moved every agent still moving: at least those that end later, at most all.
      EXPECT_LE(t.stat(e, k, GSDK_QL_STAT_AGENT_STEPS), 100u * steps);
      EXPECT_GE(t.stat(e, k, GSDK_QL_STAT_AGENT_STEPS), 100u + (steps - 1) * (100u - ended));
    }
  }
  uint64_t visits = 0, agent_steps = 0;
  for (uint64_t v : t.visits) visits += v;
  for (uint32_t e = 0; e < 3; ++e)
    for (uint32_t k = 0; k < 40; ++k) agent_steps += t.stat(e, k, GSDK_QL_STAT_AGENT_STEPS);
  EXPECT_EQ(visits, agent_steps) << "each agent-step moves onto one cell";
}

TEST(MinefieldLearning, ASharedTableOfOneEnvironmentIsThatEnvironmentsTable) {
  GameParams p;
  p.size = 15;
  p.agents = 50;
  const auto game = make_game(p);
  Training own(*game, 1, 50), shared(*game, 1, 50, GSDK_QL_SHARED_TABLE);
  test::train_on_cpu(*game, own);
  test::train_on_cpu(*game, shared);
  EXPECT_EQ(own.tables, shared.tables);
  EXPECT_EQ(own.stats, shared.stats);
  // Several environments on one table learn from one another: different from separate tables.
  Training four(*game, 4, 50, GSDK_QL_SHARED_TABLE), again(*game, 4, 50, GSDK_QL_SHARED_TABLE);
  test::train_on_cpu(*game, four);
  test::train_on_cpu(*game, again);
  EXPECT_EQ(four.tables, again.tables) << "lockstep training is reproducible";
  EXPECT_NE(four.tables, own.tables);
}

TEST(MinefieldLearning, ZeroLearningRateLeavesTheTableAsItIs) {
  GameParams p;
  p.size = 15;
  p.agents = 50;
  const auto game = make_game(p);
  Training trained(*game, 2, 30);
  test::train_on_cpu(*game, trained);
  Training frozen = trained;
  frozen.request.alpha = 0.0f;
  frozen.request.first_episode = 30;
  test::train_on_cpu(*game, frozen);
  EXPECT_EQ(frozen.tables, trained.tables);
}

} // namespace
} // namespace minefield
