// cuda_perft_test.cpp - the core's breadth-first GPU perft engine (gsdk/core/perft/cuda_perft.hpp) driving
// test_tree's gsdk.cuda_perft.v1 kernels (bin/test_plugins/valid/test_tree.so, leaf_plies 2): its
// counts equal per-state recursion for many roots at depths 0..8, with arenas so small that frontiers
// must be split, with terminal roots among live ones, with several engines on one device in parallel
// threads; and its failures (arena too small, a plugin kernel failing, bad roots) are clear messages.
// Tests that need a GPU skip themselves without one.
#include <algorithm>
#include <cstddef>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/perft/cuda_perft.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::CudaPerftEngine;
using gsdk::core::GameInstance;
using gsdk::core::StateBlob;
using gsdk::test::contains;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint32_t kMaxPly = 40; // test_tree's default

// perft through the per-state table alone: the reference.
uint64_t reference_perft(const GameInstance& game, const StateBlob& state, uint32_t depth) {
  if (depth == 0) return 1;
  std::vector<uint32_t> moves(game.max_moves());
  const uint32_t n = game.legal_moves(state, moves.data(), nullptr);
  if (depth == 1) return n;
  uint64_t leaves = 0;
  for (uint32_t k = 0; k < n; ++k) {
    StateBlob child = state;
    game.apply_move(child, moves[k]);
    leaves += reference_perft(game, child, depth - 1);
  }
  return leaves;
}

std::vector<uint64_t> reference_counts(const GameInstance& game, const std::vector<StateBlob>& roots, uint32_t depth) {
  std::vector<uint64_t> counts;
  for (const StateBlob& root : roots) counts.push_back(reference_perft(game, root, depth));
  return counts;
}

// The plugin's CPU perft table: the faster reference for big batches (itself checked against
// reference_perft below).
std::vector<uint64_t> table_counts(const GameInstance& game, const std::vector<StateBlob>& roots, uint32_t depth) {
  std::vector<uint64_t> counts;
  for (const StateBlob& root : roots) {
    uint64_t leaves = 0;
    char error[256] = {};
    EXPECT_EQ(game.tables().cpu_perft->count(game.handle(), root.data(), depth, &leaves, error, sizeof error), GSDK_OK)
        << error;
    counts.push_back(leaves);
  }
  return counts;
}

uint64_t sum(const std::vector<uint64_t>& values) {
  uint64_t total = 0;
  for (uint64_t v : values) total += v;
  return total;
}

class CudaPerft : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new gsdk::host::PluginCatalog;
    catalog_->load_file(gsdk::test::test_plugin_dir("valid") / "test_tree.so");
    catalog_->load_file(gsdk::test::test_plugin_dir("valid") / "test_nim.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(catalog_->find("test_tree"), nullptr)
        << "test_tree.so did not load: " << (catalog_->problems().empty() ? "" : catalog_->problems()[0].message);
  }

  static std::unique_ptr<GameInstance> make_game(const std::string& name, const toml::table& params = {}) {
    const auto& tables = catalog_->find(name)->tables;
    return std::make_unique<GameInstance>(tables, gsdk::host::resolve_params(*tables.game, params).values);
  }
  static std::unique_ptr<GameInstance> tree(const toml::table& params = {}) { return make_game("test_tree", params); }

  static StateBlob state(const GameInstance& game, uint64_t hash, uint32_t ply) {
    return game.state_from_string("hash=" + std::to_string(hash) + " ply=" + std::to_string(ply));
  }

  // Random states at every ply, terminal ones included (a hash that is a multiple of 11, or max_ply).
  static std::vector<StateBlob> random_roots(const GameInstance& game, size_t count, uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<StateBlob> roots;
    for (size_t i = 0; i < count; ++i)
      roots.push_back(state(game, random(), static_cast<uint32_t>(random() % (kMaxPly + 1))));
    return roots;
  }

  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* CudaPerft::catalog_ = nullptr;

