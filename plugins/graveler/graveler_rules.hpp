// graveler_rules.hpp - the rules of graveler, compiled for CPU and CUDA alike.
//
// A battle rolls a fair four-sided die `rolls` times and scores the number of 1s. A roll is the pair
// of two fresh random bits (a, b): face = 4 - 2a - b, so a 1 is exactly a AND b. Battles come in
// pairs; pair q owns words [q * W, (q + 1) * W) of the seed's MWC64X sequence (W = words_per_pair),
// laid out as: battle A's k full word pairs, battle B's k full word pairs, then the tail rolls
// (r = rolls mod 32): one shared word when 4r <= 32 (A: bits [0,r) & [r,2r), B: [2r,3r) & [3r,4r)),
// else two masked word pairs. For 231 rolls that is 29 words per two battles, and no word is ever
// used twice.
#pragma once

#include <cstdint>

#include "gsdk/bits.hpp"
#include "gsdk/hd.hpp"
#include "gsdk/rng/mwc64x.hpp"

namespace graveler {

inline constexpr int kDefaultRolls = 231;
inline constexpr int kMaxRolls = 1024;

struct BattleLayout {
  int rolls;
  int full_words;      // k: full 32-roll word pairs per battle
  int tail_rolls;      // r
  int words_per_pair;  // W
  bool shared_tail;    // r <= 8: one tail word serves both battles

  GSDK_HD static BattleLayout for_rolls(int rolls) {
    BattleLayout l{};
    l.rolls = rolls;
    l.full_words = rolls / 32;
    l.tail_rolls = rolls % 32;
    l.shared_tail = l.tail_rolls <= 8;
    const int tail_words = l.tail_rolls == 0 ? 0 : (l.shared_tail ? 1 : 4);
    l.words_per_pair = 4 * l.full_words + tail_words;
    return l;
  }
};

// The ones rolled by the two battles of the pair the generator is positioned at.
GSDK_HD void count_pair(gsdk::rng::Mwc64x& g, const BattleLayout& l, int& ones_a, int& ones_b) {
  using gsdk::bits::popcount32;
  int a = 0, b = 0;
  for (int i = 0; i < l.full_words; ++i) a += popcount32(g.next() & g.next());
  for (int i = 0; i < l.full_words; ++i) b += popcount32(g.next() & g.next());
  const int r = l.tail_rolls;
  if (r != 0) {
    const uint32_t mask = gsdk::bits::low_mask32(r);
    if (l.shared_tail) {
      const uint32_t t = g.next();
      a += popcount32(t & (t >> r) & mask);
      b += popcount32((t >> (2 * r)) & (t >> (3 * r)) & mask);
    } else {
      a += popcount32(g.next() & g.next() & mask);
      b += popcount32(g.next() & g.next() & mask);
    }
  }
  ones_a = a;
  ones_b = b;
}

// The generator at the first word of the pair holding `battle`.
GSDK_HD gsdk::rng::Mwc64x pair_generator(uint64_t seed, const BattleLayout& l, uint64_t battle) {
  return gsdk::rng::Mwc64x::at(seed, (battle / 2) * static_cast<uint64_t>(l.words_per_pair));
}

// Scalar reference: the ones of one battle.
GSDK_HD int battle_ones(uint64_t seed, const BattleLayout& l, uint64_t battle) {
  gsdk::rng::Mwc64x g = pair_generator(seed, l, battle);
  int a, b;
  count_pair(g, l, a, b);
  return (battle & 1) ? b : a;
}

// Per-state game: rolls done so far and ones counted.
struct State {
  uint16_t rolls_done;
  uint16_t ones;
};

} // namespace graveler
