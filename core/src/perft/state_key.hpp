// state_key.hpp - the 128-bit key a hashed perft files a subtree count under: a hash of the state's (canonical)
// bytes and the remaining depth, computed alike on the host and on CUDA devices. Internal to the core's perft.
//
// Written here rather than taken from a library: the device tables need the same function inside kernels, and
// neither xxHash nor any other Debian-packaged hash compiles for CUDA. It is a two-lane sponge: each 8-byte word is
// absorbed into both lanes through different bijective 64-bit finalisers (SplitMix64's and MurmurHash3's), the depth
// and the size seed them, and the lanes are crossed at the end, so that the two 64-bit halves behave as independent
// hashes. Only equality matters (no key is ever stored on disk), so the function may change between versions.
#pragma once

#include <cstdint>
#include <cstring>

#include "gsdk/hd.hpp"

namespace gsdk::core::perft_key {

struct Key {
  uint64_t lo; // picks the bucket
  uint64_t hi; // checked against the entry
};

GSDK_HD uint64_t splitmix_finish(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

GSDK_HD uint64_t murmur_finish(uint64_t z) {
  z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
  z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
  return z ^ (z >> 33);
}

class Hasher {
public:
  GSDK_HD Hasher(uint32_t size, uint32_t depth)
      : a_(0x9e3779b97f4a7c15ull ^ (uint64_t{depth} << 32) ^ size), b_(0x6a09e667f3bcc909ull + depth) {}

  GSDK_HD void absorb(uint64_t word) {
    a_ = splitmix_finish(a_ ^ word);
    b_ = murmur_finish(b_ + word * 0x9fb21c651e98df25ull);
  }

  GSDK_HD Key finish() const {
    const uint64_t lo = splitmix_finish(a_ ^ (b_ >> 17) ^ (b_ << 47));
    const uint64_t hi = murmur_finish(b_ ^ a_ * 0xd6e8feb86659fd93ull);
    return {lo, hi};
  }

private:
  uint64_t a_, b_;
};

// The key of `size` bytes at `state` (any alignment) at remaining depth `depth`.
GSDK_HD Key state_key(const unsigned char* state, uint32_t size, uint32_t depth) {
  Hasher h(size, depth);
  uint32_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    memcpy(&word, state + i, 8);
    h.absorb(word);
  }
  if (i < size) {
    uint64_t tail = 0;
    for (uint32_t k = 0; i + k < size; ++k) tail |= uint64_t{state[i + k]} << (8 * k);
    h.absorb(tail);
  }
  return h.finish();
}

// The same key for a state of whole 8-byte words at an 8-byte aligned address (the GPU frontiers' states when the
// state size is a multiple of 8): one load per word.
GSDK_HD Key aligned_state_key(const uint64_t* words, uint32_t word_count, uint32_t depth) {
  Hasher h(word_count * 8, depth);
  for (uint32_t i = 0; i < word_count; ++i) h.absorb(words[i]);
  return h.finish();
}

} // namespace gsdk::core::perft_key
