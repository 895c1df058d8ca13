// strided_bits.cuh - the blocked-vertex bitsets snake's kernels keep in shared memory, one or more per
// thread, their words interleaved (word w of thread t at w * blockDim + t) so a warp's 32 accesses always
// hit 32 different banks; and the block shape of the search kernels (one bitset per thread).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gsdk/hd.hpp"

namespace snake::cuda {

struct StridedBits {
  uint32_t* word0;
  uint32_t stride;
  GSDK_HD bool test(uint32_t v) const { return (word0[(v >> 5) * stride] >> (v & 31)) & 1u; }
  GSDK_HD void set(uint32_t v) const { word0[(v >> 5) * stride] |= 1u << (v & 31); }
};

// 32-bit words needed for the vertices of dimension d.
inline uint32_t words32(uint32_t dimension) {
  return dimension <= 5 ? 1u : 1u << (dimension - 5);
}

// The blocks of a search kernel with one bitset per thread: up to 128 threads, fewer in large cubes so that
// a block's bitsets stay near 48 KiB.
struct SearchBlock {
  uint32_t words;   // 32-bit words of one bitset
  uint32_t threads; // per block
  size_t shared_bytes;
};

inline SearchBlock search_block(uint32_t dimension) {
  constexpr uint32_t kMaxBlock = 128;
  constexpr uint32_t kSharedBudget = 48 * 1024;
  const uint32_t words = words32(dimension);
  const uint32_t threads = std::clamp<uint32_t>(kSharedBudget / (words * 4) / 32 * 32, 32, kMaxBlock);
  return {words, threads, size_t{threads} * words * 4};
}

} // namespace snake::cuda
