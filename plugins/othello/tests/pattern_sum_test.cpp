// pattern_sum_test.cpp - the host's fast pattern sum (cpu/pattern_sum_cpu.hpp, pext on the pulled-back boards of
// rules/board_symmetry.hpp) against the generic digit loop CUDA runs: the pulled-back boards square by square
// against transform, each instance's symmetry against its squares, and the sums equal to the bit on random
// boards of every stage, with the shipped weights and with random ones (where no index hides behind a zero).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "cpu/pattern_sum_cpu.hpp"
#include "rules/board_symmetry.hpp"
#include "rules/board_text.hpp"
#include "rules/patterns.hpp"
#include "shipped_weights.hpp"

namespace othello {
namespace {

TEST(OthelloPatternSum, PulledBackImagesReadEverySquareThroughTransform) {
  std::mt19937_64 random(21);
  std::vector<Bitboard> boards = {0, ~Bitboard{0}};
  for (uint32_t s = 0; s < 64; ++s) boards.push_back(square_bit(s));
  for (int k = 0; k < 200; ++k) boards.push_back(random());
  for (const Bitboard b : boards) {
    const std::array<Bitboard, 8> images = pulled_back_images(b);
    for (uint32_t g = 0; g < 8; ++g)
      for (uint32_t s = 0; s < 64; ++s)
        ASSERT_EQ((images[g] >> s) & 1, (b >> pattern_detail::transform(g, s)) & 1)
            << "board " << b << " symmetry " << g << " square " << s;
  }
}

TEST(OthelloPatternSum, EveryInstanceIsItsBaseShapeUnderItsSymmetry) {
  for (const PatternInstance& instance : kPatternLayout.instances) {
    const pattern_detail::Shape& shape = pattern_detail::kShapes[instance.kind];
    ASSERT_EQ(instance.size, shape.size);
    for (uint32_t k = 0; k < shape.size; ++k)
      EXPECT_EQ(instance.squares[k], pattern_detail::transform(instance.symmetry, shape.squares[k]))
          << "kind " << instance.kind << " symmetry " << instance.symmetry << " digit " << k;
  }
}

// Random boards with every count of empty squares 1..60 (every stage), the discs split at random: boards no game
// reaches too, so that rare pattern configurations are read as well.
std::vector<Position> boards_of_every_stage(uint64_t seed, int per_count) {
  std::mt19937_64 random(seed);
  std::vector<Position> boards;
  for (uint32_t empties = 1; empties <= 60; ++empties)
    for (int k = 0; k < per_count; ++k) {
      Position p{};
      std::vector<uint32_t> squares(64);
      for (uint32_t s = 0; s < 64; ++s) squares[s] = s;
      std::shuffle(squares.begin(), squares.end(), random);
      for (uint32_t n = empties; n < 64; ++n) (random() & 1 ? p.own : p.opponent) |= square_bit(squares[n]);
      p.side = static_cast<uint32_t>(random() & 1);
      boards.push_back(p);
    }
  return boards;
}

void expect_fast_sum_equals_digit_loop(const std::vector<int16_t>& weights) {
  ASSERT_EQ(weights.size(), size_t{kEvaluationStages} * kPatternLayout.stage_entries);
  for (const Position& p : boards_of_every_stage(22, 500)) {
    ASSERT_EQ(pattern_sum_cpu(p, weights.data()), pattern_sum(p, kPatternLayout, weights.data())) << to_text(p);
    ASSERT_EQ(pattern_evaluation_cpu(p, weights.data()), pattern_evaluation(p, kPatternLayout, weights.data()))
        << to_text(p);
  }
}

TEST(OthelloPatternSum, EqualsTheDigitLoopWithTheShippedWeights) {
  expect_fast_sum_equals_digit_loop(shipped_pattern_weights());
}

TEST(OthelloPatternSum, EqualsTheDigitLoopWithRandomWeights) {
  std::mt19937_64 random(23);
  std::uniform_int_distribution<int> weight(-2000, 2000);
  std::vector<int16_t> weights(size_t{kEvaluationStages} * kPatternLayout.stage_entries);
  for (int16_t& w : weights) w = static_cast<int16_t>(weight(random));
  expect_fast_sum_equals_digit_loop(weights);
}

} // namespace
} // namespace othello
