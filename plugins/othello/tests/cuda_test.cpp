// cuda_test.cpp - othello's CUDA tables: perft through the core's GPU engine against the published
// tables in every convention, CUDA playouts (one start or a batch of them) bit-identical to the
// CPU's, and so a UCT tree grown with GPU batches equal to one grown on the CPU; exact endgames solved
// apart on the GPU while the tree grows; the evaluations (basic, the shipped weights, a weights file) equal to the
// CPU's to the bit. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <vector>

#include "exact_tree_checks.hpp"
#include "gpu.hpp"
#include "gsdk/core/agents/leaf_evaluator.hpp"
#include "gsdk/core/agents/mcts.hpp"
#include "gsdk/core/perft/cuda_perft.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "gsdk/playout_summary.hpp"
#include "othello_test_support.hpp"
#include "perft_reference.hpp"
#include "rules/board_text.hpp"
#include "rules/evaluation.hpp"
#include "rules/patterns.hpp"
#include "rules/weights_file.hpp"

namespace othello {
namespace {

using test::make_game;
using test::Summary;

TEST(OthelloCuda, PerftMatchesThePublishedTablesInEveryConvention) {
  GSDK_REQUIRE_GPU();
  {
    const auto game = make_game("standard");
    gsdk::core::CudaPerftEngine engine(*game, 0, 0);
    for (uint32_t depth = 1; depth <= 13; ++depth)
      EXPECT_EQ(engine.count({game->initial_state()}, depth)[0], test::kStandardPerft[depth - 1]) << "depth " << depth;
  }
  for (const auto& reference : test::kOtherConventions) {
    const auto game = make_game(reference.convention);
    gsdk::core::CudaPerftEngine engine(*game, 0, 0);
    EXPECT_EQ(engine.count({game->initial_state()}, 10)[0], reference.depth10) << reference.convention;
    EXPECT_EQ(engine.count({game->initial_state()}, 12)[0], reference.depth12) << reference.convention;
    EXPECT_EQ(engine.count({game->initial_state()}, 14)[0], reference.depth14) << reference.convention;
  }
}

TEST(OthelloCuda, ManyLateRootsAgreeWithTheCpu) {
  GSDK_REQUIRE_GPU();
  for (const char* convention : {"standard", "finished_not_leaf", "free_pass"}) {
    const auto game = make_game(convention);
    std::mt19937_64 random(3);
    std::vector<gsdk::core::StateBlob> roots;
    std::vector<uint32_t> moves(game->max_moves());
    for (int trial = 0; trial < 300; ++trial) {
      auto s = game->initial_state();
      for (int ply = 0; ply < 40 + trial % 20 && game->current_player(s) != GSDK_PLAYER_TERMINAL; ++ply)
        game->apply_move(s, moves[random() % game->checked_legal_moves(s, moves)]);
      roots.push_back(s);
    }
    gsdk::core::CudaPerftEngine engine(*game, 0, uint64_t{1} << 30);
    const std::vector<uint64_t> gpu = engine.count(roots, 6);
    for (size_t i = 0; i < roots.size(); ++i) {
      uint64_t cpu = 0;
      char error[256] = {};
      ASSERT_EQ(game->tables().cpu_perft->count(game->handle(), roots[i].data(), 6, &cpu, error, sizeof error),
                GSDK_OK);
      ASSERT_EQ(gpu[i], cpu) << convention << " " << game->state_to_string(roots[i]);
    }
  }
}

TEST(OthelloCuda, PlayoutsEqualTheCpuForTheSameSeedUnderEveryPolicy) {
  GSDK_REQUIRE_GPU();
  for (const char* policy : {"random", "corners", "mobility"}) {
    const auto game = make_game("standard", 0, policy);
    const gsdk_cuda_playouts& cuda = *game->tables().cuda_playouts;
    const uint64_t scratch_bytes = cuda.scratch_bytes(game->handle(), 0);
    void* scratch = nullptr;
    ASSERT_EQ(cudaMalloc(&scratch, scratch_bytes), cudaSuccess);
    const auto midgame = game->state_from_string("-----------X-O-----XXOO----XXXO----OXXO----O--X----------------- O");
    struct Case {
      uint64_t seed, first, count;
      const gsdk::core::StateBlob* start;
    };
    const Case cases[] = {{1, 0, 1, nullptr},
                          {1, 0, 1000, nullptr},
                          {42, 12345, 200000, nullptr},
                          {7, 3, 77777, &midgame},
                          {7, uint64_t{1} << 40, 5000, nullptr}};
    for (const Case& c : cases) {
      gsdk_playout_request r{};
      r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
      r.seed = c.seed;
      r.first_playout = c.first;
      r.playout_count = c.count;
      r.start_state = c.start ? c.start->data() : nullptr;
      Summary cpu, gpu;
      char error[256] = {};
      ASSERT_EQ(game->tables().cpu_playouts->run(game->handle(), &r, &cpu.s, error, sizeof error), GSDK_OK) << error;
      ASSERT_EQ(cuda.run(game->handle(), &r, 0, nullptr, scratch, scratch_bytes, &gpu.s, error, sizeof error), GSDK_OK)
          << error;
      EXPECT_EQ(gpu.histogram, cpu.histogram) << policy << " seed " << c.seed << " first " << c.first;
      EXPECT_EQ(gpu.s.playouts, cpu.s.playouts);
      EXPECT_EQ(gpu.s.best_score, cpu.s.best_score);
      EXPECT_EQ(gpu.s.best_playout, cpu.s.best_playout);
      EXPECT_EQ(gpu.s.worst_score, cpu.s.worst_score);
      EXPECT_EQ(gpu.s.worst_playout, cpu.s.worst_playout);
    }
    cudaFree(scratch);
  }
}

// Positions of random games after `plies` plies (some finished early), packed as the core packs them.
std::vector<unsigned char> packed_random_positions(const gsdk::core::GameInstance& game, int count, int plies) {
  std::mt19937_64 random(5);
  std::vector<uint32_t> moves(game.max_moves());
  std::vector<unsigned char> packed;
  for (int i = 0; i < count; ++i) {
    auto state = game.initial_state();
    for (int ply = 0; ply < plies && game.current_player(state) >= 0; ++ply)
      game.apply_move(state, moves[random() % game.checked_legal_moves(state, moves)]);
    packed.insert(packed.end(), state.begin(), state.end());
  }
  return packed;
}

TEST(OthelloCuda, PlayoutBatchesEqualTheCpuOneStateAtATimeUnderEveryPolicy) {
  GSDK_REQUIRE_GPU();
  for (const char* policy : {"random", "corners", "mobility"}) {
    const auto game = make_game("standard", 0, policy);
    ASSERT_NE(game->tables().cuda_playout_batches, nullptr);
    const auto packed = packed_random_positions(*game, 300, 40);
    const auto cpu = gsdk::core::make_cpu_evaluator(*game);
    const auto gpu = gsdk::core::make_cuda_evaluator(*game, 0, 1 << 16, 128); // 300 states: three launches
    EXPECT_NE(gpu->describe().find("128 leaves per launch"), std::string::npos) << gpu->describe();
    for (const uint64_t playouts : {uint64_t{1}, uint64_t{37}, uint64_t{1000}}) {
      cpu->reseed(playouts);
      gpu->reseed(playouts);
      const auto want = cpu->evaluate_batch(packed, 300, playouts);
      const auto got = gpu->evaluate_batch(packed, 300, playouts);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].wins, want[i].wins) << policy << " state " << i << ", " << playouts << " playouts";
        EXPECT_EQ(got[i].draws, want[i].draws) << "state " << i;
        EXPECT_EQ(got[i].losses, want[i].losses) << "state " << i;
      }
      EXPECT_EQ(gpu->playouts_run(), cpu->playouts_run());
    }
  }
}

