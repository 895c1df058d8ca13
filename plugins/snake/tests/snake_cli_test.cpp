// snake_cli_test.cpp - the snake plugin through gsdk and its snake_check tool, end to end: a good snake file
// passes snake_check with its length, each bad one fails (exit 1) naming the first violation and its index, an
// unreadable one is a usage error (exit 2), and so is a FIFO or /dev/zero, refused at once (not read for ever); `gsdk
// replay --document` writes the best playout of a snake run as a snake file the checker accepts; NMCS and NRPA runs
// reach the 5-cube's optimum, log their improvements and save a snake the checker accepts; an NMCS run writes its best
// distinct final snakes, best first, and a run in a bigger cube starts from them (one start each), refusing with the
// file's place one that is not a snake of its cube; snakes grown in a box go on in the whole cube, the ones with no way
// on left out when asked; a beam's snake warm-starts NRPA in a larger cube.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <utility>

#include "background_process.hpp"
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
  Outcome check(const std::string& file) {
    return gsdk::test::program_run(gsdk::test::bin_dir() / "snake_check", {file}, dir.path());
  }
  void write(const std::string& name, const std::string& text) { gsdk::test::write_file(dir / name, text); }
  // A JSON Lines file the run wrote (a searches file), one object a line.
  std::vector<nlohmann::json> json_lines(const std::string& name) {
    std::istringstream lines(gsdk::test::read_file(dir / name));
    std::vector<nlohmann::json> objects;
    for (std::string line; std::getline(lines, line);) objects.push_back(nlohmann::json::parse(line));
    return objects;
  }

  gsdk::test::TempDir dir;
};

TEST_F(SnakeCli, SnakeCheckAcceptsAGoodSnakeAndNamesTheFirstViolationOfABadOne) {
  write("good.json", R"({"format": "gsdk-snake", "dimension": 4, "length": 7, "moves": [0, 1, 2, 0, 3, 1, 0],
                         "vertices": [0, 1, 3, 7, 6, 14, 12, 13]})");
  const Outcome good = check("good.json");
  EXPECT_EQ(good.status, 0) << describe(good);
  EXPECT_TRUE(contains(good.out, "OK good.json: a snake of length 7 in dimension 4")) << good.out;

  write("chord.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0, 1, 2, 0, 3, 1, 0, 1],
                          "vertices": [0, 1, 3, 7, 6, 14, 12, 13, 15]})");
  const Outcome chord = check("chord.json");
  EXPECT_EQ(chord.status, 1) << describe(chord);
  EXPECT_TRUE(contains(chord.out, "INVALID chord.json: at index 8: vertex 8 (15) is adjacent to vertex 5 (14)"))
      << chord.out;

  write("mismatch.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0, 1], "vertices": [0, 1, 5]})");
  const Outcome mismatch = check("mismatch.json");
  EXPECT_EQ(mismatch.status, 1) << describe(mismatch);
  EXPECT_TRUE(contains(mismatch.out, "at index 2: vertex 2 (5) is not vertex 1 (1) with bit 1 flipped"))
      << mismatch.out;
}

TEST_F(SnakeCli, SnakeCheckRefusesUnreadableFilesAsUsageErrors) {
  const Outcome missing = check("nowhere.json");
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.err, "nowhere.json: cannot open: No such file or directory")) << missing.err;
  write("bad.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0]})");
  const Outcome bad = check("bad.json");
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_TRUE(contains(bad.err, "needs 'vertices', a list of non-negative integers")) << bad.err;
  const Outcome usage = gsdk::test::program_run(gsdk::test::bin_dir() / "snake_check", {}, dir.path());
  EXPECT_EQ(usage.status, 2) << describe(usage);
  EXPECT_TRUE(contains(usage.err, "usage: snake_check FILE")) << usage.err;
}

