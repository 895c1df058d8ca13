// scheduler_test.cpp - the flat Monte Carlo scheduler (core/include/gsdk/core/playouts/playouts.hpp) driving the
// real graveler plugin, loaded from bin/plugins through PluginCatalog: the result is a function of
// (game, parameters, seed, playouts, start state) only. Same digest for 1 or 2 threads, one work item
// or many (including item sizes that cut battle pairs), every SIMD level this CPU has, and CPU vs
// CUDA (skipped without a GPU). The generic per-state engine runs and its mean is right.
#include <cmath>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::GameInstance;
using gsdk::core::PlayoutJob;
using gsdk::core::PlayoutOutcome;
using gsdk::core::run_playouts;

class Scheduler : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new gsdk::host::PluginCatalog;
    catalog_->load_file(gsdk::test::plugin_dir() / "graveler.so");
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(catalog_->find("graveler"), nullptr)
        << "graveler.so did not load: " << (catalog_->problems().empty() ? "" : catalog_->problems()[0].message);
  }

  // A graveler instance with `rolls` rolls (parameters resolved as the host does).
  static std::unique_ptr<GameInstance> graveler(int64_t rolls = 231) {
    const auto& tables = catalog_->find("graveler")->tables;
    const auto params = gsdk::host::resolve_params(*tables.game, toml::table{{"rolls", rolls}});
    return std::make_unique<GameInstance>(tables, params.values);
  }

  static PlayoutOutcome run(const GameInstance& game, PlayoutJob job) {
    PlayoutOutcome out = run_playouts(game, job);
    EXPECT_TRUE(out.error.empty()) << out.error;
    EXPECT_EQ(out.result.playouts, job.playouts);
    return out;
  }

  static int32_t best_simd() { return catalog_->find("graveler")->tables.cpu_playouts->best_simd_level(); }

  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* Scheduler::catalog_ = nullptr;

PlayoutJob cpu_job(uint64_t playouts, unsigned threads, uint64_t item = 1u << 22, uint64_t seed = 2024) {
  PlayoutJob job;
  job.seed = seed;
  job.playouts = playouts;
  job.cpu_threads = threads;
  job.cpu_item_playouts = item;
  return job;
}

TEST_F(Scheduler, ThreadCountDoesNotChangeTheResult) {
  const auto game = graveler();
  const auto one = run(*game, cpu_job(2000003, 1, 65537));
  const auto two = run(*game, cpu_job(2000003, 2, 65537));
  EXPECT_EQ(one.result.digest(), two.result.digest());
  EXPECT_EQ(one.engine, "batch");
  EXPECT_EQ(two.timings.cpu_playouts, 2000003u);
}

TEST_F(Scheduler, WorkItemSizeDoesNotChangeTheResult) {
  const auto game = graveler();
  const std::string whole = run(*game, cpu_job(2000003, 2, 1u << 22)).result.digest();
  EXPECT_EQ(run(*game, cpu_job(2000003, 2, 65537)).result.digest(), whole) << "odd items cut battle pairs";
  EXPECT_EQ(run(*game, cpu_job(2000003, 2, 1000)).result.digest(), whole);
  const std::string small_whole = run(*game, cpu_job(100001, 1, 1u << 22)).result.digest();
  EXPECT_EQ(run(*game, cpu_job(100001, 2, 7)).result.digest(), small_whole);
  EXPECT_EQ(run(*game, cpu_job(100001, 2, 1)).result.digest(), small_whole);
}

TEST_F(Scheduler, SeedChangesTheResult) {
  const auto game = graveler();
  EXPECT_NE(run(*game, cpu_job(100000, 1, 1u << 22, 1)).result.digest(),
            run(*game, cpu_job(100000, 1, 1u << 22, 2)).result.digest());
}

TEST_F(Scheduler, EverySimdLevelGivesTheSameResult) {
  const int32_t best = best_simd();
  if (best == GSDK_SIMD_SCALAR) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512";
  for (const int64_t rolls : {231, 40, 7, 1024}) {
    const auto game = graveler(rolls);
    PlayoutJob job = cpu_job(rolls == 1024 ? 300007 : 1000003, 2, 131071);
    job.simd_level = GSDK_SIMD_SCALAR;
    const std::string scalar = run(*game, job).result.digest();
    for (int32_t level = GSDK_SIMD_AVX2; level <= best; ++level) {
      job.simd_level = level;
      EXPECT_EQ(run(*game, job).result.digest(), scalar) << "rolls " << rolls << ", SIMD level " << level;
    }
  }
}

