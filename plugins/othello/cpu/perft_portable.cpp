// perft_portable.cpp - othello's CPU perft in portable C++.
#include "perft_cpu.hpp"
#include "perft_recursion.hpp"

namespace othello::cpu {

uint64_t perft_portable(const Position& p, uint32_t depth, Convention c) {
  return perft_with(p, depth, c, [](const Position& q, Convention k) { return perft2(q, k); });
}

} // namespace othello::cpu
