// playout_progress_test.cpp - the playouts checkpoint's progress (host/src/algorithms/playouts/playout_progress.hpp):
// what is saved is read back; a progress whose result contradicts itself (a negative count, counts that do not add
// up to the playouts done, a best score with no playout in its bin) is refused as malformed, naming the file and the
// contradiction, rather than resumed into a run that would finish "complete" with a wrong mean and digest.
#include <string>

#include <gtest/gtest.h>

#include "algorithms/playouts/playout_progress.hpp"
#include "checkpoint/checkpoint_file.hpp"

namespace {

// 10 playouts of [0, 10) with scores 2 (4 of them), 3 (5) and 5 (1).
nlohmann::json saved_progress() {
  gsdk::core::PlayoutProgress progress{{{0, 10}}, gsdk::core::PlayoutResult(2, 4)};
  progress.result.histogram = {4, 5, 0, 1};
  progress.result.playouts = 10;
  progress.result.best_score = 5;
  progress.result.best_playout = 7;
  progress.result.worst_score = 2;
  progress.result.worst_playout = 0;
  return gsdk::host::playout_progress_json(progress);
}

// The message of the refusal of `progress`, or "" when it was accepted.
std::string refusal(const nlohmann::json& progress) {
  try {
    gsdk::host::playout_progress_from_json(progress, "dir/ck.json");
  } catch (const gsdk::host::CheckpointMismatch& e) {
    return e.what();
  }
  return "";
}

TEST(PlayoutProgress, WhatIsSavedIsReadBack) {
  const gsdk::core::PlayoutProgress read = gsdk::host::playout_progress_from_json(saved_progress(), "ck.json");
  EXPECT_EQ(read.completed, (gsdk::core::PlayoutRanges{{0, 10}}));
  EXPECT_EQ(read.result.histogram, (std::vector<uint64_t>{4, 5, 0, 1}));
  EXPECT_EQ(read.result.playouts, 10u);
  EXPECT_EQ(read.result.best_score, 5);
  EXPECT_TRUE(read.result.contradictions().empty());
}

TEST(PlayoutProgress, ANegativeCountIsRefused) {
  nlohmann::json edited = saved_progress();
  edited["result"]["histogram"] = {6, 5, -2, 1}; // adds up to 10 all the same
  const std::string said = refusal(edited);
  EXPECT_NE(said.find("dir/ck.json: the checkpoint's progress is malformed"), std::string::npos) << said;
  EXPECT_NE(said.find("result.histogram[2] is -2, expected a whole number of playouts"), std::string::npos) << said;
}

TEST(PlayoutProgress, CountsThatDoNotAddUpToThePlayoutsAreRefused) {
  nlohmann::json edited = saved_progress();
  edited["result"]["histogram"] = {4, 5, 0, 3};
  const std::string said = refusal(edited);
  EXPECT_NE(said.find("the histogram counts 12 playouts, the result says 10"), std::string::npos) << said;
}

TEST(PlayoutProgress, ABestOrWorstScoreWithoutAPlayoutIsRefused) {
  nlohmann::json edited = saved_progress();
  edited["result"]["best"]["score"] = 4;
  EXPECT_NE(refusal(edited).find("the best score 4 has no playout in the histogram"), std::string::npos);
  edited = saved_progress();
  edited["result"]["worst"]["score"] = -9223372036854775807LL; // far below score_min: no overflow, no bin
  EXPECT_NE(refusal(edited).find("has no playout in the histogram"), std::string::npos);
}

TEST(PlayoutProgress, TheUntouchedProgressIsAccepted) {
  EXPECT_EQ(refusal(saved_progress()), "");
}

} // namespace
