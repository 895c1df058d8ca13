// work_blocks.hpp - how a run spread over processes cuts its work: always into kWorkBlocks blocks of its work items
// (core::WorkPart), whatever the number of processes, so that a part means the same work under any count of shards
// or ranks; and the shard a process runs (`gsdk run --shard K/N`).
#pragma once

#include <cstdint>
#include <string>

namespace gsdk::host {

// Enough blocks that 64 processes get 64 each, with room to balance the last ones; few enough that a list of
// finished blocks stays small.
inline constexpr uint64_t kWorkBlocks = 4096;

// The blocks that hold at least `items` of a run's `of` work items (0: unknown, one block): a block holds
// of / kWorkBlocks items, or one item when there are fewer items than blocks. At most kWorkBlocks.
uint64_t blocks_holding(uint64_t items, uint64_t of);

struct ShardPlace {
  uint64_t index = 0; // 1-based
  uint64_t count = 0;
};

// "K/N" as given to --shard: whole numbers with 1 <= K <= N <= kWorkBlocks. Throws ConfigError naming the value.
ShardPlace parse_shard(const std::string& text);

} // namespace gsdk::host