// The test game itself: its CPU perft table agrees with per-state recursion (so it may serve as the
// reference for big batches), and its roots include terminal states.
TEST_F(CudaPerft, TestTreeCpuPerftTableMatchesPerStateRecursion) {
  const auto game = tree();
  ASSERT_NE(game->tables().cpu_perft, nullptr);
  const auto roots = random_roots(*game, 200, 1);
  for (uint32_t depth = 1; depth <= 6; ++depth)
    EXPECT_EQ(table_counts(*game, roots, depth), reference_counts(*game, roots, depth)) << "depth " << depth;
  const auto ones = reference_counts(*game, roots, 1);
  EXPECT_GT(std::count(ones.begin(), ones.end(), 0u), 5) << "some roots must be terminal";
  EXPECT_GT(std::count(ones.begin(), ones.end(), 7u), 5) << "some roots must have the most moves";
}

TEST_F(CudaPerft, RefusesAGameWithoutTheCudaPerftTable) {
  const auto nim = make_game("test_nim");
  try {
    CudaPerftEngine engine(*nim, 0, kMiB);
    FAIL() << "the engine started on a game without gsdk.cuda_perft.v1";
  } catch (const std::runtime_error& e) {
    const std::string expected = gsdk::core::built_with_cuda() ? "has no gsdk.cuda_perft.v1 table" : "without CUDA";
    EXPECT_TRUE(contains(e.what(), expected)) << e.what();
  }
}

TEST_F(CudaPerft, MatchesPerStatePerftAtDepths1To6) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = random_roots(*game, 300, 2);
  CudaPerftEngine engine(*game, 0, 64 * kMiB);
  for (uint32_t depth = 1; depth <= 6; ++depth)
    EXPECT_EQ(engine.count(roots, depth), reference_counts(*game, roots, depth)) << "depth " << depth;
  EXPECT_GT(engine.device_milliseconds(), 0.0);
}

TEST_F(CudaPerft, DeepTreesFromAFewRoots) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const std::vector<StateBlob> roots = {game->initial_state(), state(*game, 987654321, 3), state(*game, 5, 30)};
  CudaPerftEngine engine(*game, 0, 64 * kMiB);
  for (uint32_t depth = 7; depth <= 9; ++depth)
    EXPECT_EQ(engine.count(roots, depth), table_counts(*game, roots, depth)) << "depth " << depth;
}

TEST_F(CudaPerft, ManyRootsAndBigLevels) {
  // 20000 roots: levels of about a million states, thousands of expand blocks, and a leaf fold in
  // which every warp meets many roots.
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = random_roots(*game, 20000, 3);
  CudaPerftEngine engine(*game, 0, 256 * kMiB);
  for (uint32_t depth : {1u, 2u, 3u, 5u})
    EXPECT_EQ(engine.count(roots, depth), table_counts(*game, roots, depth)) << "depth " << depth;
}

TEST_F(CudaPerft, TinyArenasSplitTheFrontierAndAgree) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = random_roots(*game, 200, 4);
  const uint32_t depth = 7;
  const auto expected = table_counts(*game, roots, depth);
  // With leaf_plies 2, the last level the engine builds holds the states 5 plies below the roots, at
  // 16 bytes each plus 16 of bookkeeping: several times these arenas.
  const uint64_t last_level = sum(table_counts(*game, roots, depth - 2));
  for (uint64_t arena : {uint64_t{32} << 10, uint64_t{64} << 10, uint64_t{256} << 10}) {
    ASSERT_GT(last_level * 32, 4 * arena) << "the arena would not force splitting";
    CudaPerftEngine engine(*game, 0, arena);
    EXPECT_EQ(engine.count(roots, depth), expected) << "arena of " << arena << " bytes";
    for (uint32_t d = 1; d < depth; ++d)
      EXPECT_EQ(engine.count(roots, d), table_counts(*game, roots, d)) << "arena of " << arena << " bytes, depth " << d;
  }
}

TEST_F(CudaPerft, ArenaTooSmallForOneStatesChildrenIsAClearError) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const std::vector<StateBlob> roots = {game->initial_state()}; // 7 moves
  // Room for the root's own buffers but not for a level of 7 children with its scratch.
  CudaPerftEngine engine(*game, 0, 2048);
  try {
    engine.count(roots, 4);
    FAIL() << "an arena of 2048 bytes cannot hold a level";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "CUDA device 0")) << e.what();
    EXPECT_TRUE(contains(e.what(), "arena too small: one state's 7 children need")) << e.what();
    EXPECT_TRUE(contains(e.what(), "free of 2048")) << e.what();
  }
  // The failed call gave its memory back: counts that need no level still work.
  EXPECT_EQ(engine.count(roots, 2), reference_counts(*game, roots, 2));
}

