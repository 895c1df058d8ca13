// splitmix64.hpp - a cheap in-stream generator for hot loops, started from a Philox block.
//
// Work items (a playout, an agent's episode) take their start from philox_block of their ids, so the
// draws stay a pure function of the work; within the item each draw is a few integer operations.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::rng {

class SplitMix64 {
public:
  SplitMix64() = default;
  GSDK_HD explicit SplitMix64(uint64_t start) : state_(start) {}

  GSDK_HD uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

private:
  uint64_t state_ = 0;
};

// floor(r * count / 2^64), exactly: an index in [0, count) from 64 random bits (bias below count / 2^64).
GSDK_HD uint32_t scaled_index(uint64_t r, uint32_t count) {
  const uint64_t middle = (r >> 32) * count + (((r & 0xffffffffu) * count) >> 32);
  return static_cast<uint32_t>(middle >> 32);
}

} // namespace gsdk::rng
