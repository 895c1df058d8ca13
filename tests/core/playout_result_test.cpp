// playout_result_test.cpp - PlayoutResult (core/include/gsdk/core/playouts/playout_result.hpp): bind/absorb,
// merging (counts add, extremes keep the lowest playout number on ties, order does not matter),
// mean and variance, the canonical text and its SHA-1 digest, and Pearson's chi-square with pooling.
#include <gtest/gtest.h>

#include "gsdk/core/playouts/playout_result.hpp"
#include "gsdk/playout_summary.hpp"

namespace {

using gsdk::core::chi_square;
using gsdk::core::PlayoutResult;

// Scores recorded one by one through the ABI summary, as a plugin would.
PlayoutResult record(int64_t score_min, uint32_t bins, const std::vector<std::pair<int64_t, uint64_t>>& playouts) {
  PlayoutResult r(score_min, bins);
  gsdk_playout_summary s = r.bind();
  for (const auto& [score, playout] : playouts) gsdk::record_playout(s, score, playout, score_min);
  r.absorb(s);
  return r;
}

TEST(PlayoutResult, StartsEmpty) {
  const PlayoutResult r(-3, 7);
  EXPECT_EQ(r.playouts, 0u);
  EXPECT_EQ(r.histogram, std::vector<uint64_t>(7, 0));
  EXPECT_EQ(r.mean(), 0.0);
  EXPECT_EQ(r.variance(), 0.0);
}

TEST(PlayoutResult, BindAliasesTheHistogramAndAbsorbTakesScalars) {
  PlayoutResult r(2, 4);
  gsdk_playout_summary s = r.bind();
  EXPECT_EQ(s.header.type, GSDK_TYPE_PLAYOUT_SUMMARY);
  EXPECT_EQ(s.histogram, r.histogram.data());
  EXPECT_EQ(s.histogram_bins, 4u);
  gsdk::record_playout(s, 5, 9, 2);
  gsdk::record_playout(s, 2, 1, 2);
  EXPECT_EQ(r.histogram, (std::vector<uint64_t>{1, 0, 0, 1})) << "bins are written in place";
  EXPECT_EQ(r.playouts, 0u) << "scalars arrive only with absorb";
  r.absorb(s);
  EXPECT_EQ(r.playouts, 2u);
  EXPECT_EQ(r.best_score, 5);
  EXPECT_EQ(r.best_playout, 9u);
  EXPECT_EQ(r.worst_score, 2);
  EXPECT_EQ(r.worst_playout, 1u);
}

TEST(PlayoutResult, MergeAddsCountsAndKeepsLowestPlayoutOnTies) {
  PlayoutResult a = record(0, 5, {{3, 10}, {1, 11}, {4, 12}});
  const PlayoutResult b = record(0, 5, {{4, 2}, {1, 20}, {0, 30}});
  a.merge(b);
  EXPECT_EQ(a.playouts, 6u);
  EXPECT_EQ(a.histogram, (std::vector<uint64_t>{1, 2, 0, 1, 2}));
  EXPECT_EQ(a.best_score, 4);
  EXPECT_EQ(a.best_playout, 2u) << "tie at 4: playout 2 beats playout 12";
  EXPECT_EQ(a.worst_score, 0);
  EXPECT_EQ(a.worst_playout, 30u);
}

TEST(PlayoutResult, MergeIsOrderIndependent) {
  const PlayoutResult x = record(-2, 6, {{-2, 5}, {3, 6}, {0, 7}});
  const PlayoutResult y = record(-2, 6, {{3, 1}, {-2, 9}});
  const PlayoutResult z = record(-2, 6, {{1, 0}});
  PlayoutResult xyz(-2, 6), zyx(-2, 6);
  for (const auto* p : {&x, &y, &z}) xyz.merge(*p);
  for (const auto* p : {&z, &y, &x}) zyx.merge(*p);
  EXPECT_EQ(xyz.digest(), zyx.digest());
  EXPECT_EQ(xyz.playouts, 6u);
  EXPECT_EQ(xyz.best_playout, 1u);
  EXPECT_EQ(xyz.worst_playout, 5u);
}

TEST(PlayoutResult, MergingAnEmptyResultChangesNothing) {
  PlayoutResult a = record(0, 3, {{1, 4}});
  const std::string before = a.digest();
  a.merge(PlayoutResult(0, 3));
  EXPECT_EQ(a.digest(), before);
  PlayoutResult empty(0, 3);
  empty.merge(a);
  EXPECT_EQ(empty.digest(), before);
}

TEST(PlayoutResult, MeanAndVariance) {
  const PlayoutResult r = record(2, 4, {{2, 0}, {3, 1}, {3, 2}, {5, 3}});
  EXPECT_DOUBLE_EQ(r.mean(), 13.0 / 4);
  // population variance: ((2-3.25)^2 + 2 (3-3.25)^2 + (5-3.25)^2) / 4
  EXPECT_DOUBLE_EQ(r.variance(), (1.5625 + 2 * 0.0625 + 3.0625) / 4);
  const PlayoutResult negative = record(-5, 3, {{-5, 0}, {-3, 1}});
  EXPECT_DOUBLE_EQ(negative.mean(), -4.0);
  EXPECT_DOUBLE_EQ(negative.variance(), 1.0);
}

TEST(PlayoutResult, CanonicalTextAndDigest) {
  const PlayoutResult r = record(2, 4, {{2, 1}, {3, 4}, {3, 5}, {5, 9}});
  EXPECT_EQ(r.canonical(), "playouts=4;best=5@9;worst=2@1;score_min=2;histogram=1,2,0,1");
  // SHA-1 of that text: digests stay comparable across versions and machines.
  EXPECT_EQ(r.digest(), "sha1:a6e3ce16771dcb8311f516f11778cfd3b7431167");
}

TEST(PlayoutResult, DigestChangesWithEveryField) {
  const PlayoutResult base = record(2, 4, {{2, 1}, {3, 4}, {3, 5}, {5, 9}});
  std::vector<PlayoutResult> variants(6, base);
  variants[0].best_playout = 8;
  variants[1].worst_playout = 0;
  variants[2].histogram[2] = 1;
  variants[3].score_min = 1;
  variants[4].playouts = 5;
  variants[5].best_score = 4;
  for (const auto& v : variants) EXPECT_NE(v.digest(), base.digest()) << v.canonical();
  PlayoutResult same = base;
  same.device_milliseconds = 12.5; // timing is not part of the result
  EXPECT_EQ(same.digest(), base.digest());
}

TEST(ChiSquare, PerfectFitAndAKnownStatistic) {
  const auto perfect = chi_square({250, 250, 500}, {0.25, 0.25, 0.5});
  EXPECT_DOUBLE_EQ(perfect.statistic, 0.0);
  EXPECT_EQ(perfect.degrees_of_freedom, 2);
  EXPECT_DOUBLE_EQ(perfect.p_value, 1.0);
  const auto skewed = chi_square({30, 70}, {0.5, 0.5});
  EXPECT_DOUBLE_EQ(skewed.statistic, 16.0);
  EXPECT_EQ(skewed.degrees_of_freedom, 1);
  EXPECT_NEAR(skewed.p_value, 6.334e-5, 1e-7); // P(chi2_1 > 16)
}

TEST(ChiSquare, PoolsCellsExpectingFewerThanFive) {
  // Expected 1, 2, 497, 500: the first three pool into one cell.
  const auto left = chi_square({1, 2, 497, 500}, {0.001, 0.002, 0.497, 0.5});
  EXPECT_EQ(left.degrees_of_freedom, 1);
  EXPECT_NEAR(left.statistic, 0.0, 1e-9);
  // Expected 500, 497, 3: the leftover tail joins the last cell.
  const auto right = chi_square({500, 490, 10}, {0.5, 0.497, 0.003});
  EXPECT_EQ(right.degrees_of_freedom, 1);
  EXPECT_NEAR(right.statistic, 0.0, 1e-9);
  // A tail with far too many counts is still caught after pooling.
  EXPECT_LT(chi_square({400, 300, 300}, {0.5, 0.497, 0.003}).p_value, 1e-6);
}

TEST(ChiSquare, DegenerateInputs) {
  EXPECT_EQ(chi_square({0, 0}, {0.5, 0.5}).degrees_of_freedom, 0) << "no observations";
  EXPECT_EQ(chi_square({5, 5}, {1.0}).degrees_of_freedom, 0) << "mismatched sizes";
  EXPECT_EQ(chi_square({1, 1, 1}, {0.001, 0.001, 0.998}).degrees_of_freedom, 0) << "a single pooled cell";
  EXPECT_EQ(chi_square({1, 1, 1}, {0.001, 0.001, 0.998}).p_value, 1.0);
}

} // namespace
