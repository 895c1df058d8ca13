// byte_planes.hpp - a 64-bit mask as 64 bytes of 0 or 1 (byte i = bit i), for the legal-move masks and observation
// planes of bitboard games. A vectorised environment writes tens of such rows per step, so a loop of 64 branches
// would cost more than the game's own move; the portable spelling handles eight bits per multiply instead.
#pragma once

#include <cstdint>
#include <cstring>

#include "gsdk/hd.hpp"

namespace gsdk::environments {

// Bits 0..7 of `bits` as the eight bytes of a little-endian word: the multiply copies the byte into every byte
// lane, the mask keeps bit i in lane i, and adding 0x7f carries any kept bit into the lane's top bit (without
// crossing lanes, as no lane exceeds 0x80 + 0x7f).
GSDK_HD uint64_t spread_byte(uint64_t bits) {
  const uint64_t lanes = ((bits & 0xffu) * 0x0101010101010101ull) & 0x8040201008040201ull;
  return ((lanes + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
}

// out[i] = bit i of mask, for i < 64 (out needs no alignment).
GSDK_HD void write_byte_plane(uint64_t mask, uint8_t* out) {
  for (int chunk = 0; chunk < 8; ++chunk) {
    const uint64_t word = spread_byte(mask >> (8 * chunk));
#if defined(__CUDA_ARCH__)
    for (int b = 0; b < 8; ++b) out[8 * chunk + b] = static_cast<uint8_t>(word >> (8 * b));
#else
    std::memcpy(out + 8 * chunk, &word, sizeof word);
#endif
  }
}

} // namespace gsdk::environments
