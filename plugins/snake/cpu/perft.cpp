// perft.cpp - snake's CPU perft (perft_cpu.hpp).
#include "perft_cpu.hpp"

namespace snake::cpu {

namespace {

// Below the root only the bitset, head and walk change, so a child copies the bitset's used words alone (a whole
// state is 3.3 KB however small the cube).
uint64_t count(const Rules& rules, const uint64_t* blocked, const Walk& walk, uint32_t depth) {
  const uint32_t legal = legal_dimensions(rules, ConstWordBits{blocked}, walk);
  if (depth == 1) return static_cast<uint64_t>(gsdk::bits::popcount32(legal));
  const uint32_t words = words64(rules.dimension);
  uint64_t leaves = 0;
  for (uint32_t rest = legal; rest; rest &= rest - 1) {
    uint64_t child[kMaxVertices / 64];
    for (uint32_t w = 0; w < words; ++w) child[w] = blocked[w];
    Walk next = walk;
    advance(rules, WordBits{child}, next, lowest_bit(rest));
    leaves += count(rules, child, next, depth - 1);
  }
  return leaves;
}

} // namespace

uint64_t perft(const Rules& rules, const State& s, uint32_t depth) {
  if (depth == 0) return 1;
  return count(rules, s.blocked, walk_of(s), depth);
}

} // namespace snake::cpu
