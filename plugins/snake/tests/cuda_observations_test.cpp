// cuda_observations_test.cpp - snake's observations on a CUDA device equal the CPU's, byte for byte, for snakes of
// random games in cubes below and above one 64-bit word of vertices. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "batched_steps_reference.hpp"
#include "device_vector.hpp"
#include "gpu.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

TEST(SnakeCudaObservations, EqualTheCpu) {
  GSDK_REQUIRE_GPU();
  for (const uint32_t dimension : {4u, 9u}) {
    const auto game = test::make_game({.dimension = dimension});
    const auto& table = gsdk::test::plugin_table<gsdk_observations>(*game, GSDK_TABLE_OBSERVATIONS);
    ASSERT_NE(table.cuda_fill, nullptr);
    std::mt19937_64 random(dimension);
    std::vector<unsigned char> states;
    std::vector<uint32_t> moves(game->max_moves());
    for (int g = 0; g < 300; ++g) { // every prefix of a few random snakes, the finished ones included
      auto s = game->initial_state();
      for (bool live = true; live;) {
        states.insert(states.end(), s.begin(), s.end());
        live = game->current_player(s) != GSDK_PLAYER_TERMINAL && g % 3 != 0; // some stay empty
        if (live) game->apply_move(s, moves[random() % game->checked_legal_moves(s, moves)]);
      }
    }
    const auto count = static_cast<uint32_t>(states.size() / game->state_size());
    std::vector<uint8_t> cpu(size_t{count} * 2 << dimension);
    table.fill(game->handle(), states.data(), count, cpu.data());
    gsdk::test::DeviceVector<unsigned char> device_states(states);
    gsdk::test::DeviceVector<uint8_t> gpu(cpu.size());
    char error[256] = {};
    ASSERT_EQ(table.cuda_fill(game->handle(), device_states.get(), count, 0, nullptr, gpu.get(), error, sizeof error),
              GSDK_OK)
        << error;
    EXPECT_EQ(gpu.download(), cpu) << "d = " << dimension;
  }
}

} // namespace
} // namespace snake
