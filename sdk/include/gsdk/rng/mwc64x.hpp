// mwc64x.hpp - the fast in-stream generator: a lag-1 multiply-with-carry on 32-bit digits whose
// output is lo ^ hi (David Thomas's MWC64X), with exact O(log n) jump-ahead.
//
// Why this generator: one 32x32->64 multiply-add per 32 random bits is the cheapest honest
// generator on a GPU (IMAD.WIDE) and costs the same per bit as xoshiro256+ on AVX-512. The state
// S = hi * 2^32 + lo evolves as S' = A * lo + hi, which equals S * A mod p for the safe prime
// p = A * 2^32 - 1, so the sequence is one cycle of length (p - 1) / 2 ~ 2^63 and word w of a
// seed's sequence is S_0 * A^w mod p. That makes the sequence random-access like a counter-based
// generator: a playout that owns words [w, w + n) jumps straight there, so results cannot depend
// on how work is split, and no two playouts ever share a word.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::rng {

namespace mwc64x_constants {
inline constexpr uint32_t kMultiplier = 4294883355u;             // A
inline constexpr uint64_t kModulus = 0xfffeb81affffffffull;      // p = A * 2^32 - 1 (safe prime)
inline constexpr uint64_t kMontgomeryR2 = 0xc3b5d6b3a3fcecc9ull; // (2^64)^2 mod p
inline constexpr uint64_t kMontgomeryNPrime = 0xfffeb81b00000001ull; // -p^-1 mod 2^64
} // namespace mwc64x_constants

#if !defined(__CUDA_ARCH__)
__extension__ typedef unsigned __int128 uint128_t; // GCC/Clang extension, silenced for -Wpedantic
#endif

GSDK_HD uint64_t umulhi64(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<uint64_t>((static_cast<uint128_t>(a) * b) >> 64);
#endif
}

// Montgomery product a * b / 2^64 mod p for a, b < p. p is within 2^-15 of 2^64, so the
// intermediate sum may carry out of 64 bits; the carry is tracked explicitly.
GSDK_HD uint64_t montgomery_multiply(uint64_t a, uint64_t b) {
  using namespace mwc64x_constants;
  const uint64_t lo = a * b;
  const uint64_t hi = umulhi64(a, b);
  const uint64_t m = lo * kMontgomeryNPrime;
  const uint64_t mp_hi = umulhi64(m, kModulus);
  const uint64_t low_carry = lo != 0 ? 1 : 0; // lo + m*p == 0 mod 2^64, carrying iff lo != 0
  uint64_t u = hi + mp_hi;
  bool overflow = u < hi;
  const uint64_t v = u + low_carry;
  overflow = overflow || v < u;
  return (overflow || v >= kModulus) ? v - kModulus : v;
}

// x * A^exponent mod p.
GSDK_HD uint64_t mwc64x_jump(uint64_t x, uint64_t exponent) {
  using namespace mwc64x_constants;
  uint64_t base = montgomery_multiply(kMultiplier, kMontgomeryR2); // A in Montgomery form
  uint64_t acc = montgomery_multiply(x, kMontgomeryR2);
  while (exponent != 0) {
    if (exponent & 1) acc = montgomery_multiply(acc, base);
    base = montgomery_multiply(base, base);
    exponent >>= 1;
  }
  return montgomery_multiply(acc, 1);
}

// The state S_0 of a seed's sequence: a Philox draw keyed by the seed, mapped into [1, p - 1].
GSDK_HD uint64_t mwc64x_seed_state(uint64_t seed) {
  const uint64_t draw = philox_block(seed, 0x4d574336ull /* "MWC6" */, 0)[0];
  return 1 + draw % (mwc64x_constants::kModulus - 1);
}

struct Mwc64x {
  uint64_t state;

  // The generator positioned at word `word` of `seed`'s sequence.
  GSDK_HD static Mwc64x at(uint64_t seed, uint64_t word) {
    return Mwc64x{mwc64x_jump(mwc64x_seed_state(seed), word)};
  }

  GSDK_HD uint32_t next() {
    const uint32_t lo = static_cast<uint32_t>(state);
    const uint32_t hi = static_cast<uint32_t>(state >> 32);
    state = static_cast<uint64_t>(lo) * mwc64x_constants::kMultiplier + hi;
    return lo ^ hi;
  }
};

} // namespace gsdk::rng
