// hashed_perft_test.cpp - Othello through the core's hashed perft (transposition tables): the published counts in
// every convention on CPU threads, and on the GPU (skipped without one) to depth 16 of the standard convention
// (Aart Bik's table; 130 s on one H200 without the tables), where the tables and the merged levels do most of the work.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "gpu.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "othello_test_support.hpp"
#include "perft_reference.hpp"

namespace othello {
namespace {

using gsdk::core::PerftJob;
using gsdk::core::PerftOutcome;
using gsdk::core::uint128;
using test::make_game;

// Depths 15 and 16 of the standard convention, from the same published table as perft_reference.hpp.
constexpr std::array<uint64_t, 2> kStandardPerft15And16 = {1891832540064ull, 20301186039128ull};

PerftOutcome hashed_count(const gsdk::core::GameInstance& game, uint32_t depth, bool gpu) {
  PerftJob job;
  job.root = game.initial_state();
  job.depth = depth;
  job.hashing.enabled = true;
  if (gpu)
    job.cuda_devices = {0};
  else
    job.cpu_threads = 2;
  PerftOutcome out = gsdk::core::run_perft(game, job);
  EXPECT_EQ(out.error, "") << "depth " << depth;
  return out;
}

TEST(OthelloHashedPerft, CpuThreadsMatchThePublishedTables) {
  const auto game = make_game("standard");
  for (uint32_t depth = 1; depth <= 11; ++depth)
    EXPECT_EQ(hashed_count(*game, depth, false).leaves, uint128{test::kStandardPerft[depth - 1]}) << depth;
  for (const auto& reference : test::kOtherConventions)
    EXPECT_EQ(hashed_count(*make_game(reference.convention), 10, false).leaves, uint128{reference.depth10})
        << reference.convention;
}

TEST(OthelloHashedPerft, TheGpuMatchesThePublishedTablesToDepth16) {
  GSDK_REQUIRE_GPU();
  const auto game = make_game("standard");
  for (uint32_t depth = 1; depth <= 16; ++depth) {
    const uint64_t expected =
        depth <= 14 ? test::kStandardPerft[depth - 1] : kStandardPerft15And16[depth - 15];
    const PerftOutcome out = hashed_count(*game, depth, true);
    EXPECT_EQ(out.leaves, uint128{expected}) << "depth " << depth;
  }
  for (const auto& reference : test::kOtherConventions) {
    const auto other = make_game(reference.convention);
    EXPECT_EQ(hashed_count(*other, 12, true).leaves, uint128{reference.depth12}) << reference.convention;
    EXPECT_EQ(hashed_count(*other, 14, true).leaves, uint128{reference.depth14}) << reference.convention;
  }
}

} // namespace
} // namespace othello