TEST_F(CudaPerft, ArenaTooSmallForTheRootsIsAClearError) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  CudaPerftEngine engine(*game, 0, 4096);
  try {
    engine.count(random_roots(*game, 1000, 5), 1);
    FAIL() << "an arena of 4096 bytes cannot hold 1000 roots";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "arena too small: the 1000 roots need")) << e.what();
  }
}

TEST_F(CudaPerft, RootsWithoutMovesCountZero) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  CudaPerftEngine engine(*game, 0, 64 * kMiB);
  // Terminal by hash (a multiple of 11) and by ply (max_ply).
  const std::vector<StateBlob> dead = {state(*game, 0, 0), state(*game, 11 * 12345, 7), state(*game, 34, kMaxPly)};
  for (uint32_t depth = 1; depth <= 5; ++depth)
    EXPECT_EQ(engine.count(dead, depth), std::vector<uint64_t>(dead.size(), 0)) << "depth " << depth;

  // Long runs of terminal roots around a few live ones: expand blocks made of parents alone.
  std::vector<StateBlob> mixed;
  for (int run = 0; run < 4; ++run) {
    for (int k = 0; k < 3000; ++k) mixed.push_back(dead[static_cast<size_t>(k) % dead.size()]);
    mixed.push_back(state(*game, 34 + 77 * static_cast<uint64_t>(run), static_cast<uint32_t>(run)));
  }
  for (uint32_t depth = 1; depth <= 6; ++depth)
    EXPECT_EQ(engine.count(mixed, depth), table_counts(*game, mixed, depth)) << "depth " << depth;
}

TEST_F(CudaPerft, DepthsTheLeafKernelCountsAlone) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = random_roots(*game, 5000, 6);
  CudaPerftEngine engine(*game, 0, 16 * kMiB);
  EXPECT_EQ(engine.count(roots, 0), std::vector<uint64_t>(roots.size(), 1));
  EXPECT_EQ(engine.count(roots, 1), reference_counts(*game, roots, 1));
  EXPECT_EQ(engine.count(roots, 2), reference_counts(*game, roots, 2));
  EXPECT_TRUE(engine.count({}, 5).empty());
}

TEST_F(CudaPerft, SeveralEnginesInParallelThreadsAgree) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = random_roots(*game, 500, 7);
  const auto expected = table_counts(*game, roots, 7);
  constexpr int kEngines = 4;
  // Made on this thread and used on others, as the perft driver does.
  std::vector<std::unique_ptr<CudaPerftEngine>> engines;
  for (int e = 0; e < kEngines; ++e) engines.push_back(std::make_unique<CudaPerftEngine>(*game, 0, 32 * kMiB));
  std::vector<std::vector<uint64_t>> counts(kEngines);
  std::vector<std::string> errors(kEngines);
  std::vector<std::thread> threads;
  for (int e = 0; e < kEngines; ++e)
    threads.emplace_back([&, e] {
      try {
        for (int repeat = 0; repeat < 3; ++repeat) counts[e] = engines[e]->count(roots, 7);
      } catch (const std::exception& ex) {
        errors[e] = ex.what();
      }
    });
  for (auto& t : threads) t.join();
  for (int e = 0; e < kEngines; ++e) {
    EXPECT_EQ(errors[e], "") << "engine " << e;
    EXPECT_EQ(counts[e], expected) << "engine " << e;
    EXPECT_GT(engines[e]->device_milliseconds(), 0.0);
  }
}