// exact_empties: states near the end are solved (a second launch), the rest played out at random, and
// both give what the CPU gives; so does the one-start table, which solves on the host.
TEST(OthelloCuda, PlayoutBatchesWithExactEndgamesEqualTheCpu) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game("standard", 10);
  auto packed = packed_random_positions(*game, 200, 52);
  const auto midgame = packed_random_positions(*game, 100, 30);
  packed.insert(packed.end(), midgame.begin(), midgame.end());
  int solved = 0;
  const unsigned char* solved_start = nullptr;
  for (size_t at = 0; at < packed.size(); at += sizeof(Position)) {
    Position p;
    std::memcpy(&p, packed.data() + at, sizeof p);
    if (empty_count(p) > 10 || game_over(p)) continue;
    ++solved;
    solved_start = packed.data() + at;
  }
  EXPECT_GT(solved, 100) << "too few states near the end among the samples";
  const auto cpu = gsdk::core::make_cpu_evaluator(*game);
  const auto gpu = gsdk::core::make_cuda_evaluator(*game, 0, 1 << 16, 128);
  cpu->reseed(8);
  gpu->reseed(8);
  const auto want = cpu->evaluate_batch(packed, 300, 16);
  const auto got = gpu->evaluate_batch(packed, 300, 16);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].wins, want[i].wins) << "state " << i;
    EXPECT_EQ(got[i].draws, want[i].draws) << "state " << i;
    EXPECT_EQ(got[i].losses, want[i].losses) << "state " << i;
  }

  const gsdk_cuda_playouts& cuda = *game->tables().cuda_playouts;
  const uint64_t scratch_bytes = cuda.scratch_bytes(game->handle(), 0);
  void* scratch = nullptr;
  ASSERT_EQ(cudaMalloc(&scratch, scratch_bytes), cudaSuccess);
  gsdk_playout_request r{};
  r.header = {GSDK_TYPE_PLAYOUT_REQUEST, sizeof r};
  r.seed = 3;
  r.first_playout = 77;
  r.playout_count = 1000;
  r.start_state = solved_start;
  Summary on_cpu, on_gpu;
  char error[256] = {};
  ASSERT_EQ(game->tables().cpu_playouts->run(game->handle(), &r, &on_cpu.s, error, sizeof error), GSDK_OK) << error;
  ASSERT_EQ(cuda.run(game->handle(), &r, 0, nullptr, scratch, scratch_bytes, &on_gpu.s, error, sizeof error), GSDK_OK)
      << error;
  EXPECT_EQ(on_gpu.histogram, on_cpu.histogram);
  EXPECT_EQ(on_gpu.s.best_playout, on_cpu.s.best_playout);
  cudaFree(scratch);
}

