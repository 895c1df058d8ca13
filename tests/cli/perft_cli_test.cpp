// perft_cli_test.cpp - end-to-end `gsdk perft` and `gsdk run` of algorithm = "perft" configs, on the
// test plugins (and on chess_perft when it is built): the Stockfish-style output, counts checked
// against values known independently, the exit statuses (2 for a bad depth, game, position, option
// or parameter; 1 for a plugin failure or a count that differs from `expect`), the results files; hashed perft (the
// transposition tables' options, counts equal with and without them, their statistics).

// GCC 12 bug 105616 (a false -Wmaybe-uninitialized): with -fsanitize=address, moving <regex>'s automaton states is
// reported as reading an uninitialized std::function inside <bits/std_function.h>; the moved-from state is fully
// built. Silenced for this header's code only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk/core/runtime/cuda_devices.hpp"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;
using gsdk::test::starts_with;

// test_nim (21 stones, takes of 1..3): 3^d lines while 3d <= 21; from 9 stones, depth 4, the lines
// are the 4-tuples of takes in 1..3 summing to at most 9: 66 (enumerated by hand per sum: 1+4+10+16+19+16).
const char* const kNimConfig = R"(game = "test_nim"
algorithm = "perft"

[perft]
divide = true

[[perft.positions]]
name = "opening"
position = "start"
depth = 5
expect = 243

[[perft.positions]]
name = "middle"
position = "stones=9 to_move=1"
depth = 4
expect = 66

[run]
device = "cpu"
threads = 2
)";

class PerftCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
  }
  // gsdk with the test plugins' folder added.
  Outcome run(std::vector<std::string> args) {
    args.push_back("--plugin-dir");
    args.push_back(gsdk::test::test_plugin_dir("valid").string());
    return gsdk::test::gsdk_run(args, dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }
  void config(const std::string& name, const std::string& text) { gsdk::test::write_file(dir / name, text); }

  gsdk::test::TempDir dir;
};

// The count after "Nodes searched: ", or "" when the line is missing.
std::string nodes_searched(const std::string& out) {
  std::smatch m;
  return std::regex_search(out, m, std::regex("Nodes searched: ([0-9]+)\n")) ? m[1].str() : "";
}

