// input_errors_cli_test.cpp - end-to-end: what `gsdk` says and its exit status when a user gives it
// something wrong: a huge value (quoted cut short), an experiment "file" that is a folder, unreadable,
// empty or binary, a negative or overflowing number for an unsigned option, a run option that does not
// apply to the config, `gsdk bench` asked for a game it does not have or for no work, and command lines said in
// gsdk's words (what is missing, the word too many) with "did you mean" for a mistyped command, option, game, key,
// parameter or agent.
#include <gtest/gtest.h>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class InputErrors : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }

  gsdk::test::TempDir dir;
};

TEST_F(InputErrors, HugeGameNameIsQuotedCutShort) {
  const std::string name(10u << 20, 'g');
  gsdk::test::write_file(dir / "huge.toml",
                         "game = \"" + name + "\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 10\n");
  const Outcome r = run({"run", "huge.toml", "-q"});
  EXPECT_EQ(r.status, 2) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(r.err, "unknown game '" + std::string(200, 'g') + "…' (10485760 bytes); loaded plugins: "))
      << r.err.substr(0, 2000);
  EXPECT_LT(r.err.size(), 4000u) << "the name is not echoed whole";
}

TEST_F(InputErrors, DirectoryAsTheConfigIsSaidSo) {
  fs::create_directory(dir / "configs");
  const Outcome r = run({"run", "configs", "-q"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "configs: is a directory, expected a TOML experiment file")) << r.err;
}

// An input that cannot be opened says why, in the system's words: a typo is not a permission.
TEST_F(InputErrors, FilesThatCannotBeOpenedSayWhy) {
  const Outcome config = run({"run", "nowhere.toml", "-q"});
  EXPECT_EQ(config.status, 2) << describe(config);
  EXPECT_TRUE(contains(config.err, "nowhere.toml: cannot open the experiment file: No such file or directory"))
      << config.err;
  const Outcome results = run({"replay", "nowhere.json"});
  EXPECT_EQ(results.status, 2) << describe(results);
  EXPECT_TRUE(contains(results.err, "nowhere.json: cannot open the results file: No such file or directory"))
      << results.err;
  fs::create_directory(dir / "results");
  const Outcome folder = run({"replay", "results"});
  EXPECT_EQ(folder.status, 2) << describe(folder);
  EXPECT_TRUE(contains(folder.err, "results: cannot open the results file: is a directory, not a file")) << folder.err;
  const Outcome shard = run({"merge", "nowhere.json", "--out", "merged.json"});
  EXPECT_EQ(shard.status, 2) << describe(shard);
  EXPECT_TRUE(contains(shard.err, "nowhere.json: cannot read the shard file: No such file or directory")) << shard.err;
}

const char* const kGraveler = "game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 1000\n";

// Boost alone reads "-1" for an unsigned option as 4294967295.
TEST_F(InputErrors, NegativeOrOverflowingUnsignedOptionIsRefusedAsTyped) {
  gsdk::test::write_file(dir / "exp.toml", kGraveler);
  const Outcome threads = run({"run", "exp.toml", "-q", "--threads", "-1"});
  EXPECT_EQ(threads.status, 2) << describe(threads);
  EXPECT_TRUE(contains(threads.err,
                       "the argument ('-1') for option '--threads' is invalid: expected a whole number from "
                       "0 to 4294967295"))
      << threads.err;
  EXPECT_FALSE(contains(threads.err, "4294967295'")) << threads.err;
  const Outcome seed = run({"run", "exp.toml", "-q", "--seed", "18446744073709551616"});
  EXPECT_EQ(seed.status, 2) << describe(seed);
  EXPECT_TRUE(contains(seed.err, "the argument ('18446744073709551616') for option '--seed' is invalid")) << seed.err;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--repeat", "-5"},
        {"bench", "--playouts", "1.5"},
        {"perft", "test_nim", "start", "1", "--threads", "-2"},
        {"replay", "r.json", "--playout", "+3"},
        {"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "1", "--seed", "-1"}}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[args.size() - 2] << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "the argument ('" + args.back() + "') for option '" + args[args.size() - 2] +
                                    "' is invalid: expected a whole number"))
        << r.err;
  }
  const Outcome fine = run({"run", "exp.toml", "-q", "--threads", "2", "--seed", "12", "--out", "r.json"});
  EXPECT_EQ(fine.status, 0) << describe(fine);
}

