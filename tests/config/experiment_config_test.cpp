// experiment_config_test.cpp - experiment files and --set overrides (host/src/experiment_config.hpp):
// a valid file's values, and for every kind of mistake (TOML syntax, unknown key, wrong type, value
// out of range or not among the choices, missing required key or table, malformed override) an
// error whose message starts with file:line:column: pointing at the offending text.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "algorithms/playouts/playouts_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "config/quoted_value.hpp"
#include "config_error.hpp"
#include "plugin_loading/game_params.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;

const gsdk::host::PlayoutsSettings& playouts_of(const gsdk::host::ExperimentConfig& c) {
  return c.settings_as<gsdk::host::PlayoutsSettings>();
}

using gsdk::host::ConfigError;
using gsdk::host::ExperimentConfig;
using gsdk::host::parse_experiment;
using gsdk::test::contains;
using gsdk::test::starts_with;

const char* const kValid = R"(# a comment line
game = "graveler"
algorithm = "playouts"
seed = 7

[params]
rolls = 100

[playouts]
count = 1_000

[run]
device = "cpu"
threads = 2
)";

ExperimentConfig parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return parse_experiment(text, "exp.toml", overrides);
}

// The message of the ConfigError that parsing throws (fails the test when nothing is thrown).
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {},
                     const std::vector<gsdk::host::OptionOverride>& options = {}) {
  return gsdk::test::config_error_of(text, "exp.toml", overrides, options);
}

// A config with `line` appended to its [run] table (which starts at line 12; its keys at 13, 14).
std::string with_run_line(const std::string& line) {
  return std::string(kValid) + line + "\n";
}

TEST(ExperimentConfig, ValidFileIsReadCompletely) {
  const ExperimentConfig c = parse(kValid);
  EXPECT_EQ(c.file, "exp.toml");
  EXPECT_EQ(c.name, "exp") << "the name defaults to the file's stem";
  EXPECT_EQ(c.game, "graveler");
  EXPECT_EQ(c.algorithm, "playouts");
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(playouts_of(c).count, 1000u);
  EXPECT_FALSE(playouts_of(c).start_state.has_value());
  EXPECT_EQ(playouts_of(c).engine, gsdk::host::Engine::batch);
  EXPECT_EQ(c.run.device, gsdk::host::DeviceRequest::cpu);
  EXPECT_EQ(c.run.threads, 2u);
  EXPECT_EQ(c.run.streams, 2u);
  EXPECT_EQ(c.run.simd, "auto");
  EXPECT_TRUE(c.run.gpus.empty());
  EXPECT_EQ(c.params["rolls"].value<int64_t>(), 100);
  EXPECT_TRUE(c.output_file.empty());
}

TEST(ExperimentConfig, OptionalSections) {
  const ExperimentConfig c =
      parse(std::string(kValid) + "gpus = [0, 1]\nstreams = 4\nsimd = \"avx2\"\n"
                                  "[output]\nfile = \"out.json\"\nplot = \"p.png\"\nevents = \"e.jsonl\"\n",
            {"name=\"custom\"", "playouts.start_state=\"rolls=3 ones=1\"", "playouts.engine=generic"});
  EXPECT_EQ(c.name, "custom");
  EXPECT_EQ(c.run.gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.run.streams, 4u);
  EXPECT_EQ(c.run.simd, "avx2");
  EXPECT_EQ(c.output_file, "out.json");
  EXPECT_EQ(c.plot_file, "p.png");
  EXPECT_EQ(c.events_file, "e.jsonl");
  ASSERT_TRUE(playouts_of(c).start_state.has_value());
  EXPECT_EQ(*playouts_of(c).start_state, "rolls=3 ones=1");
  EXPECT_EQ(playouts_of(c).engine, gsdk::host::Engine::generic);
}

TEST(ExperimentConfig, DefaultsWithoutRunTable) {
  const ExperimentConfig c = parse("game = \"g\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 5\n");
  EXPECT_EQ(c.seed, 1u);
  EXPECT_EQ(c.run.device, gsdk::host::DeviceRequest::automatic);
  EXPECT_EQ(c.run.threads, 0u);
  EXPECT_EQ(c.run.streams, 2u);
}