// Grows the same batched, pipelined tree with CPU and with GPU playouts, iteration by iteration.
void expect_same_tree_on_cpu_and_gpu(uint32_t leaf, uint32_t batch, bool evaluate_children) {
  const auto game = make_game("standard");
  gsdk::core::TreeSettings settings{0.7, leaf, 1u << 20};
  settings.batch = batch;
  settings.in_flight = 2; // the GPU tree overlaps launches; the CPU tree defers its backups the same way
  settings.evaluate_children = evaluate_children;
  const uint32_t states_per_launch = batch * (evaluate_children ? game->max_moves() : 1);
  gsdk::core::SearchTree cpu(*game, gsdk::core::make_cpu_evaluator(*game), settings);
  gsdk::core::SearchTree gpu(*game, gsdk::core::make_cuda_evaluator(*game, 0, 1 << 16, states_per_launch), settings);
  cpu.reset(21);
  gpu.reset(21);
  cpu.set_root(game->initial_state());
  gpu.set_root(game->initial_state());
  for (int i = 0; i < 20; ++i) ASSERT_EQ(gpu.iterate(), cpu.iterate());
  cpu.settle();
  gpu.settle();
  EXPECT_EQ(gpu.node_count(), cpu.node_count());
  const auto a = cpu.root_children(), b = gpu.root_children();
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].visits, b[k].visits) << "root move " << a[k].move;
    EXPECT_EQ(a[k].points, b[k].points) << "root move " << a[k].move;
  }
}

