// bits.hpp - bit helpers with one spelling for host and device code.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"

namespace gsdk::bits {

// Without the POPCNT instruction (a generic x86-64 build) GCC turns __builtin_popcount into a call to
// libgcc, which took 18% of a snake playout's time; the same sum of bit fields inline costs a dozen
// instructions and no call.
GSDK_HD int popcount32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#elif defined(__POPCNT__)
  return __builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
#endif
}

GSDK_HD int popcount64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#elif defined(__POPCNT__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return static_cast<int>((x * 0x0101010101010101u) >> 56);
#endif
}

// Mask of the low n bits, 0 <= n <= 32.
GSDK_HD uint32_t low_mask32(int n) { return n >= 32 ? 0xffffffffu : ((1u << n) - 1u); }

} // namespace gsdk::bits