TEST_F(Scheduler, BatchMeanAndExtremesAreSane) {
  const auto game = graveler();
  const auto out = run(*game, cpu_job(2000000, 2));
  const auto& r = out.result;
  EXPECT_NEAR(r.mean(), 57.75, 0.03); // sd of the mean: 0.0047
  EXPECT_NEAR(r.variance(), 231 * 0.25 * 0.75, 0.5);
  ASSERT_GT(r.histogram[static_cast<size_t>(r.best_score)], 0u);
  ASSERT_GT(r.histogram[static_cast<size_t>(r.worst_score)], 0u);
  for (size_t k = static_cast<size_t>(r.best_score) + 1; k < r.histogram.size(); ++k) EXPECT_EQ(r.histogram[k], 0u);
  EXPECT_LT(r.best_playout, 2000000u);
  EXPECT_GE(r.best_score, 85); // P(max of 2e6 < 85) is about 1e-13
}

TEST_F(Scheduler, StartStateShiftsScoresAndStaysInvariant) {
  const auto game = graveler();
  PlayoutJob job = cpu_job(300001, 1, 65537);
  job.start_state = game->state_from_string("rolls=200 ones=100");
  const auto one = run(*game, job);
  job.cpu_threads = 2;
  job.cpu_item_playouts = 999;
  EXPECT_EQ(run(*game, job).result.digest(), one.result.digest());
  for (size_t k = 0; k < 100; ++k) ASSERT_EQ(one.result.histogram[k], 0u) << "score " << k;
  EXPECT_LE(one.result.best_score, 131);
  EXPECT_NEAR(one.result.mean(), 100 + 31 * 0.25, 0.05);
}

TEST_F(Scheduler, GenericEngineRunsAndItsMeanIsRight) {
  const auto game = graveler();
  PlayoutJob job = cpu_job(20000, 2, 997);
  job.force_generic = true;
  const auto two = run(*game, job);
  EXPECT_EQ(two.engine, "generic");
  EXPECT_NEAR(two.result.mean(), 57.75, 0.25); // sd of the mean: 0.047
  job.cpu_threads = 1;
  job.cpu_item_playouts = 1u << 22;
  EXPECT_EQ(run(*game, job).result.digest(), two.result.digest());
  // The best playout replays through the per-state table.
  const auto start = game->initial_state();
  std::vector<uint32_t> moves;
  EXPECT_EQ(gsdk::core::generic_playout(*game, job.seed, two.result.best_playout, start, &moves),
            two.result.best_score);
  EXPECT_EQ(moves.size(), 231u);
  EXPECT_EQ(std::count(moves.begin(), moves.end(), 1u), two.result.best_score);
}

TEST_F(Scheduler, GenericChanceOutcomesFollowTheirProbabilities) {
  // Faces drawn at graveler's chance nodes by the per-state engine: 1/4 each.
  const auto game = graveler();
  const auto start = game->initial_state();
  std::vector<uint64_t> faces(4, 0);
  for (uint64_t playout = 0; playout < 2000; ++playout) {
    std::vector<uint32_t> moves;
    gsdk::core::generic_playout(*game, 11, playout, start, &moves);
    for (uint32_t f : moves) ++faces.at(f - 1);
  }
  EXPECT_GT(gsdk::core::chi_square(faces, {0.25, 0.25, 0.25, 0.25}).p_value, 1e-4)
      << faces[0] << " " << faces[1] << " " << faces[2] << " " << faces[3];
}