TEST_F(PerftCli, DivideIsPrintedLikeStockfish) {
  const Outcome r = run({"perft", "test_nim", "start", "5", "--divide", "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(starts_with(r.out, "take1: 81\ntake2: 81\ntake3: 81\n\nNodes searched: 243\nTime: ")) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nTime: [0-9]+\\.[0-9]{3} s\nSpeed: [0-9]+ nodes/s\n"))) << r.out;
  EXPECT_TRUE(contains(r.out, "Engine: generic (cpu: ")) << "test_nim has no cpu_perft table\n" << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(PerftCli, WithoutDivideTheTotalComesFirst) {
  const Outcome r = run({"perft", "test_nim", "stones=9 to_move=1", "4", "--threads", "2"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(starts_with(r.out, "Nodes searched: 66\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "cpu: 2 threads")) << r.out;
  const Outcome zero = run({"perft", "test_nim", "start", "0", "--divide"});
  ASSERT_EQ(zero.status, 0) << describe(zero);
  EXPECT_TRUE(starts_with(zero.out, "\nNodes searched: 1\n")) << "depth 0 is one node, with no root moves\n"
                                                              << zero.out;
}

TEST_F(PerftCli, PluginTableAndGenericEngineAgree) {
  const Outcome table = run({"perft", "test_coin_tree", "start", "10", "--threads", "2"});
  const Outcome generic = run({"perft", "test_coin_tree", "start", "10", "--threads", "2", "--generic"});
  ASSERT_EQ(table.status, 0) << describe(table);
  ASSERT_EQ(generic.status, 0) << describe(generic);
  EXPECT_FALSE(nodes_searched(table.out).empty()) << table.out;
  EXPECT_EQ(nodes_searched(table.out), nodes_searched(generic.out));
  EXPECT_TRUE(contains(table.out, "Engine: plugin-cpu (cpu: 2 threads (plugin perft))")) << table.out;
  EXPECT_TRUE(contains(generic.out, "Engine: generic (cpu: 2 threads (per-state))")) << generic.out;
  // A plugin whose table miscounts is caught by the same comparison.
  const Outcome faulty = run({"perft", "test_coin_tree", "start", "10", "--param", "fault=1"});
  ASSERT_EQ(faulty.status, 0) << describe(faulty);
  EXPECT_NE(nodes_searched(faulty.out), nodes_searched(generic.out));
}

TEST_F(PerftCli, BadInputExitsTwoWithAClearMessage) {
  for (const std::string depth : {"x", "3.5", "", "1e2"}) {
    const Outcome r = run({"perft", "test_nim", "start", depth});
    EXPECT_EQ(r.status, 2) << depth << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "DEPTH must be a whole number of plies, got '" + depth + "'")) << r.err;
  }
  // The range is [perft]'s, checked by the perft driver and located at the operand.
  const Outcome deep = run({"perft", "test_nim", "start", "65"});
  EXPECT_EQ(deep.status, 2) << describe(deep);
  EXPECT_TRUE(contains(deep.err, "DEPTH 65 (command line): 'depth' in [[perft.positions]] entry 1 = 65 is out of "
                                 "range [0, 64]"))
      << deep.err;
  const Outcome negative = run({"perft", "test_nim", "start", "-1"});
  EXPECT_EQ(negative.status, 2) << "a negative depth reads as an option\n" << describe(negative);
  const Outcome game = run({"perft", "nim9", "start", "3"});
  EXPECT_EQ(game.status, 2) << describe(game);
  EXPECT_TRUE(contains(game.err, "unknown game 'nim9'; loaded plugins: ")) << game.err;
  const Outcome position = run({"perft", "test_nim", "stones=99 to_move=0", "3"});
  EXPECT_EQ(position.status, 2) << describe(position);
  EXPECT_TRUE(contains(position.err, "invalid position for game 'test_nim': test_nim state 'stones=99 to_move=0'"))
      << position.err;
  const Outcome option = run({"perft", "test_nim", "start", "3", "--frobnicate"});
  EXPECT_EQ(option.status, 2) << describe(option);
  EXPECT_TRUE(contains(option.err, "--frobnicate")) << option.err;
  EXPECT_TRUE(contains(option.err, "usage: gsdk perft GAME POSITION DEPTH")) << option.err;
  const Outcome device = run({"perft", "test_nim", "start", "3", "--device", "gpu"});
  EXPECT_EQ(device.status, 2) << describe(device);
  EXPECT_TRUE(contains(device.err, "--device gpu (command line): 'device' in [run] is \"gpu\"; expected one of: auto, "
                                   "cpu, cuda, all"))
      << device.err;
  const Outcome streams = run({"perft", "test_nim", "start", "3", "--streams", "0"});
  EXPECT_EQ(streams.status, 2) << describe(streams);
  const Outcome param = run({"perft", "test_nim", "start", "3", "--param", "stones=0"});
  EXPECT_EQ(param.status, 2) << describe(param);
  EXPECT_TRUE(contains(param.err, "--param[1]:1:8: parameter 'stones' of game 'test_nim' = 0 is out of range"))
      << param.err;
  const Outcome unknown = run({"perft", "test_nim", "start", "3", "--param", "max_take=2", "--param", "piles=3"});
  EXPECT_EQ(unknown.status, 2) << describe(unknown);
  EXPECT_TRUE(contains(unknown.err, "--param[2]:1:1: game 'test_nim' has no parameter 'piles'")) << unknown.err;
  const Outcome missing = run({"perft", "test_nim", "start"});
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.err, "usage: gsdk perft")) << missing.err;
  EXPECT_TRUE(missing.out.empty()) << missing.out;
}

