// cuda_environment_test.cpp - the minefield as a vectorised environment on a CUDA device against its CPU tables, bit
// for bit: the reset, steps over random walks that end on mines, the flag and the step limit, and observations; and
// an action that is no move leaving its game as it was. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <random>
#include <vector>

#include "batched_steps_reference.hpp"
#include "device_vector.hpp"
#include "gpu.hpp"
#include "linked_plugin.hpp"
#include "minefield_game.hpp"

namespace minefield {
namespace {

using gsdk::test::DeviceVector;
using gsdk::test::plugin_table;
using gsdk::test::StepArrays;
using DeviceSteps = gsdk::test::DeviceStepArrays<StepArrays>;

constexpr uint32_t kGames = 777;

std::unique_ptr<gsdk::core::GameInstance> make_instance() {
  const gsdk_param_value values[] = {{"size", GSDK_PARAM_INT, 0, 7, 0, nullptr},
                                     {"agents", GSDK_PARAM_INT, 0, 1, 0, nullptr},
                                     {"mines", GSDK_PARAM_INT, 0, 9, 0, nullptr},
                                     {"map_seed", GSDK_PARAM_INT, 0, 5, 0, nullptr},
                                     {"step_limit", GSDK_PARAM_INT, 0, 15, 0, nullptr}};
  return std::make_unique<gsdk::core::GameInstance>(gsdk::test::linked_plugin_tables("minefield"),
                                                    std::vector<gsdk_param_value>(std::begin(values), std::end(values)));
}

TEST(MinefieldCudaEnvironment, StepsResetsAndObservationsEqualTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto game = make_instance();
  const auto& steps = plugin_table<gsdk_batched_steps>(*game, GSDK_TABLE_BATCHED_STEPS);
  const auto& observations = plugin_table<gsdk_observations>(*game, GSDK_TABLE_OBSERVATIONS);
  ASSERT_NE(steps.cuda_step, nullptr);
  ASSERT_NE(observations.cuda_fill, nullptr);
  StepArrays cpu(kGames, sizeof(State), 1, kActions);
  for (uint32_t k = 0; k < kGames; ++k) {
    const auto start = game->initial_state();
    std::copy(start.begin(), start.end(), cpu.states.begin() + k * sizeof(State));
    std::fill_n(cpu.legal.begin() + k * kActions, kActions, uint8_t{1});
  }
  DeviceSteps gpu(StepArrays(kGames, sizeof(State), 1, kActions));
  char error[512] = {};
  ASSERT_EQ(steps.cuda_reset(game->handle(), gpu.states.get(), kGames, 0, nullptr, gpu.players.get(), gpu.legal.get(),
                             error, sizeof error),
            GSDK_OK)
      << error;
  gpu.expect_equal(cpu, "after the reset");
  const size_t observation_bytes = 3 * 49;
  DeviceVector<uint8_t> gpu_observations(kGames * observation_bytes);
  std::vector<uint8_t> cpu_observations(kGames * observation_bytes);
  std::mt19937_64 random(31);
  uint64_t rewarded[3] = {}; // -1, 0 and +1 at an end
  for (int t = 0; t < 200 && !HasFailure(); ++t) {
    for (uint32_t& action : cpu.actions) action = static_cast<uint32_t>(random() % kActions);
    gpu.actions.upload(cpu.actions);
    ASSERT_EQ(steps.step(game->handle(), cpu.states.data(), cpu.actions.data(), kGames, cpu.rewards.data(),
                         cpu.terminated.data(), cpu.players.data(), cpu.legal.data(), error, sizeof error),
              GSDK_OK)
        << error;
    ASSERT_EQ(steps.cuda_step(game->handle(), gpu.states.get(), gpu.actions.get(), kGames, 0, nullptr,
                              gpu.rewards.get(), gpu.terminated.get(), gpu.players.get(), gpu.legal.get(), error,
                              sizeof error),
              GSDK_OK)
        << error;
    gpu.expect_equal(cpu, "a step");
    for (uint32_t k = 0; k < kGames; ++k)
      if (cpu.terminated[k]) ++rewarded[static_cast<int>(cpu.rewards[k]) + 1];
    observations.fill(game->handle(), cpu.states.data(), kGames, cpu_observations.data());
    ASSERT_EQ(observations.cuda_fill(game->handle(), gpu.states.get(), kGames, 0, nullptr, gpu_observations.get(),
                                     error, sizeof error),
              GSDK_OK)
        << error;
    EXPECT_EQ(gpu_observations.download(), cpu_observations) << "step " << t;
  }
  for (const uint64_t ends : rewarded) EXPECT_GT(ends, 0u) << "no game ended with one of the three rewards";
}

TEST(MinefieldCudaEnvironment, AnActionThatIsNoMoveLeavesItsGameAsItWas) {
  GSDK_REQUIRE_GPU();
  const auto game = make_instance();
  const auto& steps = plugin_table<gsdk_batched_steps>(*game, GSDK_TABLE_BATCHED_STEPS);
  StepArrays cpu(1, sizeof(State), 1, kActions);
  const auto start = game->initial_state();
  std::copy(start.begin(), start.end(), cpu.states.begin());
  cpu.actions[0] = 4;
  DeviceSteps gpu(cpu);
  char error[512] = {};
  ASSERT_EQ(steps.cuda_step(game->handle(), gpu.states.get(), gpu.actions.get(), 1, 0, nullptr, gpu.rewards.get(),
                            gpu.terminated.get(), gpu.players.get(), gpu.legal.get(), error, sizeof error),
            GSDK_OK)
      << error;
  std::fill(cpu.legal.begin(), cpu.legal.end(), uint8_t{1});
  gpu.expect_equal(cpu, "a refused action");
}

} // namespace
} // namespace minefield
