// beam_order.hpp - the order a beam level's children are selected in (beam_search.hpp's top comment), as numbers
// the CPU selection compares and the GPU's radix sorts sort: a child's key (a hash of its canonical bytes), its
// tie-break, and one 64-bit order key that sorts ascending as value descending, then tie ascending. Host and device
// code both, so that the two selections cannot drift. Internal to the core's beam.
#pragma once

#include <cstdint>

#include "gsdk/hd.hpp"
#include "perft/state_key.hpp"

namespace gsdk::core::beam_order {

// The key duplicates are found by: the first half of hashed perft's key of the canonical state at this depth. Both
// ways of computing it below take the depth and the half from here, so they cannot drift apart.
constexpr uint32_t kChildKeyDepth = 0;
GSDK_HD uint64_t child_key_of(perft_key::Key key) {
  return key.lo;
}

GSDK_HD uint64_t child_key(const unsigned char* canonical_state, uint32_t size) {
  return child_key_of(perft_key::state_key(canonical_state, size, kChildKeyDepth));
}

// child_key absorbed a word at a time, for states of whole 8-byte words (the GPU's tiled hashing): the same key,
// as perft_key's hasher absorbs such a state word by word.
class ChildKeyHasher {
public:
  GSDK_HD explicit ChildKeyHasher(uint32_t size) : hasher_(size, kChildKeyDepth) {}
  GSDK_HD void absorb(uint64_t word) { hasher_.absorb(word); }
  GSDK_HD uint64_t key() const { return child_key_of(hasher_.finish()); }

private:
  perft_key::Hasher hasher_;
};

// The tie-break of a child of key `key` in a search of tie seed `tie_seed`: random-looking, so that equal values are
// broken differently by each search, and a function of the child alone, so that it does not favour early parents.
GSDK_HD uint32_t tie(uint64_t key, uint64_t tie_seed) {
  return static_cast<uint32_t>(perft_key::splitmix_finish(key ^ tie_seed) >> 32);
}

// Ascending order key: value descending (the sign bit flipped makes int32 order unsigned order; the complement
// reverses it), then tie ascending. Equal order keys are ordered by the child's place.
GSDK_HD uint64_t order_key(int32_t value, uint32_t tie_break) {
  const uint32_t descending = ~(static_cast<uint32_t>(value) ^ 0x80000000u);
  return uint64_t{descending} << 32 | tie_break;
}

} // namespace gsdk::core::beam_order
