// nrpa_warm_start_test.cpp - NRPA's warm start (NrpaSettings::warm_moves, warm_adaptations) on test_chain: a policy
// adapted towards a prefix leads the first playout along it, on the CPU and on a GPU running whole searches alike; a
// warm game that ends is every search's first best, so no run reports less; a warm start that is not a game is
// refused.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "chain_fixture.hpp"
#include "gpu.hpp"
#include "gsdk/core/nested/nested_search.hpp"
#include "gsdk/core/nested/nrpa_searcher.hpp"

namespace gsdk::test {
namespace {

using NrpaWarmStart = ChainTest;

// A whole game that always plays the last legal move: rarely what a random playout plays.
std::vector<uint32_t> last_move_game(const core::GameInstance& game) {
  std::vector<uint32_t> moves, legal(game.max_moves());
  core::StateBlob state = game.initial_state();
  while (game.current_player(state) != GSDK_PLAYER_TERMINAL) {
    const uint32_t n = game.checked_legal_moves(state, legal);
    moves.push_back(legal[n - 1]);
    game.apply_move(state, legal[n - 1]);
  }
  return moves;
}

core::NrpaSettings one_playout(uint64_t seed) {
  core::NrpaSettings settings;
  settings.seed = seed;
  settings.level = 1;
  settings.iterations = 1;
  return settings;
}

bool starts_with(const std::vector<uint32_t>& moves, const std::vector<uint32_t>& prefix) {
  return moves.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), moves.begin());
}

TEST_F(NrpaWarmStart, AnAdaptedPolicyLeadsTheFirstPlayoutAlongThePrefix) {
  const auto game = chain(30);
  const std::vector<uint32_t> whole = last_move_game(*game);
  ASSERT_GT(whole.size(), 4u);
  const std::vector<uint32_t> prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
  int cold_followed = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    core::NrpaSettings settings = one_playout(seed);
    cold_followed += starts_with(core::run_nrpa(*game, settings).best.moves, prefix);
    settings.warm_moves = prefix;
    settings.warm_adaptations = 60;
    const core::NestedSearchOutcome warm = core::run_nrpa(*game, settings);
    EXPECT_TRUE(starts_with(warm.best.moves, prefix)) << "seed " << seed;
    EXPECT_EQ(core::replay_score(*game, warm.best.moves), warm.best.score);
  }
  EXPECT_LT(cold_followed, 5) << "cold playouts follow the prefix anyway: the test does not test the warm policy";
}

TEST_F(NrpaWarmStart, AWarmGameIsEverySearchsFirstBest) {
  const auto game = chain(32);
  const std::vector<uint32_t> whole = last_move_game(*game);
  const int64_t whole_score = core::replay_score(*game, whole);
  int below = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    core::NrpaSettings settings = one_playout(seed);
    below += core::run_nrpa(*game, settings).best.score < whole_score;
    settings.warm_moves = whole;
    const core::NestedSearchOutcome warm = core::run_nrpa(*game, settings);
    EXPECT_GE(warm.best.score, whole_score) << "seed " << seed;
  }
  EXPECT_GT(below, 0) << "a cold playout always beat the warm game: the test does not test the floor";
}

TEST_F(NrpaWarmStart, AWarmStartThatIsNotAGameIsRefused) {
  const auto game = chain(10);
  core::NrpaSettings settings = one_playout(1);
  settings.warm_moves = {999};
  EXPECT_THROW(core::run_nrpa(*game, settings), core::StartMovesError);
}

TEST_F(NrpaWarmStart, AGpuRunningWholeSearchesTakesTheWarmPolicy) {
  GSDK_REQUIRE_GPU();
  const auto game = chain(30);
  const std::vector<uint32_t> whole = last_move_game(*game);
  const std::vector<uint32_t> prefix(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
  core::NrpaSettings settings = one_playout(3);
  settings.level = 2;
  settings.iterations = 4;
  settings.budget.restarts = 7;
  settings.budget.searches_in_parallel = 8;
  settings.warm_moves = prefix;
  settings.warm_adaptations = 60;
  const core::NestedSearchOutcome cpu = core::run_nrpa(*game, settings);
  const auto searcher = core::make_cuda_nrpa_searcher(*game, settings.seed, 2, settings.iterations, settings.alpha, 0,
                                                      settings.budget.searches_in_parallel, 2);
  const core::NestedSearchOutcome gpu = core::run_nrpa(*game, settings, {}, searcher.get());
  EXPECT_EQ(gpu.best.moves, cpu.best.moves);
  EXPECT_EQ(gpu.best_search, cpu.best_search);
  EXPECT_TRUE(starts_with(gpu.best.moves, prefix));
}

} // namespace
} // namespace gsdk::test