TEST(ExperimentConfig, IntegralFloatCountIsAccepted) {
  EXPECT_EQ(playouts_of(parse(kValid, {"playouts.count=1e9"})).count, 1000000000u);
  const std::string m = error_of(kValid, {"playouts.count=2.5"});
  EXPECT_TRUE(starts_with(m, "--set[1]:1:16: ")) << m;
  EXPECT_TRUE(contains(m, "'count' in [playouts] = 2.5 is not a whole number")) << m;
}

// A float where an integer is expected says what is wrong with it, however large: not "must be an integer"
// for 1e300 and "out of range" for 1e17.
TEST(ExperimentConfig, FloatCountOutOfRangeSaysSo) {
  EXPECT_EQ(error_of(kValid, {"playouts.count=1e300"}),
            "--set[1]:1:16: 'count' in [playouts] = 1e+300 is out of range [1, 9007199254740992]");
  EXPECT_EQ(error_of(kValid, {"playouts.count=1e17"}),
            "--set[1]:1:16: 'count' in [playouts] = 100000000000000000 is out of range [1, 9007199254740992]");
  EXPECT_EQ(error_of(kValid, {"playouts.count=-inf"}),
            "--set[1]:1:16: 'count' in [playouts] = -inf is out of range [1, 9007199254740992]");
  EXPECT_EQ(error_of(kValid, {"playouts.count=nan"}),
            "--set[1]:1:16: 'count' in [playouts] = nan is not a whole number");
  EXPECT_EQ(error_of(kValid, {"playouts.count=1e16"}),
            "--set[1]:1:16: 'count' in [playouts] = 10000000000000000 is out of range [1, 9007199254740992]");
}

TEST(ExperimentConfig, TomlSyntaxError) {
  const std::string m = error_of("game = \"graveler\"\nalgorithm = \"playouts\"\nseed = = 3\n");
  EXPECT_TRUE(starts_with(m, "exp.toml:3:8: TOML syntax error: ")) << m;
}

TEST(ExperimentConfig, DuplicateKeyIsASyntaxError) {
  const std::string m = error_of(with_run_line("threads = 3"));
  EXPECT_TRUE(starts_with(m, "exp.toml:15:")) << m;
  EXPECT_TRUE(contains(m, "TOML syntax error")) << m;
}

TEST(ExperimentConfig, UnterminatedString) {
  const std::string m = error_of("game = \"graveler\nalgorithm = \"playouts\"\n");
  EXPECT_TRUE(starts_with(m, "exp.toml:1:")) << m;
  EXPECT_TRUE(contains(m, "TOML syntax error")) << m;
}

TEST(ExperimentConfig, UnknownTopLevelKeyListsValidKeys) {
  const std::string m = error_of(std::string("sede = 3\n") + kValid);
  EXPECT_EQ(m, "exp.toml:1:1: unknown key 'sede' (did you mean 'seed'?) in the experiment's top level; valid keys: "
               "game, algorithm, seed, "
               "name, params, playouts, perft, qlearning, match, nmcs, nrpa, beam, run, output");
}

TEST(ExperimentConfig, UnknownKeyInSectionPointsAtTheKey) {
  const std::string m = error_of(with_run_line("  devise = \"cpu\""));
  EXPECT_EQ(m, "exp.toml:15:3: unknown key 'devise' (did you mean 'device'?) in [run]; valid keys: device, threads, "
               "gpus, streams, simd");
}

TEST(ExperimentConfig, UnknownSectionIsAnUnknownKey) {
  const std::string m = error_of(std::string(kValid) + "\n[ouptut]\nfile = \"x\"\n");
  EXPECT_TRUE(starts_with(m, "exp.toml:16:")) << m;
  EXPECT_TRUE(contains(m, "unknown key 'ouptut' (did you mean 'output'?) in the experiment's top level; valid keys: "))
      << m;
}

