// chunk_exchange_test.cpp - the chunk exchange under mpirun (any number of ranks, one included): every block handed
// out exactly once, in guided chunks that shrink towards the end, every report reaching rank 0 with the right rank
// and chunk (several MB each in one test), and stop().
#include "distribute/chunk_exchange.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distribute/mpi_world.hpp"

namespace gsdk::host {
namespace {

using Chunk = ChunkExchange::Chunk;

std::string describe(const Chunk& chunk) {
  std::string text;
  for (const std::uint64_t block : chunk) text += std::to_string(block) + ",";
  return text;
}

// What every rank was handed, as "rank:chunk;chunk;..." texts gathered on rank 0.
std::string describe_handed(int rank, const std::vector<Chunk>& handed) {
  std::string text = std::to_string(rank) + ":";
  for (const Chunk& chunk : handed) text += describe(chunk) + ";";
  return text;
}

struct Reported {
  int rank;
  Chunk chunk;
  std::string report;
};

// The reports rank 0's handler saw, and the thread-safety it needs to record them.
struct ReportLog {
  std::mutex mutex;
  std::vector<Reported> reports;
  int concurrent = 0, most_concurrent = 0;

  void attach(ChunkExchange& exchange) {
    exchange.on_report([this](int rank, const Chunk& chunk, const std::string& report) {
      {
        const std::lock_guard lock(mutex);
        most_concurrent = std::max(most_concurrent, ++concurrent);
      }
      // A slow merge, so that calls on two threads would overlap if they could.
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const std::lock_guard lock(mutex);
      --concurrent;
      reports.push_back({rank, chunk, report});
    });
  }
};

// A rank's report of a chunk: its rank and the chunk, then `padding` bytes.
std::string report_of(int rank, const Chunk& chunk, std::size_t padding) {
  return "rank " + std::to_string(rank) + " ran " + describe(chunk) + "|" + std::string(padding, 'x');
}

// Runs the exchange on this rank until there is no more work, and checks on rank 0 that each block was handed out
// once, in guided chunks of the blocks' order, and that each chunk's report reached the handler whole from the rank
// that ran it.
void run_and_check(const Chunk& blocks, std::size_t report_padding, std::chrono::microseconds work_per_block) {
  MpiWorld& world = MpiWorld::get();
  const int rank = world.place().rank;
  const int ranks = world.place().ranks;
  ChunkExchange exchange(world, rank == 0 ? blocks : Chunk{});
  ReportLog log;
  if (rank == 0) log.attach(exchange);

  std::vector<Chunk> handed;
  std::string report;
  for (Chunk chunk = exchange.next(report); !chunk.empty(); chunk = exchange.next(report)) {
    handed.push_back(chunk);
    std::this_thread::sleep_for(work_per_block * static_cast<int>(chunk.size()));
    report = report_of(rank, chunk, report_padding);
  }
  exchange.finish();

  const std::vector<std::string> handed_by_rank = world.gather(describe_handed(rank, handed));
  if (rank != 0) return;

  // Every block once, every chunk a guided cut of what was left at its first block.
  std::map<std::uint64_t, int> times_handed;
  for (int from = 0; from < ranks; ++from) {
    const std::string& text = handed_by_rank[static_cast<std::size_t>(from)];
    ASSERT_EQ(text.substr(0, text.find(':')), std::to_string(from));
  }
  std::vector<Chunk> all_handed;
  for (const Reported& reported : log.reports) all_handed.push_back(reported.chunk);
  for (const Chunk& chunk : all_handed) {
    ASSERT_FALSE(chunk.empty());
    const auto first = std::find(blocks.begin(), blocks.end(), chunk.front());
    ASSERT_NE(first, blocks.end());
    const auto at = static_cast<std::size_t>(first - blocks.begin());
    EXPECT_EQ(chunk.size(), guided_chunk_size(blocks.size() - at, ranks)) << "chunk " << describe(chunk);
    EXPECT_EQ(chunk, Chunk(first, first + static_cast<std::ptrdiff_t>(chunk.size())));
    for (const std::uint64_t block : chunk) ++times_handed[block];
  }
  ASSERT_EQ(times_handed.size(), blocks.size());
  for (const auto& [block, times] : times_handed) EXPECT_EQ(times, 1) << "block " << block;

  // Each report came from the rank that was handed its chunk (the gathered lists), whole.
  std::map<int, std::vector<Chunk>> reported_chunks;
  for (const Reported& reported : log.reports) {
    ASSERT_GE(reported.rank, 0);
    ASSERT_LT(reported.rank, ranks);
    EXPECT_EQ(reported.report, report_of(reported.rank, reported.chunk, report_padding));
    reported_chunks[reported.rank].push_back(reported.chunk);
  }
  for (int from = 0; from < ranks; ++from)
    EXPECT_EQ(describe_handed(from, reported_chunks[from]), handed_by_rank[static_cast<std::size_t>(from)])
        << "the chunks rank " << from << " reported are not those it was handed, in order";
  EXPECT_EQ(log.most_concurrent, 1) << "the report handler ran on two threads at once";
  EXPECT_EQ(exchange.in_flight(), std::vector<Chunk>(static_cast<std::size_t>(ranks)));
}

Chunk blocks_with_gaps(std::uint64_t count) {
  Chunk blocks;
  for (std::uint64_t block = 0; block < 2 * count; block += 2) blocks.push_back(block);
  return blocks;
}

TEST(ChunkExchange, EveryBlockOnceInShrinkingChunksEveryReportToRankZero) {
  run_and_check(blocks_with_gaps(4096), 16, std::chrono::microseconds(20));
}

// Fewer blocks than ranks ask for at first: some ranks get no work at all.
TEST(ChunkExchange, FewerBlocksThanRanks) {
  run_and_check(blocks_with_gaps(2), 0, std::chrono::microseconds(0));
}

TEST(ChunkExchange, ReportsOfSeveralMegabytesArriveWhole) {
  run_and_check(blocks_with_gaps(64), 3'000'000, std::chrono::microseconds(500));
}

// The chunks end where the first and last were cut: the first is blocks / (2 * ranks), the last one block.
TEST(ChunkExchange, ChunksShrinkToOneBlock) {
  MpiWorld& world = MpiWorld::get();
  const Chunk blocks = blocks_with_gaps(1000);
  ChunkExchange exchange(world, world.place().rank == 0 ? blocks : Chunk{});
  std::vector<std::size_t> sizes;
  std::mutex mutex;
  if (world.place().rank == 0)
    exchange.on_report([&](int, const Chunk& chunk, const std::string&) {
      const std::lock_guard lock(mutex);
      sizes.push_back(chunk.size());
    });
  std::string report;
  while (!exchange.next(report).empty()) report = "done";
  exchange.finish();
  if (world.place().rank != 0) return;
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()), 1000u / (2 * static_cast<std::size_t>(world.place().ranks)));
  EXPECT_EQ(*std::min_element(sizes.begin(), sizes.end()), 1u);
  EXPECT_GT(std::count(sizes.begin(), sizes.end(), 1u), 2 * world.place().ranks - 1);
}

