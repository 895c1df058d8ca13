// match_cli_test.cpp - end-to-end `gsdk match` and algorithm = "match" experiments on test_nim: the
// report's numbers add up (per game lines, W/D/L, per side, plies, the JSON document), the record
// holds every game with its tags and numbered moves, a seed replays the same match, random openings
// are shared by each pair of games and differ between pairs, and bad agent
// specs, game counts, [match] tables and [output] plot / events / --plot exit 2 with a message naming what is wrong.

// GCC 12 bug 105616 (a false -Wmaybe-uninitialized): with -fsanitize=address, moving <regex>'s automaton states is
// reported as reading an uninitialized std::function inside <bits/std_function.h>; the moved-from state is fully
// built. Silenced for this header's code only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

class MatchCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(gsdk::test::gsdk_executable())) << "gsdk was not built";
  }
  Outcome run(std::vector<std::string> args) {
    args.push_back("--plugin-dir");
    args.push_back(gsdk::test::test_plugin_dir("valid").string());
    return gsdk::test::gsdk_run(args, dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  gsdk::test::TempDir dir;
};

TEST_F(MatchCli, ReportAndDocumentAddUp) {
  const Outcome r = run({"match", "test_nim", "--agent0", "uct:playouts=2000", "--agent1", "random", "--games", "6",
                         "--seed", "3", "--json", "m.json", "--record", "games/m.pgn"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "game 1/6: A is player 0, ")) << r.out;
  EXPECT_TRUE(contains(r.out, "game 6/6: A is player 1, ")) << r.out;
  EXPECT_TRUE(contains(r.out, "95% Wilson interval [")) << r.out;

  const auto doc = json("m.json");
  EXPECT_EQ(doc["algorithm"], "match");
  EXPECT_EQ(doc["status"], "complete");
  EXPECT_EQ(doc["game"]["name"], "test_nim");
  const auto& a = doc["result"]["a"];
  EXPECT_EQ(a["wins"].get<int>() + a["draws"].get<int>() + a["losses"].get<int>(), 6);
  EXPECT_EQ(a["as_player0"]["wins"].get<int>() + a["as_player1"]["wins"].get<int>(), a["wins"].get<int>());
  EXPECT_EQ(a["as_player0"]["losses"].get<int>() + a["as_player0"]["wins"].get<int>(), 3) << "nim has no draws";
  EXPECT_DOUBLE_EQ(a["score_rate"].get<double>(), a["wins"].get<double>() / 6);
  EXPECT_LE(a["ci95"]["low"].get<double>(), a["score_rate"].get<double>());
  EXPECT_GE(a["ci95"]["high"].get<double>(), a["score_rate"].get<double>());
  EXPECT_EQ(a["ci95"]["method"], "wilson");
  EXPECT_GE(a["wins"].get<int>(), 5) << "UCT against random";
  uint64_t plies = 0;
  for (const auto& g : doc["result"]["games"]) {
    plies += g["plies"].get<uint64_t>();
    EXPECT_EQ(g["a_player"].get<int>(), (g["round"].get<int>() - 1) % 2);
  }
  EXPECT_DOUBLE_EQ(doc["result"]["average_plies"].get<double>(), static_cast<double>(plies) / 6);
  EXPECT_EQ(doc["agents"]["a"]["moves"].get<uint64_t>() + doc["agents"]["b"]["moves"].get<uint64_t>(), plies);
  EXPECT_TRUE(contains(r.out, "A: " + std::to_string(a["wins"].get<int>()) + " wins, 0 draws, " +
                                  std::to_string(a["losses"].get<int>()) + " losses (as player 0: "))
      << r.out;

  const std::string record = gsdk::test::read_file(dir / "games/m.pgn");
  EXPECT_TRUE(contains(record, "[Game \"test_nim\"]\n[Round \"1\"]\n[Player0 \"uct:playouts=2000\"]\n[Player1 \"random\"]\n"))
      << record;
  EXPECT_TRUE(contains(record, "[Round \"2\"]\n[Player0 \"random\"]\n[Player1 \"uct:playouts=2000\"]\n")) << record;
  EXPECT_TRUE(std::regex_search(record, std::regex("\n\n1\\. take[123] take[123] 2\\. take[123]"))) << record;
  EXPECT_EQ(std::count(record.begin(), record.end(), '['), 6 * 9) << "nine tags per game";

  // The same seed plays the same games.
  const Outcome again = run({"match", "test_nim", "--agent0", "uct:playouts=2000", "--agent1", "random", "--games", "6",
                             "--seed", "3", "--json", "again.json", "--quiet"});
  ASSERT_EQ(again.status, 0) << describe(again);
  EXPECT_FALSE(contains(again.out, "game 1/6")) << "--quiet drops the game lines";
  EXPECT_EQ(json("again.json")["digest"], doc["digest"]);
}

TEST_F(MatchCli, BadSpecsExitTwoNamingTheKey) {
  const auto expect_refusal = [&](const std::string& spec, const std::string& message) {
    const Outcome r = run({"match", "test_nim", "--agent0", spec, "--agent1", "random", "--games", "2"});
    EXPECT_EQ(r.status, 2) << spec << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, message)) << spec << "\n" << r.err;
  };
  expect_refusal("uct:playouts=100,depth=3",
                 "agent spec 'uct:playouts=100,depth=3': unknown key 'depth' for uct; allowed keys: playouts, time, "
                 "leaf, batch, inflight, c, "
                 "roots, threads, device, gpu, nodes, reuse, evaluate, draw, leaf_value, eval_unit");
  expect_refusal("mcts", "unknown agent 'mcts'; expected one of: random, flatmc, uct");
  expect_refusal("uct:leaf=0", "leaf must be an integer from 1 to 1048576, got '0'");
  expect_refusal("uct:batch=0", "batch must be an integer from 1 to 65536, got '0'");
  expect_refusal("uct:c=lots", "c must be a number from 0 and at most 100, got 'lots'");
  expect_refusal("uct:playouts=10,time=1", "give playouts or time, not both");
  expect_refusal("uct:device=tpu", "device must be one of cpu, cuda, got 'tpu'");
  expect_refusal("uct:evaluate=all", "evaluate must be one of leaf, children, got 'all'");
  expect_refusal("uct:draw=1.5", "draw must be a number from 0 and at most 1, got '1.5'");
  expect_refusal("flatmc:roots=2", "unknown key 'roots' for flatmc; allowed keys: playouts, time, leaf, device, gpu");
  expect_refusal("random:playouts=5", "agent 'random' takes no options");
  expect_refusal("uct:playouts", "expected key=value, got 'playouts'");
  expect_refusal("uct:roots=2,roots=3", "key 'roots' is given twice");
  expect_refusal("uct:leaf_value=deep", "agent spec 'uct:leaf_value=deep': leaf_value must be playout, eval or "
                                        "cutoff:K (K random plies, then the evaluation), got 'deep'");
  expect_refusal("uct:leaf_value=cutoff:x", "the plies K of leaf_value=cutoff:K must be an integer from 1 to 1000");
  expect_refusal("uct:eval_unit=-4", "eval_unit must be a number above 0 and at most 16777216, got '-4'");
  // A game without an evaluation table cannot value leaves by it: the game and the table are named.
  expect_refusal("uct:playouts=100,leaf_value=eval",
                 "game 'test_nim' has no evaluation table (gsdk.evaluation.v1): leaf_value=eval needs one");
  // Without a usable CUDA device that is said first; with one, that test_nim has no CUDA playout table.
  expect_refusal("uct:device=cuda", gsdk::test::have_gpu()
                                        ? "game 'test_nim' (plugin "
                                        : "asks for device = \"cuda\", which this machine cannot serve");
}

