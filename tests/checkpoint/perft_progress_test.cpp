// perft_progress_test.cpp - perft's checkpoint progress and hash statistics
// (host/src/algorithms/perft/perft_progress.hpp, host/src/algorithms/perft/perft_report.hpp): `distinct` (a hashed
// count's expansion merged equal states) is saved and read back, absent in checkpoints written before hashed perft and
// read as false; parts counted with and without hashing are not merged; a resume the core refuses for its hashing is
// explained with the way to resume it; the tables' statistics go to JSON numbers and back, and into the Hash line.
#include <gtest/gtest.h>

#include "algorithms/perft/perft_algorithm.hpp"
#include "algorithms/perft/perft_progress.hpp"
#include "algorithms/perft/perft_report.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::core::PerftHashStats;
using gsdk::core::PerftProgress;
using gsdk::test::contains;

PerftProgress progress(bool distinct, std::vector<std::pair<uint64_t, gsdk::core::uint128>> counted) {
  PerftProgress p;
  p.split_target = 64;
  p.distinct = distinct;
  p.subtrees = 70;
  p.counted = std::move(counted);
  return p;
}

TEST(PerftProgressJson, DistinctIsSavedAndReadBack) {
  for (const bool distinct : {false, true}) {
    const nlohmann::json saved = gsdk::host::perft_progress_json(progress(distinct, {{3, 10}, {9, 20}}));
    EXPECT_EQ(saved["distinct"], distinct);
    const PerftProgress read = gsdk::host::perft_progress_from_json(saved, "ck.json");
    EXPECT_EQ(read.distinct, distinct);
    EXPECT_EQ(read.subtrees, 70u);
    ASSERT_EQ(read.counted.size(), 2u);
    EXPECT_EQ(read.counted[1].second, 20u);
  }
  // A checkpoint of a gsdk before hashed perft has no "distinct": its expansion never merged states.
  nlohmann::json old = gsdk::host::perft_progress_json(progress(true, {{1, 5}}));
  old.erase("distinct");
  EXPECT_FALSE(gsdk::host::perft_progress_from_json(old, "old.json").distinct);
  old["distinct"] = "yes";
  try {
    gsdk::host::perft_progress_from_json(old, "bad.json");
    FAIL() << "a distinct that is not a boolean was read";
  } catch (const gsdk::host::CheckpointMismatch& e) {
    EXPECT_TRUE(contains(e.what(), "bad.json: the checkpoint's progress is malformed")) << e.what();
  }
}

TEST(PerftProgressJson, PartsCountedWithAndWithoutHashingAreNotMerged) {
  const nlohmann::json hashed_a = gsdk::host::perft_progress_json(progress(true, {{1, 5}}));
  const nlohmann::json hashed_b = gsdk::host::perft_progress_json(progress(true, {{2, 6}}));
  const nlohmann::json plain_b = gsdk::host::perft_progress_json(progress(false, {{2, 6}}));
  const nlohmann::json merged = gsdk::host::merge_perft_progress(hashed_a, hashed_b, "shards");
  EXPECT_EQ(merged["distinct"], true);
  EXPECT_EQ(merged["counted"].size(), 2u);
  try {
    gsdk::host::merge_perft_progress(hashed_a, plain_b, "shards");
    FAIL() << "a hashed part and an unhashed one were merged";
  } catch (const gsdk::host::CheckpointMismatch& e) {
    EXPECT_TRUE(contains(e.what(), "shards: one part was counted with transposition tables (hashing) and the other "
                                   "without (--no-hash, [perft] hash = false)"))
        << e.what();
    EXPECT_TRUE(contains(e.what(), "count every part with the same hashing")) << e.what();
  }
}

