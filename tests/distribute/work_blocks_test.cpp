// work_blocks_test.cpp - how a run's work items fall into blocks (host/src/distribute/work_blocks.hpp): the blocks a
// chunk of MPI ranks must hold to have so many items, and the shard a --shard text names.
#include "distribute/work_blocks.hpp"

#include <gtest/gtest.h>

#include "config/config_error.hpp"

namespace gsdk::host {
namespace {

TEST(BlocksHolding, TheBlocksOfSoManyItems) {
  // 65,536 searches: 16 a block; 8,192 side by side fill 512 blocks.
  EXPECT_EQ(blocks_holding(8192, 65536), 512u);
  EXPECT_EQ(blocks_holding(8193, 65536), 513u); // rounded up: a chunk holds at least the items
  EXPECT_EQ(blocks_holding(1, 1000000), 1u);
  EXPECT_EQ(blocks_holding(100, 50), 50u);        // fewer items than blocks: one a block, the rest empty
  EXPECT_EQ(blocks_holding(8192, 4), 4u);
  EXPECT_EQ(blocks_holding(1u << 22, 1u << 22), kWorkBlocks);
  EXPECT_EQ(blocks_holding(5, 0), 1u);           // unknown count (a perft's subtrees)
}

TEST(ParseShard, ReadsKOfNAndRefusesWhatIsNot) {
  const ShardPlace place = parse_shard("3/8");
  EXPECT_EQ(place.index, 3u);
  EXPECT_EQ(place.count, 8u);
  EXPECT_THROW(parse_shard("0/8"), ConfigError);
  EXPECT_THROW(parse_shard("9/8"), ConfigError);
  EXPECT_THROW(parse_shard("1/4097"), ConfigError);
  EXPECT_THROW(parse_shard("1-2"), ConfigError);
}

} // namespace
} // namespace gsdk::host
