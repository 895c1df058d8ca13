// beam_cli_test.cpp - algorithm = "beam" as users run it: a run's results document names the beam's counts (levels,
// children, duplicates, capped; no playouts), its best sequence and events are written, and its digest is the same
// for any number of threads and over shards; bad [beam] keys are located errors naming the file and line; a game
// without an evaluation table is refused naming the game and what it lacks, before anything is written; `gsdk list`
// shows the algorithm and its keys; [output] searches holds each search's best, the same over shards.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

// test_tree has an evaluation and canonical states: 3 searches of a narrow beam with a cap, so that the cap drops
// children.
const char* const kBeam = R"(game = "test_tree"
algorithm = "beam"
seed = 5

[params]
max_ply = 12

[beam]
width = 50
children_per_parent = 3
restarts = 2

[run]
device = "cpu"

[output]
best = "out/best.json"
events = "out/events.jsonl"
)";

class BeamCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "beam.toml", kBeam);
  }
  Outcome run(std::vector<std::string> args) {
    args.insert(args.end(), {"--plugin-dir", gsdk::test::test_plugin_dir("valid").string()});
    return gsdk::test::gsdk_run(args, dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }
  gsdk::test::TempDir dir;
};

TEST_F(BeamCli, ARunReportsTheBeamsCountsAndSavesItsBestSequence) {
  const Outcome r = run({"run", "beam.toml", "--out", "r.json", "--threads", "1"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "beam search of test_tree on cpu, 1 thread")) << r.out;
  EXPECT_TRUE(contains(r.out, " levels, ")) << r.out;
  EXPECT_TRUE(contains(r.out, " children scored: ")) << r.out;
  EXPECT_TRUE(contains(r.out, " over the cap per parent")) << r.out;
  EXPECT_FALSE(contains(r.out, "playouts")) << "a beam search has no playouts:\n" << r.out;

  const nlohmann::json results = json("r.json");
  EXPECT_EQ(results["status"], "complete");
  EXPECT_EQ(results["algorithm"], "beam");
  EXPECT_EQ(results["engine"], "beam");
  const nlohmann::json& timings = results["timings"];
  EXPECT_FALSE(timings.contains("playouts")) << timings;
  // Every level of a search keeps at most `width` states of at most 7 children each; 3 searches of games of at
  // most 12 plies.
  const uint64_t levels = timings["levels"], children = timings["children"], capped = timings["capped"];
  EXPECT_GT(levels, 3u) << timings;
  EXPECT_LE(levels, 3u * 12) << timings;
  EXPECT_GT(children, levels) << timings;
  EXPECT_LE(children, levels * 50 * 7) << timings;
  EXPECT_GT(capped, 0u) << "3 children per parent of a tree of up to 7 moves a state: " << timings;
  EXPECT_TRUE(timings["duplicates"].is_number_unsigned()) << timings;
  EXPECT_TRUE(timings.contains("children_per_second")) << timings;

  const nlohmann::json& result = results["result"];
  EXPECT_EQ(result["searches_finished"], 3u);
  ASSERT_TRUE(result["best_score"].is_number_integer()) << result;
  EXPECT_EQ(result["best_file"], "out/best.json");
  const nlohmann::json best = json("out/best.json");
  EXPECT_EQ(best["moves"], result["best_moves"]);
  EXPECT_EQ(best["score"], result["best_score"]);
  // The improvements rise to the best score.
  const std::string events = gsdk::test::read_file(dir / "out/events.jsonl");
  ASSERT_FALSE(events.empty());
  const std::string last = events.substr(events.rfind('\n', events.size() - 2) + 1);
  EXPECT_EQ(nlohmann::json::parse(last)["score"], result["best_score"]) << events;
}

// The selection is an order over a level's children: the threads that expand it, and the shards the searches are
// split over, change nothing.
TEST_F(BeamCli, TheResultIsTheSameForAnyThreadsAndOverShards) {
  ASSERT_EQ(run({"run", "beam.toml", "--out", "one.json", "--threads", "1", "-q"}).status, 0);
  ASSERT_EQ(run({"run", "beam.toml", "--out", "two.json", "--threads", "2", "-q", "--set", "output.best=out/b2.json",
                 "--set", "output.events=out/e2.jsonl"})
                .status,
            0);
  EXPECT_EQ(json("one.json")["digest"], json("two.json")["digest"]);
  EXPECT_EQ(json("one.json")["timings"]["children"], json("two.json")["timings"]["children"]);
  for (const std::string k : {"1", "2"}) {
    const Outcome shard = run({"run", "beam.toml", "--shard", k + "/2", "--out", "s" + k + ".json", "-q"});
    ASSERT_EQ(shard.status, 0) << describe(shard);
  }
  // The merge writes the run's files (the config's best and events) from the shards' progress.
  const Outcome merged = run({"merge", "s1.json", "s2.json", "--out", "merged.json"});
  ASSERT_EQ(merged.status, 0) << describe(merged);
  EXPECT_EQ(json("merged.json")["digest"], json("one.json")["digest"]);
  EXPECT_EQ(json("merged.json")["timings"]["children"], json("one.json")["timings"]["children"])
      << "the parts' counts add up to the one process's";
}

