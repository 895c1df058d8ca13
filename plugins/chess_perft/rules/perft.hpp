// perft.hpp - depth-first perft on one thread: bulk counting at the last ply, no move lists anywhere.
#pragma once

#include <cstdint>

#include "rules/make_move.hpp"
#include "rules/movegen.hpp"

namespace chess {
CHESS_ISA_BEGIN

template <int Us> uint64_t perft(const Position& p, uint32_t depth) {
  if (depth == 1) {
    CountingSink counter;
    generate_legal<Us>(p, counter);
    return counter.count;
  }
  uint64_t leaves = 0;
  auto visit = [&](Move m) {
    Position child = p;
    make_move(child, m);
    leaves += perft<1 - Us>(child, depth - 1);
  };
  EachMove<decltype(visit)> sink{visit};
  generate_legal<Us>(p, sink);
  return leaves;
}

inline uint64_t perft(const Position& p, uint32_t depth) {
  if (depth == 0) return 1;
  return p.side == kWhite ? perft<kWhite>(p, depth) : perft<kBlack>(p, depth);
}

CHESS_ISA_END
} // namespace chess
