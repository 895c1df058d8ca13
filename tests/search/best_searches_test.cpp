// best_searches_test.cpp - the table behind [output] searches: it keeps the best sequences (higher score, then
// lower search number), each sequence once under its best search, never more than asked, and prefixes each
// search's moves with its start's.
#include <gtest/gtest.h>

#include "algorithms/nested/best_searches.hpp"

namespace gsdk::host {
namespace {

core::FinishedSearch finished(uint32_t search, uint32_t start, int64_t score, const std::vector<uint32_t>& moves) {
  return {search, start, score, moves};
}

TEST(BestSearches, KeepsTheBestDistinctSequencesUnderTheirBestSearch) {
  const std::vector<std::vector<uint32_t>> starts;
  BestSearches table(2, starts);
  const std::vector<uint32_t> a{0, 1}, b{0, 2}, c{1, 2, 3}, d{3};
  table.offer(finished(3, 0, 5, a));
  table.offer(finished(1, 0, 5, b));
  table.offer(finished(4, 0, 7, c)); // a, the worst, goes
  table.offer(finished(0, 0, 5, b)); // b again, from a lower search: kept once, under search 0
  table.offer(finished(9, 0, 4, d)); // below the table's worst
  table.offer(finished(6, 0, 5, a)); // ties b's score from a later search
  const auto entries = table.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].score, 7);
  EXPECT_EQ(entries[0].search, 4u);
  EXPECT_EQ(entries[0].moves, c);
  EXPECT_EQ(entries[1].score, 5);
  EXPECT_EQ(entries[1].search, 0u);
  EXPECT_EQ(entries[1].moves, b);
}

TEST(BestSearches, EverySequenceBeginsWithItsSearchsStart) {
  const std::vector<std::vector<uint32_t>> starts{{0, 1, 2}, {4}};
  BestSearches table(10, starts);
  const std::vector<uint32_t> tail{7, 8};
  table.offer(finished(1, 1, 3, tail));
  table.offer(finished(0, 0, 5, tail));
  const auto entries = table.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].moves, (std::vector<uint32_t>{0, 1, 2, 7, 8}));
  EXPECT_EQ(entries[0].start, 0u);
  EXPECT_EQ(entries[1].moves, (std::vector<uint32_t>{4, 7, 8}));
  EXPECT_EQ(entries[1].start, 1u);
}

} // namespace
} // namespace gsdk::host