// What a count of the game's initial state to `depth` on a fresh engine throws, or "" when it does not.
std::string count_error(const GameInstance& game, uint32_t depth) {
  CudaPerftEngine engine(game, 0, 16 * kMiB);
  try {
    engine.count({game.initial_state()}, depth);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST_F(CudaPerft, PluginFailuresNameTheTableFunction) {
  GSDK_REQUIRE_GPU();
  const std::string error = count_error(*tree(toml::table{{"fail_apply", true}}), 4);
  EXPECT_TRUE(contains(error, "plugin 'test_tree' gsdk.cuda_perft.v1 apply_moves failed")) << error;
  EXPECT_TRUE(contains(error, "failing as asked (fail_apply)")) << error;
}

// The level above the leaves reaches the plugin as parents and moves (ABI 1.8), so a failure there names
// count_leaves_after_moves; a table from before ABI 1.8 gets stored children and counts the same.
TEST_F(CudaPerft, TheLevelAboveTheLeavesIsCountedFromParentsAndMoves) {
  GSDK_REQUIRE_GPU();
  const std::string error = count_error(*tree(toml::table{{"fail_apply", true}}), 3);
  EXPECT_TRUE(contains(error, "gsdk.cuda_perft.v1 count_leaves_after_moves failed")) << error;

  const auto game = tree();
  const gsdk::core::PluginTables& tables = game->tables();
  ASSERT_NE(gsdk::core::fused_leaf_count(*tables.cuda_perft), nullptr);
  gsdk_cuda_perft old_table = *tables.cuda_perft;
  old_table.header.size = offsetof(gsdk_cuda_perft, count_leaves_after_moves);
  gsdk::core::PluginTables old_tables = tables;
  old_tables.cuda_perft = &old_table;
  const GameInstance old_game(old_tables, gsdk::host::resolve_params(*tables.game, {}).values);
  CudaPerftEngine fused(*game, 0, 32 * kMiB), stored(old_game, 0, 32 * kMiB);
  const auto roots = random_roots(*game, 300, 5);
  for (uint32_t depth = 1; depth <= 7; ++depth) {
    const auto expected = table_counts(*game, roots, depth);
    EXPECT_EQ(fused.count(roots, depth), expected) << "depth " << depth;
    EXPECT_EQ(stored.count(roots, depth), expected) << "depth " << depth << ", a table from before ABI 1.8";
  }
}

// The perft driver starts its engines (and has each launch every kernel once) before its clock starts,
// and reports that start-up apart; a plugin failing then is the outcome's error, not a crash.
TEST_F(CudaPerft, TheDriverTimesGpuStartUpApartFromTheCount) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  gsdk::core::PerftJob job;
  job.root = game->initial_state();
  job.depth = 7;
  job.cuda_devices = {0};
  job.arena_bytes_per_stream = 64 * kMiB;
  const gsdk::core::PerftOutcome out = gsdk::core::run_perft(*game, job);
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(out.leaves, reference_perft(*game, job.root, 7));
  EXPECT_GT(out.startup_seconds, 0.0);
  EXPECT_GT(out.device_milliseconds, 0.0);

  const auto failing = tree(toml::table{{"fail_apply", true}});
  job.root = failing->initial_state();
  const gsdk::core::PerftOutcome failed = gsdk::core::run_perft(*failing, job);
  EXPECT_TRUE(contains(failed.error, "failing as asked (fail_apply)")) << failed.error;
  EXPECT_EQ(failed.leaves, 0u);
}

TEST_F(CudaPerft, RootsOfTheWrongSizeAreRefused) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  CudaPerftEngine engine(*game, 0, kMiB);
  EXPECT_THROW(engine.count({game->initial_state(), StateBlob(3)}, 3), std::invalid_argument);
}

} // namespace

// ---- hashed: an engine given a table (cuda_hashed_count.cu) ----

// The roots with every third one repeated further on, so that the first level has equal states to merge.
std::vector<StateBlob> with_repeats(const std::vector<StateBlob>& roots) {
  std::vector<StateBlob> out = roots;
  for (size_t i = 0; i < roots.size(); i += 3) out.push_back(roots[i]);
  return out;
}

