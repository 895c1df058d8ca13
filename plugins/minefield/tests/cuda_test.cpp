// cuda_test.cpp - the CUDA trainer against the CPU trainer, bit for bit, over table sizes that put the
// table and the visit counters in shared or global memory; atomic and shared-table modes. Skipped
// without a GPU.
#include <cuda_runtime.h>

#include <gtest/gtest.h>

#include "gpu.hpp"
#include "minefield_test_util.hpp"

namespace minefield {
namespace {

using test::GameParams;
using test::make_game;
using test::Training;

// Runs t's request on device 0 with scratch from cudaMalloc; returns the kernel milliseconds.
double train_on_gpu(const Game& game, Training& t) {
  const uint64_t bytes = game.cuda_qlearning_scratch_bytes(t.request);
  void* scratch = nullptr;
  if (cudaMalloc(&scratch, bytes) != cudaSuccess) throw std::runtime_error("cudaMalloc failed");
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  double ms = 0;
  try {
    ms = game.cuda_qlearning_train(t.request, 0, stream, scratch, bytes);
  } catch (...) {
    cudaStreamDestroy(stream);
    cudaFree(scratch);
    throw;
  }
  cudaStreamDestroy(stream);
  cudaFree(scratch);
  return ms;
}

struct Shape {
  GameParams params;
  uint32_t environments, episodes, flags;
};

TEST(MinefieldCuda, TrainsBitForBitLikeTheCpu) {
  GSDK_REQUIRE_GPU();
  const Shape shapes[] = {
      {{46, 512, -1, 2024, 1000}, 3, 40, 0},                     // the lab's board: table in shared memory
      {{46, 512, -1, 2024, 1000}, 2, 40, GSDK_QL_FIRST_MAX_TIES}, // first-action ties
      {{9, 1024, 0, 5, 200}, 2, 30, 0},                          // 1024 agents on 81 cells: many collisions
      {{7, 33, 10, 6, 5}, 5, 25, 0},                             // odd agent count, short step limit
      {{120, 64, -1, 1, 1000}, 2, 8, 0},                         // 230 KB table: global memory
      {{256, 32, -1, 1, 300}, 1, 3, 0},                          // visit counters in global memory too
  };
  for (const Shape& s : shapes) {
    const auto game = make_game(s.params);
    Training cpu(*game, s.environments, s.episodes, s.flags), gpu(*game, s.environments, s.episodes, s.flags);
    test::train_on_cpu(*game, cpu);
    EXPECT_GT(train_on_gpu(*game, gpu), 0.0);
    const std::string label = "size " + std::to_string(s.params.size) + ", " + std::to_string(s.params.agents) + " agents";
    EXPECT_EQ(gpu.tables, cpu.tables) << label;
    EXPECT_EQ(gpu.stats, cpu.stats) << label;
    EXPECT_EQ(gpu.visits, cpu.visits) << label;
  }
}

TEST(MinefieldCuda, AtomicUpdatesLearnToo) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({46, 512, -1, 2024, 1000});
  for (uint32_t flags : {uint32_t{GSDK_QL_ATOMIC_UPDATES}, uint32_t{GSDK_QL_ATOMIC_UPDATES | GSDK_QL_SHARED_TABLE}}) {
    Training t(*game, 4, 300, flags);
    train_on_gpu(*game, t);
    uint32_t late = 0;
    for (uint32_t e = 0; e < 4; ++e) late += t.stat(e, 299, GSDK_QL_STAT_SUCCESSES);
    // By the last episode (epsilon 1e-4) most agents find the flag; random walks find it rarely.
    EXPECT_GT(late, 4u * 512 / 2) << "flags " << flags;
  }
}

TEST(MinefieldCuda, ASharedTableNeedsAtomicUpdates) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({20, 64, -1, 1, 100});
  Training t(*game, 2, 5, GSDK_QL_SHARED_TABLE);
  try {
    train_on_gpu(*game, t);
    FAIL() << "a shared table with deterministic updates ran on the GPU";
  } catch (const gsdk::PluginError& e) {
    EXPECT_NE(std::string(e.what()).find("needs atomic updates"), std::string::npos) << e.what();
  }
}

TEST(MinefieldCuda, TooLittleScratchIsAClearError) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game({20, 64, -1, 1, 100});
  Training t(*game, 2, 5);
  void* scratch = nullptr;
  ASSERT_EQ(cudaMalloc(&scratch, 1024), cudaSuccess);
  try {
    game->cuda_qlearning_train(t.request, 0, nullptr, scratch, 1024);
    ADD_FAILURE() << "1 KB of scratch was accepted";
  } catch (const gsdk::PluginError& e) {
    EXPECT_NE(std::string(e.what()).find("scratch"), std::string::npos) << e.what();
  }
  cudaFree(scratch);
}

} // namespace
} // namespace minefield
