// vector_env_test.cpp - the core's vectorised environment (core/include/gsdk/core/environments/vector_env.hpp) on the
// test plugins: shapes and types, a scripted tic-tac-toe win (rewards, termination, auto-reset), the same trajectories
// on 1 and 3 threads and through the generic and the batched path, chance games deterministic per seed, illegal
// actions refused with nothing changed, games and settings it cannot run refused; and, with a GPU, CUDA
// environments equal to CPU ones step by step for every loaded game with batched_steps.cuda_step.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/environments/vector_env.hpp"
#include "plugins/game_params.hpp"
#include "plugins/plugin_catalog.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::ElementType;
using gsdk::core::EnvArray;
using gsdk::core::EnvStep;
using gsdk::core::GameInstance;
using gsdk::core::IllegalActionError;
using gsdk::core::MemoryPlace;
using gsdk::core::VectorEnv;
using gsdk::core::VectorEnvSettings;
using gsdk::test::contains;

// An array's bytes on the host, wherever it lives (a CPU env's arrays are host memory; a CUDA env's are compared
// through a CPU copy made by the env itself: see CudaMatchesCpu).
std::vector<unsigned char> bytes_of(const EnvArray& a) {
  const auto* p = static_cast<const unsigned char*>(a.data());
  return {p, p + a.bytes()};
}

template <typename T> std::vector<T> values_of(const EnvArray& a) {
  std::vector<T> v(a.bytes() / sizeof(T));
  std::memcpy(v.data(), a.data(), a.bytes());
  return v;
}

// Everything a step hands out, as host bytes, and the states after it.
struct Snapshot {
  std::vector<unsigned char> observations, rewards, terminated, players, legal, states;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const EnvStep& s, const VectorEnv& env) {
  return {bytes_of(*s.observations), bytes_of(*s.rewards), bytes_of(*s.terminated),
          bytes_of(*s.players),      bytes_of(*s.legal),   env.states_on_host()};
}

// reset, then `steps` steps of the env's own random actions.
std::vector<Snapshot> random_trajectory(VectorEnv& env, int steps) {
  std::vector<Snapshot> out{snapshot(env.reset(), env)};
  for (int t = 0; t < steps; ++t) {
    const auto actions = env.random_actions();
    out.push_back(snapshot(env.step(actions->as<uint32_t>(), MemoryPlace::host), env));
  }
  return out;
}

class VectorEnvTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    catalog_ = new gsdk::host::PluginCatalog;
    for (const char* name : {"test_tictactoe", "test_coin_tree", "test_nim"})
      catalog_->load_file(gsdk::test::test_plugin_dir("valid") / (std::string(name) + ".so"));
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  void SetUp() override {
    for (const char* name : {"test_tictactoe", "test_coin_tree", "test_nim"})
      ASSERT_NE(catalog_->find(name), nullptr) << name << ".so did not load: " << catalog_->names();
  }
  static std::unique_ptr<GameInstance> game(const std::string& name, const toml::table& params = {}) {
    const auto& tables = catalog_->find(name)->tables;
    return std::make_unique<GameInstance>(tables, gsdk::host::resolve_params(*tables.game, params).values);
  }
  static VectorEnvSettings settings(uint32_t count, uint64_t seed, unsigned threads = 1, bool generic = false) {
    VectorEnvSettings s;
    s.count = count;
    s.seed = seed;
    s.threads = threads;
    s.force_generic = generic;
    return s;
  }
  static gsdk::host::PluginCatalog* catalog_;
};

gsdk::host::PluginCatalog* VectorEnvTest::catalog_ = nullptr;

