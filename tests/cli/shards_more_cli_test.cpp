// shards_more_cli_test.cpp - `gsdk run CONFIG --shard K/N` and `gsdk merge` for the searches (NMCS, NRPA), matches
// and Q-learning sweeps: bounded by counts, the merged results (digest, best sequence, searches file, match record,
// sweep entries) are one process's whatever each shard's threads; bounded by time or score, each search shard runs
// its own searches within the bound and the merged results say they are not reproducible; a shard writes none of
// the run's files (best, events, searches, record, picture), which the merge writes from the merged progress; one
// Q-learning training run is refused.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::describe;
using gsdk::test::Outcome;

// 40 searches: 3 shards get 14, 13 and 13 of them. Searches side by side and a small searches
// table, so that the table the merge keeps is the best of the shards' tables.
const char* const kNmcs = R"(game = "test_chain"
algorithm = "nmcs"
seed = 5

[params]
numbers = 20

[nmcs]
level = 1
restarts = 39
searches_in_parallel = 3

[run]
device = "cpu"

[output]
best = "out/best.json"
events = "out/events.jsonl"
searches = "out/searches.jsonl"
searches_kept = 6
plot = "out/plot.png"
)";

// 12 searches: 4 a shard of 3.
const char* const kNrpa = R"(game = "test_chain"
algorithm = "nrpa"
seed = 9

[params]
numbers = 20

[nrpa]
level = 2
iterations = 8
restarts = 11
searches_in_parallel = 2

[run]
device = "cpu"

[output]
best = "out/best.json"
events = "out/events.jsonl"
plot = "out/plot.png"
)";

// 12 games of 3 shards, 4 each, some of a pair of games (one opening, either colour) in another shard.
const char* const kMatch = R"(game = "test_nim"
algorithm = "match"
seed = 5

[params]
stones = 9

[match]
games = 12
agents = ["uct:playouts=300", "flatmc:playouts=200"]
opening_plies = 1
parallel = 2
record = "out/m.pgn"
)";

// Shard arguments: uneven CPU threads.
std::vector<std::vector<std::string>> threads(std::initializer_list<int> counts) {
  std::vector<std::vector<std::string>> args;
  for (int n : counts) args.push_back({"--threads", std::to_string(n)});
  return args;
}

// 4 entries of 3 shards: 2, 1 and 1 of them.
const char* const kSweep = R"(game = "minefield"
algorithm = "qlearning"
seed = 4

[params]
size = 8
agents = 8
mines = 6
map_seed = 7

[qlearning]
environments = [4, 8, 16, 32]
episodes = 30

[run]
device = "cpu"

[output]
events = "out/q.jsonl"
)";

class ShardsMoreCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "nmcs.toml", kNmcs);
    gsdk::test::write_file(dir / "nrpa.toml", kNrpa);
    gsdk::test::write_file(dir / "match.toml", kMatch);
    gsdk::test::write_file(dir / "sweep.toml", kSweep);
  }
  Outcome run(std::vector<std::string> args) {
    args.insert(args.end(), {"--plugin-dir", plugins.string(), "-q"});
    return gsdk::test::gsdk_run(args, dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }
  std::string text(const std::string& name) { return gsdk::test::read_file(dir / name); }

  // Runs `config` whole into one.json and moves the files it wrote to one-out.
  void run_whole(const std::string& config, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", config, "--out", "one.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome r = run(args);
    ASSERT_EQ(r.status, 0) << describe(r);
    fs::rename(dir / "out", dir / "one-out");
  }

  // Runs the N shards of `config` (shard k with the arguments shards[k - 1] and `extra`), checks that they wrote
  // none of the run's files, and merges them into merged.json.
  void shard_and_merge(const std::string& config, const std::vector<std::vector<std::string>>& shards,
                       const std::vector<std::string>& extra = {}) {
    std::vector<std::string> merge = {"merge"};
    for (size_t k = 1; k <= shards.size(); ++k) {
      const std::string file = "shard-" + std::to_string(k) + ".json";
      std::vector<std::string> args = {
          "run", config, "--shard", std::to_string(k) + "/" + std::to_string(shards.size()), "--out", file};
      args.insert(args.end(), shards[k - 1].begin(), shards[k - 1].end());
      args.insert(args.end(), extra.begin(), extra.end());
      const Outcome r = run(args);
      ASSERT_EQ(r.status, 0) << describe(r);
      merge.push_back(file);
    }
    EXPECT_FALSE(fs::exists(dir / "out")) << "a shard wrote a file of the whole run";
    EXPECT_FALSE(fs::exists(dir / "results")) << "a shard wrote a file of the whole run";
    merge.insert(merge.end(), {"--out", "merged.json"});
    const Outcome r = run(merge);
    ASSERT_EQ(r.status, 0) << describe(r);
  }

  // The improvements list of a results file: scores rising, seconds never falling, ending at the best score; the
  // events file says the same.
  void expect_improvements_hold(const nlohmann::json& results, const std::string& events) {
    const nlohmann::json& improvements = results["result"]["improvements"];
    ASSERT_FALSE(improvements.empty());
    for (size_t i = 1; i < improvements.size(); ++i) {
      EXPECT_GT(improvements[i]["score"], improvements[i - 1]["score"]);
      EXPECT_GE(improvements[i]["seconds"], improvements[i - 1]["seconds"]);
    }
    EXPECT_EQ(improvements.back()["score"], results["result"]["best_score"]);
    size_t lines = 0;
    for (char c : text(events)) lines += c == '\n';
    EXPECT_EQ(lines, improvements.size());
  }

  gsdk::test::TempDir dir;
  fs::path plugins = gsdk::test::test_plugin_dir("valid"); // minefield is a shipped plugin, not a test one
};

