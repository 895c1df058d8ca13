// match_checkpoint_cli_test.cpp - algorithm = "match" under SIGINT and with --checkpoint: a match interrupted
// after its first checkpoint exits 130 with an interrupted results file whose games are the checkpoint's, and
// the same command again plays only the other games and ends with the uninterrupted match's digest and record; a
// checkpoint of another seed or config is refused with exit status 2; agents that think long (a huge UCT or flat
// Monte Carlo budget) stop within two seconds of SIGINT, the game they were in not counted.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "background_process.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::BackgroundGsdk;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;
using namespace std::chrono_literals;

// test_nim between two UCT agents under playout budgets: every game is a function of the seed and its number.
const char* const kConfig = R"(game = "test_nim"
algorithm = "match"
seed = 11

[match]
games = 40
agents = ["uct:playouts=20000", "uct:playouts=15000,leaf=2"]
record = "m.pgn"
)";

class MatchCheckpointCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "m.toml", kConfig);
  }
  static std::vector<std::string> with_test_plugins(std::vector<std::string> args) {
    args.insert(args.end(), {"--plugin-dir", gsdk::test::test_plugin_dir("valid").string()});
    return args;
  }
  Outcome run(const std::vector<std::string>& args) {
    return gsdk::test::gsdk_run(with_test_plugins(args), dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  gsdk::test::TempDir dir;
};

TEST_F(MatchCheckpointCli, InterruptedMatchResumedFromItsCheckpointEndsWithTheUninterruptedDigest) {
  const Outcome whole = run({"run", "m.toml", "-q", "--out", "whole.json"});
  ASSERT_EQ(whole.status, 0) << describe(whole);
  const std::string whole_record = gsdk::test::read_file(dir / "m.pgn");
  fs::remove(dir / "m.pgn");

  const std::vector<std::string> args = {
      "run", "m.toml", "-q", "--out", "part.json", "--checkpoint", "ck.json", "--checkpoint-every", "0.1"};
  double seconds = 0;
  const BackgroundGsdk::Ended ended =
      gsdk::test::interrupt_after_checkpoint(with_test_plugins(args), dir.path(), "ck.json", seconds, 3s, 60s);
  ASSERT_EQ(ended.status, 130) << describe(ended);
  EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
  EXPECT_TRUE(contains(ended.err, "resume from ck.json")) << ended.err;
  const nlohmann::json part = json("part.json");
  EXPECT_EQ(part["status"], "interrupted");
  const nlohmann::json checkpoint = json("ck.json");
  EXPECT_EQ(checkpoint["complete"], false);
  const size_t saved = checkpoint["progress"]["games"].size();
  EXPECT_GT(saved, 0u);
  EXPECT_LT(saved, 40u) << "the match was to be interrupted, not finished";
  EXPECT_EQ(part["result"]["games_played"].get<size_t>(), saved) << "the checkpoint holds the games that finished";
  EXPECT_EQ(part["interrupted"]["completed"]["games"].get<size_t>(), saved);
  EXPECT_EQ(part["interrupted"]["completed"]["of"], 40);

  std::vector<std::string> resume = args;
  resume[4] = "resumed.json";
  const Outcome resumed = run(resume);
  ASSERT_EQ(resumed.status, 0) << describe(resumed);
  const nlohmann::json r = json("resumed.json");
  EXPECT_EQ(r["status"], "complete");
  EXPECT_EQ(r["checkpoint"]["resumed"], true);
  EXPECT_EQ(r["digest"], json("whole.json")["digest"]);
  EXPECT_EQ(r["result"], json("whole.json")["result"]) << "every game and the totals";
  for (const char* agent : {"a", "b"}) {
    EXPECT_EQ(r["agents"][agent]["moves"], json("whole.json")["agents"][agent]["moves"]) << agent;
    EXPECT_EQ(r["agents"][agent]["playouts_per_move"], json("whole.json")["agents"][agent]["playouts_per_move"])
        << agent;
  }
  EXPECT_EQ(gsdk::test::read_file(dir / "m.pgn"), whole_record) << "the record holds the kept games and the new ones";
  EXPECT_EQ(json("ck.json")["complete"], true);
  EXPECT_EQ(json("ck.json")["progress"]["games"].size(), 40u);
}

TEST_F(MatchCheckpointCli, CheckpointOfAnotherMatchIsRefused) {
  gsdk::test::write_file(dir / "m.toml", std::string(kConfig) + "\n[output]\nfile = \"r.json\"\n");
  const std::vector<std::string> args = {"run", "m.toml", "-q", "--checkpoint", "ck.json", "--set", "match.games=2"};
  ASSERT_EQ(run(args).status, 0);

  std::vector<std::string> other_seed = args;
  other_seed.insert(other_seed.end(), {"--seed", "12"});
  const Outcome seed = run(other_seed);
  EXPECT_EQ(seed.status, 2) << describe(seed);
  EXPECT_TRUE(contains(seed.err, "ck.json: the checkpoint belongs to another run")) << seed.err;
  EXPECT_TRUE(contains(seed.err, "seed: checkpoint 11, this run 12")) << seed.err;

  std::vector<std::string> other_games = args;
  other_games.back() = "match.games=3";
  const Outcome games = run(other_games);
  EXPECT_EQ(games.status, 2) << describe(games);
  EXPECT_TRUE(contains(games.err, "config.match.games: checkpoint 2, this run 3")) << games.err;

  // A checkpoint of this match whose progress was edited into another match's games.
  nlohmann::json edited = json("ck.json");
  edited["progress"]["games"][0]["round"] = 7;
  gsdk::test::write_file(dir / "ck.json", edited.dump());
  const Outcome malformed = run(args);
  EXPECT_EQ(malformed.status, 2) << describe(malformed);
  EXPECT_TRUE(contains(malformed.err, "ck.json: the checkpoint's progress is malformed: round 7 is not one of the "
                                      "match's 2 games"))
      << malformed.err;
}

TEST_F(MatchCheckpointCli, AgentsThatThinkLongStopWithinTwoSecondsOfSigint) {
  for (const char* agent : {"uct:playouts=1000000000", "flatmc:playouts=1000000000"}) {
    SCOPED_TRACE(agent);
    const std::string agents = std::string("match.agents=[\"") + agent + "\", \"random\"]";
    BackgroundGsdk process(with_test_plugins({"run", "m.toml", "-q", "--out", "r.json", "--set", agents}), dir.path());
    std::this_thread::sleep_for(1s);
    const auto sent = std::chrono::steady_clock::now();
    process.send(SIGINT);
    const BackgroundGsdk::Ended ended = process.wait(3s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    ASSERT_TRUE(ended.in_time) << describe(ended);
    EXPECT_EQ(ended.status, 130) << describe(ended);
    EXPECT_LT(seconds, 2.0) << "from SIGINT to exit";
    const nlohmann::json r = json("r.json");
    EXPECT_EQ(r["status"], "interrupted");
    EXPECT_EQ(r["result"]["games_played"], 0) << "the game cut mid-move is not counted";
    EXPECT_EQ(r["interrupted"]["completed"]["games"], 0);
  }
}

} // namespace