// A FIFO blocks the open until a writer comes and /dev/zero never ends: each must be refused at once, by name and
// with what was expected. The time limit makes a hang a failure instead of a test that never ends.
TEST_F(SnakeCli, SnakeCheckRefusesWhatIsNotARegularFileWithoutReadingIt) {
  const fs::path fifo = dir / "pipe.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << "mkfifo " << fifo;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {fifo.string(), "is a FIFO (named pipe); expected a regular file (a snake document, format gsdk-snake)"},
      {"/dev/zero", "is a character device; expected a regular file (a snake document, format gsdk-snake)"},
      {dir.path().string(), "is a directory; expected a regular file"}};
  for (const auto& [file, message] : cases) {
    gsdk::test::BackgroundGsdk process(gsdk::test::bin_dir() / "snake_check", {file}, dir.path());
    const gsdk::test::BackgroundGsdk::Ended ended = process.wait(std::chrono::seconds(20));
    ASSERT_TRUE(ended.in_time) << "snake_check " << file << " did not end within 20 s\n" << describe(ended);
    EXPECT_EQ(ended.status, 2) << file << "\n" << describe(ended);
    EXPECT_TRUE(contains(ended.err, "snake_check: error: " + file + ": " + message)) << ended.err;
  }
}

TEST_F(SnakeCli, ReplayWritesTheBestPlayoutAsASnakeFileTheCheckerAccepts) {
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

  const Outcome replayed = run({"replay", "results.json", "--document", "best.json"});
  ASSERT_EQ(replayed.status, 0) << describe(replayed);
  const auto snake = nlohmann::json::parse(gsdk::test::read_file(dir / "best.json"));
  EXPECT_EQ(snake["length"].get<int64_t>(), best);
  EXPECT_EQ(snake["dimension"].get<int64_t>(), 7);
  const Outcome checked = check("best.json");
  EXPECT_EQ(checked.status, 0) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "a snake of length " + std::to_string(best) + " in dimension 7")) << checked.out;
}

TEST_F(SnakeCli, NestedSearchesSaveACheckedSnakeAndLogEveryImprovement) {
  for (const std::string algorithm : {"nmcs", "nrpa"}) {
    write(algorithm + ".toml", "game = \"snake\"\nalgorithm = \"" + algorithm +
                                   "\"\nseed = 5\n[params]\ndimension = 5\n[" + algorithm +
                                   "]\nlevel = 2\nrestarts = 100000\ntime_seconds = 60\nstop_at_score = 13\n"
                                   "[run]\nthreads = 1\n");
    const Outcome ran = run({"run", algorithm + ".toml", "-q", "--out", "r.json", "--set", "output.best=\"best.json\"",
                             "--set", "output.events=\"events.jsonl\""});
    ASSERT_EQ(ran.status, 0) << describe(ran);
    const auto results = nlohmann::json::parse(gsdk::test::read_file(dir / "r.json"));
    EXPECT_EQ(results["result"]["best_score"].get<int64_t>(), 13) << algorithm;
    const Outcome checked = check("best.json");
    EXPECT_EQ(checked.status, 0) << describe(checked);
    EXPECT_TRUE(contains(checked.out, "a snake of length 13 in dimension 5")) << checked.out;
    const std::string events = gsdk::test::read_file(dir / "events.jsonl");
    EXPECT_TRUE(contains(events, "\"score\":13,\"search\":")) << events;
    EXPECT_EQ(std::count(events.begin(), events.end(), '\n'), results["result"]["improvements"].size());
  }
}

