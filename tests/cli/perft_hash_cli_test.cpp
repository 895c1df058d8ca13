// perft_hash_cli_test.cpp - hashed perft (transposition tables) from the command line: `gsdk perft`'s --no-hash,
// --hash-mb and --gpu-hash-mb (bad values refused with exit status 2 naming the option and the value), counts and
// divide lines equal with and without hashing (on test plugins, and on chess_perft when it is built), the "Hash:"
// line and the results' "hash" object only when hashed, and a perft experiment's digest the same with hash = true
// and hash = false.

// GCC 12 bug 105616 (a false -Wmaybe-uninitialized): with -fsanitize=address, moving <regex>'s automaton states is
// reported as reading an uninitialized std::function inside <bits/std_function.h>; the moved-from state is fully
// built. Silenced for this header's code only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

// test_coin_tree (its cpu_perft table, chance nodes, transpositions: a state is its ply and a value below 1000) and
// test_nim (per-state rules only; positions repeat all the time).
const char* const kConfig = R"(game = "test_coin_tree"
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

class PerftHashCli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
  }
  Outcome run(std::vector<std::string> args) {
    args.push_back("--plugin-dir");
    args.push_back(gsdk::test::test_plugin_dir("valid").string());
    return gsdk::test::gsdk_run(args, dir.path());
  }
  nlohmann::json json(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  gsdk::test::TempDir dir;
};

// What a diff with Stockfish reads: the divide lines and "Nodes searched", up to "Time:".
std::string counted_lines(const std::string& out) { return out.substr(0, out.find("Time: ")); }

// The "Hash: ..." line, or "" without one.
std::string hash_line(const std::string& out) {
  std::smatch m;
  return std::regex_search(out, m, std::regex("\nHash: ([^\n]*)\n")) ? m[1].str() : "";
}

TEST_F(PerftHashCli, BadHashOptionsExitTwoNamingTheOptionAndTheValue) {
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
    refused({option, "1099511627777"}, option + " must be at most 1099511627776 MiB (2^40), got 1099511627777");
    refused({option, "1e15"}, option + " must be at most 1099511627776 MiB (2^40), got 1000000000000000");
    refused({"--no-hash", option, "64"},
            option + " 64 sizes a transposition table, but --no-hash counts without them: give one or the other");
    refused({option, "64", "--no-hash"}, option + " 64 sizes a transposition table, but --no-hash");
  }
  refused({"--hash-mb", "1", "--hash-mb", "2"}, "'--hash-mb' cannot be specified more than once");
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
TEST_F(PerftHashCli, HashedAndUnhashedCountsAndDivideLinesAreEqual) {
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

TEST_F(PerftHashCli, ChessStartDepthFourHashedAndUnhashed) {
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

TEST_F(PerftHashCli, JsonHasTheHashObjectOnlyWhenHashed) {
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
TEST_F(PerftHashCli, ExperimentDigestIsTheSameWithAndWithoutHashing) {
  gsdk::test::write_file(dir / "coin.toml", kConfig);
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