TEST_F(VectorEnvTest, ShapesAndTypesFollowTheGameAndItsObservations) {
  const auto ttt = game("test_tictactoe");
  VectorEnv env(*ttt, settings(5, 1));
  EXPECT_EQ(env.count(), 5u);
  EXPECT_EQ(env.action_count(), 9u);
  EXPECT_EQ(env.player_count(), 2u);
  EXPECT_EQ(env.observation_shape(), (std::vector<uint64_t>{2, 3, 3}));
  EXPECT_EQ(env.observation_type(), ElementType::float32);
  EXPECT_FALSE(env.on_cuda());
  const EnvStep first = env.reset();
  EXPECT_EQ(first.observations->shape(), (std::vector<uint64_t>{5, 2, 3, 3}));
  EXPECT_EQ(first.observations->type(), ElementType::float32);
  EXPECT_EQ(first.rewards->shape(), (std::vector<uint64_t>{5, 2}));
  EXPECT_EQ(first.rewards->type(), ElementType::float32);
  EXPECT_EQ(first.terminated->shape(), (std::vector<uint64_t>{5}));
  EXPECT_EQ(first.terminated->type(), ElementType::uint8);
  EXPECT_EQ(first.players->shape(), (std::vector<uint64_t>{5}));
  EXPECT_EQ(first.players->type(), ElementType::int32);
  EXPECT_EQ(first.legal->shape(), (std::vector<uint64_t>{5, 9}));
  EXPECT_EQ(first.legal->place(), MemoryPlace::host);
  EXPECT_EQ(first.legal->device(), -1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first.observations->data()) % 64, 0u);
  EXPECT_EQ(values_of<uint8_t>(*first.legal), std::vector<uint8_t>(45, 1));
  EXPECT_EQ(values_of<int32_t>(*first.players), std::vector<int32_t>(5, 0));
  const auto actions = env.random_actions();
  EXPECT_EQ(actions->shape(), (std::vector<uint64_t>{5}));
  EXPECT_EQ(actions->type(), ElementType::uint32);

  // Without an observations table a game's observation is its state bytes.
  const auto coins = game("test_coin_tree");
  VectorEnv raw(*coins, settings(3, 1));
  EXPECT_EQ(raw.observation_shape(), (std::vector<uint64_t>{coins->state_size()}));
  EXPECT_EQ(raw.observation_type(), ElementType::uint8);
  const EnvStep raw_first = raw.reset();
  EXPECT_EQ(bytes_of(*raw_first.observations), raw.states_on_host());
  EXPECT_EQ(raw.action_count(), 4u);
}

class ScriptedWin : public VectorEnvTest, public ::testing::WithParamInterface<bool> {};