TEST(OthelloCuda, BatchedUctTreeIsTheSameOnCpuAndGpu) {
  GSDK_REQUIRE_GPU();
  expect_same_tree_on_cpu_and_gpu(64, 256, false);
}

TEST(OthelloCuda, ChildEvaluatingUctTreeIsTheSameOnCpuAndGpu) {
  GSDK_REQUIRE_GPU();
  expect_same_tree_on_cpu_and_gpu(16, 32, true);
}

// The evaluator a GPU agent gets: playout batches of up to 8 leaves' children (the tree asks it to solve
// exact states apart).
std::unique_ptr<gsdk::core::LeafEvaluator> gpu_evaluator(const gsdk::core::GameInstance& game) {
  return gsdk::core::make_cuda_evaluator(game, 0, 1 << 16, 8 * game.max_moves());
}

TEST(OthelloCuda, TreeNodesSolvedApartHoldPerfectPlaysValueAndAreNeverExpanded) {
  GSDK_REQUIRE_GPU();
  test::expect_solved_children_hold_exact_values(gpu_evaluator, true);
}

TEST(OthelloCuda, EvaluationsEqualTheCpuToTheBit) {
  GSDK_REQUIRE_GPU();
  std::vector<Position> states;
  for (uint32_t empty = 2; empty <= 58; empty += 4)
    for (const Position& p : test::late_positions(300 + empty, empty, 40)) states.push_back(p);
  Position* device_states = nullptr;
  int32_t* device_values = nullptr;
  ASSERT_EQ(cudaMalloc(&device_states, states.size() * sizeof(Position)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&device_values, states.size() * sizeof(int32_t)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(device_states, states.data(), states.size() * sizeof(Position), cudaMemcpyHostToDevice),
            cudaSuccess);
  // A weights file of random weights besides the shipped ones: each set must reach the device as its own copy.
  std::mt19937_64 random(17);
  EvaluationWeightsFile planted{"random", std::vector<int16_t>(size_t{kEvaluationStages} * kPatternLayout.stage_entries)};
  for (int16_t& w : planted.weights) w = static_cast<int16_t>(static_cast<int32_t>(random() % 401) - 200);
  const std::string weights_path =
      (std::filesystem::temp_directory_path() / ("othello_cuda_weights_" + std::to_string(::getpid()) + ".bin")).string();
  const std::vector<unsigned char> bytes = encode_weights(planted);
  std::ofstream(weights_path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const std::pair<const char*, const char*> evaluations[] = {
      {"patterns", ""}, {"basic", ""}, {"patterns", weights_path.c_str()}};
  std::vector<std::vector<int32_t>> values_of;
  for (const auto& [evaluation, weights] : evaluations) {
    const auto game = make_game("standard", 0, "random", evaluation, weights);
    const gsdk_evaluation& table = *game->tables().evaluation;
    ASSERT_NE(table.cuda_evaluate, nullptr);
    char error[256] = {};
    ASSERT_EQ(table.cuda_evaluate(game->handle(), device_states, static_cast<uint32_t>(states.size()), 0, nullptr,
                                  device_values, error, sizeof error),
              GSDK_OK)
        << error;
    std::vector<int32_t> gpu(states.size()), cpu(states.size());
    ASSERT_EQ(cudaMemcpy(gpu.data(), device_values, gpu.size() * sizeof(int32_t), cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(table.evaluate(game->handle(), states.data(), static_cast<uint32_t>(states.size()), cpu.data(), error,
                             sizeof error),
              GSDK_OK)
        << error;
    for (size_t k = 0; k < states.size(); ++k)
      ASSERT_EQ(gpu[k], cpu[k]) << evaluation << " " << weights << " " << to_text(states[k]);
    values_of.push_back(gpu);
  }
  EXPECT_NE(values_of[2], values_of[0]); // the file's weights, not the shipped ones
  std::filesystem::remove(weights_path);
  cudaFree(device_states);
  cudaFree(device_values);
}

} // namespace
} // namespace othello