TEST_F(PerftCli, ParametersChangeTheTree) {
  // 5 stones, takes of 1..5: every composition of at most 5 into 3 parts, C(5, 3) = 10.
  const Outcome r = run({"perft", "test_nim", "start", "3", "--param", "stones=5", "--param", "max_take=5"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(starts_with(r.out, "Nodes searched: 10\n")) << r.out;
}

TEST_F(PerftCli, PluginFailureExitsOneWithThePartialCount) {
  const Outcome r = run({"perft", "test_coin_tree", "start", "8", "--param", "fault=2", "--json", "f.json"});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "perft did not finish: plugin 'test_coin_tree'")) << r.err;
  EXPECT_TRUE(contains(r.err, "gsdk.cpu_perft.v1 count at depth")) << r.err;
  EXPECT_TRUE(contains(r.err, "injected cpu_perft failure")) << r.err;
  EXPECT_TRUE(contains(r.err, "partial count: 0 leaves")) << r.err;
  EXPECT_FALSE(contains(r.out, "Nodes searched")) << "an unfinished count is not printed as a result\n" << r.out;
  const auto j = json("f.json");
  EXPECT_EQ(j["status"], "incomplete");
  EXPECT_TRUE(contains(j["result"]["error"].get<std::string>(), "injected cpu_perft failure")) << j.dump(2);
}

TEST_F(PerftCli, CudaNeedsTheCudaPerftTable) {
  const Outcome r = run({"perft", "test_nim", "start", "3", "--device", "cuda"});
  // A build without CUDA says so first, as a usage error with the way to the CPU; a CUDA build names the table.
  if (!gsdk::core::built_with_cuda()) {
    EXPECT_EQ(r.status, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "built without CUDA")) << r.err;
    EXPECT_TRUE(contains(r.err, "run it on the CPU with --device cpu")) << r.err;
    return;
  }
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "has no CUDA perft table")) << r.err;
}

TEST_F(PerftCli, JsonDocument) {
  const Outcome r = run({"perft", "test_nim", "start", "5", "--divide", "--json", "out/p.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto j = json("out/p.json");
  EXPECT_EQ(j["algorithm"], "perft");
  EXPECT_EQ(j["status"], "complete");
  EXPECT_EQ(j["game"]["name"], "test_nim");
  EXPECT_EQ(j["game"]["params"]["stones"], 21);
  EXPECT_EQ(j["position"], "start");
  EXPECT_EQ(j["depth"], 5);
  EXPECT_EQ(j["result"]["leaves"], "243");
  EXPECT_EQ(j["result"]["cpu_leaves"], "243");
  ASSERT_EQ(j["result"]["divide"].size(), 3u);
  EXPECT_EQ(j["result"]["divide"][2]["move"], "take3");
  EXPECT_EQ(j["result"]["divide"][2]["leaves"], "81");
}

// perft draws no picture: [output] plot and --plot are refused with a located message, not ignored.
TEST_F(PerftCli, PlotIsRefused) {
  config("plot.toml", std::string(kNimConfig) + "\n[output]\nplot = \"p.png\"\n");
  const Outcome in_config = run({"run", "plot.toml", "-q"});
  EXPECT_EQ(in_config.status, 2) << describe(in_config);
  EXPECT_TRUE(std::regex_search(in_config.err, std::regex("plot\\.toml:[0-9]+:8: \\[output\\] plot does not apply to "
                                                          "algorithm = \"perft\": perft draws no picture")))
      << in_config.err;
  config("nim.toml", kNimConfig);
  const Outcome option = run({"run", "nim.toml", "-q", "--plot", "p.png"});
  EXPECT_EQ(option.status, 2) << describe(option);
  EXPECT_TRUE(contains(option.err, "--plot does not apply to algorithm = \"perft\"")) << option.err;
  EXPECT_FALSE(fs::exists(dir / "p.png"));
  // An empty path asks for no picture: accepted (scripts set it for every algorithm).
  const Outcome none = run({"run", "nim.toml", "-q", "--set", "output.plot="});
  EXPECT_EQ(none.status, 0) << describe(none);
}

TEST_F(PerftCli, ConfigRunPrintsATableAndWritesResults) {
  config("nim.toml", kNimConfig);
  const Outcome r = run({"run", "nim.toml", "-q", "--out", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  opening +5 +243 +243 +yes "))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  middle +4 +66 +66 +yes "))) << r.out;
  const auto j = json("r.json");
  EXPECT_EQ(j["algorithm"], "perft");
  EXPECT_EQ(j["status"], "complete");
  EXPECT_EQ(j["devices"], "cpu: 2 threads (per-state)");
  EXPECT_TRUE(starts_with(j["digest"].get<std::string>(), "sha1:")) << j["digest"];
  EXPECT_EQ(j["result"]["leaves"], "309");
  const auto& p = j["result"]["positions"];
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1]["name"], "middle");
  EXPECT_EQ(p[1]["position"], "stones=9 to_move=1");
  EXPECT_EQ(p[1]["leaves"], "66");
  EXPECT_EQ(p[1]["expected"], "66");
  EXPECT_EQ(p[1]["match"], true);
  ASSERT_EQ(p[1]["divide"].size(), 3u);
  EXPECT_EQ(p[1]["divide"][0]["leaves"], "26") << "take1 leaves 8 stones: 1+3+6+7+6+3 lines of three takes";
  EXPECT_GE(p[0]["seconds"].get<double>(), 0.0);
  EXPECT_TRUE(p[0].contains("nodes_per_second"));
  EXPECT_EQ(j["experiment"]["config"]["perft"]["positions"][0]["expect"], 243);
}