// X takes the top row (cells 0, 1, 2) while O plays 3 and 4: the fifth step ends game 0 with (+1, -1), and it
// restarts at once. Game 1 plays a move that ends nothing, for contrast.
TEST_P(ScriptedWin, PaysTheWinnerEndsTheGameAndStartsAgain) {
  const auto ttt = game("test_tictactoe");
  VectorEnv env(*ttt, settings(2, 3, 1, GetParam()));
  env.reset();
  const std::vector<std::vector<uint32_t>> moves = {{0, 8}, {3, 0}, {1, 7}, {4, 1}};
  for (const auto& m : moves) {
    const EnvStep s = env.step(m.data(), MemoryPlace::host);
    EXPECT_EQ(values_of<float>(*s.rewards), std::vector<float>(4, 0.0f));
    EXPECT_EQ(values_of<uint8_t>(*s.terminated), std::vector<uint8_t>(2, 0));
  }
  const std::vector<uint32_t> winning = {2, 3};
  const EnvStep won = env.step(winning.data(), MemoryPlace::host);
  EXPECT_EQ(values_of<float>(*won.rewards), (std::vector<float>{1.0f, -1.0f, 0.0f, 0.0f}));
  EXPECT_EQ(values_of<uint8_t>(*won.terminated), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(values_of<int32_t>(*won.players), (std::vector<int32_t>{0, 1}));
  const auto legal = values_of<uint8_t>(*won.legal);
  EXPECT_EQ(std::vector<uint8_t>(legal.begin(), legal.begin() + 9), std::vector<uint8_t>(9, 1)) << "game 0 restarted";
  EXPECT_EQ(std::count(legal.begin() + 9, legal.end(), 1), 4) << "game 1 has 5 marks on 9 cells";
  const auto observations = values_of<float>(*won.observations);
  EXPECT_EQ(std::count(observations.begin(), observations.begin() + 18, 1.0f), 0) << "game 0's board is empty again";
  EXPECT_EQ(std::count(observations.begin() + 18, observations.end(), 1.0f), 5);
  const auto states = env.states_on_host();
  EXPECT_EQ(std::vector<unsigned char>(states.begin(), states.begin() + ttt->state_size()), ttt->initial_state());
}

INSTANTIATE_TEST_SUITE_P(GenericAndBatched, ScriptedWin, ::testing::Bool());

TEST_F(VectorEnvTest, OneAndThreeThreadsGiveTheSameTrajectories) {
  // 1000 games: enough for three threads of the core's chunking (a thread takes at least 256 games).
  for (const char* name : {"test_tictactoe", "test_coin_tree"})
    for (const bool generic : {false, true}) {
      const auto g = game(name);
      VectorEnv one(*g, settings(1000, 11, 1, generic)), three(*g, settings(1000, 11, 3, generic));
      EXPECT_TRUE(random_trajectory(one, 40) == random_trajectory(three, 40)) << name << (generic ? " generic" : "");
    }
}

TEST_F(VectorEnvTest, BatchedStepsEqualTheGenericPath) {
  const auto ttt = game("test_tictactoe");
  VectorEnv batched(*ttt, settings(300, 5, 2, false)), generic(*ttt, settings(300, 5, 2, true));
  const auto a = random_trajectory(batched, 100), b = random_trajectory(generic, 100);
  ASSERT_EQ(a.size(), b.size());
  int ended = 0;
  for (size_t t = 0; t < a.size(); ++t) {
    ASSERT_TRUE(a[t] == b[t]) << "step " << t;
    for (unsigned char e : a[t].terminated) ended += e;
  }
  EXPECT_GT(ended, 300) << "the trajectories should cross many game ends";
}

TEST_F(VectorEnvTest, RandomActionsAreLegalAndGamesEndWithOpposedRewards) {
  const auto ttt = game("test_tictactoe");
  VectorEnv env(*ttt, settings(64, 9));
  EnvStep s = env.reset();
  int wins = 0, draws = 0;
  for (int t = 0; t < 60; ++t) {
    const auto actions = values_of<uint32_t>(*env.random_actions());
    const auto legal = values_of<uint8_t>(*s.legal);
    for (uint32_t k = 0; k < 64; ++k) ASSERT_EQ(legal[k * 9 + actions[k]], 1) << "game " << k << " step " << t;
    s = env.step(actions.data(), MemoryPlace::host);
    const auto rewards = values_of<float>(*s.rewards);
    const auto terminated = values_of<uint8_t>(*s.terminated);
    for (uint32_t k = 0; k < 64; ++k) {
      EXPECT_EQ(rewards[2 * k], -rewards[2 * k + 1]);
      if (!terminated[k]) {
        EXPECT_EQ(rewards[2 * k], 0.0f);
        continue;
      }
      (rewards[2 * k] == 0.0f ? draws : wins) += 1;
    }
  }
  EXPECT_GT(wins, 0);
  EXPECT_GT(draws, 0);
}

TEST_F(VectorEnvTest, ChanceGamesAreDeterministicPerSeed) {
  const auto coins = game("test_coin_tree");
  VectorEnv a(*coins, settings(64, 21)), b(*coins, settings(64, 21)), other(*coins, settings(64, 22));
  const auto ta = random_trajectory(a, 30), tb = random_trajectory(b, 30), tother = random_trajectory(other, 30);
  EXPECT_TRUE(ta == tb);
  EXPECT_FALSE(ta.back().states == tother.back().states);
  int ended = 0;
  for (const Snapshot& s : ta)
    for (unsigned char e : s.terminated) ended += e;
  EXPECT_GT(ended, 0);
}

TEST_F(VectorEnvTest, IllegalAndOutOfRangeActionsAreRefusedWithNothingChanged) {
  const auto ttt = game("test_tictactoe");
  for (const bool generic : {false, true}) {
    VectorEnv env(*ttt, settings(3, 1, 1, generic));
    env.reset();
    const std::vector<uint32_t> first = {4, 4, 4};
    env.step(first.data(), MemoryPlace::host);
    const auto before = env.states_on_host();
    const std::vector<uint32_t> taken = {0, 4, 1};
    try {
      env.step(taken.data(), MemoryPlace::host);
      ADD_FAILURE() << "cell 4 of game 1 is taken";
    } catch (const IllegalActionError& e) {
      EXPECT_EQ(e.environment(), 1u);
      EXPECT_EQ(e.action(), 4u);
      EXPECT_TRUE(contains(e.what(), "action 4 of environment 1 is not legal")) << e.what();
      EXPECT_TRUE(contains(e.what(), "[0, 1, 2, 3, 5, 6, 7, 8]")) << e.what();
    }
    const std::vector<uint32_t> beyond = {0, 1, 9};
    try {
      env.step(beyond.data(), MemoryPlace::host);
      ADD_FAILURE() << "code 9 is beyond tic-tac-toe's 9 codes";
    } catch (const IllegalActionError& e) {
      EXPECT_EQ(e.environment(), 2u);
      EXPECT_TRUE(contains(e.what(), "action 9 of environment 2 is out of range")) << e.what();
      EXPECT_TRUE(contains(e.what(), "0..8")) << e.what();
    }
    EXPECT_EQ(env.states_on_host(), before) << "a refused step changes no game";
  }
}

TEST_F(VectorEnvTest, RefusesWhatItCannotRun) {
  const auto nim = game("test_nim");
  try {
    VectorEnv env(*nim, settings(4, 1));
    ADD_FAILURE() << "test_nim has no move codes";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "gsdk.move_codes.v1")) << e.what();
    EXPECT_TRUE(contains(e.what(), "test_nim")) << e.what();
  }
  const auto ttt = game("test_tictactoe");
  try {
    VectorEnv env(*ttt, settings(0, 1));
    ADD_FAILURE() << "count 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "count >= 1")) << e.what();
  }
  // test_coin_tree has no batched steps (it has chance nodes): no CUDA environment, and the message says so.
  const auto coins = game("test_coin_tree");
  VectorEnvSettings cuda = settings(4, 1);
  cuda.cuda = true;
  try {
    VectorEnv env(*coins, cuda);
    ADD_FAILURE() << "test_coin_tree has no CUDA step";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "gsdk.batched_steps.v1 cuda_step")) << e.what();
    EXPECT_TRUE(contains(e.what(), "device=\"cpu\" works")) << e.what();
  }

  VectorEnv env(*ttt, settings(2, 1));
  const std::vector<uint32_t> actions = {0, 0};
  EXPECT_THROW(env.step(actions.data(), MemoryPlace::host), std::logic_error) << "step before reset";
  EXPECT_THROW(env.random_actions(), std::logic_error);
  env.reset();
  EXPECT_THROW(env.step(nullptr, MemoryPlace::host), std::invalid_argument);
  EXPECT_THROW(env.step(actions.data(), MemoryPlace::cuda), std::invalid_argument) << "a CPU env takes host actions";
}

