// near_miss_test.cpp - "did you mean" (host/src/report/near_miss.hpp): a slip of one or two keys finds the name, a
// swap of neighbours is one slip, ties are all offered, and a name far from every candidate (or a huge one) gets no
// suggestion.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/near_miss.hpp"

namespace {

using gsdk::host::did_you_mean;
using gsdk::host::near_misses;

const std::vector<std::string> kKeys = {"count", "threads", "device", "seed", "streams"};

TEST(NearMiss, OneSlipFindsTheName) {
  EXPECT_EQ(near_misses("cout", kKeys), std::vector<std::string>{"count"});
  EXPECT_EQ(near_misses("ocunt", kKeys), std::vector<std::string>{"count"}) << "a swap is one edit";
  EXPECT_EQ(near_misses("THREADS", kKeys), std::vector<std::string>{"threads"}) << "case does not count";
}

TEST(NearMiss, TwoSlipsInALongNameFindIt) {
  EXPECT_EQ(near_misses("strams", kKeys), std::vector<std::string>{"streams"});
  EXPECT_EQ(near_misses("thraeds", kKeys), std::vector<std::string>{"threads"});
}

TEST(NearMiss, NothingCloseNoSuggestion) {
  EXPECT_TRUE(near_misses("xyz", kKeys).empty());
  EXPECT_TRUE(near_misses("playouts", kKeys).empty());
  EXPECT_TRUE(near_misses(std::string(1u << 20, 'c'), kKeys).empty()) << "a huge name is not compared";
  EXPECT_EQ(did_you_mean("xyz", kKeys), "");
}

TEST(NearMiss, TiesAreAllOffered) {
  EXPECT_EQ(did_you_mean("ucb", {"uct", "ucx", "random"}), " (did you mean 'uct' or 'ucx'?)");
  EXPECT_EQ(did_you_mean("sed", kKeys), " (did you mean 'seed'?)");
}

} // namespace
