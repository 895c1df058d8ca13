// playouts.cpp - the portable CPU playouts of snake.so.
#include <algorithm>

#include "gsdk/playout_summary.hpp"
#include "playouts_cpu.hpp"

namespace snake::cpu {

void playouts(const Rules& rules, Policy policy, const State& start, uint64_t seed, uint64_t first, uint64_t count,
              gsdk_playout_summary& summary) {
  const uint32_t words = words64(rules.dimension);
  uint64_t blocked[kMaxVertices / 64];
  for (uint64_t k = first; k < first + count; ++k) {
    std::copy_n(start.blocked, words, blocked);
    Walk walk = walk_of(start);
    const uint32_t length = random_snake(rules, policy, WordBits{blocked}, walk, seed, k);
    gsdk::record_playout(summary, length, k, 0);
  }
}

} // namespace snake::cpu
