// table_bucket.hpp - the layout every perft transposition table shares, host and device: buckets of four 16-byte
// slots (one 64-byte line), a slot holding a subtree count and its check word. Internal to the core's perft.
//
// A slot is {check = key.hi ^ count, count}, written as two 64-bit words without a lock (Hyatt's lockless hashing):
// a reader that catches a slot half-written by two writers decodes a key that matches its own only by a 2^-64
// chance, so tearing costs a miss, never a wrong count. The bucket is picked by key.lo, so a hit compares the 64 bits
// of key.hi plus the bucket number's bits of key.lo (docs/perf/chess_perft.md, "Hashed perft", gives the chance of a
// wrong count). An empty slot is all zeros; a count whose slot would be all zeros (key.hi 0 and count 0) is simply
// not kept. A store replaces, in this order, nothing when the bucket holds the key already, an empty slot, or the slot
// with the smallest count (the least work to redo), so deep subtrees stay while shallow ones come and go.
#pragma once

#include <cstdint>

#include "gsdk/core/perft/perft.hpp"
#include "gsdk/hd.hpp"
#include "perft/state_key.hpp"

namespace gsdk::core::perft_table {

inline constexpr uint32_t kSlots = 4; // per bucket
inline constexpr uint32_t kBucketBytes = kSlots * 16;

struct Slot {
  uint64_t check;
  uint64_t count;
};

GSDK_HD bool is_empty(const Slot& s) {
  return (s.check | s.count) == 0;
}

GSDK_HD bool holds(const Slot& s, uint64_t key_hi) {
  return !is_empty(s) && (s.check ^ s.count) == key_hi;
}

// The bucket of `key` among `buckets`: the high word of key.lo * buckets, uniform for any bucket count.
GSDK_HD uint64_t bucket_of(const perft_key::Key& key, uint64_t buckets) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(key.lo, buckets);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(key.lo) * buckets) >> 64);
#endif
}

// Where a store of `key` goes in `bucket`: kSlots when the bucket holds it already.
GSDK_HD uint32_t victim(const Slot* bucket, uint64_t key_hi) {
  uint32_t chosen = 0;
  for (uint32_t i = 0; i < kSlots; ++i) {
    if (holds(bucket[i], key_hi)) return kSlots;
    if (is_empty(bucket[i])) return i;
    if (bucket[i].count < bucket[chosen].count) chosen = i;
  }
  return chosen;
}

} // namespace gsdk::core::perft_table
