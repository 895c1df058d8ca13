// cuda_tables_test.cpp - snake's CUDA perft kernels, canonical states and evaluation through the plugin's tables,
// equal to the CPU's on a few hundred random snakes of several dimensions (with and without symmetry breaking or a
// blocked sub-cube, both evaluations). Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <vector>

#include "gpu.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::Settings;

// Random snakes of `game`, stopped after a random number of moves (finished ones included): half of them short,
// half of them up to the end of the random walk (long snakes leave free regions of many pieces and dead ends).
std::vector<State> random_snakes(const Game& game, uint32_t count, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<State> out(count);
  for (uint32_t i = 0; i < count; ++i) {
    State& s = out[i];
    game.initial_state(s);
    const uint32_t stop = random() % (i % 2 ? 1u << game.rules().dimension : 4 * game.rules().dimension + 8);
    uint32_t moves[kMaxDimension];
    for (uint32_t n; s.length < stop && (n = game.legal_moves(s, moves, nullptr)) != 0;)
      game.apply_move(s, moves[random() % n]);
  }
  return out;
}

template <typename T> T* device_copy(const std::vector<T>& host) {
  T* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, sizeof(T) * (host.empty() ? 1 : host.size())), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(p, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice), cudaSuccess);
  return p;
}

template <typename T> std::vector<T> host_copy(const T* device, size_t count) {
  std::vector<T> host(count);
  EXPECT_EQ(cudaMemcpy(host.data(), device, sizeof(T) * count, cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

// Every layout of the CUDA evaluation: several states a warp (d <= 10, one with a single word), a word a lane
// (d = 11), two and four words a lane (d = 12, 13).
const Settings kSettings[] = {{4, false, "uniform", "", "free"},
                              {5, true, "uniform", "", "reachable"},
                              {6, false, "uniform", "", "reachable"},
                              {8, false, "uniform", "", "reachable"},
                              {10, false, "uniform", "10********", "reachable"},
                              {11, false, "uniform", "", "reachable"},
                              {12, true, "uniform", "", "reachable"},
                              {13, true, "uniform", "", "free"},
                              {13, false, "uniform", "", "reachable"}};

TEST(SnakeCudaTables, EvaluationAndCanonicalStatesEqualTheCpu) {
  GSDK_REQUIRE_GPU();
  for (const Settings& settings : kSettings) {
    const Game game = test::make_rules(settings);
    const auto instance = test::make_game(settings);
    const std::vector<State> snakes = random_snakes(game, 300, settings.dimension);
    std::vector<State> live;
    for (const State& s : snakes)
      if (game.current_player(s) == 0) live.push_back(s);
    char error[256] = {};
    State* states = device_copy(live);
    int32_t* values = nullptr;
    ASSERT_EQ(cudaMalloc(&values, sizeof(int32_t) * live.size()), cudaSuccess);
    ASSERT_EQ(instance->tables().evaluation->cuda_evaluate(instance->handle(), states, uint32_t(live.size()), 0,
                                                           nullptr, values, error, sizeof error),
              GSDK_OK)
        << error;
    const std::vector<int32_t> gpu = host_copy(values, live.size());
    for (size_t i = 0; i < live.size(); ++i) ASSERT_EQ(gpu[i], game.evaluate(live[i])) << game.state_to_string(live[i]);
    State* all = device_copy(snakes);
    ASSERT_EQ(instance->tables().perft_keys->cuda_canonical(instance->handle(), all, uint32_t(snakes.size()), all,
                                                            nullptr, error, sizeof error),
              GSDK_OK)
        << error;
    const std::vector<State> canonical = host_copy(all, snakes.size());
    for (size_t i = 0; i < snakes.size(); ++i) {
      State c = snakes[i];
      game.canonical_state(c);
      ASSERT_EQ(std::memcmp(&c, &canonical[i], sizeof c), 0) << game.state_to_string(snakes[i]);
    }
    cudaFree(states);
    cudaFree(values);
    cudaFree(all);
  }
}

TEST(SnakeCudaTables, PerftKernelsEqualTheCpu) {
  GSDK_REQUIRE_GPU();
  for (const Settings& settings : kSettings) {
    const Game game = test::make_rules(settings);
    const auto instance = test::make_game(settings);
    const gsdk_cuda_perft& perft = *instance->tables().cuda_perft;
    ASSERT_EQ(perft.leaf_plies, 2u);
    const std::vector<State> snakes = random_snakes(game, 200, 100 + settings.dimension);
    const auto n = uint32_t(snakes.size());
    char error[256] = {};
    State* states = device_copy(snakes);
    uint32_t* counts = nullptr;
    ASSERT_EQ(cudaMalloc(&counts, sizeof(uint32_t) * n), cudaSuccess);
    for (uint32_t plies = 1; plies <= 2; ++plies) {
      ASSERT_EQ(perft.count_leaves(instance->handle(), states, n, plies, counts, nullptr, error, sizeof error), GSDK_OK)
          << error;
      const std::vector<uint32_t> gpu = host_copy(counts, n);
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(gpu[i], game.cpu_perft(snakes[i], plies)) << plies;
    }
    // Every legal move of every snake, in legal_moves order, then the children and their counts.
    std::vector<uint32_t> offsets(n), parents, moves;
    for (uint32_t i = 0; i < n; ++i) {
      offsets[i] = uint32_t(moves.size());
      uint32_t legal[kMaxDimension];
      const uint32_t m = game.legal_moves(snakes[i], legal, nullptr);
      for (uint32_t j = 0; j < m; ++j) parents.push_back(i), moves.push_back(legal[j]);
    }
    const auto children_count = uint32_t(moves.size());
    uint32_t* device_offsets = device_copy(offsets);
    uint32_t* device_moves = nullptr;
    ASSERT_EQ(cudaMalloc(&device_moves, sizeof(uint32_t) * (children_count + 1)), cudaSuccess);
    ASSERT_EQ(
        perft.generate_moves(instance->handle(), states, n, device_offsets, device_moves, nullptr, error, sizeof error),
        GSDK_OK)
        << error;
    EXPECT_EQ(host_copy(device_moves, children_count), moves);
    uint32_t* device_parents = device_copy(parents);
    State* children = nullptr;
    uint32_t *child_counts = nullptr, *fused = nullptr;
    ASSERT_EQ(cudaMalloc(&children, sizeof(State) * (children_count + 1)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&child_counts, sizeof(uint32_t) * (children_count + 1)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&fused, sizeof(uint32_t) * (children_count + 1)), cudaSuccess);
    ASSERT_EQ(perft.apply_moves(instance->handle(), states, device_parents, device_moves, children_count, children,
                                child_counts, nullptr, error, sizeof error),
              GSDK_OK)
        << error;
    ASSERT_EQ(perft.count_leaves_after_moves(instance->handle(), states, device_parents, device_moves, children_count,
                                             2, fused, nullptr, error, sizeof error),
              GSDK_OK)
        << error;
    const std::vector<State> gpu_children = host_copy(children, children_count);
    const std::vector<uint32_t> gpu_counts = host_copy(child_counts, children_count);
    const std::vector<uint32_t> gpu_fused = host_copy(fused, children_count);
    for (uint32_t j = 0; j < children_count; ++j) {
      State child = snakes[parents[j]];
      game.apply_move(child, moves[j]);
      ASSERT_EQ(std::memcmp(&child, &gpu_children[j], sizeof child), 0) << game.state_to_string(child);
      ASSERT_EQ(gpu_counts[j], game.cpu_perft(child, 1));
      ASSERT_EQ(gpu_fused[j], game.cpu_perft(child, 2));
    }
    for (void* p : {(void*)states, (void*)counts, (void*)device_offsets, (void*)device_moves, (void*)device_parents,
                    (void*)children, (void*)child_counts, (void*)fused})
      cudaFree(p);
  }
}

} // namespace
} // namespace snake