TEST_F(PerftCli, ConfigWithAWrongExpectExitsOneNamingThePosition) {
  std::string text = kNimConfig;
  text.replace(text.find("expect = 66"), 11, "expect = 70");
  config("nim.toml", text);
  const Outcome r = run({"run", "nim.toml", "-q", "--out", "r.json"});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "perft count mismatch: position 'middle' (depth 4) counted 66 leaves, expected 70"))
      << r.err;
  EXPECT_FALSE(contains(r.err, "'opening'")) << "only the wrong position is named\n" << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  middle +4 +66 +70 +NO "))) << r.out;
  const auto j = json("r.json");
  EXPECT_EQ(j["status"], "mismatch");
  EXPECT_EQ(j["result"]["positions"][0]["match"], true);
  EXPECT_EQ(j["result"]["positions"][1]["match"], false);
  EXPECT_TRUE(contains(j["failure"].get<std::string>(), "position 'middle'")) << j.dump(2);
}

TEST_F(PerftCli, ConfigOverridesAndLocatedPositionErrors) {
  config("nim.toml", kNimConfig);
  const Outcome r = run({"run", "nim.toml", "-q", "--out", "g.json", "--set", "perft.divide=false", "--threads", "1"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto j = json("g.json");
  EXPECT_EQ(j["devices"], "cpu: 1 threads (per-state)");
  EXPECT_FALSE(j["result"]["positions"][0].contains("divide"));
  std::string text = kNimConfig;
  text.replace(text.find("stones=9 to_move=1"), 18, "stones=9 to_move=2");
  config("bad.toml", text);
  const Outcome bad = run({"run", "bad.toml", "-q"});
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_TRUE(contains(bad.err, "bad.toml:15:12: invalid position for game 'test_nim': test_nim state")) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "results")) << "a refused config counts nothing and writes nothing";
  config("depth.toml", std::string(kNimConfig) + "\n[[perft.positions]]\nposition = \"start\"\ndepth = 99\n");
  const Outcome depth = run({"run", "depth.toml", "-q"});
  EXPECT_EQ(depth.status, 2) << describe(depth);
  EXPECT_TRUE(
      contains(depth.err, "depth.toml:25:9: 'depth' in [[perft.positions]] entry 3 = 99 is out of range [0, 64]"))
      << depth.err;
}

