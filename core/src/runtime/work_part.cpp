// work_part.cpp - the items of a part of a job (work_part.hpp).
#include "gsdk/core/runtime/work_part.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gsdk::core {

namespace {

__extension__ typedef unsigned __int128 uint128;

// Where block `block` starts. With fewer items than blocks, block b holds item b alone (the later blocks none), so
// that shards interleave the items themselves: spread evenly, 16 items would all fall in odd blocks, every one in
// shard 2 of 2. Otherwise b * items / of, without overflow: items and of are each below 2^64, their product is not.
uint64_t block_start(uint64_t block, uint64_t items, uint64_t of) {
  if (items < of) return std::min(block, items);
  return static_cast<uint64_t>(static_cast<uint128>(block) * items / of);
}

} // namespace

std::vector<std::pair<uint64_t, uint64_t>> WorkPart::ranges(uint64_t items) const {
  std::vector<uint64_t> sorted = blocks;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < sorted.size(); ++i) {
    const uint64_t b = sorted[i];
    if (b >= of) throw std::invalid_argument("block " + std::to_string(b) + " of " + std::to_string(of));
    if (i > 0 && sorted[i - 1] == b) throw std::invalid_argument("block " + std::to_string(b) + " listed twice");
    const uint64_t first = block_start(b, items, of), end = block_start(b + 1, items, of);
    if (first == end) continue;
    if (!out.empty() && out.back().second == first)
      out.back().second = end;
    else
      out.emplace_back(first, end);
  }
  return out;
}

WorkPart shard_part(uint64_t of, uint64_t index, uint64_t count) {
  WorkPart part{of, {}};
  for (uint64_t b = index - 1; b < of; b += count) part.blocks.push_back(b);
  return part;
}

std::vector<std::pair<uint64_t, uint64_t>> intersect(const std::vector<std::pair<uint64_t, uint64_t>>& ranges,
                                                     uint64_t first, uint64_t end) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [a, b] : ranges) {
    const uint64_t lo = std::max(a, first), hi = std::min(b, end);
    if (lo < hi) out.emplace_back(lo, hi);
  }
  return out;
}

} // namespace gsdk::core
