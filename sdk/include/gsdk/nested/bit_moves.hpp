// bit_moves.hpp - a move set as a 32-bit mask (move k legal when bit k is set, listed in ascending k as the
// per-state table's legal_moves lists them), for games of at most 32 moves a state: the nested-search
// templates walk it with a few bit operations and keep it in one register.
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"

namespace gsdk::nested {

struct BitMoves {
  uint32_t bits;

  GSDK_HD bool empty() const { return bits == 0; }
  // The first move in legal_moves order (the lowest set bit); the set is not empty.
  GSDK_HD uint32_t first() const {
#if defined(__CUDA_ARCH__)
    return static_cast<uint32_t>(__ffs(static_cast<int>(bits)) - 1);
#else
    return static_cast<uint32_t>(__builtin_ctz(bits));
#endif
  }
  GSDK_HD BitMoves without_first() const {
    return {bits & (bits - 1)};
  }
  // How many moves (the perft kernels' leaf count, gsdk/cuda/perft_tables.cuh).
  GSDK_HD uint32_t count() const {
    return static_cast<uint32_t>(gsdk::bits::popcount32(bits));
  }
};

} // namespace gsdk::nested
