// shards_cli_test.cpp - `gsdk run CONFIG --shard K/N` and `gsdk merge`: the merged results of N shards have the
// digest (and counts) one process gives, whatever each shard's threads; a merge refuses shards of another run, a
// missing, repeated or unfinished shard, and files that are not shards, with exit status 2; --shard refuses values
// that are not K/N. Hashed perft shards merge to the unhashed one-process digest. (Every algorithm can be spread now:
// shards_more_cli_test.cpp tests the others.)
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

const char* const kPlayouts = R"(game = "graveler"
algorithm = "playouts"
seed = 11

[playouts]
count = 300_000

[run]
device = "cpu"
threads = 2
)";

// test_nim from 20 stones to depth 9: uneven subtrees (after takes of 3 fewer lines go on to depth 9).
const char* const kPerft = R"(game = "test_nim"
algorithm = "perft"

[params]
stones = 20
max_take = 3

[perft]
divide = true

[[perft.positions]]
name = "start"
position = "start"
depth = 9

[[perft.positions]]
name = "middle"
position = "stones=12 to_move=1"
depth = 6

[run]
device = "cpu"
threads = 2
)";

class ShardsCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "playouts.toml", kPlayouts);
    gsdk::test::write_file(dir / "perft.toml", kPerft);
  }
  Outcome run(std::vector<std::string> args) {
    args.push_back("--plugin-dir");
    args.push_back(gsdk::test::test_plugin_dir("valid").string());
    args.push_back("-q");
    return gsdk::test::gsdk_run(args, dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  // Runs the N shards of `config` (shard k on threads[k - 1]) into shard-k.json, and merges them into merged.json.
  void shard_and_merge(const std::string& config, const std::vector<int>& threads, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> merge = {"merge"};
    for (size_t k = 1; k <= threads.size(); ++k) {
      const std::string file = "shard-" + std::to_string(k) + ".json";
      std::vector<std::string> args = {"run", config, "--shard", std::to_string(k) + "/" + std::to_string(threads.size()),
                                       "--threads", std::to_string(threads[k - 1]), "--out", file};
      args.insert(args.end(), extra.begin(), extra.end());
      const Outcome r = run(args);
      ASSERT_EQ(r.status, 0) << describe(r);
      merge.push_back(file);
    }
    merge.insert(merge.end(), {"--out", "merged.json"});
    const Outcome r = run(merge);
    ASSERT_EQ(r.status, 0) << describe(r);
  }

  gsdk::test::TempDir dir;
};

TEST_F(ShardsCli, PlayoutShardsMergeToTheOneProcessResults) {
  ASSERT_EQ(run({"run", "playouts.toml", "--out", "one.json"}).status, 0);
  shard_and_merge("playouts.toml", {1, 2, 1});
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["digest"], one["digest"]);
  EXPECT_EQ(merged["result"]["histogram"], one["result"]["histogram"]);
  EXPECT_EQ(merged["result"]["best"], one["result"]["best"]);
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["shards"].size(), 3u);
  // Each shard ran a share, and the shares add up to the whole.
  uint64_t playouts = 0;
  for (int k = 1; k <= 3; ++k) {
    const nlohmann::json shard = json("shard-" + std::to_string(k) + ".json");
    EXPECT_EQ(shard["format"], "gsdk-shard");
    EXPECT_EQ(shard["shard"]["index"], k);
    const uint64_t share = shard["results"]["result"]["playouts"].get<uint64_t>();
    EXPECT_GT(share, 90'000u);
    EXPECT_LT(share, 110'000u);
    playouts += share;
  }
  EXPECT_EQ(playouts, 300'000u);
}

TEST_F(ShardsCli, PerftShardsMergeToTheOneProcessCounts) {
  ASSERT_EQ(run({"run", "perft.toml", "--out", "one.json"}).status, 0);
  shard_and_merge("perft.toml", {2, 1, 1, 2, 1});
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["digest"], one["digest"]);
  ASSERT_EQ(merged["result"]["positions"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(merged["result"]["positions"][i]["leaves"], one["result"]["positions"][i]["leaves"]);
    EXPECT_EQ(merged["result"]["positions"][i]["divide"], one["result"]["positions"][i]["divide"]);
  }
  // Each shard counted a share of each position.
  const nlohmann::json shard = json("shard-1.json");
  EXPECT_LT(std::stoull(shard["results"]["result"]["positions"][0]["leaves"].get<std::string>()),
            std::stoull(one["result"]["positions"][0]["leaves"].get<std::string>()));
}

// Hashed shards (transposition tables, small ones) merge to the counts and digest of one process without tables;
// the hashing keys are no part of a shard's identity, and each shard's results have its tables' statistics.
TEST_F(ShardsCli, HashedPerftShardsMergeToTheUnhashedOneProcessDigest) {
  ASSERT_EQ(run({"run", "perft.toml", "--out", "one.json", "--set", "perft.hash=false"}).status, 0);
  shard_and_merge("perft.toml", {2, 1, 1}, {"--set", "perft.hash_mb=1"});
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["digest"], one["digest"]);
  ASSERT_EQ(merged["result"]["positions"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(merged["result"]["positions"][i]["leaves"], one["result"]["positions"][i]["leaves"]);
    EXPECT_EQ(merged["result"]["positions"][i]["divide"], one["result"]["positions"][i]["divide"]);
    EXPECT_TRUE(merged["result"]["positions"][i].contains("hash")) << i;
    EXPECT_FALSE(one["result"]["positions"][i].contains("hash")) << i;
  }
  EXPECT_TRUE(json("shard-2.json")["results"]["result"]["positions"][0].contains("hash"));
}

TEST_F(ShardsCli, APerftShardChecksNoExpectedCountButTheMergeDoes) {
  // The expectation is the whole count's: a shard's share must not be held against it, the merge's total must.
  ASSERT_EQ(run({"run", "perft.toml", "--out", "one.json"}).status, 0);
  const std::string whole = json("one.json")["result"]["positions"][0]["leaves"].get<std::string>();
  const std::string wrong = std::to_string(std::stoull(whole) + 1);
  const auto expecting = [](const std::string& leaves) {
    std::string text = kPerft;
    text.insert(text.find("depth = 9") + 9, "\nexpect = " + leaves);
    return text;
  };
  gsdk::test::write_file(dir / "right.toml", expecting(whole));
  gsdk::test::write_file(dir / "wrong.toml", expecting(wrong));
  shard_and_merge("right.toml", {1, 1});
  EXPECT_EQ(json("merged.json")["status"], "complete");
  std::vector<std::string> merge = {"merge"};
  for (const std::string k : {"1", "2"}) {
    ASSERT_EQ(run({"run", "wrong.toml", "--shard", k + "/2", "--out", "bad-" + k + ".json"}).status, 0);
    merge.push_back("bad-" + k + ".json");
  }
  merge.insert(merge.end(), {"--out", "bad.json"});
  const Outcome r = run(merge);
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "perft count mismatch")) << r.err;
}

