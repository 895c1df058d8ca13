// cuda_test.cpp - graveler's CUDA batch path (graveler::Game::cuda_playouts, driven with the core's
// CudaStream and DeviceArena) gives exactly the CPU path's summary for many ranges, including odd
// starts and ends, far battle numbers, other roll counts and start states. Skipped without a GPU.
#include <gtest/gtest.h>

#include "gpu.hpp"
#include "graveler_game.hpp"
#include "graveler_test_util.hpp"
#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk/playout_request.hpp"

namespace {

#if defined(GSDK_WITH_CUDA)

using graveler::test::make_game;

gsdk_playout_request request(uint64_t seed, uint64_t first, uint64_t count, const graveler::State* start = nullptr) {
  return gsdk::playout_request(seed, first, count, start, GSDK_SIMD_AVX512);
}

class GravelerCuda : public ::testing::Test {
protected:
  void SetUp() override {
    GSDK_REQUIRE_GPU();
    stream_ = std::make_unique<gsdk::core::CudaStream>(0);
    arena_ = std::make_unique<gsdk::core::DeviceArena>(0, uint64_t{64} << 20);
  }

  void expect_same(const graveler::Game& game, int rolls, const gsdk_playout_request& r) {
    const uint64_t scratch_size = game.cuda_scratch_bytes(r.playout_count);
    const uint64_t mark = arena_->mark();
    void* scratch = arena_->allocate(scratch_size);
    graveler::test::Summary gpu(static_cast<uint32_t>(rolls) + 1), cpu(static_cast<uint32_t>(rolls) + 1);
    game.cuda_playouts(r, 0, stream_->handle(), scratch, scratch_size, gpu.s);
    arena_->release_to(mark);
    game.cpu_playouts(r, cpu.s);
    EXPECT_TRUE(gpu == cpu) << "rolls " << rolls << " playouts [" << r.first_playout << ", "
                            << r.first_playout + r.playout_count << ")\n cuda " << gpu.describe() << "\n cpu  "
                            << cpu.describe();
    EXPECT_GE(gpu.s.device_milliseconds, 0.0);
  }

  std::unique_ptr<gsdk::core::CudaStream> stream_;
  std::unique_ptr<gsdk::core::DeviceArena> arena_;
};

TEST_F(GravelerCuda, SameSummaryAsCpuOverManyRanges) {
  const graveler::Game game = make_game(231);
  const std::pair<uint64_t, uint64_t> ranges[] = {
      {0, 1},        {1, 1},         {3, 64},           {0, 129},           {12345, 1000001},
      {7, 5000001},  {0, 16777219},  {(uint64_t{1} << 40) + 1, 777777}, {(uint64_t{1} << 52) - 5, 4099}};
  for (const auto& [first, count] : ranges) expect_same(game, 231, request(2024, first, count));
}

TEST_F(GravelerCuda, SameSummaryForOtherRollCounts) {
  for (const int rolls : {1, 7, 8, 9, 32, 33, 40, 100, 1024}) {
    const graveler::Game game = make_game(rolls);
    expect_same(game, rolls, request(5, 101, rolls > 512 ? 200001 : 1000001));
  }
}

TEST_F(GravelerCuda, SameSummaryFromAStartState) {
  const graveler::Game game = make_game(231);
  const graveler::State start = game.state_from_string("rolls=150 ones=44");
  expect_same(game, 231, request(77, 3, 2000001, &start));
}

TEST_F(GravelerCuda, RefusesTooSmallScratch) {
  const graveler::Game game = make_game(231);
  graveler::test::Summary s(232);
  void* scratch = arena_->allocate(16);
  try {
    game.cuda_playouts(request(1, 0, 1000), 0, stream_->handle(), scratch, 1, s.s);
    FAIL() << "accepted 1 byte of scratch";
  } catch (const gsdk::PluginError& e) {
    EXPECT_NE(std::string(e.what()).find("scratch of 1 bytes"), std::string::npos) << e.what();
  }
}

#else

TEST(GravelerCuda, NotBuilt) { GTEST_SKIP() << "graveler was built without CUDA"; }

#endif

} // namespace