// param.NAME=VALUE gives one agent its own game parameters: an agent that thinks taking the last stone
// loses (misere) plays for the wrong goal and loses to the same agent playing the real game.
// A game that brings an evaluation gets evaluation-valued UCT from the spec alone, and a device it has no CUDA
// evaluation for is refused with exit 2.
TEST_F(MatchCli, UctValuesLeavesByTheGamesEvaluation) {
  for (const char* value : {"eval", "cutoff:2"}) {
    const std::string spec = std::string("uct:playouts=1000,leaf_value=") + value;
    const Outcome r =
        run({"match", "test_tictactoe", "--agent0", spec, "--agent1", "random", "--games", "4", "--json", "m.json"});
    ASSERT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(json("m.json")["result"]["a"]["losses"].get<int>(), 0) << spec << " lost to random play\n" << r.out;
  }
  if (!gsdk::test::have_gpu()) return; // without a device the host refuses device=cuda before the agent is made
  const Outcome r = run({"match", "test_tictactoe", "--agent0", "uct:playouts=100,leaf_value=eval,device=cuda",
                         "--agent1", "random", "--games", "2"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "game 'test_tictactoe' has no CUDA evaluation")) << r.err;
}

TEST_F(MatchCli, AnAgentsOwnParametersChangeHowItPlays) {
  const Outcome r = run({"match", "test_nim", "--agent0", "uct:playouts=2000,param.misere=true", "--agent1",
                         "uct:playouts=2000", "--games", "6", "--json", "m.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto doc = json("m.json");
  EXPECT_LE(doc["result"]["a"]["wins"].get<int>(), 1) << doc.dump();
}

TEST_F(MatchCli, BadAgentParametersExitTwo) {
  const auto expect_refusal = [&](const std::string& spec, const std::string& message) {
    const Outcome r = run({"match", "test_nim", "--agent0", spec, "--agent1", "random", "--games", "1"});
    EXPECT_EQ(r.status, 2) << spec << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, message)) << spec << "\n" << r.err;
  };
  expect_refusal("uct:playouts=10,param.nope=1", "agent spec 'uct:playouts=10,param.nope=1': agent param[1]:1:1: game "
                                                 "'test_nim' has no parameter 'nope'; valid parameters: stones, max_take, misere, broken_at");
  expect_refusal("uct:playouts=10,param.stones=0", "parameter 'stones' of game 'test_nim' = 0 is out of range [1, 1000]");
  expect_refusal("uct:playouts=10,param.misere=3", "parameter 'misere' of game 'test_nim' must be a boolean");
  expect_refusal("uct:playouts=10,param.max_take=5",
                 "these parameters change the game's states, moves or scores; an agent's own parameters may change "
                 "only how it plays");
  expect_refusal("uct:playouts=10,param.=1", "'param.=1' names no parameter");
  expect_refusal("uct:playouts=10,param.stones=5,param.stones=6", "key 'param.stones' is given twice");
}

