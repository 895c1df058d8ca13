// cuda_environment_test.cpp - othello's vectorised environment on a CUDA device against its CPU tables, bit for bit:
// resets, batched steps over long random trajectories in every convention (batches cut at odd places, so rows start
// unaligned), observations; and a refused action leaving its game as it was. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <vector>

#include "batched_steps_reference.hpp"
#include "device_vector.hpp"
#include "gpu.hpp"
#include "othello_test_support.hpp"
#include "rules/environment.hpp"

namespace othello {
namespace {

using gsdk::test::plugin_table;
using gsdk::test::StepArrays;

using DeviceSteps = gsdk::test::DeviceStepArrays<StepArrays>;
using gsdk::test::DeviceVector;

constexpr uint32_t kGames = 1000; // not a multiple of the kernels' blocks

TEST(OthelloCudaEnvironment, StepsResetsAndObservationsEqualTheCpu) {
  GSDK_REQUIRE_GPU();
  for (const char* convention : {"standard", "finished_not_leaf", "free_pass"}) {
    const auto game = test::make_game(convention);
    const auto& steps = plugin_table<gsdk_batched_steps>(*game, GSDK_TABLE_BATCHED_STEPS);
    const auto& observations = plugin_table<gsdk_observations>(*game, GSDK_TABLE_OBSERVATIONS);
    ASSERT_NE(steps.cuda_step, nullptr);
    ASSERT_NE(steps.cuda_reset, nullptr);
    ASSERT_NE(observations.cuda_fill, nullptr);
    StepArrays cpu(kGames, sizeof(Position), 2, kCodeCount);
    gsdk::test::ReferenceSteps reference(*game);
    for (uint32_t k = 0; k < kGames; ++k) {
      const Position start = start_position();
      std::memcpy(&cpu.states[k * sizeof(Position)], &start, sizeof start);
      reference.write_legal(game->initial_state(), &cpu.legal[size_t{k} * kCodeCount]);
    }
    DeviceSteps gpu(StepArrays(kGames, sizeof(Position), 2, kCodeCount));
    char error[512] = {};
    ASSERT_EQ(steps.cuda_reset(game->handle(), gpu.states.get(), kGames, 0, nullptr, gpu.players.get(),
                               gpu.legal.get(), error, sizeof error),
              GSDK_OK)
        << error;
    gpu.expect_equal(cpu, "after the reset");

    std::mt19937_64 random(17);
    DeviceVector<uint8_t> gpu_observations(size_t{kGames} * kObservationBytes);
    std::vector<uint8_t> cpu_observations(size_t{kGames} * kObservationBytes);
    uint64_t ended = 0;
    for (int t = 0; t < 300 && !::testing::Test::HasFailure(); ++t) {
      for (uint32_t k = 0; k < kGames; ++k)
        cpu.actions[k] = gsdk::test::random_legal_code(&cpu.legal[size_t{k} * kCodeCount], kCodeCount, random);
      ASSERT_EQ(steps.step(game->handle(), cpu.states.data(), cpu.actions.data(), kGames, cpu.rewards.data(),
                           cpu.terminated.data(), cpu.players.data(), cpu.legal.data(), error, sizeof error),
                GSDK_OK)
          << error;
      gpu.actions.upload(cpu.actions);
      // Odd steps go in two calls cut at game 333, whose rows start at no multiple of four bytes.
      const uint32_t cut = t % 2 ? 333 : kGames;
      for (const auto& [first, count] : {std::pair{0u, cut}, std::pair{cut, kGames - cut}}) {
        if (count == 0) continue;
        ASSERT_EQ(steps.cuda_step(game->handle(), gpu.states.get() + first * sizeof(Position), gpu.actions.get() + first,
                                  count, 0, nullptr, gpu.rewards.get() + 2 * first, gpu.terminated.get() + first,
                                  gpu.players.get() + first, gpu.legal.get() + size_t{first} * kCodeCount, error,
                                  sizeof error),
                  GSDK_OK)
            << error;
      }
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      gpu.expect_equal(cpu, convention);
      for (const uint8_t done : cpu.terminated) ended += done;

      observations.fill(game->handle(), cpu.states.data(), kGames, cpu_observations.data());
      ASSERT_EQ(observations.cuda_fill(game->handle(), gpu.states.get(), kGames, 0, nullptr, gpu_observations.get(),
                                       error, sizeof error),
                GSDK_OK)
          << error;
      EXPECT_EQ(gpu_observations.download(), cpu_observations) << convention << " step " << t;
    }
    EXPECT_GT(ended, 2000u) << convention << ": too few games ended to test the resets";
  }
}

TEST(OthelloCudaEnvironment, AnActionThatIsNoLegalMovesCodeLeavesItsGameAsItWas) {
  GSDK_REQUIRE_GPU();
  const auto game = test::make_game();
  const auto& steps = plugin_table<gsdk_batched_steps>(*game, GSDK_TABLE_BATCHED_STEPS);
  StepArrays cpu(1, sizeof(Position), 2, kCodeCount);
  const Position start = start_position();
  std::memcpy(cpu.states.data(), &start, sizeof start);
  cpu.actions[0] = 0; // a1: no move at the start
  DeviceSteps gpu(cpu);
  char error[512] = {};
  ASSERT_EQ(steps.cuda_step(game->handle(), gpu.states.get(), gpu.actions.get(), 1, 0, nullptr, gpu.rewards.get(),
                            gpu.terminated.get(), gpu.players.get(), gpu.legal.get(), error, sizeof error),
            GSDK_OK)
      << error;
  gsdk::test::ReferenceSteps(*game).write_legal(game->initial_state(), cpu.legal.data());
  gpu.expect_equal(cpu, "a refused action");
}

} // namespace
} // namespace othello
