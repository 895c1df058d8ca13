// cli_test.cpp - end-to-end runs of the built `gsdk` executable (found beside this test binary):
// list, version (--json), run (results file, digest independent of thread count, default output path, --set,
// progress lines off a terminal),
// replay (reproduces the best score; a tampered file is caught; --json), and the user-facing errors: config
// mistakes located as file:line:column with exit status 2, an unknown game naming the loaded
// plugins, --device cuda without a GPU, broken plugins in --plugin-dir (a warning, not a failure).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpu.hpp"
#include "gsdk/gsdk_plugin.h"
#include "gsdk_process.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
using gsdk::test::contains;
using gsdk::test::describe;
using gsdk::test::Outcome;

const char* const kConfig = R"(# a small graveler run
game = "graveler"
algorithm = "playouts"
seed = 99

[playouts]
count = 100000

[run]
device = "cpu"
)";

class Cli : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(gsdk::test::gsdk_executable())) << gsdk::test::gsdk_executable() << " was not built";
    gsdk::test::write_file(dir / "exp.toml", kConfig);
  }
  Outcome run(const std::vector<std::string>& args) { return gsdk::test::gsdk_run(args, dir.path()); }
  nlohmann::json results(const std::string& name) { return nlohmann::json::parse(gsdk::test::read_file(dir / name)); }

  gsdk::test::TempDir dir;
};

TEST_F(Cli, ListShowsGraveler) {
  const Outcome r = run({"list"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "graveler 1.0.0")) << r.out;
  EXPECT_TRUE(contains(r.out, "CPU batch playouts")) << r.out;
  EXPECT_TRUE(contains(r.out, "param rolls")) << r.out;
  EXPECT_FALSE(contains(r.out, "refused")) << "bin/plugins holds only good plugins\n" << r.out;
}

TEST_F(Cli, ListShowsRefusedPlugins) {
  const Outcome r = run({"list", "--plugin-dir", gsdk::test::test_plugin_dir("broken").string()});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "refused: " + (gsdk::test::test_plugin_dir("broken") / "bogus.so").string())) << r.out;
  EXPECT_TRUE(contains(r.out, "test_nim 0.1.0")) << r.out;
}