TEST_F(InputErrors, BenchRefusesAnUnknownGameAndNoWork) {
  const Outcome game = run({"bench", "--game", "nosuch", "--device", "cpu", "--playouts", "10", "--repeat", "1"});
  EXPECT_EQ(game.status, 2) << describe(game);
  EXPECT_TRUE(contains(game.err, "--game: unknown game 'nosuch'; loaded plugins: ")) << game.err;
  EXPECT_TRUE(contains(game.err, "graveler")) << "the loaded plugins are listed\n" << game.err;
  EXPECT_FALSE(contains(game.out, "playouts/s")) << "no table is printed\n" << game.out;
  const Outcome playouts = run({"bench", "--game", "graveler", "--device", "cpu", "--playouts", "0"});
  EXPECT_EQ(playouts.status, 2) << describe(playouts);
  EXPECT_TRUE(contains(playouts.err, "--playouts must be at least 1, got 0")) << playouts.err;
  const Outcome repeat = run({"bench", "--game", "graveler", "--device", "cpu", "--repeat", "0"});
  EXPECT_EQ(repeat.status, 2) << describe(repeat);
  EXPECT_TRUE(contains(repeat.err, "--repeat must be at least 1, got 0")) << repeat.err;
  const Outcome fine = run({"bench", "--game", "graveler", "--device", "cpu", "--playouts", "1000", "--repeat", "1"});
  EXPECT_EQ(fine.status, 0) << describe(fine);
  EXPECT_TRUE(contains(fine.out, "graveler")) << fine.out;
}

TEST_F(InputErrors, RunOptionThatDoesNotApplyNamesTheOption) {
  gsdk::test::write_file(dir / "match.toml", "game = \"test_nim\"\nalgorithm = \"match\"\n[match]\ngames = 2\n"
                                             "agents = [\"random\", \"random\"]\n");
  const Outcome r = run({"run", "match.toml", "-q", "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--device cpu (command line): [run] does not apply to algorithm = \"match\"")) << r.err;
  EXPECT_FALSE(contains(r.err, ":0:0")) << r.err;
}

// Boost's messages named the operand as an option ("the option '--config' is required") and gave no word
// ("too many positional options"): gsdk names what the usage shows.
TEST_F(InputErrors, CommandLineMistakesAreSaidInTheUsagesWords) {
  gsdk::test::write_file(dir / "x.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 10\n");
  const auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "gsdk: error: " + says)) << r.err;
    EXPECT_FALSE(contains(r.err, "positional")) << r.err;
    EXPECT_FALSE(contains(r.err, "the option '")) << r.err;
  };
  refused({"run"}, "CONFIG.toml is missing: experiment file (TOML)\nusage: gsdk run CONFIG.toml");
  refused({"run", "x.toml", "--set", "playouts.count", "5"},
          "unexpected word '5' (did you mean '--set playouts.count=5'?): the command takes CONFIG.toml");
  refused({"run", "x.toml", "y.toml"}, "unexpected word 'y.toml': the command takes CONFIG.toml");
  refused({"run", "x.toml", "--treads", "3"}, "unknown option '--treads' (did you mean '--threads'?)");
  refused({"run", "x.toml", "--out"}, "--out needs a value");
  refused({"run", "x.toml", "--seed", "1", "--seed", "2"}, "--seed is given more than once; give it once");
  refused({"match", "othello", "--agent1", "random", "--games", "1"}, "--agent0 is required: agent A");
}

TEST_F(InputErrors, NearMissesOfNamesAreSuggested) {
  const auto refused = [&](const std::vector<std::string>& args, const std::string& says) {
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, says)) << r.err;
  };
  refused({"rnu", "x.toml"}, "unknown command 'rnu' (did you mean 'run'?); expected one of: list, run,");
  gsdk::test::write_file(dir / "game.toml", "game = \"gravelr\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 10\n");
  refused({"run", "game.toml"}, "unknown game 'gravelr' (did you mean 'graveler'?); loaded plugins:");
  gsdk::test::write_file(dir / "key.toml", "game = \"graveler\"\nalgorithm = \"playouts\"\n[playouts]\ncout = 10\n");
  refused({"run", "key.toml"}, "key.toml:4:1: unknown key 'cout' (did you mean 'count'?) in [playouts]; valid keys:");
  gsdk::test::write_file(dir / "algorithm.toml", "game = \"graveler\"\nalgorithm = \"playout\"\n");
  refused({"run", "algorithm.toml"}, "'algorithm' is \"playout\" (did you mean 'playouts'?); expected one of:");
  gsdk::test::write_file(
      dir / "param.toml",
      "game = \"othello\"\nalgorithm = \"playouts\"\n[params]\nexact_empiets = 8\n[playouts]\ncount = 1\n");
  refused({"run", "param.toml"}, "game 'othello' has no parameter 'exact_empiets' (did you mean 'exact_empties'?)");
  refused({"match", "othello", "--agent0", "uctt", "--agent1", "random", "--games", "1"},
          "unknown agent 'uctt' (did you mean 'uct'?); expected one of: random, flatmc, uct, alphabeta");
  refused({"match", "othello", "--agent0", "uct:playout=5", "--agent1", "random", "--games", "1"},
          "unknown key 'playout' for uct (did you mean 'playouts'?)");
}

} // namespace