TEST_F(CudaPerft, HashedCountsEqualThePlainOnesAndTheSecondCallHitsTheTable) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = with_repeats(random_roots(*game, 300, 11));
  auto table = std::make_shared<gsdk::core::CudaPerftTable>(0, 64 * kMiB);
  CudaPerftEngine engine(*game, 0, 64 * kMiB, table);
  for (uint32_t depth = 0; depth <= 7; ++depth)
    EXPECT_EQ(engine.count(roots, depth), table_counts(*game, roots, depth)) << "depth " << depth;
  EXPECT_GE(engine.duplicates(), 100u * 5) << "the repeated roots merge at every hashed depth";
  EXPECT_GT(engine.frontier_states(), engine.duplicates());
  const auto before = table->stats();
  EXPECT_EQ(engine.count(roots, 7), table_counts(*game, roots, 7)) << "again, from the table";
  const auto after = table->stats();
  EXPECT_GE(after.hits - before.hits, 300u) << "every distinct root's count was in the table";
  EXPECT_EQ(after.stores, before.stores) << "nothing new to store";
  EXPECT_GT(after.filled, 0u);
  EXPECT_LE(after.filled, after.slots);
  EXPECT_EQ(after.bytes, 64 * kMiB);
}

TEST_F(CudaPerft, HashedWithATableOfOneBucketAndTinyArenasStillCountsExactly) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = with_repeats(random_roots(*game, 200, 12));
  auto table = std::make_shared<gsdk::core::CudaPerftTable>(0, 64);
  for (uint64_t arena : {uint64_t{64} << 10, uint64_t{1} << 20}) {
    CudaPerftEngine engine(*game, 0, arena, table);
    for (uint32_t depth : {3u, 5u, 7u})
      EXPECT_EQ(engine.count(roots, depth), table_counts(*game, roots, depth))
          << "arena of " << arena << " bytes, depth " << depth;
  }
  const auto stats = table->stats();
  EXPECT_EQ(stats.slots, 4u);
  EXPECT_GT(stats.stores, 4u) << "stores must have evicted";
}

TEST_F(CudaPerft, HashedEnginesSharingATableInParallelThreadsAgree) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  const auto roots = with_repeats(random_roots(*game, 400, 13));
  const auto expected = table_counts(*game, roots, 7);
  auto table = std::make_shared<gsdk::core::CudaPerftTable>(0, kMiB); // small: the engines evict each other's counts
  constexpr int kEngines = 3;
  std::vector<std::unique_ptr<CudaPerftEngine>> engines;
  for (int e = 0; e < kEngines; ++e) engines.push_back(std::make_unique<CudaPerftEngine>(*game, 0, 32 * kMiB, table));
  std::vector<std::vector<uint64_t>> counts(kEngines);
  std::vector<std::string> errors(kEngines);
  std::vector<std::thread> threads;
  for (int e = 0; e < kEngines; ++e)
    threads.emplace_back([&, e] {
      try {
        for (int repeat = 0; repeat < 3; ++repeat) counts[e] = engines[e]->count(roots, 7);
      } catch (const std::exception& ex) {
        errors[e] = ex.what();
      }
    });
  for (auto& t : threads) t.join();
  for (int e = 0; e < kEngines; ++e) {
    EXPECT_EQ(errors[e], "") << "engine " << e;
    EXPECT_EQ(counts[e], expected) << "engine " << e;
  }
}

TEST_F(CudaPerft, HashedDriverEqualsTheUnhashedOneAndReportsItsTables) {
  GSDK_REQUIRE_GPU();
  const auto game = tree();
  gsdk::core::PerftJob job;
  job.root = game->initial_state();
  job.depth = 9;
  job.divide = true;
  job.cuda_devices = {0};
  const auto plain = gsdk::core::run_perft(*game, job);
  job.hashing.enabled = true;
  job.hashing.device_table_bytes = 16 * kMiB;
  const auto hashed = gsdk::core::run_perft(*game, job);
  ASSERT_EQ(plain.error, "");
  ASSERT_EQ(hashed.error, "");
  EXPECT_EQ(hashed.leaves, plain.leaves);
  EXPECT_EQ(hashed.cuda_leaves, plain.leaves);
  ASSERT_EQ(hashed.divide.size(), plain.divide.size());
  for (size_t k = 0; k < plain.divide.size(); ++k) EXPECT_EQ(hashed.divide[k].leaves, plain.divide[k].leaves) << k;
  EXPECT_EQ(hashed.hash.device.bytes, 16 * kMiB);
  EXPECT_GT(hashed.hash.device.probes, 0u);
  EXPECT_GT(hashed.hash.device.stores, 0u);
  EXPECT_GT(hashed.hash.frontier_states, 0u);
  EXPECT_EQ(plain.hash.device.probes, 0u);
}
