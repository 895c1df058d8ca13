// perft_test.cpp - the CPU perft driver (core/include/gsdk/core/perft/perft.hpp) on the test plugins:
// test_nim's counts against a closed form computed here, run_perft against generic_perft for many
// depths and thread counts (per-state recursion and the plugin's cpu_perft table), divide against the
// children's own counts, depths 0 and 1, finished roots, a cpu_perft table that is wrong (caught by
// the comparison) or fails (an error naming plugin and table), refused jobs, and 128-bit text.
#include <stdexcept>

#include <gtest/gtest.h>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::GameInstance;
using gsdk::core::generic_perft;
using gsdk::core::PerftJob;
using gsdk::core::PerftOutcome;
using gsdk::core::run_perft;
using gsdk::core::StateBlob;
using gsdk::core::uint128;
using gsdk::test::contains;

class Perft : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new gsdk::host::PluginCatalog;
    catalog_->load_file(gsdk::test::test_plugin_dir("valid") / "test_nim.so");
    catalog_->load_file(gsdk::test::test_plugin_dir("valid") / "test_coin_tree.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(catalog_->find("test_nim"), nullptr) << "test_nim.so did not load";
    ASSERT_NE(catalog_->find("test_coin_tree"), nullptr) << "test_coin_tree.so did not load";
  }

  static std::unique_ptr<GameInstance> game(const std::string& name, const toml::table& params) {
    const auto& tables = catalog_->find(name)->tables;
    return std::make_unique<GameInstance>(tables, gsdk::host::resolve_params(*tables.game, params).values);
  }
  static std::unique_ptr<GameInstance> nim(int64_t stones, int64_t max_take) {
    return game("test_nim", toml::table{{"stones", stones}, {"max_take", max_take}});
  }
  static std::unique_ptr<GameInstance> coin_tree(int64_t fault = 0) {
    return game("test_coin_tree", toml::table{{"fault", fault}});
  }

  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* Perft::catalog_ = nullptr;

PerftJob cpu_job(const StateBlob& root, uint32_t depth, unsigned threads, bool divide = false) {
  PerftJob job;
  job.root = root;
  job.depth = depth;
  job.cpu_threads = threads;
  job.divide = divide;
  return job;
}

PerftOutcome complete(const GameInstance& game, const PerftJob& job) {
  PerftOutcome out = run_perft(game, job);
  EXPECT_TRUE(out.error.empty()) << out.error;
  return out;
}

// C(n, r) for small arguments; 0 outside 0 <= r <= n.
int64_t binomial(int64_t n, int64_t r) {
  if (r < 0 || n < 0 || r > n) return 0;
  int64_t c = 1;
  for (int64_t i = 1; i <= r; ++i) c = c * (n - r + i) / i;
  return c;
}

// Nim's perft in closed form: a line of `depth` moves is a tuple of takes in [1, k] whose sum stays
// <= stones (the game cannot end before its last move, since takes are positive). By inclusion-
// exclusion over the takes that exceed k, the tuples summing to exactly s number
// sum_j (-1)^j C(depth, j) C(s - j k - 1, depth - 1).
int64_t nim_perft(int64_t stones, int64_t k, int64_t depth) {
  if (depth == 0) return 1;
  int64_t total = 0;
  for (int64_t s = depth; s <= stones; ++s)
    for (int64_t j = 0; j <= depth; ++j)
      total += (j % 2 ? -1 : 1) * binomial(depth, j) * binomial(s - j * k - 1, depth - 1);
  return total;
}

TEST(PerftClosedForm, AgreesWithHandCounts) {
  // The oracle itself: with unlimited takes the lines are C(stones, depth); a few small trees by hand.
  for (int64_t d = 0; d <= 6; ++d) EXPECT_EQ(nim_perft(9, 9, d), binomial(9, d)) << d;
  EXPECT_EQ(nim_perft(3, 2, 1), 2); // take1, take2
  EXPECT_EQ(nim_perft(3, 2, 2), 3); // 1-1, 1-2, 2-1
  EXPECT_EQ(nim_perft(3, 2, 3), 1); // 1-1-1
  EXPECT_EQ(nim_perft(3, 2, 4), 0);
}

TEST_F(Perft, NimMatchesTheClosedForm) {
  for (const auto& [stones, k] : {std::pair<int64_t, int64_t>{21, 3}, {12, 16}, {15, 4}, {1, 1}}) {
    const auto g = nim(stones, k);
    const StateBlob root = g->initial_state();
    for (uint32_t depth = 0; depth <= 9; ++depth) {
      const auto expected = static_cast<uint128>(nim_perft(stones, k, depth));
      EXPECT_EQ(generic_perft(*g, root, depth), expected) << stones << "/" << k << " depth " << depth;
      const PerftOutcome out = complete(*g, cpu_job(root, depth, 2));
      EXPECT_EQ(out.leaves, expected) << stones << "/" << k << " depth " << depth;
      EXPECT_EQ(out.cpu_leaves, expected);
      EXPECT_EQ(out.cuda_leaves, 0u);
      EXPECT_EQ(out.startup_seconds, 0.0) << "no GPU engine to start";
    }
  }
}