TEST_F(PerftCli, ConfigWithAFailingPluginIsIncomplete) {
  config("coin.toml",
         "game = \"test_coin_tree\"\nalgorithm = \"perft\"\n[params]\nfault = 2\n[perft]\n"
         "[[perft.positions]]\nposition = \"start\"\ndepth = 6\n[[perft.positions]]\nposition = \"start\"\n"
         "depth = 7\n[run]\ndevice = \"cpu\"\n");
  const Outcome r = run({"run", "coin.toml", "-q", "--out", "c.json"});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "the run did not finish: position 'start' (depth 6): plugin 'test_coin_tree'")) << r.err;
  const auto j = json("c.json");
  EXPECT_EQ(j["status"], "incomplete");
  EXPECT_EQ(j["result"]["positions"].size(), 1u) << "the run stops at the failing position";
  EXPECT_EQ(j["result"]["positions"][0]["status"], "incomplete");
}

// The real chess plugin, when this build has it: totals and divide lines as Stockfish prints them.
TEST_F(PerftCli, ChessPerftMatchesThePublishedCounts) {
  if (!fs::exists(gsdk::test::plugin_dir() / "chess_perft.so")) GTEST_SKIP() << "chess_perft is not built";
  const Outcome start = run({"perft", "chess_perft", "start", "3", "--divide", "--device", "cpu"});
  ASSERT_EQ(start.status, 0) << describe(start);
  EXPECT_EQ(nodes_searched(start.out), "8902");
  EXPECT_TRUE(contains(start.out, "\ne2e4: 600\n")) << start.out;
  EXPECT_TRUE(contains(start.out, "\ng1f3: 440\n")) << start.out;
  const std::regex divide_line("[a-h][1-8][a-h][1-8][nbrq]?: [0-9]+\n");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(start.out.begin(), start.out.end(), divide_line), std::sregex_iterator()), 20)
      << "one line per root move\n"
      << start.out;
  const Outcome kiwipete =
      run({"perft", "chess_perft", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "3"});
  ASSERT_EQ(kiwipete.status, 0) << describe(kiwipete);
  EXPECT_EQ(nodes_searched(kiwipete.out), "97862");
  const Outcome bad = run({"perft", "chess_perft", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "3"});
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_TRUE(contains(bad.err, "invalid position for game 'chess_perft'")) << bad.err;
}

// Hashed perft (transposition tables): --no-hash, --hash-mb and --gpu-hash-mb (bad values refused with exit status
// 2 naming the option and the value), counts and divide lines equal with and without hashing (on test plugins, and
// on chess_perft when it is built), the "Hash:" line and the results' "hash" object only when hashed, and a perft
// experiment's digest the same with hash = true and hash = false.

// A perft experiment of test_coin_tree: its cpu_perft table, chance nodes, transpositions (a state is its ply and a
// value below 1000).
const char* const kCoinConfig = R"(game = "test_coin_tree"
algorithm = "perft"

[perft]
divide = true

[[perft.positions]]
name = "deep"
position = "start"
depth = 11

[[perft.positions]]
name = "shallow"
position = "start"
depth = 7

[run]
device = "cpu"
threads = 2
)";

// What a diff with Stockfish reads: the divide lines and "Nodes searched", up to "Time:".
std::string counted_lines(const std::string& out) {
  return out.substr(0, out.find("Time: "));
}

// The "Hash: ..." line, or "" without one.
std::string hash_line(const std::string& out) {
  std::smatch m;
  return std::regex_search(out, m, std::regex("\nHash: ([^\n]*)\n")) ? m[1].str() : "";
}