// [output] searches: each search's best, distinct, best first, as NMCS writes them (a pool for later starts); the
// merge of shards writes the one process's file.
TEST_F(BeamCli, TheSearchesFileHoldsEachSearchsBestAndIsTheSameOverShards) {
  const std::vector<std::string> searches = {"--set", "output.searches=out/searches.jsonl", "-q"};
  std::vector<std::string> args = {"run", "beam.toml", "--out", "one.json"};
  args.insert(args.end(), searches.begin(), searches.end());
  ASSERT_EQ(run(args).status, 0);
  const nlohmann::json one = json("one.json");
  const std::string whole = gsdk::test::read_file(dir / "out/searches.jsonl");
  std::vector<nlohmann::json> lines;
  for (size_t at = 0, end; (end = whole.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(nlohmann::json::parse(whole.substr(at, end - at)));
  ASSERT_FALSE(lines.empty());
  EXPECT_LE(lines.size(), 3u) << "one line a search at most: " << whole;
  EXPECT_EQ(one["result"]["searches_file"], "out/searches.jsonl");
  EXPECT_EQ(one["result"]["searches_written"], lines.size());
  EXPECT_EQ(lines.front()["score"], one["result"]["best_score"]) << whole;
  EXPECT_EQ(lines.front()["moves"], one["result"]["best_moves"]) << whole;
  for (size_t i = 0; i < lines.size(); ++i) EXPECT_LE(lines[i]["search"], 2u) << whole;
  for (size_t i = 1; i < lines.size(); ++i) EXPECT_GE(lines[i - 1]["score"], lines[i]["score"]) << "best first";
  for (const std::string k : {"1", "2"}) {
    args = {"run", "beam.toml", "--shard", k + "/2", "--out", "s" + k + ".json"};
    args.insert(args.end(), searches.begin(), searches.end());
    ASSERT_EQ(run(args).status, 0) << k;
  }
  fs::remove(dir / "out/searches.jsonl");
  const Outcome merged = run({"merge", "s1.json", "s2.json", "--out", "merged.json"});
  ASSERT_EQ(merged.status, 0) << describe(merged);
  EXPECT_EQ(gsdk::test::read_file(dir / "out/searches.jsonl"), whole);
}

TEST_F(BeamCli, BadKeysAreLocatedErrors) {
  std::string text = kBeam;
  text.replace(text.find("width = 50"), 10, "width = 0");
  gsdk::test::write_file(dir / "zero.toml", text);
  Outcome r = run({"run", "zero.toml"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "zero.toml:9:9: 'width' in [beam] = 0 is out of range [1, 67108864]")) << r.err;

  text = kBeam;
  text.replace(text.find("width = 50"), 10, "widht = 50");
  gsdk::test::write_file(dir / "typo.toml", text);
  r = run({"run", "typo.toml"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "typo.toml:9:1: unknown key 'widht' (did you mean 'width'?) in [beam]; valid keys: "
                              "width, children_per_parent, dedup, time_seconds, restarts, searches_in_parallel, "
                              "stop_at_score, start_moves, start_from, starts_from"))
      << r.err;

  r = run({"run", "beam.toml", "--set", "beam.start_moves=[0]", "--set", "beam.start_from=x.json"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "[beam] takes one of 'start_moves', 'start_from' and 'starts_from', not both "
                              "'start_moves' and 'start_from'"))
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "out")) << "a refused run writes nothing";
}

// A start the game cannot play is refused at the key that gave it (test_tree has at most 7 moves a state).
TEST_F(BeamCli, AStartTheGameCannotPlayIsRefusedAtItsKey) {
  std::string text = kBeam;
  text.replace(text.find("restarts = 2"), 12, "restarts = 2\nstart_moves = [0, 99]");
  gsdk::test::write_file(dir / "start.toml", text);
  const Outcome r = run({"run", "start.toml"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "start.toml:12:15: ")) << r.err;
}

TEST_F(BeamCli, AGameWithoutAnEvaluationIsRefusedNamingWhatItLacks) {
  gsdk::test::write_file(dir / "chain.toml",
                         "game = \"test_chain\"\nalgorithm = \"beam\"\n[beam]\nwidth = 10\n[run]\ndevice = \"cpu\"\n");
  const Outcome r = run({"run", "chain.toml", "--out", "r.json"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "chain.toml:2:13: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "'test_chain' has no evaluation table (gsdk.evaluation.v1)")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "results")) << "refused before the run writes its events or best sequence";

  // A two-player game is refused too, naming the game.
  gsdk::test::write_file(dir / "nim.toml",
                         "game = \"test_nim\"\nalgorithm = \"beam\"\n[beam]\nwidth = 10\n[run]\ndevice = \"cpu\"\n");
  const Outcome nim = run({"run", "nim.toml", "--out", "r.json"});
  EXPECT_EQ(nim.status, 2) << describe(nim);
  EXPECT_TRUE(contains(nim.err, "nim.toml:2:13: ")) << nim.err;
  EXPECT_TRUE(contains(nim.err, "test_nim")) << nim.err;
}

TEST_F(BeamCli, ListShowsTheAlgorithmAndItsKeys) {
  const Outcome text = run({"list", "--algorithms"});
  ASSERT_EQ(text.status, 0) << describe(text);
  EXPECT_TRUE(contains(text.out, "\n  beam  ")) << text.out;
  EXPECT_TRUE(contains(text.out, "width                  integer, default 1000, values [1, 2^26]: states kept per "
                                 "level"))
      << text.out;
  const Outcome json = run({"list", "--algorithms", "--json"});
  ASSERT_EQ(json.status, 0) << describe(json);
  bool found = false;
  for (const auto& algorithm : nlohmann::json::parse(json.out))
    if (algorithm["name"] == "beam") {
      found = true;
      EXPECT_EQ(algorithm["keys"][0]["name"], "width");
      EXPECT_EQ(algorithm["output_keys"][0]["name"], "best");
    }
  EXPECT_TRUE(found) << json.out;
}

} // namespace
