// philox_test.cpp - counter-based streams (sdk/include/gsdk/rng/philox.hpp): Random123's known-answer
// vectors through philox_block's (key, counter) packing, stream layout, reproducibility and
// independence of streams, uniform() range and below(n) range and uniformity (chi-square with fixed
// seeds, so deterministic), including bounds where Lemire's method must reject.
#include <set>

#include <gtest/gtest.h>

#include "gsdk/core/playouts/playout_result.hpp"
#include "gsdk/rng/philox.hpp"

namespace {

using gsdk::rng::philox_block;
using gsdk::rng::PhiloxStream;

TEST(Philox, KnownAnswerVectors) {
  // Random123 kat_vectors, philox4x32 10 rounds: (counter, key) -> output, as 32-bit words.
  const auto zero = philox_block(0, 0, 0);
  EXPECT_EQ(zero[0], 0xe169c58d6627e8d5ull);
  EXPECT_EQ(zero[1], 0x9b00dbd8bc57ac4cull);
  const auto ones = philox_block(~0ull, ~0ull, ~0ull);
  EXPECT_EQ(ones[0], 0x41c83b0e408f276dull);
  EXPECT_EQ(ones[1], 0x6d5451fda20bc7c6ull);
  // counter {243f6a88 85a308d3 13198a2e 03707344}, key {a4093822 299f31d0}: the packing's word order.
  const auto pi = philox_block(0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x0370734413198a2eull);
  EXPECT_EQ(pi[0], 0x94fdccebd16cfe09ull);
  EXPECT_EQ(pi[1], 0x24126ea15001e420ull);
}

TEST(PhiloxStream, LayoutIsBlocksOfTheStreamCounter) {
  PhiloxStream s(11, 22);
  for (uint64_t block = 0; block < 4; ++block) {
    const auto expected = philox_block(11, 22, block);
    EXPECT_EQ(s.next_u64(), expected[0]);
    EXPECT_EQ(s.next_u64(), expected[1]);
  }
  PhiloxStream t(11, 22);
  EXPECT_EQ(t.next_u32(), static_cast<uint32_t>(philox_block(11, 22, 0)[0] >> 32));
}

TEST(PhiloxStream, ReproducibleAndDistinctAcrossSeedsAndIds) {
  const auto draw = [](uint64_t seed, uint64_t id) {
    PhiloxStream s(seed, id);
    std::vector<uint64_t> v(64);
    for (auto& x : v) x = s.next_u64();
    return v;
  };
  EXPECT_EQ(draw(5, 9), draw(5, 9));
  std::set<uint64_t> seen;
  for (uint64_t seed : {0ull, 1ull, 2ull, 1ull << 32})
    for (uint64_t id : {0ull, 1ull, 2ull, 1ull << 32, ~0ull})
      for (uint64_t x : draw(seed, id)) seen.insert(x);
  EXPECT_EQ(seen.size(), 4u * 5u * 64u) << "streams of different (seed, id) must not share values";
}

TEST(PhiloxStream, UniformIsInUnitInterval) {
  PhiloxStream s(3, 4);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.005); // sd of the mean is 0.00065
}

TEST(PhiloxStream, BelowStaysInRange) {
  PhiloxStream s(8, 8);
  for (uint32_t bound : {1u, 2u, 3u, 7u, 1000u, 0x80000001u, 0xc0000000u, 0xffffffffu})
    for (int i = 0; i < 20000; ++i) ASSERT_LT(s.below(bound), bound) << "bound " << bound;
  for (int i = 0; i < 100; ++i) ASSERT_EQ(s.below(1), 0u);
}

// Counts of below(bound) folded into `bins` classes by `classify`, tested against uniform classes.
template <typename Classify>
double uniformity_p_value(uint64_t seed, uint32_t bound, uint32_t bins, int draws, Classify classify) {
  std::vector<uint64_t> counts(bins, 0);
  for (int i = 0; i < draws; ++i) {
    PhiloxStream s(seed, static_cast<uint64_t>(i / 16)); // many short streams, as playouts use them
    for (int k = 0; k < i % 16; ++k) s.next_u32();
    ++counts[classify(s.below(bound))];
  }
  return gsdk::core::chi_square(counts, std::vector<double>(bins, 1.0 / bins)).p_value;
}

TEST(PhiloxStream, BelowIsUniform) {
  EXPECT_GT(uniformity_p_value(1, 7, 7, 300000, [](uint32_t v) { return v; }), 1e-4);
  EXPECT_GT(uniformity_p_value(2, 1000, 1000, 500000, [](uint32_t v) { return v; }), 1e-4);
  EXPECT_GT(uniformity_p_value(3, 4, 4, 200000, [](uint32_t v) { return v; }), 1e-4);
}

TEST(PhiloxStream, BelowRejectsWhereMultiplyShiftAloneIsBiased) {
  // For bound 3 * 2^30, multiply-shift without rejection gives every third value twice the
  // probability of the others; residues mod 3 expose it (probabilities 1/2, 1/4, 1/4).
  EXPECT_GT(uniformity_p_value(4, 0xc0000000u, 3, 300000, [](uint32_t v) { return v % 3; }), 1e-4);
  // And the high part is uniform too.
  EXPECT_GT(uniformity_p_value(5, 0xc0000000u, 3, 300000, [](uint32_t v) { return v >> 30; }), 1e-4);
}

} // namespace
