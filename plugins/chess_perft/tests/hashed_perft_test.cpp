// hashed_perft_test.cpp - chess through the core's hashed perft (transposition tables keyed by canonical positions):
// the published tables on CPU threads, with a table that holds everything and with one of a single bucket, and on the
// GPU (skipped without one) to every published depth the suite lists and startpos 10; --divide equal to the unhashed
// one.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "gpu.hpp"
#include "gsdk/core/perft/perft.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "linked_plugin.hpp"
#include "reference_positions.hpp"
#include "rules/fen.hpp"

namespace {

using gsdk::core::PerftJob;
using gsdk::core::PerftOutcome;
using gsdk::core::StateBlob;
using gsdk::core::uint128;

std::unique_ptr<gsdk::core::GameInstance> chess_game() {
  const gsdk_param_value kernel{"gpu_leaf_kernel", GSDK_PARAM_STRING, 0, 0, 0.0, "thread"};
  return std::make_unique<gsdk::core::GameInstance>(gsdk::test::linked_plugin_tables("chess_perft"),
                                                    std::vector<gsdk_param_value>{kernel});
}

StateBlob blob(const chess::Position& p) {
  StateBlob b(sizeof p);
  std::memcpy(b.data(), &p, sizeof p);
  return b;
}

PerftJob hashed_job(const StateBlob& root, uint32_t depth) {
  PerftJob job;
  job.root = root;
  job.depth = depth;
  job.hashing.enabled = true;
  return job;
}

// Depths a hashed count on two CPU threads affords in a few seconds per position.
uint32_t cpu_depth(const std::string& name) {
  if (name == "start") return 7;
  if (name == "kiwipete") return 5;
  if (name == "position3") return 8;
  return 5;
}

TEST(ChessHashedPerft, CpuThreadsMatchThePublishedTables) {
  const auto game = chess_game();
  for (const auto& ref : chess::test::reference_positions()) {
    const StateBlob root = blob(chess::parse_fen(ref.fen));
    for (uint32_t depth = 2; depth <= cpu_depth(ref.name); ++depth) {
      PerftJob job = hashed_job(root, depth);
      job.cpu_threads = 2;
      const PerftOutcome out = gsdk::core::run_perft(*game, job);
      ASSERT_EQ(out.error, "");
      EXPECT_EQ(out.leaves, uint128{ref.leaves[depth - 1]}) << ref.name << " depth " << depth;
      if (depth >= 5) {
        EXPECT_GT(out.hash.host.hits, 0u) << ref.name << " depth " << depth << ": no transposition hit";
      }
    }
  }
}

TEST(ChessHashedPerft, ATableOfOneBucketStillCountsExactlyAndDividesAsTheUnhashedCount) {
  const auto game = chess_game();
  const auto& kiwipete = chess::test::reference_positions()[1];
  PerftJob job = hashed_job(blob(chess::parse_fen(kiwipete.fen)), 4);
  job.cpu_threads = 2;
  job.divide = true;
  job.hashing.host_table_bytes = 64;
  const PerftOutcome tiny = gsdk::core::run_perft(*game, job);
  job.hashing.enabled = false;
  const PerftOutcome plain = gsdk::core::run_perft(*game, job);
  ASSERT_EQ(tiny.error, "");
  EXPECT_EQ(tiny.leaves, uint128{kiwipete.leaves[3]});
  EXPECT_EQ(tiny.hash.host.slots, 4u);
  ASSERT_EQ(tiny.divide.size(), plain.divide.size());
  for (size_t k = 0; k < plain.divide.size(); ++k) {
    EXPECT_EQ(tiny.divide[k].text, plain.divide[k].text);
    EXPECT_EQ(tiny.divide[k].leaves, plain.divide[k].leaves) << plain.divide[k].text;
  }
}

// Startpos perft 10 (published; 23 unhashed GPU-seconds on one H200, one with the tables).
constexpr uint64_t kStartPerft10 = 69352859712417ull;

TEST(ChessHashedPerft, TheGpuMatchesThePublishedTables) {
  GSDK_REQUIRE_GPU();
  const auto game = chess_game();
  for (auto ref : chess::test::reference_positions()) {
    if (std::string(ref.name) == "start") ref.leaves.push_back(kStartPerft10);
    const StateBlob root = blob(chess::parse_fen(ref.fen));
    for (uint32_t depth = 2; depth <= ref.leaves.size(); ++depth) {
      PerftJob job = hashed_job(root, depth);
      job.cuda_devices = {0};
      const PerftOutcome out = gsdk::core::run_perft(*game, job);
      ASSERT_EQ(out.error, "") << ref.name << " depth " << depth;
      EXPECT_EQ(out.leaves, uint128{ref.leaves[depth - 1]}) << ref.name << " depth " << depth;
      if (depth >= 6) {
        EXPECT_GT(out.hash.duplicates + out.hash.device.hits, 0u) << ref.name << " depth " << depth;
      }
    }
  }
}

TEST(ChessHashedPerft, TheGpuWithASmallTableStillCountsExactly) {
  GSDK_REQUIRE_GPU();
  const auto game = chess_game();
  const auto& start = chess::test::reference_positions()[0];
  PerftJob job = hashed_job(blob(chess::parse_fen(start.fen)), 8);
  job.cuda_devices = {0};
  job.hashing.device_table_bytes = 1 << 20; // 65536 slots for millions of positions: evictions everywhere
  const PerftOutcome out = gsdk::core::run_perft(*game, job);
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(out.leaves, uint128{start.leaves[7]});
  EXPECT_GT(out.hash.device.stores, out.hash.device.slots);
}

} // namespace
