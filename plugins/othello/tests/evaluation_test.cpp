// evaluation_test.cpp - othello's evaluations through the plugin's own tables: the pattern evaluation with the
// shipped weights is symmetric under the 8 board symmetries, does not depend on the colours' names, stays inside
// the scale; evaluation=basic is the hand-set one; the weights file format refuses damaged data.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "othello_test_support.hpp"
#include "rules/board_text.hpp"
#include "rules/evaluation.hpp"
#include "rules/patterns.hpp"
#include "rules/weights_file.hpp"
#include "shipped_weights.hpp"

namespace othello {
namespace {

std::unique_ptr<gsdk::core::GameInstance> make_evaluating_game(const char* evaluation) {
  return test::make_game("standard", 0, "random", evaluation);
}

int32_t evaluate_through_table(const gsdk::core::GameInstance& game, const Position& p) {
  int32_t value = 0;
  char error[256] = {};
  EXPECT_EQ(game.tables().evaluation->evaluate(game.handle(), &p, 1, &value, error, sizeof error), GSDK_OK) << error;
  return value;
}

Bitboard transformed(Bitboard b, uint32_t g) {
  Bitboard out = 0;
  for (uint32_t s = 0; s < 64; ++s)
    if ((b >> s) & 1) out |= square_bit(pattern_detail::transform(g, s));
  return out;
}

// Unfinished positions at every stage, from random games.
std::vector<Position> sample_positions(uint64_t seed, int count) {
  std::mt19937_64 random(seed);
  std::vector<Position> found;
  while (static_cast<int>(found.size()) < count) {
    Position p = start_position();
    const int plies = static_cast<int>(random() % 60);
    for (int ply = 0; ply < plies && !game_over(p); ++ply) {
      const Bitboard moves = legal_moves(p);
      if (moves)
        play(p, nth_square(moves, static_cast<uint32_t>(random() % gsdk::bits::popcount64(moves))));
      else
        pass(p);
    }
    if (!game_over(p)) found.push_back(p);
  }
  return found;
}

TEST(OthelloEvaluation, PatternsGiveEveryBoardSymmetryTheSameValue) {
  const auto game = make_evaluating_game("patterns");
  int nonzero = 0;
  for (const Position& p : sample_positions(11, 400)) {
    const int32_t value = evaluate_through_table(*game, p);
    nonzero += value != 0;
    for (uint32_t g = 1; g < 8; ++g) {
      const Position image{transformed(p.own, g), transformed(p.opponent, g), p.side, 0};
      ASSERT_EQ(evaluate_through_table(*game, image), value) << to_text(p) << " symmetry " << g;
    }
  }
  EXPECT_GT(nonzero, 300) << "the shipped weights evaluate almost everything as 0";
}

TEST(OthelloEvaluation, SwappingTheColoursGivesTheSameMoverTheSameValueAndBlackTheOpposite) {
  for (const char* evaluation : {"patterns", "basic"}) {
    const auto game = make_evaluating_game(evaluation);
    for (const Position& p : sample_positions(12, 200)) {
      // The same discs with black and white exchanged, the other colour to move: the mover's situation is unchanged.
      const Position swapped{p.own, p.opponent, p.side ^ 1u, 0};
      const int32_t value = evaluate_through_table(*game, p);
      ASSERT_EQ(evaluate_through_table(*game, swapped), value) << evaluation << " " << to_text(p);
      const int32_t black_view = p.side == kBlack ? value : -value;
      const int32_t swapped_black_view = swapped.side == kBlack ? value : -value;
      ASSERT_EQ(swapped_black_view, -black_view);
    }
  }
}

TEST(OthelloEvaluation, ValuesStayStrictlyInsideTheScaleAndPatternsUseIt) {
  for (const char* evaluation : {"patterns", "basic"}) {
    const auto game = make_evaluating_game(evaluation);
    const int32_t scale = game->tables().evaluation->scale(game->handle());
    EXPECT_EQ(scale, kEvaluationScale);
    int32_t largest = 0;
    for (const Position& p : sample_positions(13, 2000)) {
      const int32_t value = evaluate_through_table(*game, p);
      ASSERT_LT(value, scale) << evaluation << " " << to_text(p);
      ASSERT_GT(value, -scale) << evaluation << " " << to_text(p);
      largest = std::max(largest, std::abs(value));
    }
    // Some position is worth 10 discs to the learned weights, 100 units to the hand-set ones.
    EXPECT_GT(largest, std::string(evaluation) == "basic" ? 100 : 10 * kWeightsPerDisc) << evaluation;
  }
}

TEST(OthelloEvaluation, BasicIsTheHandSetEvaluationAndPatternsUseTheShippedWeights) {
  const auto basic = make_evaluating_game("basic");
  const auto patterns = make_evaluating_game("patterns");
  const std::vector<int16_t>& weights = shipped_pattern_weights();
  ASSERT_EQ(weights.size(), size_t{kEvaluationStages} * kPatternLayout.stage_entries);
  int differ = 0;
  for (const Position& p : sample_positions(14, 300)) {
    EXPECT_EQ(evaluate_through_table(*basic, p), evaluate(p));
    const int32_t learned = evaluate_through_table(*patterns, p);
    EXPECT_EQ(learned, pattern_evaluation(p, kPatternLayout, weights.data()));
    differ += learned != evaluate(p);
  }
  EXPECT_GT(differ, 250);
}

TEST(OthelloEvaluation, AnUnknownEvaluationIsRefusedByName) {
  try {
    make_evaluating_game("neural");
    FAIL() << "evaluation = 'neural' was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("evaluation = 'neural', expected 'patterns' or 'basic'"), std::string::npos)
        << e.what();
  }
}

TEST(OthelloWeightsFile, RoundTripsAndRefusesDamagedData) {
  EvaluationWeightsFile file{"--seed=5",
                             std::vector<int16_t>(size_t{kEvaluationStages} * kPatternLayout.stage_entries)};
  file.weights[0] = 7;
  file.weights[1] = -32767;
  file.weights.back() = 3;
  for (size_t k = 1000; k < 200000; k += 3) file.weights[k] = static_cast<int16_t>(k % 101 - 50);
  const std::vector<unsigned char> bytes = encode_weights(file);
  const EvaluationWeightsFile decoded = decode_weights(bytes);
  EXPECT_EQ(decoded.settings, file.settings);
  EXPECT_EQ(decoded.weights, file.weights);

  const auto refused = [](std::vector<unsigned char> damaged, const std::string& expected) {
    try {
      decode_weights(damaged);
      ADD_FAILURE() << "accepted damaged data, expected: " << expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused({bytes.begin(), bytes.begin() + 50}, "the data ends at byte 48 inside the pattern sizes");
  refused({bytes.begin(), bytes.end() - 2}, "the number of weights is");
  auto wrong_version = bytes;
  wrong_version[8] = 9;
  refused(wrong_version, "the format version is 9, expected 2");
  wrong_version[8] = 1;
  refused(wrong_version, "the format version is 1, expected 2 (version 1 lists each pattern's squares in another "
                         "digit order: fit the weights again with fit_evaluation)");
  auto wrong_magic = bytes;
  wrong_magic[0] = 'X';
  refused(wrong_magic, "does not start with GSDKOTEV");
  auto too_long = bytes;
  too_long.push_back(1);
  too_long.push_back(0);
  refused(too_long, "more than");
}

} // namespace
} // namespace othello