TEST_F(ShardsCli, AMergeRefusesShardsThatAreNotOneWholeRun) {
  for (const std::string k : {"1", "2", "3"})
    ASSERT_EQ(run({"run", "playouts.toml", "--shard", k + "/3", "--out", "s" + k + ".json"}).status, 0);
  ASSERT_EQ(run({"run", "playouts.toml", "--shard", "2/3", "--seed", "12", "--out", "other-seed.json"}).status, 0);
  ASSERT_EQ(run({"run", "playouts.toml", "--shard", "2/2", "--out", "of-two.json"}).status, 0);
  ASSERT_EQ(run({"run", "playouts.toml", "--out", "whole.json"}).status, 0);
  nlohmann::json unfinished = json("s3.json");
  unfinished["status"] = "interrupted";
  gsdk::test::write_file(dir / "unfinished.json", unfinished.dump());

  const auto refused = [&](std::vector<std::string> files, const std::string& says) {
    std::vector<std::string> args = {"merge"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), {"--out", "m.json"});
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, says)) << r.err;
    EXPECT_FALSE(fs::exists(dir / "m.json"));
  };
  refused({"s1.json", "s3.json"}, "shard 2 of 3 is missing");
  refused({"s1.json", "s2.json", "s2.json", "s3.json"}, "shard 2 of 3 is given more than once: s2.json, s2.json");
  refused({"s1.json", "other-seed.json", "s3.json"}, "s1.json and other-seed.json are shards of different runs");
  refused({"s1.json", "other-seed.json", "s3.json"}, "seed: s1.json 11, other-seed.json 12");
  refused({"s1.json", "of-two.json"}, "s1.json is shard 1 of 3, but of-two.json is shard 2 of 2");
  refused({"s1.json", "s2.json", "unfinished.json"}, "unfinished.json: shard 3 of 3 is interrupted");
  refused({"s1.json", "whole.json"}, "whole.json: not a gsdk shard file");
  refused({"s1.json", "nothing-here.json"}, "nothing-here.json: cannot read the shard file: No such file or directory");
}

TEST_F(ShardsCli, TheShardOptionTakesKOfN) {
  for (const std::string value : {"0/3", "4/3", "3", "a/b", "1/5000", "1/", "-1/3", "1/3/4"}) {
    const Outcome r = run({"run", "playouts.toml", "--shard", value});
    EXPECT_EQ(r.status, 2) << value << ": " << describe(r);
    EXPECT_TRUE(contains(r.err, "--shard \"" + value + "\": expected K/N")) << r.err;
  }
}

TEST_F(ShardsCli, AShardsCheckpointBelongsToThatShard) {
  ASSERT_EQ(run({"run", "playouts.toml", "--shard", "1/2", "--checkpoint", "ck.json", "--out", "a.json"}).status, 0);
  const Outcome r = run({"run", "playouts.toml", "--shard", "2/2", "--checkpoint", "ck.json", "--out", "b.json"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "shard.index: checkpoint 1, this run 2")) << r.err;
  // The finished shard's checkpoint repeats its result at once.
  ASSERT_EQ(run({"run", "playouts.toml", "--shard", "1/2", "--checkpoint", "ck.json", "--out", "again.json"}).status, 0);
  EXPECT_EQ(json("again.json")["progress"], json("a.json")["progress"]);
}

} // namespace
