// mwc64x_test.cpp - the MWC64X generator and its exact jump-ahead (sdk/include/gsdk/rng/mwc64x.hpp):
// the constants, the Montgomery product against 128-bit arithmetic mod p, jump(x, e) = x * A^e mod p,
// jump composition for huge exponents, and random access (Mwc64x::at) against plain stepping.
#include <random>

#include <gtest/gtest.h>

#include "gsdk/rng/mwc64x.hpp"

namespace {

using namespace gsdk::rng;
using namespace gsdk::rng::mwc64x_constants;
__extension__ typedef unsigned __int128 u128;

uint64_t mulmod(uint64_t a, uint64_t b) { return static_cast<uint64_t>(static_cast<u128>(a) * b % kModulus); }

uint64_t powmod(uint64_t base, uint64_t e) {
  uint64_t acc = 1;
  base %= kModulus;
  for (; e; e >>= 1) {
    if (e & 1) acc = mulmod(acc, base);
    base = mulmod(base, base);
  }
  return acc;
}

TEST(Mwc64xConstants, ModulusAndMontgomeryConstants) {
  EXPECT_EQ(kModulus, (static_cast<uint64_t>(kMultiplier) << 32) - 1);
  const uint64_t r_mod_p = static_cast<uint64_t>((static_cast<u128>(1) << 64) % kModulus);
  EXPECT_EQ(kMontgomeryR2, mulmod(r_mod_p, r_mod_p));
  EXPECT_EQ(kModulus * kMontgomeryNPrime, ~uint64_t{0}) << "n' must be -p^-1 mod 2^64";
}

TEST(Mwc64xMontgomery, MatchesReferenceOnRandomAndEdgeInputs) {
  std::mt19937_64 random(12345);
  std::vector<uint64_t> values = {0, 1, 2, kMultiplier, kModulus - 1, kModulus - 2, kModulus >> 1, 0xffffffffull,
                                  uint64_t{1} << 63};
  for (int i = 0; i < 64; ++i) values.push_back(kModulus - 1 - (random() & 0xffff)); // near p: the carry paths
  for (int i = 0; i < 64; ++i) values.push_back(random() % kModulus);
  const auto check = [](uint64_t a, uint64_t b) {
    const uint64_t m = montgomery_multiply(a, b);
    ASSERT_LT(m, kModulus) << a << " * " << b;
    // m = a * b / 2^64 mod p  <=>  m * 2^64 = a * b (mod p)
    const uint64_t lhs = static_cast<uint64_t>((static_cast<u128>(m) << 64) % kModulus);
    ASSERT_EQ(lhs, mulmod(a, b)) << a << " * " << b;
  };
  for (uint64_t a : values)
    for (uint64_t b : values) check(a, b);
  for (int i = 0; i < 200000; ++i) check(random() % kModulus, random() % kModulus);
}

TEST(Mwc64xJump, EqualsMultiplicationByAPower) {
  std::mt19937_64 random(99);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t x = 1 + random() % (kModulus - 1);
    const uint64_t e = i < 64 ? uint64_t{1} << i : random();
    ASSERT_EQ(mwc64x_jump(x, e), mulmod(x, powmod(kMultiplier, e))) << "x=" << x << " e=" << e;
  }
  EXPECT_EQ(mwc64x_jump(123456789, 0), 123456789u);
}

TEST(Mwc64xJump, ComposesForHugeExponents) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t x = 1 + random() % (kModulus - 1);
    const uint64_t a = random() >> 1, b = random() >> 1; // a + b < 2^64
    ASSERT_EQ(mwc64x_jump(x, a + b), mwc64x_jump(mwc64x_jump(x, a), b)) << x << " " << a << " " << b;
  }
}

TEST(Mwc64xStep, OneStepIsMultiplicationByAModP) {
  std::mt19937_64 random(3);
  for (int i = 0; i < 100000; ++i) {
    Mwc64x g{random() % kModulus};
    const uint64_t before = g.state;
    const uint32_t out = g.next();
    ASSERT_EQ(out, static_cast<uint32_t>(before) ^ static_cast<uint32_t>(before >> 32)) << "output is lo ^ hi";
    ASSERT_EQ(g.state % kModulus, mulmod(before, kMultiplier));
  }
}

TEST(Mwc64xAt, RandomAccessEqualsStepping) {
  for (const uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{0xdeadbeefcafef00d}}) {
    Mwc64x stepped = Mwc64x::at(seed, 0);
    EXPECT_EQ(stepped.state, mwc64x_seed_state(seed));
    for (uint64_t w = 0; w <= 100000; ++w) {
      if (w < 64 || w % 997 == 0 || w == 100000 || w == 65536) {
        Mwc64x jumped = Mwc64x::at(seed, w);
        ASSERT_EQ(jumped.state, stepped.state) << "seed " << seed << " word " << w;
        Mwc64x copy = stepped;
        ASSERT_EQ(jumped.next(), copy.next());
      }
      stepped.next();
    }
  }
}

TEST(Mwc64xAt, FarWordsAgreeWithComposedJumps) {
  const uint64_t seed = 42;
  const uint64_t far = uint64_t{1} << 62;
  Mwc64x g = Mwc64x::at(seed, far);
  for (int i = 0; i < 1000; ++i) g.next();
  EXPECT_EQ(g.state, Mwc64x::at(seed, far + 1000).state);
}

TEST(Mwc64xSeed, SeedStatesAreValidAndDistinct) {
  std::vector<uint64_t> states;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const uint64_t s = mwc64x_seed_state(seed);
    ASSERT_GE(s, 1u);
    ASSERT_LT(s, kModulus);
    states.push_back(s);
  }
  std::sort(states.begin(), states.end());
  EXPECT_EQ(std::adjacent_find(states.begin(), states.end()), states.end());
}

} // namespace
