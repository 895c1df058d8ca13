// canonical.hpp - a snake's canonical state for hashed perft and a beam search's duplicate keys
// (gsdk.perft_keys.v1): the move list zeroed, everything else kept. Host and device, so the CPU table and the
// CUDA kernel (cuda/perft_kernels.cu) write the same bytes.
//
// Why the move list may go: legal_dimensions reads only the blocked bitset, the head and the dimensions used, and
// play() writes the next move's nibble without reading the others, so the move list never changes a subtree's
// moves, counts or lengths. Why nothing else may: the bitset and head decide every later move, the dimensions used
// decide them under symmetry breaking, and the length is the score. So two snakes with the same blocked set, head,
// length and dimensions used (different paths that block the same vertices, e.g. d=4 moves 0 1 2 3 0 and
// 0 2 1 3 0) share a key, and equal keys mean equal subtrees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gsdk/hd.hpp"
#include "snake_state.hpp"

namespace snake {

// Eight bytes a store: the list is 8-byte aligned and a multiple of 8 long, and a byte loop (or memset, which nvcc
// turns into one) made the GPU's canonical states a tenth as fast as a copy of the state.
GSDK_HD void canonicalize(State& s) {
  static_assert(sizeof s.moves % 8 == 0 && offsetof(State, moves) % 8 == 0, "the move list is whole aligned words");
  const uint64_t zero = 0;
  for (uint32_t i = 0; i < sizeof s.moves; i += 8) memcpy(s.moves + i, &zero, 8);
}

} // namespace snake
