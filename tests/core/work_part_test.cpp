// work_part_test.cpp - parts of a job (work_part.hpp): a part's blocks cover their share of any number of items,
// shards cover every block once, and huge item counts do not overflow. Then the core services run only a part:
// the parts of a playouts job and of a perft count, run apart (on other thread counts), give the whole job's
// result between them, item for item.
#include <stdexcept>

#include <gtest/gtest.h>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/work_part.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::WorkPart;
using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

TEST(WorkPart, BlocksCoverTheirShareOfTheItems) {
  EXPECT_EQ((WorkPart{4, {0}}.ranges(10)), (Ranges{{0, 2}}));
  EXPECT_EQ((WorkPart{4, {1, 3}}.ranges(10)), (Ranges{{2, 5}, {7, 10}}));
  // Touching blocks join, whatever order they are listed in.
  EXPECT_EQ((WorkPart{4, {2, 1}}.ranges(10)), (Ranges{{2, 7}}));
  // Fewer items than blocks: most blocks are empty, and each item is in exactly one block.
  uint64_t covered = 0;
  for (uint64_t b = 0; b < 4096; ++b)
    for (const auto& [first, end] : WorkPart{4096, {b}}.ranges(3)) covered += end - first;
  EXPECT_EQ(covered, 3u);
  // ... and shards interleave the items themselves: 16 items over 2 shards, 8 each; 3 over 3, one each.
  EXPECT_EQ(gsdk::core::shard_part(4096, 1, 2).ranges(16).size(), 8u);
  EXPECT_EQ(gsdk::core::shard_part(4096, 2, 2).ranges(16).front(), (std::pair<uint64_t, uint64_t>{1, 2}));
  for (uint64_t k = 1; k <= 3; ++k) EXPECT_EQ(gsdk::core::shard_part(4096, k, 3).ranges(3), (Ranges{{k - 1, k}})) << k;
  // No overflow of block * items.
  const uint64_t huge = uint64_t{1} << 62;
  EXPECT_EQ((WorkPart{4096, {4095}}.ranges(huge)), (Ranges{{huge / 4096 * 4095, huge}}));
}

TEST(WorkPart, ABlockBeyondTheCountOrTwiceIsRefused) {
  EXPECT_THROW((WorkPart{4, {4}}.ranges(10)), std::invalid_argument);
  EXPECT_THROW((WorkPart{4, {1, 1}}.ranges(10)), std::invalid_argument);
}

TEST(WorkPart, ShardsTakeEveryBlockOnceAndInterleave) {
  std::vector<int> taken(4096, 0);
  for (uint64_t k = 1; k <= 7; ++k)
    for (uint64_t b : gsdk::core::shard_part(4096, k, 7).blocks) ++taken[b];
  for (int n : taken) EXPECT_EQ(n, 1);
  EXPECT_EQ(gsdk::core::shard_part(4096, 2, 7).blocks.front(), 1u);
  EXPECT_EQ(gsdk::core::shard_part(4096, 2, 7).blocks.at(1), 8u);
}

class PartsOfAJob : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new gsdk::host::PluginCatalog;
    catalog_->load_file(gsdk::test::plugin_dir() / "graveler.so");
    catalog_->load_file(gsdk::test::test_plugin_dir("valid") / "test_nim.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static std::unique_ptr<gsdk::core::GameInstance> game(const std::string& name, const toml::table& params) {
    const auto* plugin = catalog_->find(name);
    if (!plugin) return nullptr;
    return std::make_unique<gsdk::core::GameInstance>(plugin->tables,
                                                      gsdk::host::resolve_params(*plugin->tables.game, params).values);
  }
  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* PartsOfAJob::catalog_ = nullptr;

