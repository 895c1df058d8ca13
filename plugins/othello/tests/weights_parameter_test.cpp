// weights_parameter_test.cpp - the game's `weights` parameter: evaluation=patterns reads the named file written
// in fit_evaluation's format instead of the shipped weights; a missing or damaged file, or weights without the
// pattern evaluation, is refused with the file and the reason named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "othello_test_support.hpp"
#include "rules/patterns.hpp"
#include "rules/weights_file.hpp"

namespace othello {
namespace {

std::unique_ptr<gsdk::core::GameInstance> make_game_with_weights(const char* evaluation, const std::string& path) {
  return test::make_game("standard", 0, "random", evaluation, path.c_str());
}

int32_t start_value(const gsdk::core::GameInstance& game) {
  const Position start = start_position();
  int32_t value = 0;
  char error[256] = {};
  EXPECT_EQ(game.tables().evaluation->evaluate(game.handle(), &start, 1, &value, error, sizeof error), GSDK_OK)
      << error;
  return value;
}

std::string refusal(const char* evaluation, const std::string& path) {
  try {
    make_game_with_weights(evaluation, path);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "accepted";
}

class WeightsParameter : public ::testing::Test {
protected:
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::vector<unsigned char>& bytes) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
  const std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() / ("othello_weights_test_" + std::to_string(::getpid()));
};

TEST_F(WeightsParameter, PatternsEvaluateWithTheNamedFile) {
  // Every stage: a bias of 3 discs and 1 disc a move of mobility; the start has equal mobility (4 - 4).
  EvaluationWeightsFile planted{"planted",
                                std::vector<int16_t>(size_t{kEvaluationStages} * kPatternLayout.stage_entries)};
  for (uint32_t stage = 0; stage < kEvaluationStages; ++stage) {
    planted.weights[stage * kPatternLayout.stage_entries + kPatternLayout.bias_slot] = 3 * kWeightsPerDisc;
    planted.weights[stage * kPatternLayout.stage_entries + kPatternLayout.mobility_slot] = kWeightsPerDisc;
  }
  const std::string path = write("planted.bin", encode_weights(planted));
  EXPECT_EQ(start_value(*make_game_with_weights("patterns", path)), 3 * kWeightsPerDisc);
  EXPECT_NE(start_value(*make_game_with_weights("patterns", "")), 3 * kWeightsPerDisc); // the shipped weights
}

TEST_F(WeightsParameter, RefusesAMissingOrDamagedFileAndWeightsWithoutPatterns) {
  const std::string missing = (dir_ / "missing.bin").string();
  EXPECT_NE(
      refusal("patterns", missing).find("weights = '" + missing + "': cannot open the file: No such file or directory"),
      std::string::npos)
      << refusal("patterns", missing);
  const std::string damaged = write("damaged.bin", {'G', 'S', 'D', 'K'});
  EXPECT_NE(refusal("patterns", damaged).find("weights = '" + damaged + "': evaluation weights"), std::string::npos)
      << refusal("patterns", damaged);
  const std::string planted =
      write("zeros.bin",
            encode_weights({"zeros", std::vector<int16_t>(size_t{kEvaluationStages} * kPatternLayout.stage_entries)}));
  EXPECT_NE(refusal("basic", planted).find("needs evaluation = 'patterns'"), std::string::npos)
      << refusal("basic", planted);
}

} // namespace
} // namespace othello