// A beam's 6-cube snake warm-starts NRPA in the 7-cube: a policy adapted towards it leads the playout along it;
// a warm start that is not a snake of the cube, or two warm keys at once, are refused at the key.
TEST_F(SnakeCli, ABeamsSnakeWarmStartsNrpaInALargerCube) {
  write("six.toml", "game = \"snake\"\nalgorithm = \"beam\"\nseed = 3\n[params]\ndimension = 6\n[beam]\n"
                    "width = 4000\n[run]\nthreads = 1\n[output]\nbest = \"six.best.json\"\n");
  const Outcome six = run({"run", "six.toml", "-q", "--out", "six.json"});
  ASSERT_EQ(six.status, 0) << describe(six);
  const auto snake6 = nlohmann::json::parse(gsdk::test::read_file(dir / "six.best.json"))["moves"];
  EXPECT_EQ(snake6.size(), 26u) << "a beam of 4000 reaches the 6-cube's optimum";
  EXPECT_EQ(check("six.best.json").status, 0);

  write("seven.toml", "game = \"snake\"\nalgorithm = \"nrpa\"\nseed = 3\n[params]\ndimension = 7\n[nrpa]\n"
                      "level = 1\niterations = 1\nwarm_from = \"six.best.json\"\nwarm_adaptations = 60\n"
                      "[run]\nthreads = 1\n[output]\nbest = \"seven.best.json\"\n");
  const Outcome seven = run({"run", "seven.toml", "-q", "--out", "seven.json"});
  ASSERT_EQ(seven.status, 0) << describe(seven);
  const auto snake7 = nlohmann::json::parse(gsdk::test::read_file(dir / "seven.best.json"))["moves"];
  ASSERT_GT(snake7.size(), snake6.size());
  EXPECT_TRUE(std::equal(snake6.begin(), snake6.end(), snake7.begin())) << snake7.dump();
  EXPECT_EQ(check("seven.best.json").status, 0);

  const Outcome small = run({"run", "seven.toml", "-q", "--set", "params.dimension=5"});
  EXPECT_EQ(small.status, 2) << describe(small);
  EXPECT_TRUE(contains(small.err, "seven.toml:9:13: NRPA's warm start is not a game of 'snake': move")) << small.err;
  const Outcome both = run({"run", "seven.toml", "-q", "--set", "nrpa.warm_moves=[0, 1]"});
  EXPECT_EQ(both.status, 2) << describe(both);
  EXPECT_TRUE(contains(both.err, "takes one of 'warm_moves' and 'warm_from', not both")) << both.err;
}

// Every snake `found` begins with the moves of the start it names (a line of `starts`) and goes on past them.
void expect_each_begins_with_its_start(const std::vector<nlohmann::json>& found,
                                       const std::vector<nlohmann::json>& starts) {
  for (const nlohmann::json& snake : found) {
    const auto& start = starts.at(snake["start"].get<size_t>())["moves"];
    EXPECT_TRUE(std::equal(start.begin(), start.end(), snake["moves"].begin()))
        << "begins with its start: " << snake.dump();
    EXPECT_GT(snake["score"].get<size_t>(), start.size()) << "went on from its start: " << snake.dump();
  }
}

