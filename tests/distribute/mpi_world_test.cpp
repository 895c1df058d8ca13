// mpi_world_test.cpp - MpiWorld under mpirun (any number of ranks, one included): the places of the ranks, texts
// broadcast and gathered, and messages between two ranks whole at several MB, sent in many pieces.
#include "distribute/mpi_world.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "distribute/chunk_exchange.hpp"

namespace gsdk::host {
namespace {

// A text of this many bytes that tells which rank made it and where each byte belongs.
std::string patterned(std::size_t bytes, int rank) {
  std::string text(bytes, '\0');
  for (std::size_t i = 0; i < bytes; ++i)
    text[i] = static_cast<char>('a' + (i * 7 + static_cast<std::size_t>(rank)) % 26);
  return text;
}

TEST(MpiWorld, PlacesMatchTheLauncherAndCoverEveryRank) {
  MpiWorld& world = MpiWorld::get();
  const RankPlace& place = world.place();
  if (const char* size = std::getenv("OMPI_COMM_WORLD_SIZE")) {
    EXPECT_EQ(place.ranks, std::atoi(size));
  }
  EXPECT_EQ(world.distributed(), place.ranks > 1);
  EXPECT_GE(place.rank, 0);
  EXPECT_LT(place.rank, place.ranks);
  EXPECT_GE(place.local_rank, 0);
  EXPECT_LT(place.local_rank, place.local_ranks);
  EXPECT_FALSE(place.host.empty());

  const std::vector<std::string> places =
      world.gather(std::to_string(place.rank) + " " + std::to_string(place.local_rank) + " " +
                   std::to_string(place.local_ranks) + " " + place.host);
  if (place.rank != 0) {
    EXPECT_TRUE(places.empty());
    return;
  }
  ASSERT_EQ(places.size(), static_cast<std::size_t>(place.ranks));
  // One machine: every rank is on this node, and the local ranks are the ranks.
  for (int rank = 0; rank < place.ranks; ++rank)
    EXPECT_EQ(places[static_cast<std::size_t>(rank)],
              std::to_string(rank) + " " + std::to_string(rank) + " " + std::to_string(place.ranks) + " " + place.host);
}

TEST(MpiWorld, BroadcastCarriesRankZerosTextToEveryRank) {
  MpiWorld& world = MpiWorld::get();
  const bool root = world.place().rank == 0;
  EXPECT_EQ(world.broadcast(root ? "seed = 7" : "not this"), "seed = 7");
  EXPECT_EQ(world.broadcast(root ? "" : "nor this"), "");
  const std::string large = patterned(3'000'000, 0);
  EXPECT_EQ(world.broadcast(root ? large : std::string()), large);
}

TEST(MpiWorld, GatherBringsEveryRanksTextToRankZeroByRank) {
  MpiWorld& world = MpiWorld::get();
  const int rank = world.place().rank;
  // Rank 1's text is empty, the others' differ in length.
  const std::string mine = rank == 1 ? std::string() : patterned(1000 * static_cast<std::size_t>(rank) + 17, rank);
  const std::vector<std::string> texts = world.gather(mine);
  if (rank != 0) {
    EXPECT_TRUE(texts.empty());
    return;
  }
  ASSERT_EQ(texts.size(), static_cast<std::size_t>(world.place().ranks));
  for (int from = 0; from < world.place().ranks; ++from)
    EXPECT_EQ(texts[static_cast<std::size_t>(from)],
              from == 1 ? std::string() : patterned(1000 * static_cast<std::size_t>(from) + 17, from))
        << "rank " << from;
}

// Every other rank sends rank 0 a text of several MB, once in the default pieces and once in pieces of 64 KiB (so
// that the reassembly of many pieces is what is tested), then one empty text; rank 0 answers each with its size.
TEST(MpiWorld, LargeTextsArriveWholeInOrder) {
  constexpr int kTag = ChunkExchange::kLastTag + 1;
  constexpr std::size_t kBytes = 5'000'000 + 3;
  MpiWorld& world = MpiWorld::get();
  if (!world.distributed()) GTEST_SKIP() << "one rank: no other rank to send to";
  const int rank = world.place().rank;
  if (rank != 0) {
    world.send(0, kTag, patterned(kBytes, rank));
    world.send(0, kTag, patterned(kBytes + 1, rank), 64 * 1024);
    world.send(0, kTag, "");
    EXPECT_EQ(world.receive(0, kTag), std::to_string(kBytes) + " " + std::to_string(kBytes + 1) + " 0");
    return;
  }
  for (int received = 1; received < world.place().ranks; ++received) {
    std::optional<int> sender;
    while (!(sender = world.waiting_sender(kTag))) {
    }
    ASSERT_NE(*sender, 0);
    const std::string first = world.receive(*sender, kTag);
    const std::string second = world.receive(*sender, kTag);
    const std::string third = world.receive(*sender, kTag);
    EXPECT_EQ(first, patterned(kBytes, *sender));
    EXPECT_EQ(second, patterned(kBytes + 1, *sender));
    EXPECT_EQ(third, "");
    world.send(*sender, kTag,
               std::to_string(first.size()) + " " + std::to_string(second.size()) + " " + std::to_string(third.size()));
  }
}

} // namespace
} // namespace gsdk::host
