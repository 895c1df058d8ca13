// oracle_test.cpp - exhaustive search through the rules finds the known optimal snake lengths (4, 7, 13,
// 26 edges for d = 3..6) under symmetry breaking, and the same lengths without it for small d: symmetry
// breaking loses nothing and the rules neither forbid a legal snake nor allow an illegal one.
#include <gtest/gtest.h>

#include "rules/rules.hpp"
#include "snake_test_support.hpp"

namespace snake {
namespace {

// The longest snake that continues walk over blocked (one word: d <= 6), by depth-first search.
uint32_t longest(const Rules& rules, uint64_t blocked, const Walk& walk) {
  uint32_t best = walk.length;
  for (uint32_t rest = legal_dimensions(rules, ConstWordBits{&blocked}, walk); rest; rest &= rest - 1) {
    uint64_t child_blocked = blocked;
    Walk child = walk;
    advance(rules, WordBits{&child_blocked}, child, lowest_bit(rest));
    const uint32_t length = longest(rules, child_blocked, child);
    if (length > best) best = length;
  }
  return best;
}

uint32_t longest_snake(uint32_t dimension, bool symmetry_breaking) {
  return longest(Rules{dimension, symmetry_breaking}, 0, Walk{0, 0, 0});
}

TEST(SnakeOracle, SymmetryBreakingSearchFindsTheKnownOptimaForDimensionsThreeToSix) {
  EXPECT_EQ(longest_snake(3, true), 4u);
  EXPECT_EQ(longest_snake(4, true), 7u);
  EXPECT_EQ(longest_snake(5, true), 13u);
  EXPECT_EQ(longest_snake(6, true), 26u);
}

TEST(SnakeOracle, SearchWithoutSymmetryBreakingFindsTheSameOptima) {
  EXPECT_EQ(longest_snake(3, false), 4u);
  EXPECT_EQ(longest_snake(4, false), 7u);
  EXPECT_EQ(longest_snake(5, false), 13u);
}

} // namespace
} // namespace snake
