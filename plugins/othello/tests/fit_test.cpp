// fit_test.cpp - the evaluation fitting tool (tools/): its exact solver against the rules' win/draw/loss solver
// and against brute force, the least-squares fit against planted weights, the tool's output the same for the
// same settings whatever the thread count, and bad options refused with the option named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fit_tool.hpp"
#include "label_search.hpp"
#include "least_squares.hpp"
#include "othello_test_support.hpp"
#include "rules/board_text.hpp"
#include "rules/weights_file.hpp"
#include "training_games.hpp"

namespace othello::fit {
namespace {

// Minimax over every line, no pruning: the reference for small positions.
int32_t brute_force_difference(Bitboard own, Bitboard opponent) {
  const Bitboard moves = legal_moves(own, opponent);
  if (moves == 0) {
    if (legal_moves(opponent, own) == 0) return finished_difference(own, opponent);
    return -brute_force_difference(opponent, own);
  }
  int32_t best = -65;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    const uint32_t square = lowest_square(rest);
    const Bitboard flipped = flips(own, opponent, square);
    best = std::max(best, -brute_force_difference(opponent ^ flipped, own | flipped | square_bit(square)));
  }
  return best;
}

TEST(OthelloFitSolver, AgreesWithBruteForceOnSmallPositions) {
  int nonzero = 0;
  for (uint32_t empty = 1; empty <= 9; ++empty)
    for (const Position& p : test::late_positions(100 + empty, empty, 25)) {
      const int32_t exact = exact_difference(p);
      ASSERT_EQ(exact, brute_force_difference(p.own, p.opponent)) << to_text(p);
      nonzero += exact != 0;
    }
  EXPECT_GT(nonzero, 150);
}

TEST(OthelloFitSolver, AgreesWithTheRulesWinDrawLossSolverAndItsPerfectLineKeepsTheValue) {
  for (uint32_t empty : {10u, 12u, 14u})
    for (const Position& p : test::late_positions(200 + empty, empty, 6)) {
      const int32_t exact = exact_difference(p);
      ASSERT_EQ((exact > 0) - (exact < 0), perfect_play_outcome(p)) << to_text(p);
      Position last = p;
      int32_t plies = 0;
      follow_perfect_line(p, exact, [&](const Position& q) {
        last = q;
        ++plies;
      });
      EXPECT_GE(plies, 1);
      // The last position before the end: its mover's exact value is the line's result from its view.
      const int32_t last_value = exact_difference(last);
      EXPECT_EQ(last.side == p.side ? last_value : -last_value, exact) << to_text(p);
    }
}

// Minimax to `leaf_empties` without pruning or ordering, valued as LabelSearch values: the reference for its
// pruned search.
int32_t brute_force_label(Bitboard own, Bitboard opponent, uint32_t leaf_empties, const int16_t* weights) {
  const Bitboard moves = legal_moves(own, opponent);
  if (moves == 0) {
    if (legal_moves(opponent, own) == 0) return kWeightsPerDisc * finished_difference(own, opponent);
    return -brute_force_label(opponent, own, leaf_empties, weights);
  }
  if (64u - static_cast<uint32_t>(gsdk::bits::popcount64(own | opponent)) <= leaf_empties)
    return std::clamp(pattern_sum(Position{own, opponent, kBlack, 0}, kPatternLayout, weights), -64 * kWeightsPerDisc,
                      64 * kWeightsPerDisc);
  int32_t best = INT32_MIN;
  for (Bitboard rest = moves; rest; rest &= rest - 1) {
    const uint32_t square = lowest_square(rest);
    const Bitboard flipped = flips(own, opponent, square);
    best = std::max(best,
                    -brute_force_label(opponent ^ flipped, own | flipped | square_bit(square), leaf_empties, weights));
  }
  return best;
}

TEST(OthelloFitLabelSearch, SearchedToTheEndItIsTheExactValue) {
  const std::vector<int16_t> zeros(size_t{kEvaluationStages} * kPatternLayout.stage_entries, 0);
  for (const Position& p : test::late_positions(31, 10, 20)) {
    LabelSearch search(zeros.data());
    EXPECT_EQ(search.value(p, 0), kWeightsPerDisc * exact_difference(p)) << to_text(p);
  }
}

TEST(OthelloFitLabelSearch, EqualsMinimaxOverTheStaticValuesBelowItsLeafEmpties) {
  // Random weights in every table, so that a wrong leaf, side or bound shows in the values.
  std::mt19937_64 random(9);
  std::vector<int16_t> weights(size_t{kEvaluationStages} * kPatternLayout.stage_entries);
  for (int16_t& w : weights) w = static_cast<int16_t>(static_cast<int32_t>(random() % 257) - 128);
  int distinct = 0;
  for (uint32_t empty : {13u, 22u, 35u})
    for (const Position& p : test::late_positions(40 + empty, empty, 8)) {
      for (uint32_t plies : {1u, 2u, 4u}) {
        LabelSearch search(weights.data());
        const int32_t value = search.value(p, empty - plies);
        ASSERT_EQ(value, brute_force_label(p.own, p.opponent, empty - plies, weights.data()))
            << to_text(p) << " plies " << plies;
        distinct += value != brute_force_label(p.own, p.opponent, empty, weights.data());
      }
    }
  EXPECT_GT(distinct, 30); // the searches looked past the position itself
}

TEST(OthelloFitLeastSquares, RecoversPlantedWeights) {
  std::mt19937_64 random(5);
  const uint32_t columns = 40;
  std::vector<double> planted(columns);
  for (double& w : planted) w = static_cast<double>(static_cast<int64_t>(random() % 2001) - 1000) / 100.0;
  SparseRows rows(columns);
  for (int row = 0; row < 4000; ++row) {
    double y = 0;
    for (int k = 0; k < 5; ++k) {
      const auto column = static_cast<uint32_t>(random() % columns);
      const float value = static_cast<float>(random() % 7) - 3.0f;
      rows.add_entry(column, value);
      y += value * planted[column];
    }
    rows.end_row(y);
  }
  const std::vector<double> fitted = ridge_fit(rows, 1e-9, 200);
  for (uint32_t c = 0; c < columns; ++c) EXPECT_NEAR(fitted[c], planted[c], 1e-4) << "column " << c;
  // A large penalty pulls every weight toward 0.
  const std::vector<double> shrunk = ridge_fit(rows, 1e6, 200);
  for (uint32_t c = 0; c < columns; ++c) EXPECT_LT(std::abs(shrunk[c]), std::abs(planted[c]) / 2 + 1e-9);
}

struct ToolRun {
  int status;
  std::string out, err;
};

ToolRun run_tool(std::vector<std::string> args) {
  args.insert(args.begin(), "fit_evaluation");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int status = run_fit_evaluation(static_cast<int>(argv.size()), argv.data(), out, err);
  return {status, out.str(), err.str()};
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(OthelloFitTool, WritesTheSameBytesTwiceAndForOneOrTwoThreads) {
  const auto dir = std::filesystem::temp_directory_path() / ("othello_fit_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::vector<std::string> tiny = {"--games=24", "--exact-empties=10", "--iterations=10", "--seed=3"};
  std::vector<std::string> paths;
  for (const char* threads : {"1", "1", "2"}) {
    paths.push_back((dir / ("w" + std::to_string(paths.size()) + ".bin")).string());
    auto args = tiny;
    args.push_back("--threads=" + std::string(threads));
    args.push_back("--output=" + paths.back());
    const ToolRun run = run_tool(args);
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("rms-error-discs"), std::string::npos) << run.out;
  }
  const std::string first = file_bytes(paths[0]);
  EXPECT_GT(first.size(), 100u);
  EXPECT_EQ(file_bytes(paths[1]), first);
  EXPECT_EQ(file_bytes(paths[2]), first);
  const EvaluationWeightsFile decoded =
      decode_weights({reinterpret_cast<const unsigned char*>(first.data()), first.size()});
  EXPECT_NE(decoded.settings.find("--seed=3 --games=24 --exact-empties=10"), std::string::npos) << decoded.settings;
  // Another seed plays other games.
  auto other = tiny;
  other[3] = "--seed=4";
  other.push_back("--output=" + (dir / "other.bin").string());
  ASSERT_EQ(run_tool(other).status, 0);
  EXPECT_NE(file_bytes(dir / "other.bin"), first);
  std::filesystem::remove_all(dir);
}

TEST(OthelloFitTool, RefusesBadOptionsNamingThem) {
  const struct {
    std::vector<std::string> args;
    const char* expected;
  } cases[] = {
      {{"--output=x", "--games=abc"}, "the argument ('abc') for option '--games' is invalid"},
      {{"--output=x", "--epsilon=1.5"}, "--epsilon = 1.500000, expected a chance in [0, 1]"},
      {{"--output=x", "--exact-empties=30"}, "--exact-empties = 30, expected 0 .. 20"},
      {{"--output=x", "--lambda=0"}, "--lambda = 0.000000, expected a positive number"},
      {{"--output=x", "--search-plies=0"}, "--search-plies = 0, expected 1 .. 8"},
      {{"--output=x", "--search-plies=9"}, "--search-plies = 9, expected 1 .. 8"},
      {{"--output=x", "--threads=0"}, "--threads = 0, expected at least 1"},
      {{"--output=x", "--holdout-every=1"}, "--holdout-every = 1"},
      {{"--output=x", "--colour=red"}, "unrecognised option '--colour=red'"},
      {{"--games=3"}, "the option '--output' is required"},
  };
  for (const auto& c : cases) {
    const ToolRun run = run_tool(c.args);
    EXPECT_EQ(run.status, 2) << c.expected;
    EXPECT_NE(run.err.find(c.expected), std::string::npos) << run.err;
  }
  const ToolRun unwritable = run_tool({"--games=2", "--exact-empties=8", "--output=/nonexistent/dir/w.bin"});
  EXPECT_EQ(unwritable.status, 1);
  EXPECT_NE(unwritable.err.find("cannot write '/nonexistent/dir/w.bin'"), std::string::npos) << unwritable.err;
}

} // namespace
} // namespace othello::fit
