// philox.hpp - counter-based random streams keyed by (seed, stream id), on host and device.
//
// Random123's Philox4x32-10 maps (key, counter) to 128 random bits with no state, which is what
// makes a stream a property of the work (battle number, playout number, search id) rather than of
// the thread that runs it. PhiloxStream is the general-purpose generator games and algorithms use;
// hot loops may instead seed a faster in-stream generator from it (see mwc64x.hpp).
#pragma once

#include <cstdint>

#include <Random123/philox.h>

#include "gsdk/hd.hpp"

namespace gsdk::rng {

struct Block128 {
  uint64_t words[2];
  GSDK_HD uint64_t operator[](int i) const { return words[i]; }
};

// Philox4x32-10 of counter (a, b) under key `key`.
GSDK_HD Block128 philox_block(uint64_t key, uint64_t a, uint64_t b) {
  r123::Philox4x32 generator;
  r123::Philox4x32::key_type k = {{static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)}};
  r123::Philox4x32::ctr_type c = {{static_cast<uint32_t>(a), static_cast<uint32_t>(a >> 32),
                                   static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32)}};
  const r123::Philox4x32::ctr_type r = generator(c, k);
  return Block128{{(static_cast<uint64_t>(r[1]) << 32) | r[0], (static_cast<uint64_t>(r[3]) << 32) | r[2]}};
}

// The random stream (seed, stream_id): block i is philox(key = seed, counter = (stream_id, i)).
class PhiloxStream {
public:
  GSDK_HD PhiloxStream(uint64_t seed, uint64_t stream_id) : seed_(seed), stream_(stream_id) {}

  GSDK_HD uint64_t next_u64() {
    if (used_ == 2) {
      buffer_ = philox_block(seed_, stream_, block_++);
      used_ = 0;
    }
    return buffer_.words[used_++];
  }

  GSDK_HD uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }

  // Uniform double in [0, 1) with 53 random bits.
  GSDK_HD double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, bound) without bias (Lemire's multiply-and-reject), bound > 0.
  GSDK_HD uint32_t below(uint32_t bound) {
    uint64_t product = static_cast<uint64_t>(next_u32()) * bound;
    uint32_t low = static_cast<uint32_t>(product);
    if (low < bound) {
      const uint32_t threshold = (0u - bound) % bound;
      while (low < threshold) {
        product = static_cast<uint64_t>(next_u32()) * bound;
        low = static_cast<uint32_t>(product);
      }
    }
    return static_cast<uint32_t>(product >> 32);
  }

private:
  uint64_t seed_;
  uint64_t stream_;
  uint64_t block_ = 0;
  Block128 buffer_{};
  uint32_t used_ = 2;
};

} // namespace gsdk::rng