// Exchange after exchange with little work, the last rank slower than the others: the fast ranks ask for the next
// exchange's work while rank 0 still serves the slow rank in the previous one, and must be answered by the next one.
TEST(ChunkExchange, ConsecutiveExchangesKeepTheirMessagesApart) {
  MpiWorld& world = MpiWorld::get();
  const int rank = world.place().rank;
  const bool slow = world.distributed() && rank == world.place().ranks - 1;
  for (int round = 0; round < 20; ++round) {
    const Chunk blocks = blocks_with_gaps(12);
    ChunkExchange exchange(world, rank == 0 ? blocks : Chunk{});
    std::size_t blocks_reported = 0;
    if (rank == 0)
      exchange.on_report([&](int, const Chunk& chunk, const std::string& report) {
        EXPECT_EQ(report, "round " + std::to_string(round));
        blocks_reported += chunk.size();
      });
    std::string report;
    for (Chunk chunk = exchange.next(report); !chunk.empty(); chunk = exchange.next(report)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(slow ? 10 : 1));
      report = "round " + std::to_string(round);
    }
    exchange.finish();
    if (rank == 0) {
      ASSERT_EQ(blocks_reported, blocks.size()) << "round " << round;
    }
  }
}

// Rank 0 stops after its first chunk: the other ranks are handed at most what they asked for until then, and
// every chunk handed out is still reported.
TEST(ChunkExchange, StopHandsOutNoMoreButEveryChunkOutIsReported) {
  MpiWorld& world = MpiWorld::get();
  const int rank = world.place().rank;
  const Chunk blocks = blocks_with_gaps(1000);
  ChunkExchange exchange(world, rank == 0 ? blocks : Chunk{});
  ReportLog log;
  if (rank == 0) log.attach(exchange);
  std::vector<Chunk> handed;
  std::string report;
  for (Chunk chunk = exchange.next(report); !chunk.empty(); chunk = exchange.next(report)) {
    handed.push_back(chunk);
    if (rank == 0) {
      EXPECT_EQ(exchange.in_flight()[0], chunk);
      exchange.stop();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    report = report_of(rank, chunk, 0);
  }
  exchange.finish();
  const std::vector<std::string> handed_by_rank = world.gather(describe_handed(rank, handed));
  if (rank != 0) return;
  EXPECT_EQ(handed.size(), 1u);
  std::size_t blocks_reported = 0;
  std::map<int, std::vector<Chunk>> reported_chunks;
  for (const Reported& reported : log.reports) {
    blocks_reported += reported.chunk.size();
    reported_chunks[reported.rank].push_back(reported.chunk);
  }
  EXPECT_LT(blocks_reported, blocks.size());
  for (int from = 0; from < world.place().ranks; ++from)
    EXPECT_EQ(describe_handed(from, reported_chunks[from]), handed_by_rank[static_cast<std::size_t>(from)]);
}

} // namespace
} // namespace gsdk::host