TEST_F(PerftCli, HashOptionsWithBadValuesExitTwoNamingTheOptionAndTheValue) {
  const auto refused = [&](const std::vector<std::string>& options, const std::string& says) {
    std::vector<std::string> args = {"perft", "test_nim", "start", "3"};
    args.insert(args.end(), options.begin(), options.end());
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 2) << options[0] << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, says)) << r.err;
    EXPECT_FALSE(contains(r.out, "Nodes searched")) << r.out;
  };
  for (const std::string option : {"--hash-mb", "--gpu-hash-mb"}) {
    for (const std::string value : {"-1", "lots", "1.5", "18446744073709551616"})
      refused({option, value}, "the argument ('" + value + "') for option '" + option +
                                   "' is invalid: expected a whole number from 0 to 18446744073709551615");
    refused({option, ""}, "the argument for option '" + option + "' is invalid: expected a whole number");
    // The ranges are [perft]'s, checked by the perft driver and located at the option.
    const std::string key = option == "--hash-mb" ? "hash_mb" : "gpu_hash_mb";
    refused({option, "1099511627777"}, option + " 1099511627777 (command line): '" + key +
                                           "' in [perft] = 1099511627777 is out of range [0, 1099511627776]");
    refused({option, "1e15"}, option + " 1000000000000000 (command line): '" + key +
                                  "' in [perft] = 1000000000000000 is out of range [0, 1099511627776]");
    refused({"--no-hash", option, "64"}, option + " 64 (command line): '" + key +
                                             "' in [perft] = 64 sizes a transposition table, but hash = false counts "
                                             "without them");
    refused({option, "64", "--no-hash"}, option + " 64 (command line): '" + key + "' in [perft] = 64 sizes");
  }
  refused({"--hash-mb", "1", "--hash-mb", "2"}, "--hash-mb is given more than once; give it once");
  // 0 is the default size, not a size: accepted with --no-hash, as the largest size is without it.
  for (const std::vector<std::string>& fine :
       {std::vector<std::string>{"--no-hash", "--hash-mb", "0", "--gpu-hash-mb", "0"},
        {"--hash-mb", "1099511627776", "--gpu-hash-mb", "1"}}) {
    std::vector<std::string> args = {"perft", "test_nim", "start", "3", "--device", "cpu"};
    args.insert(args.end(), fine.begin(), fine.end());
    const Outcome r = run(args);
    EXPECT_EQ(r.status, 0) << fine[0] << "\n" << describe(r);
    EXPECT_TRUE(contains(r.out, "Nodes searched: 27\n")) << r.out;
  }
}

// The same counts and divide lines hashed (by default, and with small tables) as without (--no-hash), through the
// plugin's perft table and through the per-state rules (--generic); the Hash line only when hashed.
TEST_F(PerftCli, HashedAndUnhashedCountsAndDivideLinesAreEqual) {
  const std::vector<std::vector<std::string>> counts = {
      {"perft", "test_coin_tree", "start", "12", "--divide", "--threads", "2"},
      {"perft", "test_coin_tree", "start", "12", "--divide", "--threads", "2", "--generic"},
      {"perft", "test_nim", "start", "12", "--divide", "--threads", "2", "--param", "stones=30"},
      {"perft", "test_tree", "start", "9", "--divide", "--threads", "1"}};
  for (const std::vector<std::string>& count : counts) {
    SCOPED_TRACE(count[1] + (count.back() == "--generic" ? " --generic" : ""));
    std::vector<std::string> unhashed_args = count, small_args = count;
    unhashed_args.push_back("--no-hash");
    small_args.insert(small_args.end(), {"--hash-mb", "1", "--gpu-hash-mb", "1"});
    const Outcome hashed = run(count), unhashed = run(unhashed_args), small = run(small_args);
    ASSERT_EQ(hashed.status, 0) << describe(hashed);
    ASSERT_EQ(unhashed.status, 0) << describe(unhashed);
    ASSERT_EQ(small.status, 0) << describe(small);
    EXPECT_TRUE(contains(unhashed.out, "\nNodes searched: ")) << unhashed.out;
    EXPECT_TRUE(std::regex_search(unhashed.out, std::regex("^[^\n]+: [0-9]+\n"))) << "divide lines\n" << unhashed.out;
    EXPECT_EQ(counted_lines(hashed.out), counted_lines(unhashed.out));
    EXPECT_EQ(counted_lines(small.out), counted_lines(unhashed.out));
    EXPECT_FALSE(contains(unhashed.out, "Hash:")) << unhashed.out;
    EXPECT_TRUE(std::regex_search(hash_line(hashed.out), std::regex("[0-9]+ distinct subtrees of [0-9]+ paths")))
        << hashed.out;
    EXPECT_TRUE(contains(hashed.out, "\nEngine: ")) << hashed.out;
    EXPECT_LT(hashed.out.find("\nEngine: "), hashed.out.find("\nHash: ")) << "Hash comes after Engine\n" << hashed.out;
  }
}