TEST_F(SnakeCli, NmcsWritesItsBestFinalSnakesAndALargerCubeStartsFromThem) {
  write("five.toml",
        "game = \"snake\"\nalgorithm = \"nmcs\"\nseed = 5\n[params]\ndimension = 5\n[nmcs]\nlevel = 1\n"
        "restarts = 199\nsearches_in_parallel = 8\n[run]\nthreads = 1\n[output]\nsearches = \"five.jsonl\"\n"
        "searches_kept = 6\n");
  const Outcome five = run({"run", "five.toml", "-q", "--out", "five.json"});
  ASSERT_EQ(five.status, 0) << describe(five);
  const auto results = nlohmann::json::parse(gsdk::test::read_file(dir / "five.json"));
  EXPECT_EQ(results["result"]["searches_file"], "five.jsonl");
  EXPECT_EQ(results["result"]["searches_written"], 6);
  const std::vector<nlohmann::json> kept = json_lines("five.jsonl");
  ASSERT_EQ(kept.size(), 6u);
  EXPECT_EQ(kept[0]["score"], results["result"]["best_score"]);
  for (size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(kept[i]["moves"].size(), kept[i]["score"].get<size_t>());
    if (i == 0) continue;
    const auto rank = [](const nlohmann::json& line) {
      return std::pair{-line["score"].get<int64_t>(), line["search"].get<int64_t>()};
    };
    EXPECT_LT(rank(kept[i - 1]), rank(kept[i])) << "best first, then the lower search";
    for (size_t j = 0; j < i; ++j) EXPECT_NE(kept[i]["moves"], kept[j]["moves"]) << "distinct snakes";
  }

  const Outcome six = run({"run", "five.toml", "-q", "--out", "six.json", "--set", "params.dimension=6", "--set",
                           "nmcs.starts_from=\"five.jsonl\"", "--set", "output.searches=\"six.jsonl\""});
  ASSERT_EQ(six.status, 0) << describe(six);
  expect_each_begins_with_its_start(json_lines("six.jsonl"), kept);

  write("bad.jsonl", "{\"moves\": [0, 1]}\n{\"moves\": [0, 1, 0]}\n");
  const Outcome refused = run({"run", "five.toml", "-q", "--set", "nmcs.starts_from=\"bad.jsonl\""});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err,
                       "--set[1]:1:18: start 1 of 2: the start moves are not a game of 'snake': move 2 (0) "
                       "is not legal"))
      << refused.err;
}

// Snakes grown in a box (the 6-cube less one quarter) go on in the whole cube; the ones with no way on are
// refused as starts, or left out and counted when asked, the others keeping their line numbers.
TEST_F(SnakeCli, SnakesOfABoxGoOnInTheWholeCubeLessTheOnesWithNoWayOn) {
  write("box.toml",
        "game = \"snake\"\nalgorithm = \"nmcs\"\nseed = 5\n[params]\ndimension = 6\nsymmetry_breaking = false\n"
        "blocked_subcubes = \"11****\"\n[nmcs]\nlevel = 1\nrestarts = 199\nsearches_in_parallel = 8\n[run]\n"
        "threads = 1\n[output]\nsearches = \"box.jsonl\"\nsearches_kept = 20\n");
  const Outcome box = run({"run", "box.toml", "-q", "--out", "box.json"});
  ASSERT_EQ(box.status, 0) << describe(box);
  const std::vector<nlohmann::json> kept = json_lines("box.jsonl");
  ASSERT_EQ(kept.size(), 20u);
  for (const nlohmann::json& snake : kept) {
    uint32_t head = 0;
    for (const uint32_t k : snake["moves"].get<std::vector<uint32_t>>()) {
      head ^= 1u << k;
      EXPECT_NE(head & 0b110000u, 0b110000u) << "vertex " << head << " is in the blocked quarter: " << snake.dump();
    }
  }

  const std::vector<std::string> whole_cube = {"--set", "params.blocked_subcubes=\"\"",
                                               "--set", "nmcs.starts_from=\"box.jsonl\"",
                                               "--set", "output.searches=\"whole.jsonl\""};
  std::vector<std::string> args = {"run", "box.toml", "-q", "--out", "whole.json"};
  args.insert(args.end(), whole_cube.begin(), whole_cube.end());
  const Outcome refused = run(args);
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "start moves end the game: there is nothing left to search")) << refused.err;

  args.insert(args.end(), {"--set", "nmcs.skip_finished_starts=true"});
  const Outcome whole = run(args);
  ASSERT_EQ(whole.status, 0) << describe(whole);
  const auto results = nlohmann::json::parse(gsdk::test::read_file(dir / "whole.json"));
  const uint32_t skipped = results["result"]["starts_skipped"].get<uint32_t>();
  EXPECT_GT(skipped, 0u);
  EXPECT_LT(skipped, 20u);
  EXPECT_TRUE(contains(whole.out, "; " + std::to_string(skipped) + " finished starts left out")) << whole.out;
  expect_each_begins_with_its_start(json_lines("whole.jsonl"), kept);
}

} // namespace
