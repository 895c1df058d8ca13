// beam_selection_test.cpp - the CPU selection of a beam level (core/src/beam/beam_selection.hpp): higher values
// first, the width respected, a duplicate key dropped in favour of the better child, the per-parent cap, and the
// dropped children counted over the whole level; and the order key's arithmetic (beam_order.hpp).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "beam/beam_order.hpp"
#include "beam/beam_selection.hpp"

namespace {

using gsdk::core::BeamSelectionRules;
using gsdk::core::select_children;
using gsdk::core::Selection;
namespace order = gsdk::core::beam_order;

struct Level {
  std::vector<int32_t> values;
  std::vector<uint64_t> keys;
  std::vector<uint32_t> parents;

  Selection select(uint32_t parent_count, BeamSelectionRules rules) const {
    return select_children({values, keys, parents}, parent_count, rules);
  }
};

TEST(BeamOrder, OrderKeysSortValuesDescendingThenTiesAscending) {
  EXPECT_LT(order::order_key(5, 0xffffffffu), order::order_key(4, 0));
  EXPECT_LT(order::order_key(0, 0), order::order_key(-1, 0));
  EXPECT_LT(order::order_key(-1, 7), order::order_key(INT32_MIN, 0));
  EXPECT_LT(order::order_key(INT32_MAX, 9), order::order_key(0, 0));
  EXPECT_LT(order::order_key(3, 1), order::order_key(3, 2));
}

TEST(BeamOrder, TiesDependOnTheSeed) {
  int differ = 0;
  for (uint64_t key = 0; key < 64; ++key) differ += order::tie(key, 1) != order::tie(key, 2);
  EXPECT_GT(differ, 60);
}

// The GPU hashes states of whole words through ChildKeyHasher, the CPU through child_key: one key for one state,
// and a different key when one word differs.
TEST(BeamOrder, TheWordHasherGivesTheChildKey) {
  for (const uint32_t words : {1u, 3u, 407u}) {
    std::vector<uint64_t> state(words);
    for (uint32_t i = 0; i < words; ++i) state[i] = 0x9e3779b97f4a7c15ull * (i + 1) ^ words;
    const auto key_of = [&] {
      order::ChildKeyHasher hasher(words * 8);
      for (const uint64_t word : state) hasher.absorb(word);
      return hasher.key();
    };
    const uint64_t key = key_of();
    EXPECT_EQ(key, order::child_key(reinterpret_cast<const unsigned char*>(state.data()), words * 8)) << words;
    state[words / 2] ^= 1;
    EXPECT_NE(key, key_of()) << words;
  }
}

TEST(BeamSelection, HigherValuesGoFirstAndTheWidthIsKept) {
  const Level level{{3, 9, 1, 7, 8}, {10, 11, 12, 13, 14}, {0, 0, 1, 1, 2}};
  const Selection s = level.select(3, {1, 3, 0, true});
  EXPECT_EQ(s.kept, (std::vector<uint32_t>{1, 4, 3}));
  EXPECT_EQ(s.duplicates, 0u);
  EXPECT_EQ(s.capped, 0u);
}

TEST(BeamSelection, EqualValuesFollowTheTieBreakThenThePlace) {
  const Level level{{5, 5, 5, 5}, {21, 22, 23, 24}, {0, 1, 2, 3}};
  const uint64_t seed = 77;
  const Selection s = level.select(4, {seed, 4, 0, true});
  ASSERT_EQ(s.kept.size(), 4u);
  for (size_t j = 1; j < s.kept.size(); ++j)
    EXPECT_LE(order::tie(level.keys[s.kept[j - 1]], seed), order::tie(level.keys[s.kept[j]], seed));
  // Equal keys without dedup: equal order keys, so the place decides.
  const Level same{{5, 5, 5}, {9, 9, 9}, {0, 1, 2}};
  EXPECT_EQ(same.select(3, {seed, 3, 0, false}).kept, (std::vector<uint32_t>{0, 1, 2}));
}

TEST(BeamSelection, ADuplicateKeepsTheBetterChildAndIsCountedBeyondTheWidth) {
  const Level level{{4, 9, 2, 1}, {100, 100, 200, 200}, {0, 1, 2, 3}};
  const Selection s = level.select(4, {5, 1, 0, true});
  EXPECT_EQ(s.kept, (std::vector<uint32_t>{1}));
  EXPECT_EQ(s.duplicates, 2u) << "the duplicate of key 200 lies past the width and is still counted";
  const Selection without = level.select(4, {5, 4, 0, false});
  EXPECT_EQ(without.kept.size(), 4u);
  EXPECT_EQ(without.duplicates, 0u);
}

TEST(BeamSelection, TheCapKeepsAtMostThatManyChildrenOfOneParent) {
  // Parent 0's three children are the best three; with a cap of 2 the third gives way to parent 1's.
  const Level level{{90, 80, 70, 10, 60}, {1, 2, 3, 4, 5}, {0, 0, 0, 1, 0}};
  const Selection s = level.select(2, {3, 3, 2, true});
  EXPECT_EQ(s.kept, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(s.capped, 2u) << "parent 0's third and fourth children";
  EXPECT_EQ(level.select(2, {3, 3, 0, true}).kept, (std::vector<uint32_t>{0, 1, 2}));
}

TEST(BeamSelection, ADuplicateDoesNotUseItsParentsShareOfTheCap) {
  // Child 1 duplicates child 0 (same key): dropped by dedup before the cap counts it, so child 2 stays.
  const Level level{{9, 8, 7}, {50, 50, 51}, {0, 0, 0}};
  const Selection s = level.select(1, {3, 3, 2, true});
  EXPECT_EQ(s.kept, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(s.duplicates, 1u);
  EXPECT_EQ(s.capped, 0u);
}

} // namespace
