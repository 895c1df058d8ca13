// chunk_exchange_one_process_test.cpp - the chunk exchange of a job of one rank (no launcher), where rank 0 serves
// itself: the guided chunk sizes, every block handed out once in order, reports, stop, in_flight and the misuses.
#include "distribute/chunk_exchange.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "distribute/mpi_world.hpp"

namespace gsdk::host {
namespace {

using Chunk = ChunkExchange::Chunk;

TEST(GuidedChunkSize, IsRemainingOverTwiceTheRanksAtLeastOneAtMostRemaining) {
  EXPECT_EQ(guided_chunk_size(4096, 2), 1024u);
  EXPECT_EQ(guided_chunk_size(4096, 3), 682u);
  EXPECT_EQ(guided_chunk_size(4096, 64), 32u);
  EXPECT_EQ(guided_chunk_size(5, 3), 1u);
  EXPECT_EQ(guided_chunk_size(1, 1), 1u);
  EXPECT_EQ(guided_chunk_size(3, 1), 1u);
  EXPECT_EQ(guided_chunk_size(0, 4), 0u);
}

TEST(GuidedChunkSize, NeverBelowTheSmallestChunkButTheLast) {
  EXPECT_EQ(guided_chunk_size(4096, 4, 512), 512u);
  EXPECT_EQ(guided_chunk_size(1000, 4, 512), 512u);
  EXPECT_EQ(guided_chunk_size(300, 4, 512), 300u);
  EXPECT_EQ(guided_chunk_size(4096, 2, 100), 1024u);
}

TEST(ChunkExchangeOneProcess, ChunksHoldAtLeastTheSmallestButTheLast) {
  MpiWorld& world = MpiWorld::get();
  Chunk blocks(1000);
  for (std::uint64_t b = 0; b < blocks.size(); ++b) blocks[b] = b;
  ChunkExchange exchange(world, blocks, 300);
  std::vector<std::size_t> sizes;
  for (Chunk chunk = exchange.next(""); !chunk.empty(); chunk = exchange.next("")) sizes.push_back(chunk.size());
  exchange.finish();
  EXPECT_EQ(sizes, (std::vector<std::size_t>{500, 300, 200}));
}

struct Reported {
  int rank;
  Chunk chunk;
  std::string report;
};

std::string describe(const Chunk& chunk) {
  std::string text;
  for (const std::uint64_t block : chunk) text += std::to_string(block) + " ";
  return text;
}

TEST(ChunkExchangeOneProcess, HandsOutEveryBlockOnceInOrderInShrinkingChunks) {
  MpiWorld& world = MpiWorld::get();
  ASSERT_FALSE(world.distributed());
  // Blocks with gaps, as a resumed run has them.
  Chunk blocks;
  for (std::uint64_t block = 0; block < 300; block += 3) blocks.push_back(block);
  ChunkExchange exchange(world, blocks);
  std::vector<Reported> reported;
  exchange.on_report([&](int rank, const Chunk& chunk, const std::string& report) {
    reported.push_back({rank, chunk, report});
  });

  std::vector<Chunk> handed;
  for (Chunk chunk = exchange.next(""); !chunk.empty(); chunk = exchange.next("did " + describe(chunk))) {
    EXPECT_EQ(exchange.in_flight(), std::vector<Chunk>{chunk});
    handed.push_back(chunk);
  }
  EXPECT_TRUE(exchange.next("again").empty());
  exchange.finish();

  Chunk all;
  std::size_t left = blocks.size();
  for (const Chunk& chunk : handed) {
    EXPECT_EQ(chunk.size(), guided_chunk_size(left, 1));
    left -= chunk.size();
    all.insert(all.end(), chunk.begin(), chunk.end());
  }
  EXPECT_EQ(all, blocks);
  EXPECT_EQ(handed.front().size(), 50u);
  EXPECT_EQ(handed.back().size(), 1u);
  ASSERT_EQ(reported.size(), handed.size());
  for (std::size_t i = 0; i < handed.size(); ++i) {
    EXPECT_EQ(reported[i].rank, 0);
    EXPECT_EQ(reported[i].chunk, handed[i]);
    EXPECT_EQ(reported[i].report, "did " + describe(handed[i]));
  }
  EXPECT_EQ(exchange.in_flight(), std::vector<Chunk>{Chunk{}});
}

TEST(ChunkExchangeOneProcess, StopHandsOutNoMoreAndTheChunkOutIsStillReported) {
  ChunkExchange exchange(MpiWorld::get(), Chunk{10, 11, 12, 13, 14, 15, 16, 17});
  std::vector<Reported> reported;
  exchange.on_report([&](int rank, const Chunk& chunk, const std::string& report) {
    reported.push_back({rank, chunk, report});
  });
  const Chunk first = exchange.next("");
  EXPECT_EQ(first, (Chunk{10, 11, 12, 13}));
  exchange.stop();
  EXPECT_TRUE(exchange.next("partial").empty());
  exchange.finish();
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported[0].chunk, first);
  EXPECT_EQ(reported[0].report, "partial");
}

TEST(ChunkExchangeOneProcess, NoBlocksIsNoWork) {
  ChunkExchange exchange(MpiWorld::get(), {});
  EXPECT_TRUE(exchange.next("").empty());
  exchange.finish();
}

TEST(ChunkExchangeOneProcess, AReportHandlersFailureComesBackFromNext) {
  ChunkExchange exchange(MpiWorld::get(), Chunk{1, 2, 3, 4});
  exchange.on_report(
      [](int, const Chunk&, const std::string& report) { throw std::runtime_error("cannot merge '" + report + "'"); });
  ASSERT_FALSE(exchange.next("").empty());
  try {
    exchange.next("broken");
    FAIL() << "the handler's exception was lost";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "cannot merge 'broken'");
  }
}

TEST(ChunkExchangeOneProcess, MisusesAreRefused) {
  ChunkExchange exchange(MpiWorld::get(), Chunk{1, 2});
  EXPECT_THROW(exchange.finish(), std::logic_error); // before next() said there is no more work
  ASSERT_FALSE(exchange.next("").empty());
  EXPECT_THROW(exchange.on_report([](int, const Chunk&, const std::string&) {}), std::logic_error);
  while (!exchange.next("").empty()) {
  }
  exchange.finish();
}

} // namespace
} // namespace gsdk::host
