// simd_agreement_test.cpp - graveler's CPU batch paths agree with the scalar reference: run_battles at
// every SIMD level this CPU has equals battle_ones taken battle by battle, over ranges with odd and
// even starts and ends, for many roll counts; the SIMD kernels alone equal tally_pairs_scalar on the
// same pairs (histograms and extremes with their battle numbers) for every roll count they accept;
// ones_offset shifts scores.
#include <gtest/gtest.h>

#include "cpu/battles_cpu.hpp"
#include "cpu/lane_bookkeeping.hpp"
#include "graveler_test_util.hpp"

namespace {

using graveler::BattleLayout;
using graveler::test::reference_tally;
using graveler::test::Summary;
namespace cpu = graveler::cpu;

constexpr uint64_t kSeed = 0x5eed5eedull;

std::vector<int32_t> available_levels() {
  std::vector<int32_t> levels;
  for (int32_t level = GSDK_SIMD_SCALAR; level <= cpu::best_simd_level(); ++level) levels.push_back(level);
  return levels;
}

void expect_run_battles_matches_reference(int rolls, uint64_t first, uint64_t count, uint64_t seed = kSeed) {
  const BattleLayout layout = BattleLayout::for_rolls(rolls);
  Summary reference(static_cast<uint32_t>(rolls) + 1);
  reference_tally(layout, seed, first, count, reference);
  for (int32_t level : available_levels()) {
    Summary fast(static_cast<uint32_t>(rolls) + 1);
    cpu::run_battles(layout, 0, seed, first, count, level, fast.s);
    ASSERT_TRUE(fast == reference) << "rolls " << rolls << " battles [" << first << ", " << first + count
                                   << ") SIMD level " << level << "\n got      " << fast.describe()
                                   << "\n expected " << reference.describe();
  }
}

TEST(GravelerSimd, ReportsALevelThisBuildHas) {
  const int32_t level = cpu::best_simd_level();
  EXPECT_GE(level, GSDK_SIMD_SCALAR);
  EXPECT_LE(level, GSDK_SIMD_AVX512);
  if (level < GSDK_SIMD_AVX512) GTEST_LOG_(INFO) << "AVX-512 paths are not exercised on this CPU";
}

TEST(GravelerSimd, LargeOddRangeMatchesReferenceAtEveryLevel) {
  expect_run_battles_matches_reference(231, 1000001, 100003);
  expect_run_battles_matches_reference(231, (uint64_t{1} << 40) + 3, 100003);
}

TEST(GravelerSimd, EveryRollCountMatchesReference) {
  for (const int rolls : graveler::test::kRollCounts)
    expect_run_battles_matches_reference(rolls, 77777, rolls >= 512 ? 6001 : 20001);
}

TEST(GravelerSimd, SmallRangesAroundLaneBoundaries) {
  // Ranges shorter than, equal to and just over what one vector pass covers (16 or 32 pairs per
  // lane group), with starts and ends of both parities.
  for (const uint64_t first : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{12345},
                               (uint64_t{1} << 33) + 1})
    for (const uint64_t count : {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 66, 67, 127, 128, 129, 130, 131, 257})
      expect_run_battles_matches_reference(231, first, count);
}

void expect_same_tally(const cpu::BattleTally& simd, const cpu::BattleTally& scalar, const std::string& what) {
  EXPECT_EQ(simd.histogram, scalar.histogram) << what;
  EXPECT_EQ(simd.best, scalar.best) << what;
  EXPECT_EQ(simd.best_battle, scalar.best_battle) << what;
  EXPECT_EQ(simd.worst, scalar.worst) << what;
  EXPECT_EQ(simd.worst_battle, scalar.worst_battle) << what;
}

TEST(GravelerSimd, KernelsEqualScalarPairTallies) {
  // Runs per lane shorter than, equal to and longer than the kernels' bookkeeping blocks, for the
  // compile-time 231-roll kernel and the run-time-layout one; small roll counts make extremes tie
  // often, so the lowest-battle tie-break is exercised. (Longer battles never reach the kernels.)
  for (const int rolls : {231, 1, 7, 40, cpu::kSimdMaxRolls})
    for (const uint64_t first_pair : {uint64_t{0}, uint64_t{999}, (uint64_t{1} << 40) + 7})
      for (const uint64_t per_lane : {uint64_t{1}, uint64_t{2}, uint64_t{37}, uint64_t{64}, uint64_t{65}, uint64_t{130}}) {
        const BattleLayout layout = BattleLayout::for_rolls(rolls);
        const std::string what =
            "rolls " + std::to_string(rolls) + " pairs " + std::to_string(first_pair) + " x " + std::to_string(per_lane);
        if (cpu::best_simd_level() >= GSDK_SIMD_AVX2) {
          cpu::BattleTally simd(rolls), scalar(rolls);
          cpu::tally_pairs_avx2(layout, kSeed, first_pair, per_lane, simd);
          cpu::tally_pairs_scalar(layout, kSeed, first_pair, per_lane * cpu::kAvx2Lanes, scalar);
          expect_same_tally(simd, scalar, "AVX2 " + what);
        }
        if (cpu::best_simd_level() >= GSDK_SIMD_AVX512) {
          cpu::BattleTally simd(rolls), scalar(rolls);
          cpu::tally_pairs_avx512(layout, kSeed, first_pair, per_lane, simd);
          cpu::tally_pairs_scalar(layout, kSeed, first_pair, per_lane * cpu::kAvx512Lanes, scalar);
          expect_same_tally(simd, scalar, "AVX-512 " + what);
        }
      }
}

TEST(GravelerSimd, ScalarPairTallyEqualsBattleOnes) {
  // tally_pairs_scalar steps one generator through consecutive pairs; battle_ones jumps to each.
  for (const int rolls : graveler::test::kRollCounts) {
    const BattleLayout layout = BattleLayout::for_rolls(rolls);
    cpu::BattleTally tally(rolls);
    cpu::tally_pairs_scalar(layout, kSeed, 500, 1000, tally);
    Summary reference(static_cast<uint32_t>(rolls) + 1);
    reference_tally(layout, kSeed, 1000, 2000, reference);
    EXPECT_EQ(tally.histogram, reference.histogram) << "rolls " << rolls;
    EXPECT_EQ(static_cast<int64_t>(tally.best), reference.s.best_score);
    EXPECT_EQ(tally.best_battle, reference.s.best_playout);
  }
}

TEST(GravelerSimd, OnesOffsetShiftsEveryScore) {
  const BattleLayout layout = BattleLayout::for_rolls(131);
  Summary shifted(232), reference(232);
  cpu::run_battles(layout, 100, kSeed, 3, 50001, cpu::best_simd_level(), shifted.s);
  reference_tally(layout, kSeed, 3, 50001, reference, 100);
  EXPECT_TRUE(shifted == reference) << shifted.describe();
  for (size_t k = 0; k < 100; ++k) EXPECT_EQ(shifted.histogram[k], 0u);
}

TEST(GravelerSimd, AddsIntoAnExistingSummary) {
  // Two halves added into one summary equal the whole range.
  const BattleLayout layout = BattleLayout::for_rolls(231);
  Summary halves(232), whole(232);
  cpu::run_battles(layout, 0, kSeed, 11, 40000, cpu::best_simd_level(), halves.s);
  cpu::run_battles(layout, 0, kSeed, 40011, 40001, cpu::best_simd_level(), halves.s);
  cpu::run_battles(layout, 0, kSeed, 11, 80001, GSDK_SIMD_SCALAR, whole.s);
  EXPECT_TRUE(halves == whole) << halves.describe();
}

} // namespace