TEST_F(Perft, NimFromAMidGameState) {
  const auto g = nim(21, 3);
  const StateBlob root = g->state_from_string("stones=9 to_move=1");
  for (uint32_t depth = 2; depth <= 6; ++depth)
    EXPECT_EQ(complete(*g, cpu_job(root, depth, 7)).leaves, static_cast<uint128>(nim_perft(9, 3, depth))) << depth;
}

TEST_F(Perft, RunPerftEqualsGenericForEveryThreadCount) {
  const auto n = nim(21, 3);
  const auto c = coin_tree();
  for (const GameInstance* g : {n.get(), c.get()}) {
    const StateBlob root = g->initial_state();
    for (uint32_t depth = 2; depth <= 9; ++depth) {
      const uint128 reference = generic_perft(*g, root, depth);
      for (unsigned threads : {1u, 2u, 7u}) {
        const PerftOutcome out = complete(*g, cpu_job(root, depth, threads));
        EXPECT_EQ(out.leaves, reference) << g->game().name << " depth " << depth << ", " << threads << " threads";
      }
    }
  }
  EXPECT_EQ(complete(*n, cpu_job(n->initial_state(), 5, 2)).engine, "generic") << "test_nim has no cpu_perft table";
  EXPECT_EQ(complete(*c, cpu_job(c->initial_state(), 5, 2)).engine, "plugin-cpu");
}

TEST_F(Perft, CoinTreeHasChanceNodesAndEarlyEnds) {
  // The tree the comparisons above run on is not trivial: it has coin flips and finished games
  // inside it, so its count differs from a full tree of the same branching.
  const auto g = coin_tree();
  EXPECT_EQ(g->game().flags & GSDK_GAME_FLAG_CHANCE, GSDK_GAME_FLAG_CHANCE);
  EXPECT_EQ(g->current_player(g->state_from_string("ply=2 value=10")), GSDK_PLAYER_CHANCE);
  EXPECT_EQ(g->current_player(g->state_from_string("ply=3 value=22")), GSDK_PLAYER_TERMINAL);
  EXPECT_EQ(g->current_player(g->state_from_string("ply=12 value=5")), GSDK_PLAYER_TERMINAL);
  EXPECT_GT(generic_perft(*g, g->initial_state(), 9), 0u);
}

TEST_F(Perft, DivideListsRootMovesInOrderAndSumsToTheTotal) {
  const auto n = nim(21, 3);
  const auto c = coin_tree();
  for (const GameInstance* g : {n.get(), c.get()}) {
    const StateBlob root = g->initial_state();
    std::vector<uint32_t> moves(g->max_moves());
    moves.resize(g->legal_moves(root, moves.data(), nullptr));
    for (uint32_t depth : {2u, 3u, 6u}) {
      const PerftOutcome out = complete(*g, cpu_job(root, depth, 2, true));
      ASSERT_EQ(out.divide.size(), moves.size()) << g->game().name;
      uint128 sum = 0;
      for (size_t k = 0; k < moves.size(); ++k) {
        StateBlob child = root;
        g->apply_move(child, moves[k]);
        EXPECT_EQ(out.divide[k].move, moves[k]);
        EXPECT_EQ(out.divide[k].text, g->move_to_string(root, moves[k]));
        EXPECT_EQ(out.divide[k].leaves, generic_perft(*g, child, depth - 1))
            << out.divide[k].text << " depth " << depth;
        sum += out.divide[k].leaves;
      }
      EXPECT_EQ(sum, out.leaves);
    }
  }
  const PerftOutcome nim3 = complete(*n, cpu_job(n->initial_state(), 3, 2, true));
  ASSERT_EQ(nim3.divide.size(), 3u);
  EXPECT_EQ(nim3.divide[0].text, "take1");
  EXPECT_EQ(nim3.divide[2].leaves, static_cast<uint128>(nim_perft(18, 3, 2)));
  EXPECT_TRUE(complete(*n, cpu_job(n->initial_state(), 3, 2, false)).divide.empty()) << "divide only when asked";
}