TEST_F(VectorEnvTest, ArraysOfAStepAreFreshAndOutliveTheEnvironment) {
  const auto ttt = game("test_tictactoe");
  EnvStep kept;
  {
    VectorEnv env(*ttt, settings(2, 1));
    kept = env.reset();
    const std::vector<uint32_t> actions = {0, 1};
    const EnvStep next = env.step(actions.data(), MemoryPlace::host);
    EXPECT_NE(next.legal->data(), kept.legal->data());
    // Scribbling on a handed-out mask does not change what the env accepts.
    std::memset(next.legal->data(), 0, next.legal->bytes());
    const std::vector<uint32_t> again = {2, 3};
    EXPECT_NO_THROW(env.step(again.data(), MemoryPlace::host));
  }
  EXPECT_EQ(values_of<uint8_t>(*kept.legal), std::vector<uint8_t>(18, 1));
}

// Every loaded game with a CUDA step (the test plugins and the shipped plugins): the CUDA environment hands out what
// the CPU environment does, step by step, with the same random actions.
TEST_F(VectorEnvTest, CudaMatchesCpu) {
  GSDK_REQUIRE_GPU();
  gsdk::host::PluginCatalog all;
  all.load_directories({gsdk::test::plugin_dir(), gsdk::test::test_plugin_dir("valid")});
  int covered = 0;
  for (const auto& plugin : all.plugins()) {
    const auto& t = plugin->tables;
    if (!t.batched_steps || !t.batched_steps->cuda_step) continue;
    ++covered;
    const GameInstance g(t, gsdk::host::resolve_params(*t.game, toml::table{}).values);
    VectorEnvSettings on_gpu = settings(700, 17, 2);
    on_gpu.cuda = true;
    VectorEnv cpu(g, settings(700, 17, 2)), gpu(g, on_gpu);
    ASSERT_TRUE(gpu.on_cuda());
    const auto host = [&](const EnvStep& s) {
      EXPECT_EQ(s.legal->place(), MemoryPlace::cuda);
      // The GPU's arrays come back through a host env array of the same bytes.
      Snapshot out;
      const std::vector<std::pair<std::shared_ptr<EnvArray>, std::vector<unsigned char>*>> arrays = {
          {s.observations, &out.observations},
          {s.rewards, &out.rewards},
          {s.terminated, &out.terminated},
          {s.players, &out.players},
          {s.legal, &out.legal}};
      for (const auto& [array, into] : arrays) {
        into->resize(array->bytes());
        gsdk::core::copy_to_host(*array, into->data());
      }
      out.states = gpu.states_on_host();
      return out;
    };
    ASSERT_TRUE(snapshot(cpu.reset(), cpu) == host(gpu.reset())) << plugin->tables.name() << " reset";
    for (int step = 0; step < 200; ++step) {
      const auto cpu_actions = cpu.random_actions();
      const auto gpu_actions = gpu.random_actions();
      std::vector<uint32_t> copied(700);
      gsdk::core::copy_to_host(*gpu_actions, copied.data());
      ASSERT_EQ(values_of<uint32_t>(*cpu_actions), copied) << plugin->tables.name() << " step " << step;
      const EnvStep a = cpu.step(cpu_actions->as<uint32_t>(), MemoryPlace::host);
      // Alternate device and host actions: both are taken.
      const EnvStep b = step % 2 ? gpu.step(gpu_actions->as<uint32_t>(), MemoryPlace::cuda)
                                 : gpu.step(copied.data(), MemoryPlace::host);
      ASSERT_TRUE(snapshot(a, cpu) == host(b)) << plugin->tables.name() << " step " << step;
    }
    std::vector<uint32_t> bad(700, 0);
    bad[0] = cpu.action_count();
    EXPECT_THROW(gpu.step(bad.data(), MemoryPlace::host), IllegalActionError);
  }
  if (covered == 0) GTEST_SKIP() << "no loaded game has batched_steps.cuda_step yet";
}

} // namespace
