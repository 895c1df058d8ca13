// cuda_test.cpp - snake's CUDA playouts bit-identical to the CPU's for the same seed, in every block shape
// the kernel picks (small and large dimensions), every policy, with and without symmetry breaking or a
// blocked sub-cube, from the initial state and from a given snake. Skipped without a GPU (except the scratch
// refusal, which fails before touching a device).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>

#include "gpu.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

using test::make_game;
using test::request;
using test::Settings;
using test::Summary;

TEST(SnakeCuda, PlayoutsEqualTheCpuForTheSameSeed) {
  GSDK_REQUIRE_GPU();
  const Settings settings[] = {{3, true, "uniform"},
                               {5, false, "kinny"},
                               {8, true, "uniform"},
                               {8, true, "kinny"},
                               {10, false, "uniform"},
                               {11, true, "kinny"},
                               {12, true, "uniform"},
                               {13, true, "kinny"},
                               {9, true, "tight"},
                               {13, false, "tight"},
                               {10, false, "tight", "10********"}};
  for (const Settings& setting : settings) {
    const auto game = make_game(setting);
    const gsdk_cuda_playouts& cuda = *game->tables().cuda_playouts;
    const uint64_t scratch_bytes = cuda.scratch_bytes(game->handle(), 0);
    void* scratch = nullptr;
    ASSERT_EQ(cudaMalloc(&scratch, scratch_bytes), cudaSuccess);
    const gsdk::core::StateBlob midway =
        game->state_from_string("d=" + std::to_string(setting.dimension) + " moves 0 1 2 0");
    const uint64_t big = setting.dimension >= 12 ? 3000 : 100000;
    const gsdk_playout_request requests[] = {request(1, 0, 1), request(42, 12345, big),
                                             request(7, 3, 777, midway.data()), request(7, uint64_t{1} << 40, 5000)};
    for (const gsdk_playout_request& r : requests) {
      Summary cpu(*game), gpu(*game);
      char error[256] = {};
      ASSERT_EQ(game->tables().cpu_playouts->run(game->handle(), &r, &cpu.s, error, sizeof error), GSDK_OK) << error;
      ASSERT_EQ(cuda.run(game->handle(), &r, 0, nullptr, scratch, scratch_bytes, &gpu.s, error, sizeof error), GSDK_OK)
          << error;
      const std::string label = "d=" + std::to_string(setting.dimension) + " " + setting.policy + " seed " +
                                std::to_string(r.seed) + " first " + std::to_string(r.first_playout);
      EXPECT_EQ(gpu.histogram, cpu.histogram) << label;
      EXPECT_EQ(gpu.s.playouts, cpu.s.playouts) << label;
      EXPECT_EQ(gpu.s.best_score, cpu.s.best_score) << label;
      EXPECT_EQ(gpu.s.best_playout, cpu.s.best_playout) << label;
      EXPECT_EQ(gpu.s.worst_score, cpu.s.worst_score) << label;
      EXPECT_EQ(gpu.s.worst_playout, cpu.s.worst_playout) << label;
      EXPECT_GT(gpu.s.device_milliseconds, 0.0) << label;
    }
    cudaFree(scratch);
  }
}

TEST(SnakeCuda, TooLittleScratchIsRefusedWithTheSizeNeeded) {
  const auto game = make_game({8, true, "uniform"});
  const gsdk_cuda_playouts& cuda = *game->tables().cuda_playouts;
  const uint64_t needed = cuda.scratch_bytes(game->handle(), 100);
  Summary summary(*game);
  const gsdk_playout_request r = request(1, 0, 100);
  char error[256] = {};
  EXPECT_EQ(cuda.run(game->handle(), &r, 0, nullptr, nullptr, needed, &summary.s, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(error), "snake CUDA: no scratch, need " + std::to_string(needed) + " bytes");
  char one_byte[1];
  EXPECT_EQ(cuda.run(game->handle(), &r, 0, nullptr, one_byte, 1, &summary.s, error, sizeof error),
            GSDK_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(error), "snake CUDA: scratch of 1 bytes, need " + std::to_string(needed) + " bytes");
  EXPECT_EQ(summary.s.playouts, 0u);
}

} // namespace
} // namespace snake
