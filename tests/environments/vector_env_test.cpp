// vector_env_test.cpp - the core's vectorised environment (core/include/gsdk/core/environments/vector_env.hpp) on the
// test plugins: shapes and types, a scripted tic-tac-toe win (rewards, termination, auto-reset), the same trajectories
// on 1 and 3 threads and through the generic and the batched path, chance games deterministic per seed, illegal
// actions refused with nothing changed, games and settings it cannot run refused; step limits, final observations,
// movers' rewards, reseeding and starting from given states; and, with a GPU, CUDA environments equal to CPU ones
// step by step for every loaded game with batched_steps.cuda_step (with a step limit and final observations too
// where the game keeps final states).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "gsdk/core/environments/vector_env.hpp"
#include "gsdk/core/runtime/memory_budget.hpp"
#include "gsdk/core/runtime/plugin_tables.hpp"
#include "plugin_loading/game_params.hpp"
#include "plugin_loading/plugin_catalog.hpp"
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

// Everything a step hands out, as host bytes, and the states after it (final observations empty without them).
struct Snapshot {
  std::vector<unsigned char> observations, rewards, terminated, players, legal, truncated, actor_rewards, ended,
      final_observations, states;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const EnvStep& s, const VectorEnv& env) {
  return {bytes_of(*s.observations),
          bytes_of(*s.rewards),
          bytes_of(*s.terminated),
          bytes_of(*s.players),
          bytes_of(*s.legal),
          bytes_of(*s.truncated),
          bytes_of(*s.actor_rewards),
          bytes_of(*s.ended),
          s.final_observations ? bytes_of(*s.final_observations) : std::vector<unsigned char>{},
          env.states_on_host()};
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
  EXPECT_EQ(values_of<float>(*won.actor_rewards), (std::vector<float>{1.0f, 0.0f})) << "X moved and won game 0";
  EXPECT_EQ(values_of<uint8_t>(*won.ended), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(values_of<uint8_t>(*won.truncated), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(won.final_observations, nullptr) << "not asked for";
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

// 2^32 - 1 games take hundreds of GiB: refused before anything is allocated, naming the memory (the host's, or the
// GPU's for a CUDA environment), the size reckoned and what is free; a MemoryRefusal, an invalid_argument.
TEST_F(VectorEnvTest, SizesPastTheFreeMemoryAreRefusedBeforeAllocating) {
  const auto ttt = game("test_tictactoe");
  try {
    VectorEnv env(*ttt, settings(UINT32_MAX, 1));
    ADD_FAILURE() << "4294967295 games were taken";
  } catch (const gsdk::core::MemoryRefusal& e) {
    EXPECT_TRUE(contains(e.what(), "a vector environment of 4294967295 games of 'test_tictactoe' needs at least"))
        << e.what();
    EXPECT_TRUE(contains(e.what(), "of host memory (4294967295 games x ")) << e.what();
    EXPECT_TRUE(contains(e.what(), "is free")) << e.what();
  }
}

TEST_F(VectorEnvTest, CudaSizesPastTheGpusFreeMemoryAreRefusedBeforeAllocating) {
  GSDK_REQUIRE_GPU();
  gsdk::host::PluginCatalog all;
  all.load_directories({gsdk::test::plugin_dir()});
  const auto* othello = all.find("othello");
  ASSERT_NE(othello, nullptr) << all.names();
  const GameInstance g(othello->tables, gsdk::host::resolve_params(*othello->tables.game, toml::table{}).values);
  VectorEnvSettings cuda = settings(UINT32_MAX, 1);
  cuda.cuda = true;
  try {
    VectorEnv env(g, cuda);
    ADD_FAILURE() << "4294967295 games were taken on the GPU";
  } catch (const gsdk::core::MemoryRefusal& e) {
    EXPECT_TRUE(contains(e.what(), "of CUDA device 0 memory (4294967295 games x ")) << e.what();
  }
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

// Tic-tac-toe cannot end in three moves: a limit of 3 truncates every game at its third step. The final observations
// are what an unlimited twin shows after the same three steps; the games restart and count again from 0.
TEST_P(ScriptedWin, AStepLimitTruncatesKeepsTheFinalObservationAndRestarts) {
  const auto ttt = game("test_tictactoe");
  VectorEnvSettings limited = settings(2, 3, 1, GetParam());
  limited.max_episode_steps = 3;
  limited.final_observations = true;
  VectorEnv env(*ttt, limited), twin(*ttt, settings(2, 3, 1, GetParam()));
  const EnvStep start = env.reset();
  twin.reset();
  const std::vector<std::vector<uint32_t>> moves = {{0, 8}, {3, 0}, {1, 7}, {4, 1}, {2, 3}, {5, 2}};
  for (size_t t = 0; t < moves.size(); ++t) {
    const EnvStep s = env.step(moves[t].data(), MemoryPlace::host);
    const bool at_limit = t == 2 || t == 5;
    EXPECT_EQ(values_of<uint8_t>(*s.truncated), std::vector<uint8_t>(2, at_limit ? 1 : 0)) << "step " << t;
    EXPECT_EQ(values_of<uint8_t>(*s.terminated), std::vector<uint8_t>(2, 0)) << "step " << t;
    EXPECT_EQ(values_of<uint8_t>(*s.ended), std::vector<uint8_t>(2, at_limit ? 1 : 0)) << "step " << t;
    EXPECT_EQ(values_of<float>(*s.rewards), std::vector<float>(4, 0.0f)) << "a truncation pays nothing";
    ASSERT_NE(s.final_observations, nullptr);
    if (t > 2) continue;
    const EnvStep unlimited = twin.step(moves[t].data(), MemoryPlace::host);
    EXPECT_EQ(bytes_of(*s.final_observations), bytes_of(*unlimited.observations)) << "step " << t;
    if (!at_limit) {
      EXPECT_EQ(bytes_of(*s.observations), bytes_of(*unlimited.observations)) << "step " << t;
    } else {
      EXPECT_EQ(bytes_of(*s.observations), bytes_of(*start.observations)) << "restarted";
      EXPECT_EQ(bytes_of(*s.legal), bytes_of(*start.legal));
      EXPECT_EQ(values_of<int32_t>(*s.players), (std::vector<int32_t>{0, 0}));
    }
  }
}

TEST_F(VectorEnvTest, FinalObservationsOfTerminatedGamesAreTheirLastStates) {
  const auto ttt = game("test_tictactoe");
  for (const bool generic : {false, true}) {
    VectorEnvSettings keeping = settings(2, 3, 1, generic);
    keeping.final_observations = true;
    VectorEnv env(*ttt, keeping), twin(*ttt, settings(2, 3, 1, generic));
    env.reset();
    twin.reset();
    const std::vector<std::vector<uint32_t>> moves = {{0, 8}, {3, 0}, {1, 7}, {4, 1}};
    for (const auto& m : moves) {
      env.step(m.data(), MemoryPlace::host);
      twin.step(m.data(), MemoryPlace::host);
    }
    // The board X's winning move leaves: X on 0 1 2, O on 3 4, in test_tictactoe's planes (the mover's marks, then
    // the other side's): each marked cell set in exactly one plane, X's three in one plane, O's two in the other.
    const std::vector<uint32_t> winning = {2, 3};
    const EnvStep won = env.step(winning.data(), MemoryPlace::host);
    const auto final_planes = values_of<float>(*won.final_observations);
    for (uint32_t cell = 0; cell < 9; ++cell)
      EXPECT_EQ(final_planes[cell] + final_planes[9 + cell], cell < 5 ? 1.0f : 0.0f) << "cell " << cell;
    const size_t x_plane = final_planes[0] == 1.0f ? 0 : 9, o_plane = 9 - x_plane;
    for (uint32_t cell : {1u, 2u}) EXPECT_EQ(final_planes[x_plane + cell], 1.0f) << "X's cell " << cell;
    for (uint32_t cell : {3u, 4u}) EXPECT_EQ(final_planes[o_plane + cell], 1.0f) << "O's cell " << cell;
    const EnvStep twin_step = twin.step(winning.data(), MemoryPlace::host);
    const auto observations = values_of<float>(*won.observations),
               twin_observations = values_of<float>(*twin_step.observations);
    EXPECT_TRUE(std::equal(final_planes.begin() + 18, final_planes.end(), twin_observations.begin() + 18))
        << "a game that goes on has its observation as its final one";
    EXPECT_EQ(observations, twin_observations) << (generic ? "generic" : "batched");
  }
}

TEST_F(VectorEnvTest, AResetWithASeedStartsTheStreamsOverFromIt) {
  const auto coins = game("test_coin_tree");
  VectorEnv reseeded(*coins, settings(64, 5)), fresh(*coins, settings(64, 21));
  random_trajectory(reseeded, 7); // draws from seed 5's streams first
  std::vector<Snapshot> again{snapshot(reseeded.reset(21), reseeded)};
  for (int t = 0; t < 30; ++t) {
    const auto actions = reseeded.random_actions();
    again.push_back(snapshot(reseeded.step(actions->as<uint32_t>(), MemoryPlace::host), reseeded));
  }
  EXPECT_TRUE(again == random_trajectory(fresh, 30));
}

TEST_F(VectorEnvTest, GamesStartFromGivenStatesAndAFinishedOneIsRefused) {
  const auto ttt = game("test_tictactoe");
  VectorEnv env(*ttt, settings(2, 1));
  const uint32_t size = ttt->state_size();
  std::vector<unsigned char> states(2 * size);
  auto first = ttt->initial_state();
  ttt->apply_move(first.data(), 4); // X in the centre: O to move, 8 cells free
  std::memcpy(states.data(), first.data(), size);
  std::memcpy(states.data() + size, ttt->initial_state().data(), size);
  const EnvStep s = env.reset_from_states(states.data(), states.size());
  EXPECT_EQ(values_of<int32_t>(*s.players), (std::vector<int32_t>{1, 0}));
  const auto legal = values_of<uint8_t>(*s.legal);
  EXPECT_EQ(legal[4], 0);
  EXPECT_EQ(std::count(legal.begin(), legal.begin() + 9, 1), 8);
  EXPECT_EQ(env.states_on_host(), states);
  const std::vector<uint32_t> centre = {4, 4};
  EXPECT_THROW(env.step(centre.data(), MemoryPlace::host), IllegalActionError) << "the centre is taken in game 0";
  auto over = ttt->initial_state();
  for (uint32_t cell : {0u, 3u, 1u, 4u, 2u}) ttt->apply_move(over.data(), cell);
  std::memcpy(states.data() + size, over.data(), size);
  try {
    env.reset_from_states(states.data(), states.size());
    ADD_FAILURE() << "a finished game was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "environment 1 is a finished game")) << e.what();
  }
  EXPECT_THROW(env.reset_from_states(states.data(), states.size() - 1), std::invalid_argument);
}

// The CUDA and CPU environments of one game, stepped side by side with the same random actions.
void expect_cuda_equals_cpu(const GameInstance& g, VectorEnvSettings settings, const std::string& label) {
  VectorEnvSettings on_gpu = settings;
  on_gpu.cuda = true;
  VectorEnv cpu(g, settings), gpu(g, on_gpu);
  ASSERT_TRUE(gpu.on_cuda());
  const auto host = [&](const EnvStep& s) {
    EXPECT_EQ(s.legal->place(), MemoryPlace::cuda);
    // The GPU's arrays come back through host copies of the same bytes.
    Snapshot out;
    const std::vector<std::pair<std::shared_ptr<EnvArray>, std::vector<unsigned char>*>> arrays = {
        {s.observations, &out.observations},
        {s.rewards, &out.rewards},
        {s.terminated, &out.terminated},
        {s.players, &out.players},
        {s.legal, &out.legal},
        {s.truncated, &out.truncated},
        {s.actor_rewards, &out.actor_rewards},
        {s.ended, &out.ended},
        {s.final_observations, &out.final_observations}};
    for (const auto& [array, into] : arrays) {
      if (!array) continue;
      into->resize(array->bytes());
      gsdk::core::copy_to_host(*array, into->data());
    }
    out.states = gpu.states_on_host();
    return out;
  };
  ASSERT_TRUE(snapshot(cpu.reset(), cpu) == host(gpu.reset())) << label << " reset";
  const uint32_t count = settings.count;
  int truncated = 0;
  for (int step = 0; step < 200; ++step) {
    const auto cpu_actions = cpu.random_actions();
    const auto gpu_actions = gpu.random_actions();
    std::vector<uint32_t> copied(count);
    gsdk::core::copy_to_host(*gpu_actions, copied.data());
    ASSERT_EQ(values_of<uint32_t>(*cpu_actions), copied) << label << " step " << step;
    const EnvStep a = cpu.step(cpu_actions->as<uint32_t>(), MemoryPlace::host);
    // Alternate device and host actions: both are taken.
    const EnvStep b = step % 2 ? gpu.step(gpu_actions->as<uint32_t>(), MemoryPlace::cuda)
                               : gpu.step(copied.data(), MemoryPlace::host);
    const Snapshot expected = snapshot(a, cpu);
    ASSERT_TRUE(expected == host(b)) << label << " step " << step;
    truncated += static_cast<int>(std::count(expected.truncated.begin(), expected.truncated.end(), 1));
  }
  if (settings.max_episode_steps) {
    EXPECT_GT(truncated, 0) << label;
  }
  std::vector<uint32_t> bad(count, 0);
  bad[0] = cpu.action_count();
  EXPECT_THROW(gpu.step(bad.data(), MemoryPlace::host), IllegalActionError);
}

// Every loaded game with a CUDA step (the test plugins and the shipped plugins): the CUDA environment hands out what
// the CPU environment does, step by step; with a step limit and final observations where the game keeps final
// states on the device, and a clear refusal of final observations where it does not.
TEST_F(VectorEnvTest, CudaMatchesCpu) {
  GSDK_REQUIRE_GPU();
  gsdk::host::PluginCatalog all;
  all.load_directories({gsdk::test::plugin_dir(), gsdk::test::test_plugin_dir("valid")});
  int covered = 0, keeping = 0;
  for (const auto& plugin : all.plugins()) {
    const auto& t = plugin->tables;
    if (!t.batched_steps || !t.batched_steps->cuda_step) continue;
    ++covered;
    const GameInstance g(t, gsdk::host::resolve_params(*t.game, toml::table{}).values);
    expect_cuda_equals_cpu(g, settings(700, 17, 2), t.name());
    VectorEnvSettings limited = settings(700, 19, 2);
    limited.max_episode_steps = 25;
    limited.final_observations = true;
    if (gsdk::core::cuda_step_keeping_final(*t.batched_steps)) {
      ++keeping;
      expect_cuda_equals_cpu(g, limited, t.name() + " with a step limit and final observations");
      continue;
    }
    limited.cuda = true;
    try {
      VectorEnv refused(g, limited);
      ADD_FAILURE() << t.name() << ": final observations on CUDA were taken without cuda_step_keeping_final";
    } catch (const std::invalid_argument& e) {
      EXPECT_TRUE(contains(e.what(), "cuda_step_keeping_final")) << e.what();
    }
  }
  if (covered == 0) GTEST_SKIP() << "no loaded game has batched_steps.cuda_step yet";
  EXPECT_GT(keeping, 0) << "othello and minefield keep final states on the device";
}

} // namespace
