// bits.hpp - bit helpers with one spelling for host and device code.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::bits {

GSDK_HD int popcount32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

GSDK_HD int popcount64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

// Mask of the low n bits, 0 <= n <= 32.
GSDK_HD uint32_t low_mask32(int n) { return n >= 32 ? 0xffffffffu : ((1u << n) - 1u); }

} // namespace gsdk::bits
