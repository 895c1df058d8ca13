// qlearning_resume_test.cpp - the Q-learning scheduler's chunks, stop and resume (qlearning.hpp) on a small
// minefield: chunks of any size give the same run; a stop ends training at a chunk boundary and skips the
// greedy test; what a stopped run or a snapshot holds, resumed with another thread count, ends with the
// uninterrupted run's digest, visits and test (per-environment tables, and a table shared by environments,
// whose chunks keep a fixed grid); a stop comes within about a chunk's time; training that does not fit the
// job is refused.
#include <chrono>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "gsdk/core/qlearning/qlearning.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/core/runtime/stop_request.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::QLearningJob;
using gsdk::core::QLearningOutcome;
using gsdk::core::QLearningProgress;
using gsdk::core::StopRequest;

class QLearningResume : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new gsdk::host::PluginCatalog;
    catalog_->load_file(gsdk::test::plugin_dir() / "minefield.so");
    if (const auto* plugin = catalog_->find("minefield"))
      game_ = new gsdk::core::GameInstance(
          plugin->tables,
          gsdk::host::resolve_params(*plugin->tables.game,
                                     toml::table{{"size", 16}, {"agents", 128}, {"mines", 30}, {"map_seed", 7}})
              .values);
  }
  static void TearDownTestSuite() {
    delete game_;
    delete catalog_;
    game_ = nullptr;
    catalog_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(game_, nullptr) << "minefield.so did not load"; }

  // 5 environments of their own tables (or one shared), 300 episodes, visits counted, a short greedy test.
  static QLearningJob job(unsigned threads, bool shared = false) {
    QLearningJob j;
    j.settings.seed = 11;
    j.settings.environments = 5;
    j.settings.episodes = 300;
    j.settings.epsilon_decay = 0.98;
    j.settings.epsilon_end = 0.02;
    j.settings.test_episodes = 4;
    j.settings.shared_table = shared;
    j.cpu_threads = threads;
    j.count_visits = true;
    return j;
  }
  static QLearningOutcome run(const QLearningJob& j) { return gsdk::core::run_qlearning(*game_, j); }

  static void expect_same_run(const QLearningOutcome& resumed, const QLearningOutcome& whole) {
    EXPECT_EQ(resumed.digest(), whole.digest());
    EXPECT_EQ(resumed.episodes.size(), whole.episodes.size());
    EXPECT_EQ(resumed.agent_steps, whole.agent_steps);
    EXPECT_EQ(resumed.visits, whole.visits);
    EXPECT_EQ(resumed.test.successes, whole.test.successes);
    EXPECT_EQ(resumed.test.agent_starts, whole.test.agent_starts);
    EXPECT_FALSE(resumed.stopped);
    EXPECT_TRUE(resumed.error.empty()) << resumed.error;
  }

  static gsdk::host::PluginCatalog* catalog_;
  static gsdk::core::GameInstance* game_;
};

gsdk::host::PluginCatalog* QLearningResume::catalog_ = nullptr;
gsdk::core::GameInstance* QLearningResume::game_ = nullptr;

// Raises `stop` once training reaches episode `at`: the chunk under way then finishes and training ends.
gsdk::core::EpisodeFn stop_at(StopRequest& stop, uint32_t at) {
  return [&stop, at](uint32_t episode, const gsdk::core::EpisodeTotals&) {
    if (episode == at) stop.request();
  };
}

TEST_F(QLearningResume, ChunksOfAnySizeGiveTheSameRun) {
  QLearningJob one_episode_chunks = job(2), long_chunks = job(2);
  one_episode_chunks.chunk_seconds = 1e-9;
  long_chunks.chunk_seconds = 1e9;
  const QLearningOutcome a = run(one_episode_chunks), b = run(long_chunks);
  EXPECT_EQ(a.digest(), b.digest());
  EXPECT_EQ(a.visits, b.visits);
  EXPECT_EQ(a.episodes.size(), 300u);
}

TEST_F(QLearningResume, AStoppedRunEndsAtAChunkBoundaryWithoutTheGreedyTest) {
  QLearningJob j = job(2);
  j.chunk_seconds = 1e-9; // one-episode chunks: the stop lands right after the episode that raised it
  StopRequest stop;
  j.stop = &stop;
  const QLearningOutcome cut = gsdk::core::run_qlearning(*game_, j, stop_at(stop, 96));
  EXPECT_TRUE(cut.stopped);
  EXPECT_TRUE(cut.error.empty()) << cut.error;
  EXPECT_EQ(cut.episodes.size(), 97u);
  EXPECT_EQ(cut.test.agent_starts, 0u) << "a stopped run skips the greedy test";
  EXPECT_EQ(cut.reach.size(), 5u) << "the reach of the tables as they are";
}