TEST(ExperimentConfig, WrongTypePointsAtTheValue) {
  const std::string m = error_of(with_run_line("streams = \"four\""));
  EXPECT_EQ(m, "exp.toml:15:11: 'streams' in [run] must be an integer, got a string");
  const std::string b = error_of(with_run_line("simd = true"));
  EXPECT_EQ(b, "exp.toml:15:8: 'simd' in [run] must be a string, got a boolean");
}

TEST(ExperimentConfig, WrongTypeOfSection) {
  const std::string m = error_of("game = \"g\"\nalgorithm = \"playouts\"\nplayouts = 5\n");
  EXPECT_EQ(m, "exp.toml:3:12: 'playouts' in the experiment's top level must be a table ([playouts]), got an integer");
}

TEST(ExperimentConfig, OutOfRangeValues) {
  EXPECT_EQ(error_of(with_run_line("streams = 0")), "exp.toml:15:11: 'streams' in [run] = 0 is out of range [1, 64]");
  EXPECT_EQ(error_of(kValid, {"run.threads=5000"}),
            "--set[1]:1:13: 'threads' in [run] = 5000 is out of range [0, 4096]");
  const std::string count = error_of("game = \"g\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 0\n");
  EXPECT_EQ(count, "exp.toml:4:9: 'count' in [playouts] = 0 is out of range [1, 9007199254740992]");
  const std::string seed = error_of("seed = -1\ngame = \"g\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 1\n");
  EXPECT_EQ(seed, "exp.toml:1:8: 'seed' in the experiment's top level = -1 is out of range [0, 9223372036854775807]");
}

TEST(ExperimentConfig, ValueNotAmongTheChoices) {
  EXPECT_EQ(error_of(with_run_line("simd = \"sse\"")),
            "exp.toml:15:8: 'simd' in [run] is \"sse\"; expected one of: auto, avx512, avx2, scalar");
  const std::string m = error_of(kValid, {"run.device=gpu"});
  EXPECT_EQ(m, "--set[1]:1:12: 'device' in [run] is \"gpu\"; expected one of: auto, cpu, cuda, all");
  const std::string a = error_of("game = \"g\"\nalgorithm = \"mcts\"\n[playouts]\ncount = 1\n");
  EXPECT_EQ(
      a,
      "exp.toml:2:13: 'algorithm' is \"mcts\"; expected one of: playouts, perft, qlearning, match, nmcs, nrpa, beam");
}

TEST(ExperimentConfig, GpuListEntries) {
  EXPECT_EQ(error_of(with_run_line("gpus = [0, \"one\"]")),
            "exp.toml:15:12: 'gpus' in [run] entries must be integers, got a string");
  EXPECT_EQ(error_of(with_run_line("gpus = [0, 5000]")),
            "exp.toml:15:12: 'gpus' in [run] entry 5000 is out of range [0, 1023]");
  EXPECT_EQ(error_of(with_run_line("gpus = 0")),
            "exp.toml:15:8: 'gpus' in [run] must be an array of integers, got an integer");
}

TEST(ExperimentConfig, MissingRequiredKeys) {
  const std::string game = error_of("algorithm = \"playouts\"\n[playouts]\ncount = 1\n");
  EXPECT_TRUE(starts_with(game, "exp.toml:1:1: ")) << game;
  EXPECT_TRUE(contains(game, "missing required key 'game' in the experiment's top level")) << game;
  const std::string algorithm = error_of("game = \"g\"\n[playouts]\ncount = 1\n");
  EXPECT_TRUE(contains(algorithm, "missing required key 'algorithm'")) << algorithm;
  const std::string table = error_of("game = \"g\"\nalgorithm = \"playouts\"\n");
  EXPECT_TRUE(starts_with(table, "exp.toml:1:1: ")) << table;
  EXPECT_TRUE(contains(table, "missing required table [playouts] for algorithm \"playouts\"")) << table;
  const std::string count = error_of("game = \"g\"\nalgorithm = \"playouts\"\n\n[playouts]\nengine = \"batch\"\n");
  EXPECT_EQ(count, "exp.toml:4:1: missing required key 'count' in [playouts]");
}

