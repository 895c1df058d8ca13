// table_bucket.hpp - the layout every perft transposition table shares, host and device: buckets of four 16-byte
// slots (one 64-byte line), a slot holding a subtree count with as many bits of its 128-bit key as the count leaves
// room for. Internal to the core's perft.
//
// A slot is two words written without a lock. The low word holds the count in its low w bits (w = the count's bit
// width, 0..58), the next 58 - w bits of key.lo above it, and w in the top 6 bits; the high word is
// key.hi ^ mix(low word), with mix a bijection of 64-bit words. A look-up compares key.hi, those bits of key.lo, and
// through the bucket the bits of key.lo that chose it: 122 - w bits plus the bucket's, so a shallow count (w near 10)
// is checked against about 112 bits of key and 2^-64 is the floor even for the largest counts. A reader that catches
// a slot torn by two writers pairs one writer's high word with the other's low word, which passes only by a 2^-64
// chance, or when both wrote the same key, whose count is the same. docs/perf/chess_perft.md ("Hashed perft")
// gives the chance of a wrong count. An empty slot is all zeros; a count too wide for a slot (2^58 or more) is not
// kept. A store replaces, in this order, nothing when the bucket holds the key already, an empty slot, or the slot
// with the smallest count (the least work to redo), so deep subtrees stay while shallow ones come and go.
#pragma once

#include <cstdint>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/hd.hpp"
#include "perft/state_key.hpp"

namespace gsdk::core::perft_table {

inline constexpr uint32_t kSlots = 4; // per bucket
inline constexpr uint32_t kBucketBytes = kSlots * 16;
inline constexpr uint32_t kLowBits = 58; // of the low word: the count and key bits; the top 6 hold the count's width

struct Slot {
  uint64_t high; // key.hi ^ mix(low)
  uint64_t low;  // width << 58 | key.lo bits << width | count
};

GSDK_HD bool is_empty(const Slot& s) {
  return (s.high | s.low) == 0;
}

GSDK_HD uint64_t low_mask(uint32_t bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

GSDK_HD uint32_t bit_width(uint64_t count) {
  uint32_t width = 0;
  for (; count != 0; count >>= 1) ++width;
  return width;
}

// The slot for `count` under `key`; all zeros (nothing to keep) for a count of 2^58 or more.
GSDK_HD Slot encode(const perft_key::Key& key, uint64_t count) {
  const uint32_t width = bit_width(count);
  if (width > kLowBits) return {0, 0};
  const uint64_t low =
      (uint64_t{width} << kLowBits) | ((key.lo & low_mask(kLowBits - width)) << width) | count;
  return {key.hi ^ perft_key::splitmix_finish(low), low};
}

GSDK_HD uint64_t count_of(const Slot& s) {
  return s.low & low_mask(static_cast<uint32_t>(s.low >> kLowBits));
}

// Whether the slot holds a count of `key`.
GSDK_HD bool holds(const Slot& s, const perft_key::Key& key) {
  if (is_empty(s)) return false;
  const auto width = static_cast<uint32_t>(s.low >> kLowBits);
  if (width > kLowBits) return false;
  if (((s.low >> width) & low_mask(kLowBits - width)) != (key.lo & low_mask(kLowBits - width))) return false;
  return s.high == (key.hi ^ perft_key::splitmix_finish(s.low));
}

// The bucket of `key` among `buckets`: the high word of key.lo * buckets, uniform for any bucket count.
GSDK_HD uint64_t bucket_of(const perft_key::Key& key, uint64_t buckets) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(key.lo, buckets);
#else
  return static_cast<uint64_t>((static_cast<uint128>(key.lo) * buckets) >> 64);
#endif
}

// Where a store of `key` goes in `bucket`: kSlots when the bucket holds it already.
GSDK_HD uint32_t victim(const Slot* bucket, const perft_key::Key& key) {
  uint32_t chosen = 0;
  for (uint32_t i = 0; i < kSlots; ++i) {
    if (holds(bucket[i], key)) return kSlots;
    if (is_empty(bucket[i])) return i;
    if (count_of(bucket[i]) < count_of(bucket[chosen])) chosen = i;
  }
  return chosen;
}

} // namespace gsdk::core::perft_table
