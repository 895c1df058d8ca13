// distribution_test.cpp - graveler's battles have the right distribution: 10^7 battles of 231 rolls
// against Binomial(231, 1/4) (chi-square, mean, variance; fixed seed, so deterministic), other roll
// counts on smaller samples, uniform faces, and no correlation between the two battles of a pair
// (which would betray shared random bits). The binomial is computed here, independently of the
// plugin, and compared with the plugin's exact_score_distribution too.
#include <gtest/gtest.h>

#include "cpu/battles_cpu.hpp"
#include "graveler_game.hpp"
#include "graveler_test_util.hpp"
#include "gsdk/core/playouts/playout_result.hpp"

namespace {

using graveler::BattleLayout;
using graveler::test::binomial_quarter;
using graveler::test::Summary;

struct Moments {
  double mean = 0, variance = 0;
};

Moments moments(const std::vector<uint64_t>& histogram) {
  long double n = 0, sum = 0, squares = 0;
  for (size_t k = 0; k < histogram.size(); ++k) {
    n += histogram[k];
    sum += static_cast<long double>(histogram[k]) * k;
    squares += static_cast<long double>(histogram[k]) * k * k;
  }
  const long double mean = sum / n;
  return {static_cast<double>(mean), static_cast<double>(squares / n - mean * mean)};
}

TEST(GravelerDistribution, TenMillionBattlesFitBinomial231Quarter) {
  const BattleLayout layout = BattleLayout::for_rolls(231);
  Summary s(232);
  graveler::cpu::run_battles(layout, 0, 20240601, 0, 10000000, graveler::cpu::best_simd_level(), s.s);
  ASSERT_EQ(s.s.playouts, 10000000u);
  const auto chi = gsdk::core::chi_square(s.histogram, binomial_quarter(231));
  EXPECT_GT(chi.p_value, 1e-4) << "chi-square " << chi.statistic << " with " << chi.degrees_of_freedom << " dof";
  EXPECT_GT(chi.degrees_of_freedom, 40);
  const Moments m = moments(s.histogram);
  EXPECT_NEAR(m.mean, 231 * 0.25, 0.01);              // sd of the mean: 0.0021
  EXPECT_NEAR(m.variance, 231 * 0.25 * 0.75, 0.12);   // sd of the variance: about 0.019
  EXPECT_GE(s.s.best_score, 90);
  EXPECT_LE(s.s.worst_score, 28);
}

TEST(GravelerDistribution, OtherRollCountsFitTheirBinomials) {
  for (const int rolls : {1, 7, 8, 9, 32, 33, 40, 100, 1024}) {
    const BattleLayout layout = BattleLayout::for_rolls(rolls);
    Summary s(static_cast<uint32_t>(rolls) + 1);
    graveler::cpu::run_battles(layout, 0, 99, 1, rolls > 512 ? 200000 : 1000000, graveler::cpu::best_simd_level(), s.s);
    const auto chi = gsdk::core::chi_square(s.histogram, binomial_quarter(rolls));
    EXPECT_GT(chi.p_value, 1e-4) << "rolls " << rolls << ": chi-square " << chi.statistic << " with "
                                 << chi.degrees_of_freedom << " dof";
    EXPECT_NEAR(moments(s.histogram).mean, rolls * 0.25, 6 * std::sqrt(rolls * 0.1875 / s.s.playouts)) << rolls;
  }
}

TEST(GravelerDistribution, PluginsExactDistributionIsTheBinomial) {
  for (const int rolls : {1, 7, 231, 1024}) {
    gsdk_param_value v{};
    v.name = "rolls";
    v.type = GSDK_PARAM_INT;
    v.int_value = rolls;
    const graveler::Game game(gsdk::Params(&v, 1));
    std::vector<double> p(static_cast<size_t>(rolls) + 1);
    game.exact_score_distribution(p.data(), static_cast<uint32_t>(p.size()));
    const auto expected = binomial_quarter(rolls);
    for (size_t k = 0; k < p.size(); ++k) EXPECT_NEAR(p[k], expected[k], 1e-12 + 1e-9 * expected[k]) << rolls << " " << k;
  }
}

TEST(GravelerDistribution, FacesAreUniform) {
  const BattleLayout layout = BattleLayout::for_rolls(231);
  std::vector<uint64_t> faces(4, 0);
  for (uint64_t b = 0; b < 3000; ++b)
    for (uint32_t f : graveler::Game::battle_faces(7, layout, b)) ++faces.at(f - 1);
  const auto chi = gsdk::core::chi_square(faces, {0.25, 0.25, 0.25, 0.25});
  EXPECT_GT(chi.p_value, 1e-4) << faces[0] << " " << faces[1] << " " << faces[2] << " " << faces[3];
}

TEST(GravelerDistribution, BattlesOfAPairAreUncorrelated) {
  // Sharing random bits between the two battles of a pair would correlate their ones.
  for (const int rolls : {1, 7, 8, 9, 40, 231}) {
    const BattleLayout layout = BattleLayout::for_rolls(rolls);
    const int pairs = 100000;
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    gsdk::rng::Mwc64x g = gsdk::rng::Mwc64x::at(3, 0);
    for (int q = 0; q < pairs; ++q) {
      int a = 0, b = 0;
      graveler::count_pair(g, layout, a, b);
      sa += a, sb += b, saa += a * a, sbb += b * b, sab += a * b;
    }
    const double n = pairs;
    const double r = (sab / n - sa / n * sb / n) / std::sqrt((saa / n - sa * sa / n / n) * (sbb / n - sb * sb / n / n));
    EXPECT_LT(std::abs(r), 0.02) << "rolls " << rolls << ": correlation " << r; // sd about 0.003
  }
}

} // namespace