TEST_F(Scheduler, GenericPlayerMovesAreUniform) {
  // test_nim's first move (take 1, 2 or 3) at a player node: uniform over the legal moves.
  gsdk::host::PluginCatalog catalog;
  const auto* nim = catalog.load_file(gsdk::test::test_plugin_dir("valid") / "test_nim.so");
  ASSERT_NE(nim, nullptr);
  const auto params = gsdk::host::resolve_params(*nim->tables.game, toml::table{});
  const GameInstance game(nim->tables, params.values);
  const auto start = game.initial_state();
  std::vector<uint64_t> first(3, 0);
  for (uint64_t playout = 0; playout < 30000; ++playout) {
    std::vector<uint32_t> moves;
    const int64_t score = gsdk::core::generic_playout(game, 12, playout, start, &moves);
    ASSERT_TRUE(score == 1 || score == -1);
    ++first.at(moves.at(0) - 1);
  }
  EXPECT_GT(gsdk::core::chi_square(first, {1.0 / 3, 1.0 / 3, 1.0 / 3}).p_value, 1e-4)
      << first[0] << " " << first[1] << " " << first[2];
}

TEST_F(Scheduler, ProgressReachesTheTotal) {
  const auto game = graveler();
  uint64_t last_done = 0, last_total = 0, calls = 0;
  const auto out = run_playouts(*game, cpu_job(500000, 2, 50000), [&](uint64_t done, uint64_t total) {
    EXPECT_GE(done, last_done) << "progress never goes back";
    last_done = done;
    last_total = total;
    ++calls;
  });
  EXPECT_GE(calls, 1u);
  EXPECT_EQ(last_done, 500000u);
  EXPECT_EQ(last_total, 500000u);
}

TEST_F(Scheduler, ZeroPlayouts) {
  const auto game = graveler();
  const auto out = run(*game, cpu_job(0, 2));
  EXPECT_EQ(out.result.playouts, 0u);
}

TEST_F(Scheduler, RefusesImpossibleJobs) {
  const auto game = graveler();
  EXPECT_THROW(run_playouts(*game, cpu_job(10, 0)), std::invalid_argument) << "no workers at all";
  PlayoutJob wrong_start = cpu_job(10, 1);
  wrong_start.start_state = gsdk::core::StateBlob(3);
  EXPECT_THROW(run_playouts(*game, wrong_start), std::invalid_argument);
  PlayoutJob generic_on_gpu = cpu_job(10, 1);
  generic_on_gpu.force_generic = true;
  generic_on_gpu.cuda_devices = {0};
  EXPECT_THROW(run_playouts(*game, generic_on_gpu), std::invalid_argument);
}

TEST_F(Scheduler, PluginErrorsComeBackAsTheOutcomesError) {
  const auto game = graveler();
  PlayoutJob job = cpu_job(1000, 1);
  job.start_state = gsdk::core::StateBlob(game->state_size(), 0xff); // rolls_done beyond the game's rolls
  const auto out = run_playouts(*game, job);
  EXPECT_NE(out.error.find("is not a graveler state"), std::string::npos) << out.error;
  EXPECT_EQ(out.result.playouts, 0u);
}

TEST_F(Scheduler, CpuAndCudaGiveIdenticalResults) {
  GSDK_REQUIRE_GPU();
  const auto game = graveler();
  for (const uint64_t playouts : {uint64_t{1}, uint64_t{3}, uint64_t{1000001}, uint64_t{20000017}}) {
    const std::string cpu = run(*game, cpu_job(playouts, 2, 1u << 20)).result.digest();
    PlayoutJob gpu = cpu_job(playouts, 0, (1u << 20) + 1);
    gpu.cuda_devices = {0};
    gpu.streams_per_device = 2;
    const auto on_gpu = run(*game, gpu);
    EXPECT_EQ(on_gpu.result.digest(), cpu) << playouts << " playouts";
    EXPECT_EQ(on_gpu.timings.cuda_playouts, playouts);
    PlayoutJob mixed = gpu;
    mixed.cpu_threads = 2;
    EXPECT_EQ(run(*game, mixed).result.digest(), cpu) << playouts << " playouts on CPU and GPU together";
  }
}

TEST_F(Scheduler, CpuAndCudaAgreeFromAStartState) {
  GSDK_REQUIRE_GPU();
  const auto game = graveler(100);
  PlayoutJob job = cpu_job(3000001, 2, 1u << 20);
  job.start_state = game->state_from_string("rolls=33 ones=20");
  const std::string cpu = run(*game, job).result.digest();
  job.cpu_threads = 0;
  job.cuda_devices = {0};
  EXPECT_EQ(run(*game, job).result.digest(), cpu);
}

} // namespace