TEST_F(QLearningResume, AStoppedRunResumedWithOtherThreadsEndsWithTheWholeRunsDigest) {
  const QLearningOutcome whole = run(job(3));
  QLearningJob first = job(1);
  first.chunk_seconds = 1e-9;
  StopRequest stop;
  first.stop = &stop;
  const QLearningOutcome cut = gsdk::core::run_qlearning(*game_, first, stop_at(stop, 137));
  ASSERT_TRUE(cut.stopped);
  ASSERT_GT(cut.episodes.size(), 137u);
  ASSERT_LT(cut.episodes.size(), 300u) << "the run must be cut for the test to mean something";
  EXPECT_NE(cut.digest(), whole.digest());

  const QLearningProgress saved = cut.progress();
  QLearningJob second = job(3);
  second.resume = &saved;
  expect_same_run(run(second), whole);
}

TEST_F(QLearningResume, ASnapshotResumedEndsWithTheWholeRunsDigest) {
  const QLearningOutcome whole = run(job(1));
  QLearningJob first = job(3);
  first.chunk_seconds = 1e-9;
  first.snapshot_seconds = 0; // at every chunk boundary
  std::vector<QLearningProgress> snapshots;
  first.on_snapshot = [&](const QLearningProgress& p) { snapshots.push_back(p); };
  const QLearningOutcome uninterrupted = run(first);
  expect_same_run(uninterrupted, whole);
  ASSERT_EQ(snapshots.size(), 299u) << "one per boundary before the last episode";
  const QLearningProgress& cut = snapshots[212];
  ASSERT_EQ(cut.episodes.size(), 213u);
  QLearningJob second = job(2);
  second.resume = &cut;
  expect_same_run(run(second), whole);
}

TEST_F(QLearningResume, ASharedTableResumesOnItsFixedGridOfChunks) {
  const QLearningOutcome whole = run(job(2, true));
  QLearningJob first = job(1, true);
  StopRequest stop;
  first.stop = &stop;
  const QLearningOutcome cut = gsdk::core::run_qlearning(*game_, first, stop_at(stop, 100));
  ASSERT_TRUE(cut.stopped);
  EXPECT_EQ(cut.episodes.size(), 102u) << "chunks of ceil(300 / 50) = 6 episodes: episode 100 is in [96, 102)";
  const QLearningProgress saved = cut.progress();
  QLearningJob second = job(2, true);
  second.resume = &saved;
  second.chunk_seconds = 1e-9; // the grid, not the time, cuts a shared table's run
  expect_same_run(run(second), whole);
}

TEST_F(QLearningResume, ResumingAFinishedRunRepeatsItsResult) {
  const QLearningOutcome whole = run(job(2));
  const QLearningProgress saved = whole.progress();
  QLearningJob again = job(1);
  again.resume = &saved;
  expect_same_run(run(again), whole);
}

TEST_F(QLearningResume, TrainingThatDoesNotFitTheJobIsRefused) {
  const QLearningProgress saved = run(job(2)).progress();
  QLearningJob more_environments = job(2);
  more_environments.settings.environments = 6;
  more_environments.resume = &saved;
  EXPECT_THROW(run(more_environments), std::invalid_argument);
  QLearningJob fewer_episodes = job(2);
  fewer_episodes.settings.episodes = 299;
  fewer_episodes.resume = &saved;
  EXPECT_THROW(run(fewer_episodes), std::invalid_argument);
  QLearningProgress no_visits = saved;
  no_visits.visits.clear();
  QLearningJob counting = job(2);
  counting.resume = &no_visits;
  EXPECT_THROW(run(counting), std::invalid_argument);
}

TEST_F(QLearningResume, AStopComesWithinAboutAChunksTime) {
  QLearningJob j = job(2);
  j.settings.episodes = 10000000; // hours
  StopRequest stop;
  j.stop = &stop;
  std::chrono::steady_clock::time_point raised;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    raised = std::chrono::steady_clock::now();
    stop.request();
  });
  const QLearningOutcome cut = run(j);
  stopper.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - raised).count();
  EXPECT_TRUE(cut.stopped);
  EXPECT_GT(cut.episodes.size(), 0u);
  EXPECT_LT(seconds, 2.0) << "from the stop request to the end, with chunks of about " << j.chunk_seconds << " s";
}

} // namespace
