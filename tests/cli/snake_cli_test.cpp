// snake_cli_test.cpp - `gsdk check-snake` end to end: a good snake file passes with its length, each bad
// one fails (exit 1) naming the first violation and its index, an unreadable one is a usage error (exit 2);
// `gsdk replay --snake` writes the best playout of a snake run as a file the checker accepts; NMCS and NRPA
// runs reach the 5-cube's optimum, log their improvements and save a snake the checker accepts.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class SnakeCli : public ::testing::Test {
protected:
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  void write(const std::string& name, const std::string& text) { gsdk::test::write_file(dir / name, text); }

  gsdk::test::TempDir dir;
};

TEST_F(SnakeCli, CheckSnakeAcceptsAGoodSnakeAndNamesTheFirstViolationOfABadOne) {
  write("good.json", R"({"format": "gsdk-snake", "dimension": 4, "length": 7, "moves": [0, 1, 2, 0, 3, 1, 0],
                         "vertices": [0, 1, 3, 7, 6, 14, 12, 13]})");
  const Outcome good = run({"check-snake", "good.json"});
  EXPECT_EQ(good.status, 0) << describe(good);
  EXPECT_TRUE(contains(good.out, "OK good.json: a snake of length 7 in dimension 4")) << good.out;

  write("chord.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0, 1, 2, 0, 3, 1, 0, 1],
                          "vertices": [0, 1, 3, 7, 6, 14, 12, 13, 15]})");
  const Outcome chord = run({"check-snake", "chord.json"});
  EXPECT_EQ(chord.status, 1) << describe(chord);
  EXPECT_TRUE(contains(chord.out, "INVALID chord.json: at index 8: vertex 8 (15) is adjacent to vertex 5 (14)"))
      << chord.out;

  write("mismatch.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0, 1], "vertices": [0, 1, 5]})");
  const Outcome mismatch = run({"check-snake", "mismatch.json"});
  EXPECT_EQ(mismatch.status, 1) << describe(mismatch);
  EXPECT_TRUE(contains(mismatch.out, "at index 2: vertex 2 (5) is not vertex 1 (1) with bit 1 flipped"))
      << mismatch.out;
}

TEST_F(SnakeCli, CheckSnakeRefusesUnreadableFilesAsUsageErrors) {
  const Outcome missing = run({"check-snake", "nowhere.json"});
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.err, "nowhere.json: cannot open")) << missing.err;
  write("bad.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0]})");
  const Outcome bad = run({"check-snake", "bad.json"});
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_TRUE(contains(bad.err, "needs 'vertices', a list of non-negative integers")) << bad.err;
  const Outcome usage = run({"check-snake"});
  EXPECT_EQ(usage.status, 2) << describe(usage);
  EXPECT_TRUE(contains(usage.err, "usage: gsdk check-snake FILE")) << usage.err;
}

TEST_F(SnakeCli, ReplayWritesTheBestPlayoutAsASnakeTheCheckerAccepts) {
  write("snake.toml", R"(game = "snake"
algorithm = "playouts"
seed = 3

[params]
dimension = 7
policy = "kinny"

[playouts]
count = 20000

[run]
device = "cpu"
)");
  const Outcome ran = run({"run", "snake.toml", "-q", "--out", "results.json"});
  ASSERT_EQ(ran.status, 0) << describe(ran);
  const auto results = nlohmann::json::parse(gsdk::test::read_file(dir / "results.json"));
  const int64_t best = results["result"]["best"]["score"].get<int64_t>();
  EXPECT_GE(best, 40) << "Kinny's playouts in the 7-cube reach 40 edges in 20000 tries";

  const Outcome replayed = run({"replay", "results.json", "--snake", "best.json"});
  ASSERT_EQ(replayed.status, 0) << describe(replayed);
  const auto snake = nlohmann::json::parse(gsdk::test::read_file(dir / "best.json"));
  EXPECT_EQ(snake["length"].get<int64_t>(), best);
  EXPECT_EQ(snake["dimension"].get<int64_t>(), 7);
  const Outcome checked = run({"check-snake", "best.json"});
  EXPECT_EQ(checked.status, 0) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "a snake of length " + std::to_string(best) + " in dimension 7")) << checked.out;
}

TEST_F(SnakeCli, NestedSearchesSaveACheckedSnakeAndLogEveryImprovement) {
  for (const std::string algorithm : {"nmcs", "nrpa"}) {
    write(algorithm + ".toml", "game = \"snake\"\nalgorithm = \"" + algorithm + "\"\nseed = 5\n[params]\ndimension = 5\n[" +
                                   algorithm + "]\nlevel = 2\nrestarts = 100000\ntime_seconds = 60\nstop_at_score = 13\n"
                                               "[run]\nthreads = 1\n");
    const Outcome ran = run({"run", algorithm + ".toml", "-q", "--out", "r.json", "--set", "output.best=\"best.json\"",
                             "--set", "output.events=\"events.jsonl\""});
    ASSERT_EQ(ran.status, 0) << describe(ran);
    const auto results = nlohmann::json::parse(gsdk::test::read_file(dir / "r.json"));
    EXPECT_EQ(results["result"]["best_score"].get<int64_t>(), 13) << algorithm;
    const Outcome checked = run({"check-snake", "best.json"});
    EXPECT_EQ(checked.status, 0) << describe(checked);
    EXPECT_TRUE(contains(checked.out, "a snake of length 13 in dimension 5")) << checked.out;
    const std::string events = gsdk::test::read_file(dir / "events.jsonl");
    EXPECT_TRUE(contains(events, "\"score\":13,\"search\":")) << events;
    EXPECT_EQ(std::count(events.begin(), events.end(), '\n'), results["result"]["improvements"].size());
  }
}

TEST_F(SnakeCli, NestedSearchesRefuseATwoPlayerGameAtTheAlgorithmKey) {
  write("nim.toml", "game = \"test_nim\"\nalgorithm = \"nmcs\"\n[nmcs]\nlevel = 1\n");
  const Outcome refused =
      run({"run", "nim.toml", "-q", "--plugin-dir", gsdk::test::test_plugin_dir("valid").string()});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "nim.toml:2:13: NMCS searches one-player games; 'test_nim' has 2 players"))
      << refused.err;
}

TEST_F(SnakeCli, ReplayRefusesToWriteASnakeOfAnotherGame) {
  write("graveler.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\nseed = 1\n[playouts]\ncount = 100\n"
                         "[run]\ndevice = \"cpu\"\n");
  ASSERT_EQ(run({"run", "graveler.toml", "-q", "--out", "g.json"}).status, 0);
  const Outcome refused = run({"replay", "g.json", "--snake", "x.json"});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "--snake: 'graveler' is not the snake-in-the-box game")) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "x.json"));
}

} // namespace