TEST(ExperimentConfig, GameParametersKeepTheirLocations) {
  // [params] is checked later, against the plugin's declarations: its errors must still point into
  // the file (or the override) that set the value.
  const gsdk_param_desc rolls = {"rolls", GSDK_PARAM_INT, 0, 10, 0.0, nullptr, 1, 50, "rolls"};
  gsdk_game game{};
  game.name = "dice";
  game.param_count = 1;
  game.params = &rolls;
  const auto error_for = [&](const ExperimentConfig& c) -> std::string {
    try {
      gsdk::host::resolve_params(game, c.params);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error_for(parse(kValid)), "exp.toml:7:9: parameter 'rolls' of game 'dice' = 100 is out of range [1, 50]");
  EXPECT_EQ(error_for(parse(kValid, {"params.rolls=77"})),
            "--set[1]:1:14: parameter 'rolls' of game 'dice' = 77 is out of range [1, 50]");
  EXPECT_EQ(error_for(parse(kValid, {"params.sides=6"})),
            "--set[1]:1:8: game 'dice' has no parameter 'sides'; valid parameters: rolls");
  // The raw document (for the results file) still holds the parameters.
  EXPECT_EQ(parse(kValid).raw["params"]["rolls"].value<int64_t>(), 100);
}

TEST(ExperimentConfigOverrides, OverrideReplacesAndAddsValues) {
  const ExperimentConfig c =
      parse(kValid, {"playouts.count=5000", "run.device=all", "seed=9", "output.file=\"r.json\"", "run.threads=0"});
  EXPECT_EQ(playouts_of(c).count, 5000u);
  EXPECT_EQ(c.run.device, gsdk::host::DeviceRequest::all) << "a bare word is taken as a string";
  EXPECT_EQ(c.seed, 9u);
  EXPECT_EQ(c.output_file, "r.json");
  EXPECT_EQ(c.run.threads, 0u);
  // The raw document (written to the results file) carries the overridden values.
  EXPECT_EQ(c.raw["playouts"]["count"].value<int64_t>(), 5000);
}

TEST(ExperimentConfigOverrides, LaterOverrideWins) {
  EXPECT_EQ(parse(kValid, {"seed=3", "seed=4"}).seed, 4u);
}

TEST(ExperimentConfigOverrides, CreatesMissingTables) {
  const ExperimentConfig c = parse("game = \"g\"\nalgorithm = \"playouts\"\n", {"playouts.count=12", "run.streams=3"});
  EXPECT_EQ(playouts_of(c).count, 12u);
  EXPECT_EQ(c.run.streams, 3u);
}

TEST(ExperimentConfigOverrides, MalformedOverrides) {
  const std::string no_equals = error_of(kValid, {"playouts.count"});
  EXPECT_EQ(no_equals, "--set \"playouts.count\": expected key=value, e.g. playouts.count=1000");
  const std::string no_key = error_of(kValid, {"=5"});
  EXPECT_TRUE(contains(no_key, "expected key=value")) << no_key;
  const std::string not_table = error_of(kValid, {"game.rules=1"});
  EXPECT_EQ(not_table, "--set \"game.rules=1\": 'game' is not a table");
}

TEST(ExperimentConfigOverrides, ErrorsAreLocatedInTheOverride) {
  // A bare word where a number belongs: the column is the value's in "playouts.count=oops".
  const std::string oops = error_of(kValid, {"playouts.count=oops"});
  EXPECT_EQ(oops, "--set[1]:1:16: 'count' in [playouts] must be an integer, got a string");
  const std::string second = error_of(kValid, {"seed=3", "run.streams=0"});
  EXPECT_EQ(second, "--set[2]:1:13: 'streams' in [run] = 0 is out of range [1, 64]");
  const std::string key = error_of(kValid, {"run.devise=cpu"});
  EXPECT_EQ(key, "--set[1]:1:5: unknown key 'devise' (did you mean 'device'?) in [run]; valid keys: device, "
                 "threads, gpus, streams, simd");
  const std::string section = error_of(kValid, {"runs.device=cpu"});
  EXPECT_TRUE(
      starts_with(section, "--set[1]:1:1: unknown key 'runs' (did you mean 'run'?) in the experiment's top level"))
      << section;
}

TEST(ExperimentConfigOverrides, QuotesInBareWordsSurvive) {
  EXPECT_EQ(parse(kValid, {"name=a\"b\\c"}).name, "a\"b\\c");
}

// A value the user gave is quoted whole up to 200 bytes, then cut (never inside a UTF-8 character) with
// its length said.
TEST(QuotedValue, LongValuesAreCutWithTheirLength) {
  using gsdk::host::quote_value;
  EXPECT_EQ(quote_value("abc"), "\"abc\"");
  EXPECT_EQ(quote_value("abc", '\''), "'abc'");
  EXPECT_EQ(quote_value(std::string(200, 'x')), "\"" + std::string(200, 'x') + "\"");
  EXPECT_EQ(quote_value(std::string(201, 'x')), "\"" + std::string(200, 'x') + "…\" (201 bytes)");
  std::string accents = "a";
  for (int i = 0; i < 200; ++i) accents += "\u00e9"; // two bytes each: byte 200 is inside the 100th
  std::string shown = "a";
  for (int i = 0; i < 99; ++i) shown += "\u00e9";
  EXPECT_EQ(quote_value(accents), "\"" + shown + "…\" (401 bytes)");
}

TEST(ExperimentConfig, HugeValuesAreQuotedCutShort) {
  const std::string huge(1u << 20, 'k');
  const std::string algorithm = error_of("game = \"g\"\nalgorithm = \"" + huge + "\"\n");
  EXPECT_TRUE(starts_with(algorithm, "exp.toml:2:13: 'algorithm' is \"" + std::string(200, 'k') +
                                         "…\" (1048576 bytes); expected one of: "))
      << algorithm.substr(0, 1000);
  const std::string key = error_of(std::string(kValid) + huge + " = 1\n");
  EXPECT_TRUE(starts_with(key, "exp.toml:15:1: unknown key '" + std::string(200, 'k') + "…' (1048576 bytes) in [run]"))
      << key.substr(0, 1000);
  const std::string set = error_of(kValid, {huge});
  EXPECT_EQ(set,
            "--set \"" + std::string(200, 'k') + "…\" (1048576 bytes): expected key=value, e.g. playouts.count=1000");
}

// `name` names the results file, so it is a file name: no path, nothing results/<name>.json cannot hold.
TEST(ExperimentConfigName, MustBeAFileName) {
  const std::string expected = "; expected a file name: not empty, no '/', not '.' or '..', no control characters, at "
                               "most 200 bytes";
  EXPECT_EQ(error_of(std::string("name = \"../../x\"\n") + kValid),
            "exp.toml:1:8: 'name' in the experiment's top level is \"../../x\", which contains '/'" + expected);
  EXPECT_EQ(error_of(std::string("name = \"\"\n") + kValid),
            "exp.toml:1:8: 'name' in the experiment's top level is \"\", which is empty" + expected);
  EXPECT_EQ(error_of(std::string("name = \".\"\n") + kValid),
            "exp.toml:1:8: 'name' in the experiment's top level is \".\", which is a folder's name" + expected);
  EXPECT_EQ(error_of(std::string("name = \"a\\u0000b\\tc\"\n") + kValid),
            "exp.toml:1:8: 'name' in the experiment's top level is \"a\\x00b\\x09c\", which contains a control "
            "character" +
                expected);
  const std::string long_name(201, 'n');
  EXPECT_TRUE(contains(error_of(kValid, {"name=" + long_name}), "which is 201 bytes long" + expected));
  EXPECT_EQ(parse(kValid, {"name=" + std::string(200, 'n')}).name, std::string(200, 'n'));
  EXPECT_TRUE(contains(gsdk::test::config_error_of(kValid, "configs/..toml"),
                       "configs/..toml: the experiment's name defaults to the file's stem \".\", which is a "
                       "folder's name; set 'name' to a file name"));
}

TEST(ExperimentConfigFile, LoadFromDisk) {
  gsdk::test::TempDir dir;
  const auto file = dir / "my-experiment.toml";
  gsdk::test::write_file(file, kValid);
  const ExperimentConfig c = gsdk::host::load_experiment(file.string(), {"playouts.count=3"});
  EXPECT_EQ(c.name, "my-experiment");
  EXPECT_EQ(c.file, file.string());
  EXPECT_EQ(playouts_of(c).count, 3u);

  gsdk::test::write_file(file, with_run_line("bogus = 1"));
  try {
    gsdk::host::load_experiment(file.string(), {});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(starts_with(e.what(), file.string() + ":15:1: unknown key 'bogus'")) << e.what();
  }
}

TEST(ExperimentConfigFile, MissingFile) {
  try {
    gsdk::host::load_experiment("/nonexistent/exp.toml", {});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/exp.toml: cannot open the experiment file: No such file or directory");
  }
}

// A table an override creates is located at its key in the override, and a command-line option's value
// is named as the option the user typed ("<config>:0:0" before).
TEST(ExperimentConfigOverrides, OptionsAndCreatedTablesAreLocated) {
  const std::string match =
      "game = \"g\"\nalgorithm = \"match\"\n[match]\ngames = 2\nagents = [\"random\", \"random\"]\n";
  const std::string device = gsdk::test::config_error_of(
      match, "m.toml", {}, {{"run.device=\"cpu\"", gsdk::host::command_line_origin("--device", "cpu")}});
  EXPECT_TRUE(starts_with(device, "--device cpu (command line): [run] does not apply to algorithm = \"match\": "))
      << device;
  const std::string set = gsdk::test::config_error_of(match, "m.toml", {"run.device=cpu"});
  EXPECT_TRUE(starts_with(set, "--set[1]:1:1: [run] does not apply to algorithm = \"match\": ")) << set;
  const std::string threads =
      error_of(kValid, {}, {{"run.threads=5000", gsdk::host::command_line_origin("--threads", "5000")}});
  EXPECT_EQ(threads, "--threads 5000 (command line): 'threads' in [run] = 5000 is out of range [0, 4096]");
}

// The message of the ConfigError that loading `path` throws.
std::string load_error_of(const std::string& path) {
  try {
    gsdk::host::load_experiment(path, {});
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for " << path;
  return "";
}

// Neither a folder ("missing required key 'game'" before), a FIFO (read forever), an empty file nor a
// binary one is taken for an experiment file.
TEST(ExperimentConfigFile, NotATomlFileIsSaidSo) {
  gsdk::test::TempDir dir;
  EXPECT_EQ(load_error_of(dir.path().string()),
            dir.path().string() + ": is a directory, expected a TOML experiment file");
  const auto fifo = dir / "exp.toml";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_EQ(load_error_of(fifo.string()), fifo.string() + ": is not a regular file, expected a TOML experiment file");
  const auto empty = dir / "empty.toml";
  gsdk::test::write_file(empty, "");
  EXPECT_EQ(load_error_of(empty.string()), empty.string() + ": is empty, expected a TOML experiment file");
  gsdk::test::write_file(empty, " \n\t\n");
  EXPECT_EQ(load_error_of(empty.string()), empty.string() + ": is empty, expected a TOML experiment file");
  const auto binary = dir / "binary.toml";
  gsdk::test::write_file(binary, std::string("\x7f"
                                             "ELF\x02\x01\x01\0\0\0",
                                             11));
  EXPECT_EQ(load_error_of(binary.string()),
            binary.string() + ": is a binary file (a NUL byte at offset 7), expected a TOML experiment file");
}

TEST(ExperimentConfigFile, UnreadableFileSaysWhy) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads a file whatever its mode";
  gsdk::test::TempDir dir;
  const auto file = dir / "secret.toml";
  gsdk::test::write_file(file, kValid);
  fs::permissions(file, fs::perms::none);
  EXPECT_EQ(load_error_of(file.string()), file.string() + ": cannot open the experiment file: Permission denied");
}

} // namespace
