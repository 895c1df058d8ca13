// env_streams.hpp - the random streams of a VectorEnv, on host and device alike, so that CPU and CUDA
// environments draw the same chance outcomes and random actions: game k's draws come from Philox under key
// (seed ^ a domain constant), counter (k, draw number), never from a thread's or a launch's position.
#pragma once

#include <cstdint>
#include <cstring>

#include "gsdk/hd.hpp"
#include "gsdk/rng/philox.hpp"

namespace gsdk::core::env_streams {

// Distinct keys for the two kinds of draws, so that a game's chance outcomes and its random actions never reuse
// each other's bits.
constexpr uint64_t kChanceDomain = 0x6368616e63650001ull;
constexpr uint64_t kRandomActionDomain = 0x616374696f6e0002ull;

// Uniform in [0, 1) with 53 bits: game `game`'s draw number `draw` for a chance node.
GSDK_HD double chance_uniform(uint64_t seed, uint64_t game, uint64_t draw) {
  return static_cast<double>(rng::philox_block(seed ^ kChanceDomain, game, draw)[0] >> 11) * 0x1.0p-53;
}

// Which of `legal_count` legal codes (in ascending order) game `game` picks on random-action call `call`: a 64-bit
// draw scaled by multiply-high, whose bias (legal_count / 2^64) no test could see, and which needs no rejection loop
// (one draw per game keeps the device kernel branch-free).
GSDK_HD uint32_t random_pick(uint64_t seed, uint64_t game, uint64_t call, uint32_t legal_count) {
  const uint64_t bits = rng::philox_block(seed ^ kRandomActionDomain, game, call)[0];
  // (bits * legal_count) >> 64 in 64-bit halves, exactly, the same on host and device.
  const uint64_t high = (bits >> 32) * legal_count, low = (bits & 0xffffffffull) * legal_count;
  return static_cast<uint32_t>((high + (low >> 32)) >> 32);
}

// The sum of mask bytes 8w .. 8w+7 (each 0 or 1): one multiply adds a word's bytes into its top byte. Rows have no
// alignment (action_count bytes each), hence memcpy.
GSDK_HD uint32_t legal_in_word(const uint8_t* mask_row, uint32_t w) {
  uint64_t word;
  memcpy(&word, mask_row + 8 * w, sizeof word);
  return static_cast<uint32_t>((word * 0x0101010101010101ull) >> 56);
}

// The code game `game` plays on random-action call `call` given its legal mask row (action_count bytes, 0 or 1):
// the random_pick-th legal code. A row without a legal code (never after a step) gives action_count.
GSDK_HD uint32_t random_legal_code(uint64_t seed, uint64_t game, uint64_t call, const uint8_t* mask_row,
                                   uint32_t action_count) {
  // Eight mask bytes at a time: a word's legal codes are the sum of its bytes (each 0 or 1).
  const uint32_t words = action_count / 8;
  uint32_t legal_count = 0;
  for (uint32_t w = 0; w < words; ++w) legal_count += legal_in_word(mask_row, w);
  for (uint32_t c = words * 8; c < action_count; ++c) legal_count += mask_row[c];
  if (legal_count == 0) return action_count;
  uint32_t remaining = random_pick(seed, game, call, legal_count);
  uint32_t c = 0;
  for (uint32_t w = 0; w < words; ++w, c += 8) {
    const auto in_word = legal_in_word(mask_row, w);
    if (remaining < in_word) break;
    remaining -= in_word;
  }
  for (; c < action_count; ++c)
    if (mask_row[c] != 0 && remaining-- == 0) return c;
  return action_count;
}

} // namespace gsdk::core::env_streams
