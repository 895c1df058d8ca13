// magic_tables.cpp - finds fancy magic numbers for every square by a seeded random search and fills the
// attack tables the GPU looks sliders up in (rules/magic_attacks.hpp). Deterministic: the same seed
// always yields the same numbers; the search takes a few tens of milliseconds, once per process.
#include <memory>
#include <vector>

#include "rules/attack_tables.hpp"
#include "rules/magic_attacks.hpp"

namespace chess::magic {

namespace {

struct Random {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  uint64_t next() { // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
  }
  uint64_t sparse() { return next() & next() & next(); } // few bits set: good magic candidates
};

// Finds square sq's magic and writes its attack slice at tables.attacks + offset; returns the next offset.
uint32_t find(Tables& tables, Entry& entry, int sq, bool diagonal, uint32_t offset, Random& random) {
  const Bitboard mask = relevant_occupancy(sq, diagonal);
  const int bits = popcount(mask);
  const uint32_t size = 1u << bits;
  std::vector<Bitboard> occupancy(size), reference(size), table(size);
  std::vector<uint32_t> stamp(size, 0);
  Bitboard subset = 0;
  for (uint32_t i = 0; i < size; ++i, subset = (subset - mask) & mask) {
    occupancy[i] = subset;
    reference[i] = slider_attacks_by_rays(sq, diagonal, subset);
  }
  for (uint32_t attempt = 1;; ++attempt) {
    const Bitboard magic = random.sparse();
    if (popcount((mask * magic) >> 56) < 6) continue;
    bool ok = true;
    for (uint32_t i = 0; i < size && ok; ++i) {
      const auto index = static_cast<uint32_t>((occupancy[i] * magic) >> (64 - bits));
      if (stamp[index] != attempt) {
        stamp[index] = attempt;
        table[index] = reference[i];
      } else {
        ok = table[index] == reference[i]; // a shared slot is fine when the attacks are the same
      }
    }
    if (!ok) continue;
    entry = {mask, magic, offset, static_cast<uint32_t>(64 - bits)};
    for (uint32_t i = 0; i < size; ++i) tables.attacks[offset + i] = stamp[i] == attempt ? table[i] : 0;
    return offset + size;
  }
}

std::unique_ptr<Tables> build() {
  auto tables = std::make_unique<Tables>();
  Random random;
  uint32_t offset = 0;
  for (int sq = 0; sq < 64; ++sq) offset = find(*tables, tables->rook[sq], sq, false, offset, random);
  for (int sq = 0; sq < 64; ++sq) offset = find(*tables, tables->bishop[sq], sq, true, offset, random);
  return tables;
}

} // namespace

const Tables& host_tables() {
  static const std::unique_ptr<Tables> tables = build();
  return *tables;
}

} // namespace chess::magic
