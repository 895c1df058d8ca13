// hypercube.hpp - the limits of the snake game and the bit helpers its rules need, for host and device.
//
// Vertices of the d-dimensional hypercube are the integers 0 .. 2^d - 1; a move flips one bit, so a
// move is a dimension index and the neighbours of v are v ^ (1 << k).
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"

namespace snake {

inline constexpr uint32_t kMinDimension = 3;
inline constexpr uint32_t kMaxDimension = 13;
inline constexpr uint32_t kMaxVertices = 1u << kMaxDimension;

// An upper bound on the edges of a snake in dimension d, proved in one paragraph so that histograms and
// move buffers sized from it can never overflow: pair every vertex v with v ^ (1 << e). Both members of a
// pair lie on an induced path only as consecutive vertices joined by an e-edge, so the L + 1 vertices of a
// snake number at most 2^(d-1) + (its e-edges); choosing e as the dimension the snake uses least gives
// L + 1 <= 2^(d-1) + L / d, that is L <= (2^(d-1) - 1) d / (d - 1). (It is exact for d = 3: 4 edges.)
GSDK_HD constexpr uint32_t length_bound(uint32_t dimension) {
  return ((1u << (dimension - 1)) - 1) * dimension / (dimension - 1);
}

inline constexpr uint32_t kMaxLength = length_bound(kMaxDimension);

// Index of the lowest set bit of a non-zero mask.
GSDK_HD uint32_t lowest_bit(uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__ffs(static_cast<int>(mask)) - 1);
#else
  return static_cast<uint32_t>(__builtin_ctz(mask));
#endif
}

// Index of the n-th (from 0) set bit of mask, which has more than n set bits.
GSDK_HD uint32_t nth_bit(uint32_t mask, uint32_t n) {
  for (; n > 0; --n) mask &= mask - 1;
  return lowest_bit(mask);
}

GSDK_HD uint32_t all_dimensions(uint32_t dimension) {
  return gsdk::bits::low_mask32(static_cast<int>(dimension));
}

} // namespace snake