TEST_F(MatchCli, BadGameCountsAndGamesExitTwo) {
  Outcome r = run({"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--games 0 (command line): 'games' in [match] = 0 is out of range [1, 1000000]")) << r.err;
  r = run({"match", "no_such_game", "--agent0", "random", "--agent1", "random", "--games", "1"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "unknown game 'no_such_game'")) << r.err;
  r = run({"match", "test_nim", "--agent0", "random", "--games", "1"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "agent1")) << r.err;
  r = run({"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "2", "--opening-plies", "1001"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--opening-plies 1001 (command line): 'opening_plies' in [match] = 1001 is out of range [0, 1000]")) << r.err;
  r = run({"match", "test_nim", "--agent0", "random", "--agent1", "random", "--games", "2", "--parallel", "0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--parallel 0 (command line): 'parallel' in [match] = 0 is out of range [1, 256]")) << r.err;
}

// The moves of each game in a record, in order.
std::vector<std::vector<std::string>> recorded_moves(const std::string& record) {
  std::vector<std::vector<std::string>> games;
  std::istringstream lines(record);
  bool in_moves = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] == '[') {
      if (in_moves || games.empty()) games.emplace_back();
      in_moves = false;
      continue;
    }
    in_moves = true;
    std::istringstream words(line);
    for (std::string w; words >> w;)
      if (w.find('.') == std::string::npos && w.find('-') == std::string::npos) games.back().push_back(w);
  }
  return games;
}

