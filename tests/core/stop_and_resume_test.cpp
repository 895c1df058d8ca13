// stop_and_resume_test.cpp - the stop request and resume of the core's schedulers (playouts.hpp, perft.hpp):
// a job asked to stop before or while it runs returns exactly what completed and says it stopped; a job
// given what an earlier one completed runs only the rest and ends with the uninterrupted result, with another
// number of threads; progress that does not fit the job is refused.
#include <atomic>
#include <stdexcept>

#include <gtest/gtest.h>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::GameInstance;
using gsdk::core::PerftJob;
using gsdk::core::PerftOutcome;
using gsdk::core::PerftProgress;
using gsdk::core::PlayoutJob;
using gsdk::core::PlayoutOutcome;
using gsdk::core::PlayoutProgress;
using gsdk::core::PlayoutRanges;
using gsdk::core::StopRequest;
using gsdk::core::uint128;

class StopAndResume : public ::testing::Test {
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
  void SetUp() override {
    ASSERT_NE(catalog_->find("graveler"), nullptr) << "graveler.so did not load";
    ASSERT_NE(catalog_->find("test_nim"), nullptr) << "test_nim.so did not load";
  }

  static std::unique_ptr<GameInstance> game(const std::string& name, const toml::table& params) {
    const auto& tables = catalog_->find(name)->tables;
    return std::make_unique<GameInstance>(tables, gsdk::host::resolve_params(*tables.game, params).values);
  }
  static std::unique_ptr<GameInstance> graveler() { return game("graveler", toml::table{{"rolls", 231}}); }
  static std::unique_ptr<GameInstance> nim() { return game("test_nim", toml::table{{"stones", 40}, {"max_take", 3}}); }

  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* StopAndResume::catalog_ = nullptr;

PlayoutJob playout_job(uint64_t playouts, unsigned threads, uint64_t item = 1u << 16) {
  PlayoutJob job;
  job.seed = 2024;
  job.playouts = playouts;
  job.cpu_threads = threads;
  job.cpu_item_playouts = item;
  return job;
}

uint64_t playouts_in(const PlayoutRanges& ranges) {
  uint64_t n = 0;
  for (const auto& [first, end] : ranges) n += end - first;
  return n;
}

// Long enough that a stop raised at the first progress report (after about 0.1 s) comes while it runs.
constexpr uint64_t kLongJob = uint64_t{1} << 36;

TEST_F(StopAndResume, PlayoutsStoppedBeforeTheyStartCountNothing) {
  const auto g = graveler();
  StopRequest stop;
  stop.request();
  PlayoutJob job = playout_job(1000000, 2);
  job.stop = &stop;
  const PlayoutOutcome out = gsdk::core::run_playouts(*g, job);
  EXPECT_TRUE(out.stopped);
  EXPECT_TRUE(out.error.empty()) << "a stop is not an error: " << out.error;
  EXPECT_EQ(out.result.playouts, 0u);
  EXPECT_TRUE(out.completed.empty());
}

TEST_F(StopAndResume, PlayoutsStoppedWhileRunningHoldExactlyWhatCompleted) {
  const auto g = graveler();
  StopRequest stop;
  PlayoutJob job = playout_job(kLongJob, 2);
  job.stop = &stop;
  const PlayoutOutcome out = gsdk::core::run_playouts(*g, job, [&](uint64_t done, uint64_t) {
    if (done > 0) stop.request();
  });
  ASSERT_TRUE(out.stopped);
  EXPECT_TRUE(out.error.empty()) << out.error;
  EXPECT_GT(out.result.playouts, 0u);
  EXPECT_LT(out.result.playouts, kLongJob);
  EXPECT_EQ(playouts_in(out.completed), out.result.playouts);
  uint64_t histogram_total = 0;
  for (uint64_t count : out.result.histogram) histogram_total += count;
  EXPECT_EQ(histogram_total, out.result.playouts);
}

TEST_F(StopAndResume, PlayoutsResumedAfterAStopEqualTheUninterruptedRun) {
  const auto g = graveler();
  constexpr uint64_t kPlayouts = uint64_t{1} << 25;
  const PlayoutOutcome whole = gsdk::core::run_playouts(*g, playout_job(kPlayouts, 1));
  ASSERT_TRUE(whole.error.empty()) << whole.error;

  StopRequest stop;
  PlayoutJob first = playout_job(kPlayouts, 1, 1u << 12);
  first.stop = &stop;
  const PlayoutOutcome part = gsdk::core::run_playouts(*g, first, [&](uint64_t done, uint64_t) {
    if (done > 0) stop.request();
  });
  ASSERT_TRUE(part.stopped) << "the job ended before the stop: make kPlayouts larger";
  const PlayoutProgress progress{part.completed, part.result};
  PlayoutJob rest = playout_job(kPlayouts, 3);
  rest.resume = &progress;
  const PlayoutOutcome resumed = gsdk::core::run_playouts(*g, rest);
  EXPECT_TRUE(resumed.error.empty()) << resumed.error;
  EXPECT_FALSE(resumed.stopped);
  EXPECT_EQ(resumed.result.playouts, kPlayouts);
  EXPECT_EQ(resumed.timings.cpu_playouts, kPlayouts - part.result.playouts) << "the resumed playouts ran again";
  EXPECT_EQ(resumed.completed, (PlayoutRanges{{0, kPlayouts}}));
  EXPECT_EQ(resumed.result.digest(), whole.result.digest());
}

TEST_F(StopAndResume, PlayoutsResumedFromAPrefixEqualOneRun) {
  const auto g = graveler();
  const PlayoutOutcome whole = gsdk::core::run_playouts(*g, playout_job(3000000, 1));
  // Playout i draws from the stream (seed, i): a shorter job's result is the longer one's prefix.
  const PlayoutOutcome prefix = gsdk::core::run_playouts(*g, playout_job(1234567, 2));
  const PlayoutProgress progress{prefix.completed, prefix.result};
  PlayoutJob rest = playout_job(3000000, 3, 100000);
  rest.resume = &progress;
  const PlayoutOutcome resumed = gsdk::core::run_playouts(*g, rest);
  EXPECT_EQ(resumed.timings.cpu_playouts, 3000000u - 1234567u);
  EXPECT_EQ(resumed.result.digest(), whole.result.digest());
}

TEST_F(StopAndResume, PlayoutProgressThatDoesNotFitTheJobIsRefused) {
  const auto g = graveler();
  const PlayoutOutcome prefix = gsdk::core::run_playouts(*g, playout_job(1000, 1));
  PlayoutJob job = playout_job(500, 1);
  const PlayoutProgress beyond{prefix.completed, prefix.result};
  job.resume = &beyond;
  EXPECT_THROW(gsdk::core::run_playouts(*g, job), std::invalid_argument) << "ranges beyond the job";
  job.playouts = 5000;
  const PlayoutProgress miscounted{{{0, 999}}, prefix.result};
  job.resume = &miscounted;
  EXPECT_THROW(gsdk::core::run_playouts(*g, job), std::invalid_argument) << "ranges and result disagree";
  const PlayoutProgress overlapping{{{0, 600}, {500, 900}}, prefix.result};
  job.resume = &overlapping;
  EXPECT_THROW(gsdk::core::run_playouts(*g, job), std::invalid_argument) << "overlapping ranges";
}

TEST_F(StopAndResume, PlayoutSnapshotsComeWhileTheJobRuns) {
  const auto g = graveler();
  PlayoutJob job = playout_job(uint64_t{1} << 26, 2, 1u << 14);
  job.snapshot_seconds = 0;
  std::atomic<int> snapshots{0};
  std::atomic<bool> consistent{true};
  job.on_snapshot = [&](const PlayoutProgress& p) {
    ++snapshots;
    if (playouts_in(p.completed) != p.result.playouts) consistent = false;
  };
  const PlayoutOutcome out = gsdk::core::run_playouts(*g, job);
  EXPECT_TRUE(out.error.empty()) << out.error;
  EXPECT_GE(snapshots.load(), 1);
  EXPECT_TRUE(consistent.load()) << "a snapshot's ranges and result disagree";
}

TEST(PlayoutRanges, AddingJoinsTouchingRanges) {
  PlayoutRanges r;
  gsdk::core::add_playout_range(r, 10, 20);
  gsdk::core::add_playout_range(r, 30, 40);
  gsdk::core::add_playout_range(r, 0, 5);
  EXPECT_EQ(r, (PlayoutRanges{{0, 5}, {10, 20}, {30, 40}}));
  gsdk::core::add_playout_range(r, 20, 30);
  EXPECT_EQ(r, (PlayoutRanges{{0, 5}, {10, 40}}));
  gsdk::core::add_playout_range(r, 5, 10);
  EXPECT_EQ(r, (PlayoutRanges{{0, 40}}));
}

PerftJob perft_job(const GameInstance& g, uint32_t depth, unsigned threads) {
  PerftJob job;
  job.root = g.initial_state();
  job.depth = depth;
  job.cpu_threads = threads;
  job.divide = true;
  return job;
}

TEST_F(StopAndResume, PerftStoppedBeforeItStartsCountsNothing) {
  const auto g = nim();
  StopRequest stop;
  stop.request();
  PerftJob job = perft_job(*g, 8, 2);
  job.stop = &stop;
  const PerftOutcome out = gsdk::core::run_perft(*g, job);
  EXPECT_TRUE(out.stopped);
  EXPECT_TRUE(out.error.empty()) << out.error;
  EXPECT_EQ(out.leaves, uint128{0});
  EXPECT_TRUE(out.progress.counted.empty());
  EXPECT_GT(out.progress.subtrees, 0u);
}

TEST_F(StopAndResume, PerftResumedFromPartOfItsSubtreesEqualsTheWholeCount) {
  const auto g = nim();
  const PerftOutcome whole = gsdk::core::run_perft(*g, perft_job(*g, 8, 1));
  ASSERT_TRUE(whole.error.empty()) << whole.error;
  ASSERT_GT(whole.progress.subtrees, 4u);
  ASSERT_EQ(whole.progress.counted.size(), whole.progress.subtrees);
  // Every other subtree, as a job stopped with some of its subtrees counted would leave them.
  PerftProgress half = whole.progress;
  std::erase_if(half.counted, [](const auto& entry) { return entry.first % 2 == 1; });
  uint128 half_leaves = 0;
  for (const auto& entry : half.counted) half_leaves += entry.second;
  PerftJob rest = perft_job(*g, 8, 3);
  rest.resume = &half;
  const PerftOutcome resumed = gsdk::core::run_perft(*g, rest);
  EXPECT_TRUE(resumed.error.empty()) << resumed.error;
  EXPECT_FALSE(resumed.stopped);
  EXPECT_EQ(resumed.leaves, whole.leaves);
  EXPECT_EQ(resumed.cpu_leaves, whole.leaves - half_leaves) << "the resumed subtrees were counted again";
  ASSERT_EQ(resumed.divide.size(), whole.divide.size());
  for (size_t k = 0; k < whole.divide.size(); ++k) EXPECT_EQ(resumed.divide[k].leaves, whole.divide[k].leaves) << k;
  EXPECT_EQ(resumed.progress.counted, whole.progress.counted);
}

TEST_F(StopAndResume, PerftStoppedWhileRunningResumesToTheWholeCount) {
  const auto g = nim();
  const PerftOutcome whole = gsdk::core::run_perft(*g, perft_job(*g, 16, 3));
  StopRequest stop;
  PerftJob first = perft_job(*g, 16, 1);
  first.stop = &stop;
  const PerftOutcome part = gsdk::core::run_perft(*g, first, [&](uint64_t done, uint64_t) {
    if (done > 0) stop.request();
  });
  ASSERT_TRUE(part.stopped) << "the count ended before the stop: make it deeper";
  uint128 counted = 0;
  for (const auto& entry : part.progress.counted) counted += entry.second;
  EXPECT_EQ(part.leaves, counted) << "a stopped count holds exactly its finished subtrees";
  EXPECT_LT(part.progress.counted.size(), part.progress.subtrees);
  PerftJob rest = perft_job(*g, 16, 3);
  rest.resume = &part.progress;
  const PerftOutcome resumed = gsdk::core::run_perft(*g, rest);
  EXPECT_EQ(resumed.leaves, whole.leaves);
}

TEST_F(StopAndResume, PerftCutIntoShortCallsCountsExactly) {
  // With a stop request (not raised), subtrees too slow to count in cpu_call_seconds are cut into their children:
  // 0 cuts every subtree down to calls at depth 1, through finished games too (40 stones end after 14 plies or
  // more).
  const auto g = nim();
  const PerftOutcome whole = gsdk::core::run_perft(*g, perft_job(*g, 15, 1));
  ASSERT_TRUE(whole.error.empty()) << whole.error;
  StopRequest stop;
  for (const double seconds : {0.0, 1e-4}) {
    PerftJob cut = perft_job(*g, 15, 2);
    cut.stop = &stop;
    cut.cpu_call_seconds = seconds;
    const PerftOutcome out = gsdk::core::run_perft(*g, cut);
    EXPECT_TRUE(out.error.empty()) << out.error;
    EXPECT_FALSE(out.stopped);
    EXPECT_EQ(out.leaves, whole.leaves) << seconds;
    EXPECT_EQ(out.progress.counted, whole.progress.counted) << seconds;
    ASSERT_EQ(out.divide.size(), whole.divide.size());
    for (size_t k = 0; k < whole.divide.size(); ++k) EXPECT_EQ(out.divide[k].leaves, whole.divide[k].leaves) << k;
  }
}

TEST_F(StopAndResume, PerftStopDropsALongSubtreeUnderWay) {
  // One thread, 81 subtrees of 3^18 leaves each (seconds apiece): a stop at the first progress report (about 0.1 s
  // in) comes while the first subtree is counted, which is dropped rather than finished.
  const auto g = game("test_nim", toml::table{{"stones", 1000}, {"max_take", 3}});
  StopRequest stop;
  PerftJob job = perft_job(*g, 22, 1);
  job.stop = &stop;
  const PerftOutcome out = gsdk::core::run_perft(*g, job, [&](uint64_t, uint64_t) { stop.request(); });
  EXPECT_TRUE(out.stopped);
  EXPECT_TRUE(out.error.empty()) << out.error;
  EXPECT_TRUE(out.progress.counted.empty()) << "the subtree under way was finished";
  EXPECT_EQ(out.leaves, uint128{0});
  EXPECT_LT(out.wall_seconds, 1.5);
}

TEST_F(StopAndResume, PerftProgressOfAnotherExpansionIsRefused) {
  const auto g = nim();
  PerftOutcome whole = gsdk::core::run_perft(*g, perft_job(*g, 6, 1));
  PerftProgress other = whole.progress;
  other.subtrees += 1;
  PerftJob job = perft_job(*g, 6, 2);
  job.resume = &other;
  EXPECT_THROW(gsdk::core::run_perft(*g, job), std::invalid_argument);
  PerftProgress twice = whole.progress;
  twice.counted.push_back(twice.counted.front());
  job.resume = &twice;
  EXPECT_THROW(gsdk::core::run_perft(*g, job), std::invalid_argument);
}

} // namespace
