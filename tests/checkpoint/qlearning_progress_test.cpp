// qlearning_progress_test.cpp - the Q-learning checkpoint's progress
// (host/src/algorithms/qlearning/qlearning_progress.hpp): table values come back bit for bit (signed zeros, subnormals,
// infinities, NaN payloads, every tail length of the base64 groups), the encoding is standard base64, text that is not
// a whole number of values is refused, and a progress read back holds what was saved; a malformed one is a
// CheckpointMismatch naming the file. The progresses of parts of a sweep merge by entry.
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

#include "algorithms/qlearning/qlearning_progress.hpp"
#include "checkpoint/checkpoint_file.hpp"

namespace {

using gsdk::host::decode_float_bits;
using gsdk::host::encode_float_bits;

std::vector<uint32_t> bits_of(const std::vector<float>& values) {
  std::vector<uint32_t> bits;
  for (float v : values) bits.push_back(std::bit_cast<uint32_t>(v));
  return bits;
}

TEST(QLearningProgress, TableValuesComeBackBitForBit) {
  const std::vector<float> awkward = {0.0f,
                                      -0.0f,
                                      std::numeric_limits<float>::denorm_min(),
                                      -std::numeric_limits<float>::denorm_min(),
                                      std::numeric_limits<float>::min(),
                                      std::numeric_limits<float>::max(),
                                      std::numeric_limits<float>::infinity(),
                                      -std::numeric_limits<float>::infinity(),
                                      std::bit_cast<float>(0x7fc01234u), // a quiet NaN with a payload
                                      std::bit_cast<float>(0xff800001u), // a signalling NaN
                                      1.0f / 3.0f,
                                      0.1f,
                                      -0.9f};
  // Every length from 0 to all of them: 4 n bytes leave 0, 1 or 2 bytes past the last whole base64 group.
  for (size_t n = 0; n <= awkward.size(); ++n) {
    const std::vector<float> values(awkward.begin(), awkward.begin() + static_cast<long>(n));
    const std::string text = encode_float_bits(values);
    EXPECT_EQ(text.size() % 4, 0u) << n;
    EXPECT_EQ(bits_of(decode_float_bits(text)), bits_of(values)) << n << " values: " << text;
  }
}

TEST(QLearningProgress, TablesAreStandardBase64OfLittleEndianBits) {
  EXPECT_EQ(encode_float_bits({1.0f}), "AACAPw==");            // 00 00 80 3f
  EXPECT_EQ(encode_float_bits({1.0f, -2.0f}), "AACAPwAAAMA="); // ... 00 00 00 c0
  EXPECT_EQ(encode_float_bits({1.0f, -2.0f, 0.5f}), "AACAPwAAAMAAAAA/");
}

TEST(QLearningProgress, TextThatIsNotWholeValuesIsRefused) {
  EXPECT_THROW(decode_float_bits("AACAPw="), std::invalid_argument); // not groups of four characters
  EXPECT_THROW(decode_float_bits("AACA"), std::invalid_argument);    // three bytes
  EXPECT_THROW(decode_float_bits("AA*APw=="), std::exception);       // not a base64 character
}

TEST(QLearningProgress, WhatIsSavedIsReadBack) {
  gsdk::host::QLearningRun finished;
  finished.environments = 16;
  finished.digest = "sha1:0123";
  finished.outcome.engine = "batch";
  finished.outcome.device = "cpu";
  finished.outcome.states = 256;
  finished.outcome.actions = 4;
  finished.outcome.agents = 128;
  finished.outcome.episodes = {{1, 2, 30, 4, 2048}, {5, 6, 70, 8, 2048}};
  finished.outcome.test = {9, 10, 110, 12, 4096};
  finished.outcome.reach = {{200, 190, 180}};
  finished.outcome.wall_seconds = 0.1;
  finished.outcome.device_milliseconds = 2.5;
  gsdk::core::QLearningProgress training;
  training.episodes = {{3, 1, 20, 7, 256}};
  training.tables = {0.25f, -0.0f, 1e-40f, 3.5f};
  training.visits = {1, 0, 5};
  training.wall_seconds = 1.0 / 3.0;
  training.device_milliseconds = 0;

  // Through text, as a checkpoint file holds it.
  const nlohmann::json saved =
      nlohmann::json::parse(gsdk::host::qlearning_progress_json({finished}, 32, &training).dump());
  const gsdk::host::QLearningCheckpoint back = gsdk::host::qlearning_progress_from_json(saved, "ck.json");
  ASSERT_EQ(back.finished.size(), 1u);
  const gsdk::core::QLearningOutcome& o = back.finished[0].outcome;
  EXPECT_EQ(back.finished[0].environments, 16u);
  EXPECT_EQ(back.finished[0].digest, "sha1:0123");
  EXPECT_EQ(o.engine, "batch");
  EXPECT_EQ(o.agents, 128u);
  ASSERT_EQ(o.episodes.size(), 2u);
  EXPECT_EQ(o.episodes[1].successes, 5u);
  EXPECT_EQ(o.episodes[1].failures, 6u);
  EXPECT_EQ(o.episodes[1].agent_steps, 70u);
  EXPECT_EQ(o.episodes[1].steps, 8u);
  EXPECT_EQ(o.agent_steps, 100u) << "the sum of the episodes' agent-steps";
  EXPECT_EQ(o.test.agent_starts, 4096u);
  ASSERT_EQ(o.reach.size(), 1u);
  EXPECT_EQ(o.reach[0].reached, 180u);
  EXPECT_EQ(o.wall_seconds, 0.1);
  EXPECT_EQ(back.training_environments, 32u);
  ASSERT_TRUE(back.training);
  EXPECT_EQ(bits_of(back.training->tables), bits_of(training.tables));
  EXPECT_EQ(back.training->visits, training.visits);
  EXPECT_EQ(back.training->episodes[0].agent_starts, 256u);
  EXPECT_EQ(back.training->wall_seconds, 1.0 / 3.0) << "doubles round-trip through nlohmann's shortest form";

  const nlohmann::json none = gsdk::host::qlearning_progress_json({}, 0, nullptr);
  EXPECT_FALSE(gsdk::host::qlearning_progress_from_json(none, "ck.json").training);
}

TEST(QLearningProgress, AMalformedProgressNamesTheFile) {
  nlohmann::json bad = gsdk::host::qlearning_progress_json({}, 0, nullptr);
  bad["training"] = {{"environments", 4}, {"episodes", {{1, 2, 3}}}};
  try {
    gsdk::host::qlearning_progress_from_json(bad, "dir/ck.json");
    FAIL() << "accepted " << bad.dump();
  } catch (const gsdk::host::CheckpointMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("dir/ck.json: the checkpoint's progress is malformed"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(gsdk::host::qlearning_progress_from_json(nlohmann::json::object(), "ck.json"),
               gsdk::host::CheckpointMismatch);
}

// A finished run of entry `entry`, with what a progress needs.
gsdk::host::QLearningRun finished_run(uint32_t entry, uint32_t environments) {
  gsdk::host::QLearningRun run;
  run.entry = entry;
  run.environments = environments;
  run.digest = "sha1:" + std::to_string(entry);
  return run;
}

TEST(QLearningProgress, EntriesSavedBeforeTheyWereNamedAreTheirPlaces) {
  nlohmann::json saved = gsdk::host::qlearning_progress_json({finished_run(5, 4), finished_run(9, 8)}, 0, nullptr);
  for (auto& run : saved["finished"]) run.erase("entry");
  const gsdk::host::QLearningCheckpoint back = gsdk::host::qlearning_progress_from_json(saved, "old.json");
  ASSERT_EQ(back.finished.size(), 2u);
  EXPECT_EQ(back.finished[0].entry, 0u);
  EXPECT_EQ(back.finished[1].entry, 1u);
}

TEST(QLearningProgress, PartsOfASweepMergeByEntry) {
  const nlohmann::json a = gsdk::host::qlearning_progress_json({finished_run(0, 4), finished_run(3, 32)}, 0, nullptr);
  const nlohmann::json b = gsdk::host::qlearning_progress_json({finished_run(1, 8)}, 0, nullptr);
  const gsdk::host::QLearningCheckpoint merged =
      gsdk::host::qlearning_progress_from_json(gsdk::host::merge_qlearning_progress(a, b, "b.json"), "merged");
  ASSERT_EQ(merged.finished.size(), 3u);
  const uint32_t entries[] = {0, 1, 3};
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(merged.finished[i].entry, entries[i]);
  EXPECT_EQ(merged.finished[1].digest, "sha1:1");
  try {
    gsdk::host::merge_qlearning_progress(a, a, "a.json");
    FAIL() << "an entry in both parts was merged";
  } catch (const gsdk::host::CheckpointMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("a.json: two parts both trained entry 0 of the sweep"), std::string::npos)
        << e.what();
  }
  gsdk::core::QLearningProgress training;
  const nlohmann::json under_way = gsdk::host::qlearning_progress_json({}, 16, &training);
  EXPECT_THROW(gsdk::host::merge_qlearning_progress(a, under_way, "c.json"), gsdk::host::CheckpointMismatch);
}

} // namespace