TEST_F(MatchCli, RandomOpeningsArePlayedWithBothColours) {
  const Outcome r = run({"match", "test_nim", "--param", "stones=40", "--agent0", "uct:playouts=300", "--agent1",
                         "flatmc:playouts=200", "--games", "6", "--seed", "7", "--opening-plies", "3", "--record", "o.pgn",
                         "--json", "o.json", "--quiet"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "match of test_nim: 6 games (seed 7), each pair opened by 3 random plies")) << r.out;
  const std::string record = gsdk::test::read_file(dir / "o.pgn");
  EXPECT_EQ(std::count(record.begin(), record.end(), '['), 6 * 10) << "ten tags per game with OpeningPlies";
  const auto games = recorded_moves(record);
  ASSERT_EQ(games.size(), 6u) << record;
  const auto opening = [](const std::vector<std::string>& moves) {
    return std::vector<std::string>(moves.begin(), moves.begin() + 3);
  };
  for (size_t g = 0; g < 6; g += 2) EXPECT_EQ(opening(games[g]), opening(games[g + 1])) << "pair " << g / 2 + 1;
  EXPECT_TRUE(opening(games[0]) != opening(games[2]) || opening(games[0]) != opening(games[4]))
      << "three pairs opened alike: the openings are not drawn per pair";
  const auto doc = json("o.json");
  EXPECT_EQ(doc["opening_plies"], 3);
  uint64_t plies = 0;
  for (const auto& g : doc["result"]["games"]) plies += g["plies"].get<uint64_t>();
  EXPECT_EQ(doc["agents"]["a"]["moves"].get<uint64_t>() + doc["agents"]["b"]["moves"].get<uint64_t>(), plies - 6 * 3)
      << "the agents chose every move but the openings";
}

// Under playout budgets a game depends on its seed alone, not on which games run beside it.
TEST_F(MatchCli, GamesPlayedAtOnceAreTheGamesPlayedOneByOne) {
  const auto match = [&](const char* parallel, const char* name) {
    return run({"match", "test_nim", "--param", "stones=40", "--agent0", "uct:playouts=300", "--agent1",
                "flatmc:playouts=200", "--games", "9", "--seed", "11", "--opening-plies", "2", "--parallel", parallel,
                "--record", std::string(name) + ".pgn", "--json", std::string(name) + ".json", "--quiet"});
  };
  const Outcome one = match("1", "one"), four = match("4", "four");
  ASSERT_EQ(one.status, 0) << describe(one);
  ASSERT_EQ(four.status, 0) << describe(four);
  const auto one_games = recorded_moves(gsdk::test::read_file(dir / "one.pgn"));
  ASSERT_EQ(one_games.size(), 9u);
  EXPECT_EQ(recorded_moves(gsdk::test::read_file(dir / "four.pgn")), one_games);
  const auto a = json("one.json"), b = json("four.json");
  EXPECT_EQ(a["digest"].dump(), b["digest"].dump());
  EXPECT_EQ(a["result"].dump(), b["result"].dump());
  for (const char* agent : {"a", "b"}) // tallies summed over the slots
    for (const char* tally : {"moves", "playouts_per_move", "nodes_per_move"})
      EXPECT_EQ(a["agents"][agent][tally].dump(), b["agents"][agent][tally].dump()) << agent << " " << tally;
}

