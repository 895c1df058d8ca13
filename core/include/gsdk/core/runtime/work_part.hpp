// work_part.hpp - which of a job's numbered work items this process runs, when one run is spread over several
// processes (shards, MPI ranks). The items (playout numbers, subtree ids of a perft's root expansion, ...) are cut
// into `of` equal blocks, the same for every process and every number of processes; a part is a set of them.
// Block b covers items [b * items / of, (b + 1) * items / of), or item b alone when there are fewer items than
// blocks, so a part means the same items whatever the items' count, which a process may only learn inside the job
// (a perft's expansion).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gsdk::core {

struct WorkPart {
  uint64_t of = 1;              // blocks in all
  std::vector<uint64_t> blocks; // this part's, each below `of`

  // The items the part covers, of `items` in all: sorted, disjoint, non-empty, touching ones joined. Throws
  // std::invalid_argument for a block not below `of` or listed twice.
  std::vector<std::pair<uint64_t, uint64_t>> ranges(uint64_t items) const;
};

// The blocks of shard `index` (1-based) of `count`: b with b % count == index - 1. Interleaved rather than
// contiguous, so that each shard gets some of the costly and some of the cheap items (subtrees vary widely).
WorkPart shard_part(uint64_t of, uint64_t index, uint64_t count);

// The items of `ranges` (as WorkPart::ranges gives them) that are also in [first, end).
std::vector<std::pair<uint64_t, uint64_t>> intersect(const std::vector<std::pair<uint64_t, uint64_t>>& ranges,
                                                     uint64_t first, uint64_t end);

} // namespace gsdk::core