TEST_F(ShardsMoreCli, NmcsShardsMergeToTheOneProcessSearch) {
  run_whole("nmcs.toml", {"--threads", "2"});
  shard_and_merge("nmcs.toml", threads({1, 2, 1}));
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["digest"], one["digest"]);
  for (const char* key : {"best_score", "best_moves", "best_search", "searches_finished", "searches_written"})
    EXPECT_EQ(merged["result"][key], one["result"][key]) << key;
  EXPECT_EQ(merged["result"]["searches_finished"], 40);
  EXPECT_EQ(merged["timings"]["playouts"], one["timings"]["playouts"]);
  EXPECT_EQ(text("out/best.json"), text("one-out/best.json"));
  EXPECT_EQ(text("out/searches.jsonl"), text("one-out/searches.jsonl"));
  EXPECT_TRUE(fs::exists(dir / "out/plot.png"));
  expect_improvements_hold(merged, "out/events.jsonl");
  EXPECT_EQ(merged["result"]["resumed_from"], nullptr);
  EXPECT_EQ(merged["result"]["merged_parts"]["reproducible"], true);
  EXPECT_EQ(merged["result"]["merged_parts"]["searches_finished"], 40);
  EXPECT_EQ(one["result"]["merged_parts"], nullptr);
  // The merge reports the shards' devices (1, 2 and 1 threads), not its own one thread.
  const std::string shard_devices[] = {json("shard-1.json")["results"]["devices"],
                                       json("shard-2.json")["results"]["devices"]};
  EXPECT_NE(shard_devices[0], shard_devices[1]);
  EXPECT_EQ(merged["devices"], "3 shards: " + shard_devices[0] + "; " + shard_devices[1]);
  // Each shard ran its own share of the searches, and named none of the run's files.
  uint64_t searches = 0;
  for (int k = 1; k <= 3; ++k) {
    const nlohmann::json shard = json("shard-" + std::to_string(k) + ".json")["results"]["result"];
    EXPECT_GT(shard["searches_finished"], 10) << k;
    EXPECT_LT(shard["searches_finished"], 20) << k;
    searches += shard["searches_finished"].get<uint64_t>();
    for (const char* file : {"best_file", "events_file", "searches_file"}) EXPECT_EQ(shard[file], nullptr) << file;
  }
  EXPECT_EQ(searches, 40u);
}

TEST_F(ShardsMoreCli, NrpaShardsMergeToTheOneProcessSearch) {
  run_whole("nrpa.toml", {"--threads", "2"});
  shard_and_merge("nrpa.toml", threads({2, 1, 1}));
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["digest"], one["digest"]);
  for (const char* key : {"best_score", "best_moves", "best_search", "searches_finished"})
    EXPECT_EQ(merged["result"][key], one["result"][key]) << key;
  EXPECT_EQ(merged["timings"]["playouts"], one["timings"]["playouts"]);
  EXPECT_EQ(text("out/best.json"), text("one-out/best.json"));
  expect_improvements_hold(merged, "out/events.jsonl");
  EXPECT_EQ(merged["result"]["merged_parts"]["reproducible"], true);
  for (int k = 1; k <= 3; ++k)
    EXPECT_EQ(json("shard-" + std::to_string(k) + ".json")["results"]["result"]["searches_finished"], 4) << k;
}

TEST_F(ShardsMoreCli, ShardsBoundedByTimeEachRunWithinItAndTheMergeIsNotReproducible) {
  // Many more searches than fit the time: each shard stops at the limit, and the merge starts none of the rest.
  shard_and_merge("nmcs.toml", threads({1, 2}), {"--set", "nmcs.restarts=100000000", "--set", "nmcs.time_seconds=0.5"});
  const nlohmann::json merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  const nlohmann::json& result = merged["result"];
  EXPECT_EQ(result["merged_parts"]["reproducible"], false);
  EXPECT_EQ(result["stopped_by_time"], true);
  EXPECT_EQ(result["searches_started"], result["searches_finished"]);
  uint64_t searches = 0;
  for (int k = 1; k <= 2; ++k) {
    const nlohmann::json shard = json("shard-" + std::to_string(k) + ".json")["results"];
    EXPECT_EQ(shard["result"]["stopped_by_time"], true) << k;
    EXPECT_GE(shard["timings"]["wall_seconds"], 0.5) << k;
    EXPECT_LT(shard["timings"]["wall_seconds"], 5.0) << k;
    searches += shard["result"]["searches_finished"].get<uint64_t>();
  }
  EXPECT_EQ(result["searches_finished"], searches);
  expect_improvements_hold(merged, "out/events.jsonl");
}