TEST_F(PerftCli, ChessStartDepthFourHashedAndUnhashed) {
  if (!fs::exists(gsdk::test::plugin_dir() / "chess_perft.so")) GTEST_SKIP() << "chess_perft is not built";
  const Outcome hashed = run({"perft", "chess_perft", "start", "4", "--divide", "--device", "cpu", "--threads", "2"});
  const Outcome unhashed =
      run({"perft", "chess_perft", "start", "4", "--divide", "--device", "cpu", "--threads", "2", "--no-hash"});
  ASSERT_EQ(hashed.status, 0) << describe(hashed);
  ASSERT_EQ(unhashed.status, 0) << describe(unhashed);
  EXPECT_TRUE(contains(unhashed.out, "\ne2e4: 13160\n")) << unhashed.out;
  EXPECT_TRUE(contains(unhashed.out, "\nNodes searched: 197281\n")) << unhashed.out;
  EXPECT_EQ(counted_lines(hashed.out), counted_lines(unhashed.out));
  EXPECT_NE(hash_line(hashed.out), "") << hashed.out;
  EXPECT_EQ(hash_line(unhashed.out), "") << unhashed.out;
}

TEST_F(PerftCli, HashJsonHasTheHashObjectOnlyWhenHashed) {
  ASSERT_EQ(run({"perft", "test_coin_tree", "start", "10", "--json", "hashed.json", "--hash-mb", "2"}).status, 0);
  ASSERT_EQ(run({"perft", "test_coin_tree", "start", "10", "--json", "plain.json", "--no-hash"}).status, 0);
  const nlohmann::json hashed = json("hashed.json")["result"], plain = json("plain.json")["result"];
  EXPECT_EQ(hashed["leaves"], plain["leaves"]);
  EXPECT_FALSE(plain.contains("hash")) << plain.dump(2);
  ASSERT_TRUE(hashed.contains("hash")) << hashed.dump(2);
  const nlohmann::json& h = hashed["hash"];
  EXPECT_TRUE(h["enabled"].is_boolean()) << h.dump(2);
  for (const char* key : {"paths", "subtrees", "frontier_states", "duplicates"})
    EXPECT_TRUE(h[key].is_number_unsigned()) << key << "\n" << h.dump(2);
  for (const char* table : {"host", "device"})
    for (const char* key : {"bytes", "slots", "filled", "probes", "hits", "stores"})
      EXPECT_TRUE(h[table][key].is_number_unsigned()) << table << "." << key << "\n" << h.dump(2);
  EXPECT_EQ(h.size(), 7u) << h.dump(2);
  // What the core reports once it hashes: the CPU table it was asked for, and no more hits than probes.
  if (h["enabled"] == true) {
    EXPECT_LE(h["host"]["bytes"].get<uint64_t>(), uint64_t{2} << 20) << h.dump(2);
    EXPECT_LE(h["host"]["hits"].get<uint64_t>(), h["host"]["probes"].get<uint64_t>()) << h.dump(2);
    EXPECT_LE(h["subtrees"].get<uint64_t>(), h["paths"].get<uint64_t>()) << h.dump(2);
  }
}