TEST_F(Perft, DepthZeroAndOne) {
  const auto g = nim(21, 3);
  const StateBlob root = g->initial_state();
  const PerftOutcome zero = complete(*g, cpu_job(root, 0, 2, true));
  EXPECT_EQ(zero.leaves, 1u);
  EXPECT_TRUE(zero.divide.empty());
  const PerftOutcome one = complete(*g, cpu_job(root, 1, 2, true));
  EXPECT_EQ(one.leaves, 3u);
  ASSERT_EQ(one.divide.size(), 3u);
  for (const auto& m : one.divide) EXPECT_EQ(m.leaves, 1u) << m.text;
  EXPECT_EQ(one.divide[1].text, "take2");
  EXPECT_EQ(complete(*g, cpu_job(g->state_from_string("stones=2 to_move=0"), 1, 1)).leaves, 2u);
}

TEST_F(Perft, FinishedRootHasNoLeavesBelowIt) {
  const auto g = nim(21, 3);
  const StateBlob done = g->state_from_string("stones=0 to_move=1");
  EXPECT_EQ(complete(*g, cpu_job(done, 0, 2)).leaves, 1u) << "perft(s, 0) = 1 even for a finished game";
  for (uint32_t depth : {1u, 2u, 5u}) {
    const PerftOutcome out = complete(*g, cpu_job(done, depth, 2, true));
    EXPECT_EQ(out.leaves, 0u) << depth;
    EXPECT_TRUE(out.divide.empty());
  }
}

TEST_F(Perft, ProgressEndsAtTheTotal) {
  const auto g = nim(21, 3);
  uint64_t last_done = 0, last_total = 0;
  const PerftOutcome out = run_perft(*g, cpu_job(g->initial_state(), 8, 2), [&](uint64_t done, uint64_t total) {
    last_done = done;
    last_total = total;
  });
  ASSERT_TRUE(out.error.empty()) << out.error;
  EXPECT_GE(last_total, 64u) << "at least 32 subtrees per CPU worker";
  EXPECT_EQ(last_done, last_total);
}

TEST_F(Perft, WrongCpuPerftTableIsCaughtByTheGenericReference) {
  const auto g = coin_tree(1); // cpu_perft counts one leaf too many per call
  const StateBlob root = g->initial_state();
  const uint128 reference = generic_perft(*g, root, 7);
  const PerftOutcome table = complete(*g, cpu_job(root, 7, 2));
  EXPECT_EQ(table.engine, "plugin-cpu");
  EXPECT_NE(table.leaves, reference) << "the faulty table must give a different count";
  PerftJob generic = cpu_job(root, 7, 2);
  generic.force_generic = true;
  const PerftOutcome forced = complete(*g, generic);
  EXPECT_EQ(forced.engine, "generic");
  EXPECT_EQ(forced.leaves, reference);
}

TEST_F(Perft, FailingCpuPerftTableBecomesAnErrorNamingPluginAndTable) {
  const auto g = coin_tree(2);
  const PerftOutcome out = run_perft(*g, cpu_job(g->initial_state(), 6, 2, true));
  ASSERT_FALSE(out.error.empty());
  EXPECT_TRUE(contains(out.error, "plugin 'test_coin_tree'")) << out.error;
  EXPECT_TRUE(contains(out.error, GSDK_TABLE_CPU_PERFT)) << out.error;
  EXPECT_TRUE(contains(out.error, "injected cpu_perft failure")) << out.error;
  EXPECT_TRUE(contains(out.error, "test_coin_tree.so")) << out.error;
  EXPECT_EQ(out.leaves, 0u) << "no subtree finished, so the partial count is empty";
  EXPECT_EQ(out.divide.size(), 2u) << "divide still lists the root moves, with partial counts";
}

TEST_F(Perft, JobsThatCannotRunAreRefused) {
  const auto g = nim(21, 3);
  EXPECT_THROW(run_perft(*g, cpu_job(StateBlob(3), 3, 1)), std::invalid_argument) << "wrong state size";
  EXPECT_THROW(run_perft(*g, cpu_job(g->initial_state(), 3, 0)), std::invalid_argument) << "no workers";
  PerftJob gpu = cpu_job(g->initial_state(), 3, 0);
  gpu.cuda_devices = {0};
  EXPECT_THROW(run_perft(*g, gpu), std::invalid_argument) << "test_nim has no CUDA perft table";
  gpu.force_generic = true;
  EXPECT_THROW(run_perft(*g, gpu), std::invalid_argument) << "the generic engine runs on CPUs only";
  EXPECT_THROW(generic_perft(*g, StateBlob(1), 2), std::invalid_argument);
}

TEST(PerftText, Uint128InDecimal) {
  EXPECT_EQ(gsdk::core::to_string(0), "0");
  EXPECT_EQ(gsdk::core::to_string(7), "7");
  EXPECT_EQ(gsdk::core::to_string(uint128{1} << 64), "18446744073709551616");
  EXPECT_EQ(gsdk::core::to_string(~uint128{0}), "340282366920938463463374607431768211455");
  EXPECT_EQ(gsdk::core::to_string(uint128{119060324}), "119060324");
}

} // namespace