TEST_F(ShardsMoreCli, ShardsStoppingAtAScoreAreNotReproducible) {
  // The chain's optimum is far above 1: every shard that runs a search reaches it at its first sequence.
  shard_and_merge("nrpa.toml", threads({1, 1}), {"--set", "nrpa.stop_at_score=1"});
  const nlohmann::json merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["result"]["merged_parts"]["reproducible"], false);
  EXPECT_LT(merged["result"]["searches_finished"], 12);
  EXPECT_GE(merged["result"]["best_score"], 1);
}

TEST_F(ShardsMoreCli, AMergeRefusesPartsThatRanOneSearchTwice) {
  for (const std::string k : {"1", "2"})
    ASSERT_EQ(run({"run", "nrpa.toml", "--shard", k + "/2", "--out", "s" + k + ".json"}).status, 0);
  // Shard 2 made to hold shard 1's last search as well (above the first searches shard 2 holds, as its list wants).
  const nlohmann::json finished = json("s1.json")["progress"]["finished"];
  ASSERT_FALSE(finished["above"].empty());
  const uint32_t search = finished["above"].back().get<uint32_t>();
  nlohmann::json doubled = json("s2.json");
  doubled["progress"]["finished"]["above"].push_back(search);
  gsdk::test::write_file(dir / "doubled.json", doubled.dump());
  const Outcome r = run({"merge", "s1.json", "doubled.json", "--out", "m.json"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(gsdk::test::contains(r.err, "doubled.json")) << r.err;
  EXPECT_TRUE(gsdk::test::contains(r.err, "two parts both ran search " + std::to_string(search))) << r.err;
  EXPECT_FALSE(fs::exists(dir / "m.json"));
}

TEST_F(ShardsMoreCli, MatchShardsMergeToTheOneProcessMatch) {
  // The agents' specs name their devices and threads ([run] does not apply), so every shard plays as the config
  // says: the identity the merge checks holds them.
  run_whole("match.toml", {});
  shard_and_merge("match.toml", {{}, {}, {}});
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["digest"], one["digest"]);
  EXPECT_EQ(merged["result"]["games_played"], 12);
  EXPECT_EQ(merged["result"], one["result"]);
  EXPECT_EQ(text("out/m.pgn"), text("one-out/m.pgn"));
  EXPECT_EQ(merged["record"], "out/m.pgn");
  for (int k = 1; k <= 3; ++k) {
    const nlohmann::json shard = json("shard-" + std::to_string(k) + ".json")["results"];
    EXPECT_EQ(shard["result"]["games_played"], 4) << k;
    EXPECT_FALSE(shard.contains("record")) << k;
  }
}

TEST_F(ShardsMoreCli, AMergeRefusesPartsThatPlayedOneGameTwice) {
  for (const std::string k : {"1", "2"})
    ASSERT_EQ(run({"run", "match.toml", "--shard", k + "/2", "--out", "s" + k + ".json"}).status, 0);
  // Shard 2 made to hold a game of shard 1 as well.
  nlohmann::json doubled = json("s2.json");
  doubled["progress"]["games"].push_back(json("s1.json")["progress"]["games"][0]);
  gsdk::test::write_file(dir / "doubled.json", doubled.dump());
  const Outcome r = run({"merge", "s1.json", "doubled.json", "--out", "m.json"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(gsdk::test::contains(r.err, "doubled.json")) << r.err;
  EXPECT_TRUE(gsdk::test::contains(r.err, "two parts both played round")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "m.json"));
}

TEST_F(ShardsMoreCli, QLearningSweepShardsMergeToTheOneProcessSweep) {
  plugins = gsdk::test::plugin_dir();
  run_whole("sweep.toml", {"--threads", "2"});
  shard_and_merge("sweep.toml", threads({1, 2, 1}));
  const nlohmann::json one = json("one.json"), merged = json("merged.json");
  EXPECT_EQ(merged["status"], "complete");
  EXPECT_EQ(merged["digest"], one["digest"]);
  ASSERT_EQ(merged["result"]["sweep"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    nlohmann::json a = merged["result"]["sweep"][i], b = one["result"]["sweep"][i];
    a.erase("timings");
    b.erase("timings");
    EXPECT_EQ(a, b) << i;
  }
  EXPECT_TRUE(fs::exists(dir / "out/q.jsonl"));
  const size_t entries[] = {2, 1, 1};
  for (int k = 1; k <= 3; ++k)
    EXPECT_EQ(json("shard-" + std::to_string(k) + ".json")["results"]["result"]["sweep"].size(), entries[k - 1]) << k;
}

TEST_F(ShardsMoreCli, OneQLearningTrainingRunIsRefused) {
  plugins = gsdk::test::plugin_dir();
  const Outcome r = run({"run", "sweep.toml", "--set", "qlearning.environments=4", "--shard", "1/2"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(gsdk::test::contains(r.err, "one training run cannot be spread over processes")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

} // namespace