TEST_F(Cli, VersionAndUsage) {
  const Outcome v = run({"version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_TRUE(contains(v.out, "(ABI " + std::to_string(GSDK_ABI_MAJOR) + ".")) << v.out;
  const Outcome unknown = run({"frobnicate"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown command 'frobnicate'")) << unknown.err;
  const Outcome none = run({});
  EXPECT_EQ(none.status, 2);
  const Outcome missing = run({"run"});
  EXPECT_EQ(missing.status, 2) << describe(missing);
  EXPECT_TRUE(contains(missing.err, "usage: gsdk run")) << missing.err;
}

// `gsdk version --json`: one JSON document with what the line says; an unknown option is a usage error.
TEST_F(Cli, VersionAsJson) {
  const Outcome v = run({"version", "--json"});
  ASSERT_EQ(v.status, 0) << describe(v);
  const auto doc = nlohmann::json::parse(v.out);
  EXPECT_EQ(doc["abi"]["major"], GSDK_ABI_MAJOR) << v.out;
  EXPECT_EQ(doc["abi"]["minor"], GSDK_ABI_MINOR) << v.out;
  const std::string line = run({"version"}).out;
  EXPECT_TRUE(contains(line, "gsdk " + doc["gsdk"].get<std::string>() + " (ABI")) << line << v.out;
  const Outcome bad = run({"version", "--jsn"});
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_TRUE(contains(bad.err, "usage: gsdk version")) << bad.err;
}

TEST_F(Cli, RunWritesResultsWhoseDigestIgnoresThreadCount) {
  const Outcome two = run({"run", "exp.toml", "-q", "--threads", "2", "--out", "two.json"});
  ASSERT_EQ(two.status, 0) << describe(two);
  const Outcome one = run({"run", "exp.toml", "-q", "--threads", "1", "--out", "one.json"});
  ASSERT_EQ(one.status, 0) << describe(one);
  const auto a = results("two.json"), b = results("one.json");
  EXPECT_EQ(a["digest"], b["digest"]);
  EXPECT_TRUE(contains(a["digest"].get<std::string>(), "sha1:"));
  EXPECT_EQ(a["status"], "complete");
  EXPECT_EQ(a["seed"], 99);
  EXPECT_EQ(a["engine"], "batch");
  EXPECT_EQ(a["result"]["playouts"], 100000);
  EXPECT_EQ(a["game"]["name"], "graveler");
  EXPECT_EQ(a["game"]["params"]["rolls"], 231);
  EXPECT_EQ(a["experiment"]["config"]["playouts"]["count"], 100000);
  EXPECT_TRUE(contains(a["devices"].get<std::string>(), "cpu: 2 threads")) << a["devices"];
  EXPECT_TRUE(contains(b["devices"].get<std::string>(), "cpu: 1 threads")) << b["devices"];
  EXPECT_TRUE(contains(two.out, "digest " + a["digest"].get<std::string>())) << two.out;
  uint64_t sum = 0;
  for (const auto& c : a["result"]["histogram"]["counts"]) sum += c.get<uint64_t>();
  EXPECT_EQ(sum, 100000u);
  EXPECT_GT(a["result"]["chi_square"]["p_value"].get<double>(), 1e-6);
  // A different seed gives a different digest.
  const Outcome other = run({"run", "exp.toml", "-q", "--seed", "100", "--out", "other.json"});
  ASSERT_EQ(other.status, 0) << describe(other);
  EXPECT_NE(results("other.json")["digest"], a["digest"]);
}

// Off a terminal (stderr is a pipe here) a run prints a progress line every --progress-every seconds; the results
// and the report on stdout are those of a quiet run.
TEST_F(Cli, ProgressLinesOffATerminalLeaveTheResultsAlone) {
  const std::vector<std::string> run_args = {"run", "exp.toml", "--threads", "1", "--set", "playouts.count=3000000"};
  std::vector<std::string> with_lines = run_args, quiet = run_args;
  with_lines.insert(with_lines.end(), {"--progress-every", "0.001", "--out", "lines.json"});
  quiet.insert(quiet.end(), {"-q", "--out", "quiet.json"});
  const Outcome lines = run(with_lines);
  ASSERT_EQ(lines.status, 0) << describe(lines);
  const Outcome silent = run(quiet);
  ASSERT_EQ(silent.status, 0) << describe(silent);
  EXPECT_TRUE(contains(lines.err, "exp: ")) << lines.err;
  EXPECT_TRUE(contains(lines.err, "% (")) << lines.err;
  EXPECT_TRUE(contains(lines.err, " of 3000000 playouts), ")) << lines.err;
  EXPECT_TRUE(contains(lines.err, " playouts/s, ETA ")) << "the rate names its unit\n" << lines.err;
  EXPECT_FALSE(contains(lines.err, "\r")) << "no bar is redrawn off a terminal";
  EXPECT_FALSE(contains(silent.err, "% (")) << silent.err;
  const auto a = results("lines.json"), b = results("quiet.json");
  EXPECT_EQ(a["digest"], b["digest"]);
  EXPECT_EQ(a["result"], b["result"]);
  EXPECT_TRUE(contains(lines.out, "digest " + a["digest"].get<std::string>())) << lines.out;

  const Outcome refused = run({"run", "exp.toml", "--progress-every", "0"});
  EXPECT_EQ(refused.status, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "--progress-every must be a number of seconds above 0, got 0")) << refused.err;
}

TEST_F(Cli, DefaultResultsPathIsResultsSlashName) {
  const Outcome r = run({"run", "exp.toml", "-q"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(fs::exists(dir / "results" / "exp.json"));
}

TEST_F(Cli, SetOverridesAConfigValue) {
  const Outcome r =
      run({"run", "exp.toml", "-q", "--set", "playouts.count=1234", "--set", "params.rolls=40", "--out", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto j = results("r.json");
  EXPECT_EQ(j["result"]["playouts"], 1234);
  EXPECT_EQ(j["game"]["params"]["rolls"], 40);
  EXPECT_EQ(j["result"]["histogram"]["counts"].size(), 41u);
}

TEST_F(Cli, ReplayReproducesTheBestScore) {
  ASSERT_EQ(run({"run", "exp.toml", "-q", "--out", "r.json"}).status, 0);
  const Outcome r = run({"replay", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "matches the results file's best score")) << r.out;
  const auto best = results("r.json")["result"]["best"];
  EXPECT_TRUE(contains(r.out, "graveler playout " + best["playout"].dump())) << r.out;
  EXPECT_TRUE(contains(r.out, "score " + best["score"].dump())) << r.out;
  const Outcome other = run({"replay", "r.json", "--playout", "5", "--states"});
  ASSERT_EQ(other.status, 0) << describe(other);
  EXPECT_TRUE(contains(other.out, "playout 5 ")) << other.out;
  EXPECT_TRUE(contains(other.out, "rolls=231")) << other.out;
}

// `gsdk replay --json`: the replay as one document (moves, final state, score, the checks), nothing else on stdout.
TEST_F(Cli, ReplayAsJson) {
  ASSERT_EQ(run({"run", "exp.toml", "-q", "--out", "r.json"}).status, 0);
  const auto best = results("r.json")["result"]["best"];
  const Outcome r = run({"replay", "r.json", "--json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["game"], "graveler");
  EXPECT_EQ(doc["playout"], best["playout"]);
  EXPECT_EQ(doc["score"], best["score"]);
  EXPECT_EQ(doc["agrees"], true);
  EXPECT_TRUE(doc["mismatches"].empty());
  EXPECT_FALSE(doc["moves"].empty());
  EXPECT_FALSE(doc.contains("states"));
  ASSERT_EQ(doc["checks"].size(), 2u) << r.out;
  EXPECT_EQ(doc["checks"][0]["name"], "best");
  EXPECT_EQ(doc["checks"][0]["replayed"], best["score"]);
  const Outcome with_states = run({"replay", "r.json", "--json", "--states", "--playout", "5"});
  ASSERT_EQ(with_states.status, 0) << describe(with_states);
  const auto states = nlohmann::json::parse(with_states.out);
  EXPECT_EQ(states["playout"], 5);
  EXPECT_EQ(states["states"].size(), states["moves"].size());
  auto tampered = results("r.json");
  tampered["result"]["best"]["score"] = best["score"].get<int64_t>() + 1;
  gsdk::test::write_file(dir / "t.json", tampered.dump());
  const Outcome caught = run({"replay", "t.json", "--json"});
  EXPECT_EQ(caught.status, 1) << describe(caught);
  const auto caught_doc = nlohmann::json::parse(caught.out);
  EXPECT_EQ(caught_doc["agrees"], false);
  EXPECT_FALSE(caught_doc["mismatches"].empty()) << caught.out;
}

TEST_F(Cli, ReplayCatchesATamperedResultsFile) {
  ASSERT_EQ(run({"run", "exp.toml", "-q", "--out", "r.json"}).status, 0);
  auto j = results("r.json");
  j["result"]["best"]["score"] = j["result"]["best"]["score"].get<int64_t>() + 1;
  gsdk::test::write_file(dir / "tampered.json", j.dump());
  const Outcome r = run({"replay", "tampered.json"});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_TRUE(contains(r.out, "MISMATCH")) << r.out;
  gsdk::test::write_file(dir / "junk.json", "{\"hello\": 1}");
  const Outcome junk = run({"replay", "junk.json"});
  EXPECT_EQ(junk.status, 2) << describe(junk);
  EXPECT_TRUE(contains(junk.err, "not a gsdk results file")) << junk.err;
}

TEST_F(Cli, GenericEngineRunAndReplay) {
  const Outcome r = run(
      {"run", "exp.toml", "-q", "--set", "playouts.engine=generic", "--set", "playouts.count=2000", "--out", "g.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(results("g.json")["engine"], "generic");
  const Outcome replay = run({"replay", "g.json"});
  EXPECT_EQ(replay.status, 0) << describe(replay);
  EXPECT_TRUE(contains(replay.out, "matches")) << replay.out;
}

TEST_F(Cli, StartStateRunAndReplay) {
  const Outcome r =
      run({"run", "exp.toml", "-q", "--set", "playouts.start_state=\"rolls=200 ones=90\"", "--out", "s.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto j = results("s.json");
  EXPECT_GE(j["result"]["worst"]["score"].get<int64_t>(), 90);
  const Outcome replay = run({"replay", "s.json"});
  EXPECT_EQ(replay.status, 0) << describe(replay);
  EXPECT_TRUE(contains(replay.out, "matches")) << replay.out;
  const Outcome bad = run({"run", "exp.toml", "-q", "--set", "playouts.start_state=\"rolls=999 ones=0\""});
  EXPECT_EQ(bad.status, 2) << describe(bad);
  EXPECT_TRUE(contains(bad.err, "--set[1]:1:")) << bad.err;
  EXPECT_TRUE(contains(bad.err, "invalid start_state")) << bad.err;
}

TEST_F(Cli, UnknownKeyExitsTwoWithLocation) {
  gsdk::test::write_file(dir / "bad.toml", std::string(kConfig) + "threds = 4\n");
  const Outcome r = run({"run", "bad.toml", "-q"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(
      r.err, "bad.toml:11:1: unknown key 'threds' (did you mean 'threads'?) in [run]; valid keys: device, threads"))
      << r.err;
}

TEST_F(Cli, SyntaxErrorExitsTwoWithLocation) {
  gsdk::test::write_file(dir / "bad.toml", "game = \"graveler\"\nalgorithm = [\n");
  const Outcome r = run({"run", "bad.toml", "-q"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "bad.toml:")) << r.err;
  EXPECT_TRUE(contains(r.err, "TOML syntax error")) << r.err;
}

TEST_F(Cli, BadSetValueIsAClearError) {
  const Outcome r = run({"run", "exp.toml", "-q", "--set", "playouts.count=oops"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--set[1]:1:16: 'count' in [playouts] must be an integer, got a string")) << r.err;
  const Outcome syntax = run({"run", "exp.toml", "-q", "--set", "playouts.count"});
  EXPECT_EQ(syntax.status, 2) << describe(syntax);
  EXPECT_TRUE(contains(syntax.err, "expected key=value")) << syntax.err;
}

TEST_F(Cli, UnknownParameterListsValidOnes) {
  const Outcome r = run({"run", "exp.toml", "-q", "--set", "params.dice=3"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--set[1]:1:8: game 'graveler' has no parameter 'dice'; valid parameters: rolls"))
      << r.err;
}

TEST_F(Cli, BadGameParameterIsLocatedInTheFile) {
  gsdk::test::write_file(
      dir / "rolls.toml",
      "game = \"graveler\"\nalgorithm = \"playouts\"\n[params]\nrolls = 0\n[playouts]\ncount = 10\n");
  const Outcome r = run({"run", "rolls.toml", "-q"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "rolls.toml:4:9: parameter 'rolls' of game 'graveler' = 0 is out of range [1, 1024]"))
      << r.err;
}

TEST_F(Cli, UnknownGameNamesTheLoadedPlugins) {
  gsdk::test::write_file(dir / "chess.toml", "game = \"chess9\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 10\n");
  const Outcome r = run({"run", "chess.toml", "-q"});
  EXPECT_NE(r.status, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "chess.toml:1:8: unknown game 'chess9'; loaded plugins: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "graveler")) << "the list names every loaded plugin\n" << r.err;
}

TEST_F(Cli, CudaDeviceWithoutGpuFails) {
  if (gsdk::test::have_gpu()) GTEST_SKIP() << "this machine has a GPU";
  const Outcome r = run({"run", "exp.toml", "-q", "--device", "cuda"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "which this machine cannot serve")) << r.err;
  if (!gsdk::core::built_with_cuda()) {
    EXPECT_TRUE(contains(r.err, "built without CUDA")) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir / "results")) << "a refused run writes no results";
}

TEST_F(Cli, CudaDeviceRunsOnAGpuWithTheCpuDigest) {
  GSDK_REQUIRE_GPU();
  ASSERT_EQ(run({"run", "exp.toml", "-q", "--device", "cpu", "--out", "cpu.json"}).status, 0);
  const Outcome r = run({"run", "exp.toml", "-q", "--device", "cuda", "--out", "cuda.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(results("cuda.json")["digest"], results("cpu.json")["digest"]);
  EXPECT_TRUE(contains(results("cuda.json")["devices"].get<std::string>(), "cuda:"));
  const Outcome replay = run({"replay", "cuda.json"});
  EXPECT_EQ(replay.status, 0) << describe(replay);
}

TEST_F(Cli, BrokenPluginDirWarnsButTheRunSucceeds) {
  const fs::path broken = gsdk::test::test_plugin_dir("broken");
  const Outcome r = run({"run", "exp.toml", "-q", "--plugin-dir", broken.string(), "--out", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(
      contains(r.err, "gsdk: warning: plugin " + (broken / "bogus.so").string() + " refused: not a shared object"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "abi99.so refused")) << r.err;
  EXPECT_EQ(results("r.json")["status"], "complete");
}

TEST_F(Cli, TestPluginFromPluginDirRunsOnTheGenericEngine) {
  gsdk::test::write_file(
      dir / "nim.toml",
      "game = \"test_nim\"\nalgorithm = \"playouts\"\n[params]\nstones = 15\n[playouts]\ncount = 5000\n");
  const Outcome r =
      run({"run", "nim.toml", "-q", "--plugin-dir", gsdk::test::test_plugin_dir("valid").string(), "--out", "n.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const auto j = results("n.json");
  EXPECT_EQ(j["engine"], "generic");
  EXPECT_EQ(j["result"]["best"]["score"], 1);
  EXPECT_EQ(j["result"]["worst"]["score"], -1);
  const Outcome replay = run({"replay", "n.json", "--plugin-dir", gsdk::test::test_plugin_dir("valid").string()});
  EXPECT_EQ(replay.status, 0) << describe(replay);
  EXPECT_TRUE(contains(replay.out, "matches")) << replay.out;
}

} // namespace

// `gsdk help CMD` prints what `gsdk CMD --help` prints, for every command; -V is --version.
TEST(CliHelp, HelpCommandEqualsCommandHelpAndDashVIsVersion) {
  gsdk::test::TempDir dir;
  for (const std::string command :
       {"list", "run", "merge", "bench", "replay", "perft", "match", "gtp", "check", "new-plugin", "version"}) {
    const Outcome help = gsdk::test::gsdk_run({"help", command}, dir.path());
    const Outcome option = gsdk::test::gsdk_run({command, "--help"}, dir.path());
    EXPECT_EQ(help.status, 0) << command << "\n" << describe(help);
    EXPECT_TRUE(contains(help.out, "usage: gsdk " + command)) << command << "\n" << help.out;
    EXPECT_EQ(help.out, option.out) << command;
  }
  const Outcome unknown = gsdk::test::gsdk_run({"help", "frobnicate"}, dir.path());
  EXPECT_EQ(unknown.status, 2) << describe(unknown);
  EXPECT_TRUE(contains(unknown.err, "unknown command 'frobnicate'")) << unknown.err;
  const Outcome version = gsdk::test::gsdk_run({"--version"}, dir.path());
  const Outcome short_version = gsdk::test::gsdk_run({"-V"}, dir.path());
  EXPECT_EQ(short_version.status, 0) << describe(short_version);
  EXPECT_TRUE(contains(short_version.out, "gsdk ")) << short_version.out;
  EXPECT_EQ(short_version.out, version.out);
}