TEST(PerftResumeRefusal, SaysHowToResumeWhenTheHashingDiffers) {
  const gsdk::core::PerftHashing on = gsdk::host::perft_hashing(true, 0, 0);
  const gsdk::core::PerftHashing off = gsdk::host::perft_hashing(false, 0, 0);
  const std::string core_says = "the progress's expansion is not this job's";
  EXPECT_EQ(gsdk::host::perft_resume_refusal(progress(true, {}), on, core_says), core_says)
      << "the same hashing: the core's reason stands";
  EXPECT_EQ(gsdk::host::perft_resume_refusal(progress(false, {}), off, core_says), core_says);
  const std::string without = gsdk::host::perft_resume_refusal(progress(true, {}), off, core_says);
  EXPECT_TRUE(contains(without, "counted with transposition tables (hashing), and this count is without them"))
      << without;
  EXPECT_TRUE(contains(without, "leave out --no-hash, or set hash = true")) << without;
  const std::string with = gsdk::host::perft_resume_refusal(progress(false, {}), on, core_says);
  EXPECT_TRUE(contains(with, "counted without transposition tables")) << with;
  EXPECT_TRUE(contains(with, "add --no-hash, or set hash = false")) << with;
}

TEST(PerftHashing, SizesAreMebibytes) {
  const gsdk::core::PerftHashing h = gsdk::host::perft_hashing(true, 3, 1ull << 40);
  EXPECT_TRUE(h.enabled);
  EXPECT_EQ(h.host_table_bytes, 3u << 20);
  EXPECT_EQ(h.device_table_bytes, 1ull << 60);
  EXPECT_THROW(gsdk::host::perft_hashing(true, (1ull << 40) + 1, 0), std::invalid_argument);
}

PerftHashStats example_stats() {
  PerftHashStats s;
  s.enabled = true;
  s.paths = 400;
  s.subtrees = 300;
  s.host = {.bytes = 64ull << 20, .slots = 4000, .filled = 500, .probes = 2000, .hits = 500, .stores = 1500};
  s.device = {.bytes = 3ull << 30, .slots = 100, .filled = 1, .probes = 10, .hits = 1, .stores = 9};
  s.frontier_states = 9000;
  s.duplicates = 80;
  return s;
}

TEST(PerftHashStatsJson, EveryFieldAsANumberAndBack) {
  const nlohmann::json j = gsdk::host::perft_hash_json(example_stats());
  EXPECT_EQ(j["enabled"], true);
  EXPECT_EQ(j["paths"], 400u);
  EXPECT_EQ(j["subtrees"], 300u);
  EXPECT_EQ(j["host"]["bytes"], 64ull << 20);
  EXPECT_EQ(j["host"]["stores"], 1500u);
  EXPECT_EQ(j["device"]["probes"], 10u);
  EXPECT_EQ(j["frontier_states"], 9000u);
  EXPECT_EQ(j["duplicates"], 80u);
  EXPECT_EQ(gsdk::host::perft_hash_json(gsdk::host::perft_hash_from_json(j)), j);
}

TEST(PerftHashStatsLine, SaysWhatEachTableDid) {
  EXPECT_EQ(gsdk::host::perft_hash_line(example_stats()),
            "CPU table 64 MiB, 12.5% full, 2000 probes, 25.0% hits; GPU tables 3 GiB, 1.0% full, 10 probes, 10.0% "
            "hits; 300 distinct subtrees of 400 paths; 80 of 9000 GPU frontier states were duplicates");
  PerftHashStats cpu_only = example_stats();
  cpu_only.device = {};
  cpu_only.frontier_states = cpu_only.duplicates = 0;
  EXPECT_EQ(gsdk::host::perft_hash_line(cpu_only),
            "CPU table 64 MiB, 12.5% full, 2000 probes, 25.0% hits; 300 distinct subtrees of 400 paths");
  EXPECT_EQ(gsdk::host::perft_hash_line(PerftHashStats{}), "0 distinct subtrees of 0 paths");
  // Two positions: counts summed, the largest table's size.
  PerftHashStats total;
  gsdk::host::add_perft_hash(total, cpu_only);
  gsdk::host::add_perft_hash(total, cpu_only);
  EXPECT_EQ(gsdk::host::perft_hash_line(total),
            "CPU table 64 MiB, 12.5% full, 4000 probes, 25.0% hits; 600 distinct subtrees of 800 paths");
}

} // namespace