// A plugin that breaks in some games (no legal move at 5 stones): the games played at once stop, the exit
// status says so, and the report and record keep every game that finished, by round.
TEST_F(MatchCli, AGameThatFailsWhileOthersPlayEndsTheMatchAndKeepsTheFinishedGames) {
  const Outcome r = run({"match", "test_nim", "--param", "stones=40", "--param", "broken_at=5", "--agent0",
                         "flatmc:playouts=50", "--agent1", "random", "--games", "40", "--seed", "3", "--parallel", "4",
                         "--record", "b.pgn", "--json", "b.json"});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "the match did not finish")) << r.err;
  EXPECT_TRUE(contains(r.err, "stones=5")) << r.err;
  const auto doc = json("b.json");
  EXPECT_EQ(doc["status"], "incomplete");
  const auto& games = doc["result"]["games"];
  ASSERT_LT(games.size(), 40u);
  uint32_t last_round = 0;
  for (const auto& g : games) {
    EXPECT_GT(g["round"].get<uint32_t>(), last_round) << "rounds in order";
    last_round = g["round"].get<uint32_t>();
  }
  EXPECT_EQ(recorded_moves(gsdk::test::read_file(dir / "b.pgn")).size(), games.size());
  // The tree search meets the broken state while expanding: the same message.
  const Outcome uct = run({"match", "test_nim", "--param", "stones=40", "--param", "broken_at=5", "--agent0",
                           "uct:playouts=200", "--agent1", "random", "--games", "6", "--parallel", "2"});
  EXPECT_EQ(uct.status, 1) << describe(uct);
  EXPECT_TRUE(contains(uct.err, "returned 0 legal moves in the non-terminal state 'stones=5 to_move=")) << uct.err;
}

TEST_F(MatchCli, ExperimentFilesRunMatches) {
  gsdk::test::write_file(dir / "m.toml", R"(game = "test_nim"
algorithm = "match"
seed = 5

[params]
stones = 9

[match]
games = 4
agents = ["uct:playouts=500", "flatmc:playouts=300"]
record = "out/m.pgn"
parallel = 3
)");
  const Outcome r = run({"run", "m.toml", "--out", "m.json", "--quiet"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "match of test_nim: 4 games (seed 5)")) << r.out;
  const auto doc = json("m.json");
  EXPECT_EQ(doc["algorithm"], "match");
  EXPECT_EQ(doc["experiment"]["config"]["match"]["games"], 4);
  EXPECT_EQ(doc["experiment"]["config"]["match"]["parallel"], 3);
  EXPECT_EQ(doc["result"]["games_played"], 4);
  EXPECT_EQ(doc["record"], "out/m.pgn");
  EXPECT_TRUE(std::filesystem::exists(dir / "out/m.pgn"));
  // Each side twice, no draws in nim.
  EXPECT_EQ(doc["result"]["a"]["as_player1"]["wins"].get<int>() + doc["result"]["a"]["as_player1"]["losses"].get<int>(), 2);
}