TEST_F(PartsOfAJob, PlayoutPartsAddUpToTheWholeJob) {
  const auto graveler = game("graveler", toml::table{{"rolls", 231}});
  ASSERT_NE(graveler, nullptr);
  gsdk::core::PlayoutJob job;
  job.seed = 5;
  job.playouts = 100'003; // not a multiple of the blocks
  job.cpu_threads = 2;
  const gsdk::core::PlayoutOutcome whole = gsdk::core::run_playouts(*graveler, job);
  ASSERT_TRUE(whole.error.empty()) << whole.error;

  gsdk::core::PlayoutResult merged(whole.result.score_min, static_cast<uint32_t>(whole.result.histogram.size()));
  gsdk::core::PlayoutRanges completed;
  for (uint64_t k = 1; k <= 3; ++k) {
    const WorkPart part = gsdk::core::shard_part(4096, k, 3);
    job.part = &part;
    job.cpu_threads = static_cast<unsigned>(k);
    const gsdk::core::PlayoutOutcome one = gsdk::core::run_playouts(*graveler, job);
    ASSERT_TRUE(one.error.empty()) << one.error;
    EXPECT_LT(one.result.playouts, whole.result.playouts);
    merged.merge(one.result);
    for (const auto& [first, end] : one.completed) gsdk::core::add_playout_range(completed, first, end);
  }
  EXPECT_EQ(merged.playouts, whole.result.playouts);
  EXPECT_EQ(merged.histogram, whole.result.histogram);
  EXPECT_EQ(merged.best_score, whole.result.best_score);
  EXPECT_EQ(merged.best_playout, whole.result.best_playout);
  EXPECT_EQ(completed, (gsdk::core::PlayoutRanges{{0, 100'003}}));
}

TEST_F(PartsOfAJob, PerftPartsCountEachSubtreeOnce) {
  const auto nim = game("test_nim", toml::table{{"stones", 22}, {"max_take", 3}});
  ASSERT_NE(nim, nullptr);
  gsdk::core::PerftJob job;
  job.root = nim->initial_state();
  job.depth = 10;
  job.divide = true;
  job.cpu_threads = 2;
  const gsdk::core::PerftOutcome whole = gsdk::core::run_perft(*nim, job);
  ASSERT_TRUE(whole.error.empty()) << whole.error;

  job.split_target = gsdk::core::kSharedSplitTarget;
  gsdk::core::uint128 leaves = 0;
  std::vector<gsdk::core::uint128> per_move(whole.divide.size(), 0);
  uint64_t subtrees = 0;
  for (uint64_t k = 1; k <= 4; ++k) {
    const WorkPart part = gsdk::core::shard_part(4096, k, 4);
    job.part = &part;
    job.cpu_threads = static_cast<unsigned>(k % 2 + 1);
    const gsdk::core::PerftOutcome one = gsdk::core::run_perft(*nim, job);
    ASSERT_TRUE(one.error.empty()) << one.error;
    EXPECT_GT(one.leaves, 0u);
    EXPECT_LT(one.leaves, whole.leaves);
    leaves += one.leaves;
    subtrees += one.progress.counted.size();
    EXPECT_EQ(one.progress.split_target, gsdk::core::kSharedSplitTarget);
    for (size_t m = 0; m < one.divide.size(); ++m) per_move[m] += one.divide[m].leaves;
  }
  EXPECT_TRUE(leaves == whole.leaves);
  for (size_t m = 0; m < per_move.size(); ++m) EXPECT_TRUE(per_move[m] == whole.divide[m].leaves) << m;
  EXPECT_GE(subtrees, gsdk::core::kSharedSplitTarget);
}

TEST_F(PartsOfAJob, APartOfACountOfDepthOneCountsNothing) {
  const auto nim = game("test_nim", toml::table{{"stones", 22}, {"max_take", 3}});
  ASSERT_NE(nim, nullptr);
  gsdk::core::PerftJob job;
  job.root = nim->initial_state();
  job.depth = 1;
  job.cpu_threads = 1;
  const WorkPart part = gsdk::core::shard_part(4096, 1, 2);
  job.part = &part;
  EXPECT_TRUE(gsdk::core::run_perft(*nim, job).leaves == 0);
}

} // namespace