// The digest is of positions, depths and counts: the same with and without tables; the results' positions carry
// the tables' statistics only when hashed, and the printed table a hash line.
TEST_F(PerftCli, ExperimentDigestIsTheSameWithAndWithoutHashing) {
  config("coin.toml", kCoinConfig);
  const Outcome hashed = run({"run", "coin.toml", "-q", "--out", "hashed.json"});
  const Outcome plain = run({"run", "coin.toml", "-q", "--out", "plain.json", "--set", "perft.hash=false"});
  const Outcome generic = run(
      {"run", "coin.toml", "-q", "--out", "generic.json", "--set", "perft.engine=generic", "--set", "perft.hash_mb=1"});
  ASSERT_EQ(hashed.status, 0) << describe(hashed);
  ASSERT_EQ(plain.status, 0) << describe(plain);
  ASSERT_EQ(generic.status, 0) << describe(generic);
  const nlohmann::json h = json("hashed.json"), p = json("plain.json"), g = json("generic.json");
  EXPECT_TRUE(gsdk::test::starts_with(h["digest"].get<std::string>(), "sha1:")) << h["digest"];
  EXPECT_EQ(h["digest"], p["digest"]);
  EXPECT_EQ(g["digest"], p["digest"]) << "the per-state recursion, hashed";
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(h["result"]["positions"][i]["divide"], p["result"]["positions"][i]["divide"]);
    EXPECT_TRUE(h["result"]["positions"][i].contains("hash")) << i;
    EXPECT_TRUE(g["result"]["positions"][i].contains("hash")) << i;
    EXPECT_FALSE(p["result"]["positions"][i].contains("hash")) << i;
  }
  EXPECT_TRUE(std::regex_search(hashed.out, std::regex("\n  hash [^\n]*[0-9]+ distinct subtrees of [0-9]+ paths\n")))
      << hashed.out;
  EXPECT_FALSE(contains(plain.out, "  hash ")) << plain.out;
  // A size with hash = false is refused before anything is counted, located at the size.
  const Outcome contradiction =
      run({"run", "coin.toml", "-q", "--set", "perft.hash=false", "--set", "perft.hash_mb=8"});
  EXPECT_EQ(contradiction.status, 2) << describe(contradiction);
  EXPECT_TRUE(contains(contradiction.err, "'hash_mb' in [perft] = 8 sizes a transposition table, but hash = false"))
      << contradiction.err;
}

} // namespace

// An Othello board text starts with '-': after `--` it is a word, not an option; --position=P goes with a
// positional depth. Both count what `start` counts for the same board.
TEST_F(PerftCli, PositionStartingWithDashAfterDoubleDashOrByName) {
  const std::string board = std::string(27, '-') + "OX------XO" + std::string(27, '-') + " X";
  const Outcome start = gsdk::test::gsdk_run({"perft", "othello", "start", "3"}, dir.path());
  ASSERT_EQ(start.status, 0) << describe(start);
  EXPECT_TRUE(contains(start.out, "Nodes searched: 56")) << start.out;
  for (const std::vector<std::string>& args : {std::vector<std::string>{"perft", "othello", "--", board, "3"},
                                               {"perft", "othello", "--position=" + board, "3"},
                                               {"perft", "--position=" + board, "othello", "3"},
                                               {"perft", "--depth", "3", "othello", "--", board}}) {
    // othello is found beside gsdk; the fixture's --plugin-dir would land after `--`.
    const Outcome r = gsdk::test::gsdk_run(args, dir.path());
    EXPECT_EQ(r.status, 0) << args[2] << "\n" << describe(r);
    EXPECT_TRUE(contains(r.out, "Nodes searched: 56")) << args[2] << "\n" << r.out;
  }
  const Outcome missing = run({"perft", "othello", "--position=start"});
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.err, "DEPTH is missing: give it as a word or as --depth")) << missing.err;
  const Outcome extra = run({"perft", "othello", "--position=start", "3", "4"});
  EXPECT_EQ(extra.status, 2) << describe(extra);
  EXPECT_TRUE(contains(extra.err, "unexpected argument '4'")) << extra.err;
  const Outcome help = run({"perft", "--help"});
  EXPECT_TRUE(contains(help.out, "Words after `--` are operands")) << help.out;
}
