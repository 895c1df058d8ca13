// agents_test.cpp - the agents on test_nim, where the winning move is known (leave a multiple of
// max_take + 1 stones): UCT and flat Monte Carlo find the only winning move, UCT beats the random
// agent nearly always (also with batches of leaves under virtual loss), play under a playout budget is
// reproducible for a seed and does not depend on the thread count, forced moves are played without
// searching, a per-move time (set_move_time) overrides the budget, bad settings are refused, GPU agents default to
// batches of leaves.
#include <gtest/gtest.h>

#include "gsdk/core/agents/agents.hpp"
#include "play/agent_spec.hpp"
#include "play/match_report.hpp"
#include "play/match_runner.hpp"
#include "search_fixture.hpp"

namespace {

using gsdk::core::AgentKind;
using gsdk::core::AgentSettings;
using Agents = gsdk::test::SearchTest;

AgentSettings uct(uint64_t playouts, uint32_t roots = 1, uint32_t threads = 0) {
  AgentSettings s;
  s.kind = AgentKind::uct;
  s.playouts = playouts;
  s.roots = roots;
  s.threads = threads;
  return s;
}

gsdk::host::MatchSettings match(const AgentSettings& a, const AgentSettings& b, uint32_t games, uint64_t seed) {
  gsdk::host::MatchSettings m;
  m.games = games;
  m.seed = seed;
  m.specs = {"a", "b"};
  m.agents = {a, b};
  return m;
}

// Positions with exactly one winning move (max_take 3): 5 -> take1, 6 -> take2, 7 -> take3, 13 -> take1.
const std::pair<const char*, const char*> kOnlyWinningMove[] = {{"stones=5 to_move=0", "take1"},
                                                                {"stones=6 to_move=1", "take2"},
                                                                {"stones=7 to_move=0", "take3"},
                                                                {"stones=13 to_move=1", "take1"}};

TEST_F(Agents, UctFindsTheOnlyWinningMove) {
  const auto game = nim();
  for (const auto& [position, winning] : kOnlyWinningMove)
    for (uint64_t seed : {1, 2, 3})
      EXPECT_EQ(gsdk::core::choose_move_text(*game, position, uct(4000), seed), winning) << position << " seed " << seed;
}

TEST_F(Agents, UctWithLeafBatchesAndRootsFindsTheOnlyWinningMove) {
  const auto game = nim();
  AgentSettings s = uct(8000, 3);
  s.leaf = 16;
  for (const auto& [position, winning] : kOnlyWinningMove)
    EXPECT_EQ(gsdk::core::choose_move_text(*game, position, s, 4), winning) << position;
}

TEST_F(Agents, UctWithBatchesOfLeavesFindsTheOnlyWinningMove) {
  const auto game = nim();
  AgentSettings s = uct(8000, 2);
  s.leaf = 4;
  s.batch = 64;
  for (const auto& [position, winning] : kOnlyWinningMove)
    EXPECT_EQ(gsdk::core::choose_move_text(*game, position, s, 6), winning) << position;
}

TEST_F(Agents, UctEvaluatingChildrenFindsTheOnlyWinningMove) {
  const auto game = nim();
  AgentSettings s = uct(8000, 2);
  s.leaf = 4;
  s.batch = 16;
  s.evaluate_children = true;
  for (const auto& [position, winning] : kOnlyWinningMove)
    EXPECT_EQ(gsdk::core::choose_move_text(*game, position, s, 5), winning) << position;
  EXPECT_TRUE(gsdk::host::parse_agent_spec("uct:time=1,evaluate=children").evaluate_children);
  EXPECT_FALSE(gsdk::host::parse_agent_spec("uct:time=1").evaluate_children);
}

TEST_F(Agents, GpuUctDefaultsToBatchesOfEvaluatedChildren) {
  const AgentSettings gpu = gsdk::host::parse_agent_spec("uct:time=1,device=cuda");
  EXPECT_EQ(gpu.leaf, 16u);
  EXPECT_EQ(gpu.batch, 128u);
  EXPECT_EQ(gpu.in_flight, 2u);
  EXPECT_TRUE(gpu.evaluate_children);
  const AgentSettings chosen = gsdk::host::parse_agent_spec("uct:time=1,device=cuda,leaf=64,batch=8,evaluate=leaf");
  EXPECT_EQ(chosen.leaf, 64u);
  EXPECT_EQ(chosen.batch, 8u);
  EXPECT_FALSE(chosen.evaluate_children);
  const AgentSettings cpu = gsdk::host::parse_agent_spec("uct:time=1");
  EXPECT_EQ(cpu.leaf, 1u);
  EXPECT_EQ(cpu.batch, 1u);
  EXPECT_FALSE(cpu.evaluate_children);
  EXPECT_EQ(cpu.draw_value, 0.5);
}

TEST_F(Agents, FlatMonteCarloFindsTheOnlyWinningMoveNearTheEnd) {
  const auto game = nim();
  AgentSettings s;
  s.kind = AgentKind::flat_monte_carlo;
  s.playouts = 6000;
  EXPECT_EQ(gsdk::core::choose_move_text(*game, "stones=5 to_move=0", s, 1), "take1");
  EXPECT_EQ(gsdk::core::choose_move_text(*game, "stones=3 to_move=1", s, 1), "take3");
}

TEST_F(Agents, UctBeatsRandomNearlyAlways) {
  const auto game = nim();
  const auto outcome = gsdk::host::play_match(*game, match(uct(3000), AgentSettings{}, 40, 2024));
  ASSERT_TRUE(outcome.error.empty()) << outcome.error;
  ASSERT_EQ(outcome.games.size(), 40u);
  int wins = 0;
  for (const auto& g : outcome.games) wins += (g.a_player == 0 ? g.score : -g.score) > 0;
  // A random opponent errs at nearly every move; from 21 stones UCT needs one of them to get ahead.
  EXPECT_GE(wins, 38);
  EXPECT_EQ(outcome.agents[0].moves + outcome.agents[1].moves, [&] {
    uint64_t plies = 0;
    for (const auto& g : outcome.games) plies += g.moves.size();
    return plies;
  }());
}

TEST_F(Agents, PlayoutBudgetsArePlayedTheSameWayForASeed) {
  const auto game = nim(toml::table{{"stones", 30}});
  const auto a = gsdk::host::match_json(gsdk::host::play_match(*game, match(uct(500), uct(300), 6, 7)), match(uct(500), uct(300), 6, 7));
  const auto b = gsdk::host::match_json(gsdk::host::play_match(*game, match(uct(500), uct(300), 6, 7)), match(uct(500), uct(300), 6, 7));
  EXPECT_EQ(a["digest"], b["digest"]);
  const auto c = gsdk::host::match_json(gsdk::host::play_match(*game, match(uct(500), uct(300), 6, 8)), match(uct(500), uct(300), 6, 8));
  EXPECT_NE(a["digest"], c["digest"]) << "another seed plays other games";
}

TEST_F(Agents, RootParallelPlayDoesNotDependOnTheThreadCount) {
  const auto game = nim(toml::table{{"stones", 30}});
  const auto one = gsdk::host::play_match(*game, match(uct(900, 3, 1), AgentSettings{}, 4, 5));
  const auto three = gsdk::host::play_match(*game, match(uct(900, 3, 3), AgentSettings{}, 4, 5));
  ASSERT_TRUE(one.error.empty() && three.error.empty()) << one.error << three.error;
  EXPECT_EQ(gsdk::host::match_json(one, match(uct(900, 3, 1), AgentSettings{}, 4, 5))["digest"],
            gsdk::host::match_json(three, match(uct(900, 3, 3), AgentSettings{}, 4, 5))["digest"]);
  // Other root counts search differently but play legal, complete games (play_match checks every move).
  for (uint32_t roots : {2u, 5u}) {
    const auto other = gsdk::host::play_match(*game, match(uct(900, roots), uct(200), 2, 5));
    EXPECT_TRUE(other.error.empty()) << roots << " roots: " << other.error;
    EXPECT_EQ(other.games.size(), 2u);
  }
}

TEST_F(Agents, ForcedMovesAreNotSearched) {
  const auto game = nim();
  const auto agent = gsdk::core::make_agent(*game, uct(5000));
  agent->new_game(1);
  const auto one_stone = game->state_from_string("stones=1 to_move=0");
  EXPECT_EQ(agent->choose_move(one_stone), 1u);
  EXPECT_EQ(agent->last_move().playouts, 0u);
  EXPECT_EQ(agent->choose_move(game->state_from_string("stones=4 to_move=0")) != 0, true);
  EXPECT_EQ(agent->last_move().playouts, 5000u);
}

TEST_F(Agents, ATimeBudgetEndsTheSearch) {
  const auto game = nim(toml::table{{"stones", 300}});
  AgentSettings s = uct(0, 2);
  s.seconds = 0.05;
  const auto agent = gsdk::core::make_agent(*game, s);
  agent->new_game(1);
  const uint32_t move = agent->choose_move(game->initial_state());
  EXPECT_GE(move, 1u);
  EXPECT_LE(move, 3u);
  EXPECT_GT(agent->last_move().playouts, 0u);
  EXPECT_LT(agent->last_move().seconds, 1.0);
}

TEST_F(Agents, AMoveTimeOverridesThePlayoutBudgetUntilCleared) {
  const auto game = nim(toml::table{{"stones", 300}});
  for (const AgentKind kind : {AgentKind::uct, AgentKind::flat_monte_carlo}) {
    AgentSettings s = uct(100);
    s.kind = kind;
    const auto agent = gsdk::core::make_agent(*game, s);
    agent->new_game(1);
    // A tenth of a second runs far more than the settings' 100 playouts; cleared, the budget is 100 again.
    agent->set_move_time(0.1);
    agent->choose_move(game->initial_state());
    EXPECT_GT(agent->last_move().playouts, 1000u);
    EXPECT_GE(agent->last_move().seconds, 0.09);
    EXPECT_LT(agent->last_move().seconds, 1.0);
    agent->set_move_time(0);
    agent->choose_move(game->initial_state());
    EXPECT_LE(agent->last_move().playouts, 256u); // flat MC rounds up to whole rounds of leaf playouts
  }
}

TEST_F(Agents, SettingsAGameCannotHonourAreRefused) {
  const auto game = nim();
  EXPECT_THROW(gsdk::core::make_agent(*game, uct(0)), std::invalid_argument);
  AgentSettings cuda = uct(100);
  cuda.device = gsdk::core::PlayoutDevice::cuda;
  EXPECT_THROW(gsdk::core::make_agent(*game, cuda), std::invalid_argument) << "test_nim has no CUDA playout table";
  const auto graveler = make("graveler");
  EXPECT_THROW(gsdk::core::make_agent(*graveler, AgentSettings{}), std::invalid_argument) << "a one-player game";
}

TEST(WilsonInterval, MatchesPublishedValues) {
  // 8 of 10: Wilson 95% interval [0.4902, 0.9433] (Newcombe 1998, method 3).
  const auto ci = gsdk::host::wilson_interval(8, 10);
  EXPECT_NEAR(ci.low, 0.4902, 1e-4);
  EXPECT_NEAR(ci.high, 0.9433, 1e-4);
  const auto all = gsdk::host::wilson_interval(10, 10);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
  EXPECT_NEAR(all.low, 0.7225, 1e-4);
}

} // namespace