TEST_F(MatchCli, MatchTablesAreStrict) {
  const auto refused = [&](const std::string& match_table, const std::string& message) {
    gsdk::test::write_file(dir / "bad.toml", "game = \"test_nim\"\nalgorithm = \"match\"\n" + match_table);
    const Outcome r = run({"run", "bad.toml"});
    EXPECT_EQ(r.status, 2) << match_table << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, message)) << match_table << "\n" << r.err;
  };
  refused("[match]\ngames = 2\nagents = [\"random\", \"uct:bogus=1\"]\n",
          "bad.toml:5:21: agent spec 'uct:bogus=1': unknown key 'bogus' for uct");
  refused("[match]\ngames = 2\nagents = [\"random\"]\n", "bad.toml:5:10: 'agents' in [match] must be an array of two agent specs");
  refused("[match]\ngames = 2\nagents = [\"random\", \"random\"]\nrounds = 3\n",
          "bad.toml:6:1: unknown key 'rounds' in [match]; valid keys: games, agents, record, opening_plies");
  refused("[match]\ngames = 2\nagents = [\"random\", \"random\"]\nopening_plies = -1\n",
          "'opening_plies' in [match] = -1 is out of range [0, 1000]");
  refused("[match]\nagents = [\"random\", \"random\"]\n", "missing required key 'games' in [match]");
  refused("[match]\ngames = 0\nagents = [\"random\", \"random\"]\n", "'games' in [match] = 0 is out of range [1, 1000000]");
  refused("[match]\ngames = 1\nagents = [\"random\", \"random\"]\n[run]\ndevice = \"cpu\"\n",
          "[run] does not apply to algorithm = \"match\"");
  refused("", "missing required table [match] for algorithm \"match\"");
  // A match honours neither a picture nor events: asked for, they are refused, never silently ignored.
  refused("[match]\ngames = 1\nagents = [\"random\", \"random\"]\n[output]\nplot = \"m.png\"\n",
          "bad.toml:7:8: [output] plot does not apply to algorithm = \"match\": a match draws no picture");
  refused("[match]\ngames = 1\nagents = [\"random\", \"random\"]\n[output]\nevents = \"m.jsonl\"\n",
          "bad.toml:7:10: [output] events does not apply to algorithm = \"match\": a match writes no events");
  gsdk::test::write_file(
      dir / "good.toml",
      "game = \"test_nim\"\nalgorithm = \"match\"\n[match]\ngames = 1\nagents = [\"random\", \"random\"]\n");
  const Outcome plot = run({"run", "good.toml", "--plot", "m.png"});
  EXPECT_EQ(plot.status, 2) << describe(plot);
  EXPECT_TRUE(contains(plot.err, "--plot does not apply to algorithm = \"match\"")) << plot.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "m.png"));
}

// `gsdk match` is the match experiment its options make: its --json is the document `gsdk run` writes for the same
// [match] table (the same games and digest), and [output] game_lines gives `gsdk run` the command's line per game.
TEST_F(MatchCli, TheCommandAndAConfigPlayTheSameMatch) {
  const Outcome command = run({"match", "test_nim", "--agent0", "uct:playouts=50", "--agent1", "random", "--games",
                               "4", "--seed", "9", "--json", "c.json"});
  ASSERT_EQ(command.status, 0) << describe(command);
  gsdk::test::write_file(dir / "same.toml", "game = \"test_nim\"\nalgorithm = \"match\"\nseed = 9\n[match]\ngames = 4\n"
                                            "agents = [\"uct:playouts=50\", \"random\"]\n[output]\ngame_lines = true\n");
  const Outcome config = run({"run", "same.toml", "--out", "r.json", "-q"});
  ASSERT_EQ(config.status, 0) << describe(config);
  EXPECT_TRUE(contains(config.out, "game 1/4: A is player 0, ")) << config.out;
  EXPECT_TRUE(contains(config.out, "game 4/4: A is player 1, ")) << config.out;
  const auto from_command = json("c.json"), from_config = json("r.json");
  EXPECT_EQ(from_command["digest"], from_config["digest"]);
  EXPECT_EQ(from_command["result"], from_config["result"]);
  EXPECT_EQ(from_command["experiment"]["config"]["match"]["agents"], from_config["experiment"]["config"]["match"]["agents"]);
  gsdk::test::write_file(dir / "quiet.toml", "game = \"test_nim\"\nalgorithm = \"match\"\n[match]\ngames = 2\n"
                                             "agents = [\"random\", \"random\"]\n");
  const Outcome quiet = run({"run", "quiet.toml", "--out", "q.json", "-q"});
  ASSERT_EQ(quiet.status, 0) << describe(quiet);
  EXPECT_FALSE(contains(quiet.out, "game 1/2")) << "game_lines is off by default\n" << quiet.out;
}

} // namespace
