// hashed_perft_test.cpp - the CPU side of hashed perft (perft_hashing.hpp): counts with transposition tables equal
// the counts without them (and the closed form of test_nim, whose tree is full of transpositions) for every depth,
// thread count, engine and table size, down to a table of one bucket that evicts all the time; the distinct expansion
// merges paths; the statistics say what the tables did; a hashed count resumes only hashed progress.
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
using gsdk::core::PerftProgress;
using gsdk::core::run_perft;
using gsdk::core::StateBlob;
using gsdk::core::uint128;

class HashedPerft : public ::testing::Test {
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

  static std::unique_ptr<GameInstance> game(const std::string& name, const toml::table& params) {
    const auto* plugin = catalog_->find(name);
    EXPECT_NE(plugin, nullptr) << name << " did not load";
    return std::make_unique<GameInstance>(plugin->tables,
                                          gsdk::host::resolve_params(*plugin->tables.game, params).values);
  }
  static std::unique_ptr<GameInstance> nim(int64_t stones, int64_t max_take) {
    return game("test_nim", toml::table{{"stones", stones}, {"max_take", max_take}});
  }
  static std::unique_ptr<GameInstance> coin_tree() { return game("test_coin_tree", toml::table{{"fault", 0}}); }

  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* HashedPerft::catalog_ = nullptr;

// With split_target 0 the root is cut for the workers, and a game of few positions such as nim is expanded by the
// host, merging as it goes, nearly to the leaves; the tests of the workers' table cut it into a few subtrees only.
PerftJob job_for(const StateBlob& root, uint32_t depth, unsigned threads, bool hashed, uint64_t table_bytes = 0,
                 uint64_t split_target = 0) {
  PerftJob job;
  job.split_target = split_target;
  job.root = root;
  job.depth = depth;
  job.cpu_threads = threads;
  job.divide = true;
  job.hashing.enabled = hashed;
  job.hashing.host_table_bytes = table_bytes;
  return job;
}

PerftOutcome complete(const GameInstance& game, const PerftJob& job) {
  PerftOutcome out = run_perft(game, job);
  EXPECT_TRUE(out.error.empty()) << out.error;
  EXPECT_FALSE(out.stopped);
  return out;
}

void expect_same_counts(const PerftOutcome& hashed, const PerftOutcome& plain, const std::string& what) {
  EXPECT_EQ(hashed.leaves, plain.leaves) << what;
  EXPECT_EQ(hashed.cpu_leaves, plain.leaves) << what << ": the workers' share covers every path";
  ASSERT_EQ(hashed.divide.size(), plain.divide.size()) << what;
  for (size_t k = 0; k < plain.divide.size(); ++k) {
    EXPECT_EQ(hashed.divide[k].text, plain.divide[k].text) << what;
    EXPECT_EQ(hashed.divide[k].leaves, plain.divide[k].leaves) << what << " " << plain.divide[k].text;
  }
}

// perft of nim in closed form, as in perft_test.cpp: lines of `depth` takes in [1, k] summing to at most `stones`.
uint128 nim_lines(int64_t stones, int64_t k, int64_t depth) {
  // Dynamic programming over the stones taken so far.
  std::vector<uint128> ways(static_cast<size_t>(stones) + 1, 0);
  ways[0] = 1;
  for (int64_t d = 0; d < depth; ++d) {
    std::vector<uint128> next(ways.size(), 0);
    for (int64_t s = 0; s <= stones; ++s)
      for (int64_t t = 1; t <= k && s + t <= stones; ++t)
        next[static_cast<size_t>(s + t)] += ways[static_cast<size_t>(s)];
    ways = std::move(next);
  }
  uint128 total = 0;
  for (uint128 w : ways) total += w;
  return total;
}

TEST_F(HashedPerft, EqualsTheUnhashedCountForEveryDepthAndThreadCount) {
  const auto n = nim(21, 3);
  const auto c = coin_tree();
  for (const GameInstance* g : {n.get(), c.get()}) {
    const StateBlob root = g->initial_state();
    for (uint32_t depth = 0; depth <= 9; ++depth) {
      const PerftOutcome plain = complete(*g, job_for(root, depth, 2, false));
      EXPECT_EQ(plain.leaves, generic_perft(*g, root, depth));
      for (unsigned threads : {1u, 2u, 5u}) {
        const std::string what = std::string(g->game().name) + " depth " + std::to_string(depth) + ", " +
                                 std::to_string(threads) + " threads";
        const PerftOutcome hashed = complete(*g, job_for(root, depth, threads, true));
        expect_same_counts(hashed, plain, what);
      }
    }
  }
}

TEST_F(HashedPerft, TheGenericEngineHashesToo) {
  const auto g = coin_tree();
  PerftJob job = job_for(g->initial_state(), 8, 2, true);
  job.force_generic = true;
  const PerftOutcome hashed = complete(*g, job);
  EXPECT_EQ(hashed.engine, "generic");
  expect_same_counts(hashed, complete(*g, job_for(g->initial_state(), 8, 2, false)), "generic");
  EXPECT_GT(hashed.hash.host.probes, 0u);
}

TEST_F(HashedPerft, CountsADepthOnlyTranspositionsMakeAffordable) {
  // 3^24 = 2.8e11 lines: hours without a table, milliseconds with one (nim has 2 x 61 positions).
  const auto g = nim(60, 3);
  const PerftOutcome out = complete(*g, job_for(g->initial_state(), 24, 2, true, 0, 3));
  EXPECT_EQ(out.leaves, nim_lines(60, 3, 24));
  EXPECT_EQ(out.hash.subtrees, 3u);
  EXPECT_EQ(complete(*g, job_for(g->initial_state(), 24, 2, true)).leaves, out.leaves) << "expanded by the host";
  EXPECT_GT(out.hash.host.hits, 0u);
  EXPECT_LT(out.wall_seconds, 30.0) << "the table did not merge the transpositions";
}

TEST_F(HashedPerft, ATableOfOneBucketEvictsAllTheTimeAndStillCountsExactly) {
  const auto n = nim(40, 4);
  const auto c = coin_tree();
  for (const GameInstance* g : {n.get(), c.get()}) {
    const StateBlob root = g->initial_state();
    for (uint32_t depth : {5u, 8u, 10u}) {
      const PerftOutcome plain = complete(*g, job_for(root, depth, 2, false));
      const PerftOutcome tiny = complete(*g, job_for(root, depth, 2, true, 1, 2));
      expect_same_counts(tiny, plain, std::string(g->game().name) + " one bucket, depth " + std::to_string(depth));
      EXPECT_EQ(tiny.hash.host.slots, 4u) << "one bucket of four slots";
      EXPECT_LE(tiny.hash.host.filled, 4u);
      if (depth >= 8) {
        EXPECT_GT(tiny.hash.host.stores, tiny.hash.host.slots) << "stores must have evicted";
      }
    }
  }
}

TEST_F(HashedPerft, TheExpansionMergesPathsAndTheStatisticsSaySo) {
  const auto g = nim(40, 4);
  const PerftOutcome out = complete(*g, job_for(g->initial_state(), 12, 2, true, 0, 20));
  EXPECT_TRUE(out.hash.enabled);
  EXPECT_TRUE(out.progress.distinct);
  EXPECT_GT(out.hash.paths, out.hash.subtrees) << "nim's paths meet: the expansion must merge them";
  EXPECT_EQ(out.hash.subtrees, out.progress.subtrees);
  EXPECT_GT(out.hash.host.bytes, 0u);
  EXPECT_GT(out.hash.host.probes, 0u);
  EXPECT_GT(out.hash.host.hits, 0u);
  EXPECT_GT(out.hash.host.stores, 0u);
  EXPECT_LE(out.hash.host.hits, out.hash.host.probes);
  EXPECT_LE(out.hash.host.filled, out.hash.host.stores);
  EXPECT_EQ(out.hash.device.probes, 0u) << "no GPU";
  const PerftOutcome plain = complete(*g, job_for(g->initial_state(), 12, 2, false));
  EXPECT_FALSE(plain.hash.enabled);
  EXPECT_FALSE(plain.progress.distinct);
  EXPECT_EQ(plain.hash.host.probes, 0u);
  EXPECT_EQ(plain.leaves, out.leaves);
}

TEST_F(HashedPerft, ResumesItsOwnProgressAndRefusesTheOtherKind) {
  const auto g = nim(40, 4);
  const StateBlob root = g->initial_state();
  const PerftOutcome whole = complete(*g, job_for(root, 11, 1, true));
  ASSERT_GT(whole.progress.subtrees, 4u);
  PerftProgress half = whole.progress;
  std::erase_if(half.counted, [](const auto& entry) { return entry.first % 2 == 1; });
  PerftJob rest = job_for(root, 11, 2, true);
  rest.resume = &half;
  const PerftOutcome resumed = complete(*g, rest);
  EXPECT_EQ(resumed.leaves, whole.leaves);
  ASSERT_EQ(resumed.divide.size(), whole.divide.size());
  for (size_t k = 0; k < whole.divide.size(); ++k) EXPECT_EQ(resumed.divide[k].leaves, whole.divide[k].leaves);
  EXPECT_EQ(resumed.progress.counted, whole.progress.counted);

  PerftJob unhashed = job_for(root, 11, 2, false);
  unhashed.resume = &whole.progress;
  EXPECT_THROW(run_perft(*g, unhashed), std::invalid_argument) << "hashed progress, unhashed job";
  const PerftOutcome plain = complete(*g, job_for(root, 11, 1, false));
  PerftJob hashed = job_for(root, 11, 2, true);
  hashed.resume = &plain.progress;
  EXPECT_THROW(run_perft(*g, hashed), std::invalid_argument) << "unhashed progress, hashed job";
}

} // namespace
