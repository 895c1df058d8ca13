// magic_tables_test.cpp - the GPU's magic slider tables (found on the host) give exactly the ray-scan
// attacks for every square and many random occupancies, and the search is deterministic.
#include <gtest/gtest.h>

#include <random>

#include "rules/attack_tables.hpp"

#if defined(GSDK_WITH_CUDA)
#include "rules/magic_attacks.hpp"

namespace {

chess::Bitboard lookup(const chess::magic::Tables& t, const chess::magic::Entry& e, chess::Bitboard occupied) {
  return t.attacks[e.offset + chess::magic::slice_index(occupied & e.mask, e.magic, e.shift)];
}

// The GPU's three 32-bit multiplies give the 64-bit product's top bits exactly.
TEST(MagicTables, SliceIndexIsTheTopOfTheFullProduct) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 100000; ++i) {
    const chess::Bitboard relevant = random(), magic = random();
    const auto shift = static_cast<uint32_t>(52 + i % 9);
    ASSERT_EQ(chess::magic::slice_index(relevant, magic, shift), static_cast<uint32_t>((relevant * magic) >> shift));
  }
}

TEST(MagicTables, LookupsEqualRayScans) {
  const chess::magic::Tables& t = chess::magic::host_tables();
  std::mt19937_64 random(99);
  for (int sq = 0; sq < 64; ++sq) {
    EXPECT_EQ(t.rook[sq].mask, chess::relevant_occupancy(sq, false)) << sq;
    EXPECT_EQ(t.bishop[sq].mask, chess::relevant_occupancy(sq, true)) << sq;
    for (int i = 0; i < 2000; ++i) {
      const chess::Bitboard occupied = random() & random();
      ASSERT_EQ(lookup(t, t.rook[sq], occupied), chess::slider_attacks_by_rays(sq, false, occupied)) << sq;
      ASSERT_EQ(lookup(t, t.bishop[sq], occupied), chess::slider_attacks_by_rays(sq, true, occupied)) << sq;
    }
  }
  EXPECT_EQ(t.bishop[63].offset + (1u << (64 - t.bishop[63].shift)), chess::magic::kAttackEntries);
}

} // namespace
#endif
