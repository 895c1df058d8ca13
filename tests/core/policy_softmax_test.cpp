// policy_softmax_test.cpp - NRPA's portable arithmetic: its exp is as accurate as the C library's over the
// whole range a shifted softmax weight takes, exact at 0 and 0 below the normal range; the softmax sums
// and picks as documented; the adaptation's loss is alpha times the probability.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gsdk/nrpa/policy_softmax.hpp"

namespace gsdk::nrpa {
namespace {

TEST(PolicySoftmax, ExpIsWithinAFewUlpsOfTheCLibrarysOverTheWholeRange) {
  EXPECT_EQ(policy_exp(0.0), 1.0);
  EXPECT_EQ(policy_exp(-709.0), 0.0);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> wide(-708.0, 0.0), narrow(-2.0, 0.0);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = i % 2 ? wide(random) : narrow(random);
    const double expected = std::exp(x);
    worst = std::max(worst, std::fabs(policy_exp(x) - expected) / expected);
  }
  EXPECT_LT(worst, 4 * 0x1.0p-52) << "relative error " << worst;
  EXPECT_NEAR(policy_exp(-1.0), 0.36787944117144233, 1e-16);
}

TEST(PolicySoftmax, WeightsArePoliciesShiftedByTheLargestAndPicksFollowTheCumulativeWeights) {
  const double policy[] = {0.0, std::log(3.0), 5.0, std::log(6.0)};
  const uint32_t codes[] = {3, 0, 1}; // weights 6, 1, 3 relative to the largest
  double weights[3];
  const double total = softmax_weights(policy, codes, 3, weights);
  EXPECT_DOUBLE_EQ(weights[0], 1.0);
  EXPECT_NEAR(weights[1], 1.0 / 6, 1e-15);
  EXPECT_NEAR(weights[2], 0.5, 1e-15);
  EXPECT_NEAR(total, 10.0 / 6, 1e-15);
  EXPECT_EQ(softmax_pick(weights, 3, total, 0.0), 0u);
  EXPECT_EQ(softmax_pick(weights, 3, total, 0.59), 0u);  // u * total < 1
  EXPECT_EQ(softmax_pick(weights, 3, total, 0.61), 1u);  // 1 <= u * total < 7/6
  EXPECT_EQ(softmax_pick(weights, 3, total, 0.71), 2u);
  EXPECT_EQ(softmax_pick(weights, 3, total, 0.999999), 2u);
  EXPECT_NEAR(adaptation_loss(2.0, weights[2], total), -2.0 * 0.3, 1e-15);
}

} // namespace
} // namespace gsdk::nrpa
