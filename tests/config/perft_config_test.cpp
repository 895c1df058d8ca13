// perft_config_test.cpp - the algorithm = "perft" schema of experiment files
// (host/src/experiment_config.hpp): a valid file's [perft] table and positions, expected counts
// beyond 64 bits as decimal strings, --set overrides, and for every kind of mistake an error located
// as file:line:column at the offending text.
#include <gtest/gtest.h>

#include "algorithms/perft/perft_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "config_error.hpp"
#include "test_paths.hpp"

namespace {

const gsdk::host::PerftSettings& perft_of(const gsdk::host::ExperimentConfig& c) {
  return c.settings_as<gsdk::host::PerftSettings>();
}

using gsdk::host::ExperimentConfig;
using gsdk::test::contains;

// Lines: [perft] is line 4, the first position's keys lines 8-11, the second's 14-15, the third's 18-21.
const char* const kPerft = R"(game = "test_nim"
algorithm = "perft"

[perft]
divide = true

[[perft.positions]]
name = "opening"
position = "start"
depth = 5
expect = 243

[[perft.positions]]
position = "stones=9 to_move=1"
depth = 3

[[perft.positions]]
name = "huge"
position = "start"
depth = 64
expect = "340282366920938463463374607431768211455"
)";

ExperimentConfig parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return gsdk::host::parse_experiment(text, "exp.toml", overrides);
}

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return gsdk::test::config_error_of(text, "exp.toml", overrides);
}

// kPerft with `from` (which must occur) replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kPerft;
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// A perft experiment whose only position is the given TOML lines (position keys start on line 5).
std::string one_position(const std::string& lines) {
  return "game = \"g\"\nalgorithm = \"perft\"\n\n[[perft.positions]]\n" + lines;
}

TEST(PerftConfig, ValidFileIsReadCompletely) {
  const ExperimentConfig c = parse(kPerft);
  EXPECT_EQ(c.algorithm, "perft");
  EXPECT_EQ(c.game, "test_nim");
  EXPECT_TRUE(perft_of(c).divide);
  EXPECT_EQ(perft_of(c).engine, gsdk::host::Engine::batch);
  ASSERT_EQ(perft_of(c).positions.size(), 3u);
  const auto& first = perft_of(c).positions[0];
  EXPECT_EQ(first.name, "opening");
  EXPECT_EQ(first.position, "start");
  EXPECT_EQ(first.depth, 5u);
  ASSERT_TRUE(first.expect.has_value());
  EXPECT_EQ(*first.expect, 243u);
  const auto& second = perft_of(c).positions[1];
  EXPECT_EQ(second.name, "stones=9 to_move=1") << "the name defaults to the position";
  EXPECT_EQ(second.depth, 3u);
  EXPECT_FALSE(second.expect.has_value());
  EXPECT_EQ(second.where.begin.line, 14u) << "positions keep their location for the game's verdict later";
  EXPECT_EQ(second.where.begin.column, 12u);
  const auto& third = perft_of(c).positions[2];
  EXPECT_EQ(third.depth, 64u);
  ASSERT_TRUE(third.expect.has_value());
  EXPECT_EQ(*third.expect, ~gsdk::core::uint128{0}) << "a decimal string holds counts beyond 64 bits";
}

TEST(PerftConfig, InlineTablesAndDefaults) {
  const ExperimentConfig c =
      parse("game = \"g\"\nalgorithm = \"perft\"\n[perft]\n"
            "positions = [{position = \"start\", depth = 0}, {position = \"x\", depth = 2.0}]\n");
  EXPECT_FALSE(perft_of(c).divide);
  ASSERT_EQ(perft_of(c).positions.size(), 2u);
  EXPECT_EQ(perft_of(c).positions[0].depth, 0u);
  EXPECT_EQ(perft_of(c).positions[1].depth, 2u) << "an integral float is an integer, as elsewhere";
  EXPECT_EQ(perft_of(parse(one_position("position = \"start\"\ndepth = 1\n"))).positions.size(), 1u)
      << "[perft] needs no keys of its own";
}

TEST(PerftConfig, OverridesApply) {
  const ExperimentConfig c =
      parse(kPerft, {"perft.divide=false", "perft.engine=generic", "run.device=cpu", "run.threads=3", "run.streams=4"});
  EXPECT_FALSE(perft_of(c).divide);
  EXPECT_EQ(perft_of(c).engine, gsdk::host::Engine::generic);
  EXPECT_EQ(c.run.device, gsdk::host::DeviceRequest::cpu);
  EXPECT_EQ(c.run.threads, 3u);
  EXPECT_EQ(c.run.streams, 4u);
  EXPECT_EQ(error_of(kPerft, {"perft.engine=fast"}),
            "--set[1]:1:14: 'engine' in [perft] is \"fast\"; expected one of: batch, generic");
}

TEST(PerftConfig, UnknownKeysListTheValidOnes) {
  EXPECT_EQ(error_of(edited("divide = true", "dvide = true")),
            "exp.toml:5:1: unknown key 'dvide' (did you mean 'divide'?) in [perft]; valid keys: divide, engine, hash, "
            "hash_mb, gpu_hash_mb, "
            "positions");
  EXPECT_EQ(error_of(edited("depth = 3", "dpeth = 3")),
            "exp.toml:15:1: unknown key 'dpeth' (did you mean 'depth'?) in [[perft.positions]] entry 2; valid keys: "
            "name, position, depth, "
            "expect");
}

TEST(PerftConfig, WrongTypesPointAtTheValue) {
  EXPECT_EQ(error_of(edited("divide = true", "divide = \"yes\"")),
            "exp.toml:5:10: 'divide' in [perft] must be true or false, got a string");
  EXPECT_EQ(error_of(edited("depth = 5", "depth = \"five\"")),
            "exp.toml:10:9: 'depth' in [[perft.positions]] entry 1 must be an integer, got a string");
  EXPECT_EQ(error_of(edited("position = \"start\"", "position = 7")),
            "exp.toml:9:12: 'position' in [[perft.positions]] entry 1 must be a string, got an integer");
  EXPECT_EQ(error_of(edited("name = \"huge\"", "name = [1]")),
            "exp.toml:18:8: 'name' in [[perft.positions]] entry 3 must be a string, got an array");
  EXPECT_EQ(error_of(edited("expect = 243", "expect = 2.5e2")),
            "exp.toml:11:10: 'expect' in [[perft.positions]] entry 1 must be an integer or a decimal string, got a "
            "floating-point number");
}

TEST(PerftConfig, OutOfRangeDepthAndExpect) {
  EXPECT_EQ(error_of(edited("depth = 5", "depth = 65")),
            "exp.toml:10:9: 'depth' in [[perft.positions]] entry 1 = 65 is out of range [0, 64]");
  EXPECT_EQ(error_of(edited("depth = 5", "depth = -1")),
            "exp.toml:10:9: 'depth' in [[perft.positions]] entry 1 = -1 is out of range [0, 64]");
  EXPECT_EQ(error_of(edited("expect = 243", "expect = -243")),
            "exp.toml:11:10: 'expect' in [[perft.positions]] entry 1 = -243 is negative");
  const std::string digits = error_of(edited("expect = 243", "expect = \"12x\""));
  EXPECT_EQ(digits, "exp.toml:11:10: 'expect' in [[perft.positions]] entry 1 is \"12x\"; expected the decimal digits "
                    "of a count below 2^128");
  const std::string overflow =
      error_of(edited("340282366920938463463374607431768211455", "340282366920938463463374607431768211456"));
  EXPECT_TRUE(contains(overflow, "exp.toml:21:10: 'expect' in [[perft.positions]] entry 3 is \"3402823669"))
      << overflow;
  EXPECT_EQ(error_of(edited("expect = 243", "expect = \"\"")),
            "exp.toml:11:10: 'expect' in [[perft.positions]] entry 1 is an empty string; expected decimal digits");
}

TEST(PerftConfig, MissingKeysPointAtTheirTable) {
  EXPECT_EQ(error_of(one_position("depth = 3\n")),
            "exp.toml:4:1: missing required key 'position' in [[perft.positions]] entry 1");
  EXPECT_EQ(error_of(one_position("position = \"start\"\n")),
            "exp.toml:4:1: missing required key 'depth' in [[perft.positions]] entry 1");
  EXPECT_EQ(error_of(edited("position = \"stones=9 to_move=1\"\n", "")),
            "exp.toml:13:1: missing required key 'position' in [[perft.positions]] entry 2");
  const std::string table = error_of("game = \"g\"\nalgorithm = \"perft\"\n");
  EXPECT_EQ(table, "exp.toml:1:1: missing required table [perft] for algorithm \"perft\"");
  EXPECT_EQ(error_of("game = \"g\"\nalgorithm = \"perft\"\n\n[perft]\ndivide = true\n"),
            "exp.toml:4:1: missing required key 'positions' in [perft]: add a [[perft.positions]] table per position");
}

TEST(PerftConfig, PositionsMustBeTables) {
  const std::string head = "game = \"g\"\nalgorithm = \"perft\"\n[perft]\n";
  EXPECT_EQ(error_of(head + "positions = 3\n"),
            "exp.toml:4:13: 'positions' in [perft] must be an array of tables ([[perft.positions]]), got an integer");
  EXPECT_EQ(error_of(head + "positions = []\n"), "exp.toml:4:13: 'positions' in [perft] needs at least one position");
  EXPECT_EQ(error_of(head + "positions = [{position = \"start\", depth = 1}, 5]\n"),
            "exp.toml:4:47: 'positions' in [perft] must hold tables, got an integer");
}

// [perft] hash, hash_mb and gpu_hash_mb: hashing is on by default with the core's table sizes; sizes are MiB.
TEST(PerftConfig, HashingKeys) {
  const gsdk::core::PerftHashing defaults = perft_of(parse(kPerft)).hashing;
  EXPECT_TRUE(defaults.enabled) << "hashing is on by default";
  EXPECT_EQ(defaults.host_table_bytes, 0u) << "0: the core's default";
  EXPECT_EQ(defaults.device_table_bytes, 0u);
  const gsdk::core::PerftHashing sized =
      perft_of(parse(edited("divide = true", "divide = true\nhash_mb = 64\ngpu_hash_mb = 2.5e3"))).hashing;
  EXPECT_TRUE(sized.enabled);
  EXPECT_EQ(sized.host_table_bytes, uint64_t{64} << 20) << "MiB";
  EXPECT_EQ(sized.device_table_bytes, uint64_t{2500} << 20) << "a whole float is an integer, as elsewhere";
  const gsdk::core::PerftHashing largest = perft_of(parse(edited("divide = true", "hash_mb = 1099511627776"))).hashing;
  EXPECT_EQ(largest.host_table_bytes, uint64_t{1} << 60) << "2^40 MiB, the largest";
  const gsdk::core::PerftHashing off = perft_of(parse(edited("divide = true", "hash = false"))).hashing;
  EXPECT_FALSE(off.enabled);
  EXPECT_FALSE(perft_of(parse(edited("divide = true", "hash = false\nhash_mb = 0\ngpu_hash_mb = 0"))).hashing.enabled)
      << "0 is the default size, not a size: it goes with hash = false";
  const gsdk::core::PerftHashing overridden =
      perft_of(parse(kPerft, {"perft.hash_mb=16", "perft.gpu_hash_mb=32"})).hashing;
  EXPECT_EQ(overridden.host_table_bytes, uint64_t{16} << 20);
  EXPECT_EQ(overridden.device_table_bytes, uint64_t{32} << 20);
  EXPECT_FALSE(perft_of(parse(kPerft, {"perft.hash=false"})).hashing.enabled);
}

TEST(PerftConfig, HashingKeysAreChecked) {
  EXPECT_EQ(error_of(edited("divide = true", "hash = \"yes\"")),
            "exp.toml:5:8: 'hash' in [perft] must be true or false, got a string");
  EXPECT_EQ(error_of(edited("divide = true", "hash_mb = -1")),
            "exp.toml:5:11: 'hash_mb' in [perft] = -1 is out of range [0, 1099511627776]");
  EXPECT_EQ(error_of(edited("divide = true", "gpu_hash_mb = 1099511627777")),
            "exp.toml:5:15: 'gpu_hash_mb' in [perft] = 1099511627777 is out of range [0, 1099511627776]");
  EXPECT_EQ(error_of(edited("divide = true", "hash_mb = 1.5")),
            "exp.toml:5:11: 'hash_mb' in [perft] = 1.5 is not a whole number");
  EXPECT_EQ(error_of(edited("divide = true", "gpu_hash_mb = \"64\"")),
            "exp.toml:5:15: 'gpu_hash_mb' in [perft] must be an integer, got a string");
  // A size with hash = false is a contradiction, located at the size.
  EXPECT_EQ(error_of(edited("divide = true", "hash = false\nhash_mb = 64")),
            "exp.toml:6:11: 'hash_mb' in [perft] = 64 sizes a transposition table, but hash = false counts without "
            "them: remove 'hash_mb' or set hash = true");
  EXPECT_EQ(error_of(edited("divide = true", "gpu_hash_mb = 8"), {"perft.hash=false"}),
            "exp.toml:5:15: 'gpu_hash_mb' in [perft] = 8 sizes a transposition table, but hash = false counts "
            "without them: remove 'gpu_hash_mb' or set hash = true");
  EXPECT_EQ(error_of(edited("divide = true", "hash = false"), {"perft.hash_mb=4"}),
            "--set[1]:1:15: 'hash_mb' in [perft] = 4 sizes a transposition table, but hash = false counts without "
            "them: remove 'hash_mb' or set hash = true");
}

TEST(PerftConfig, TablesOfTheOtherAlgorithmAreRefused) {
  EXPECT_EQ(error_of(std::string(kPerft) + "\n[playouts]\ncount = 5\n"),
            "exp.toml:23:1: [playouts] applies to algorithm = \"playouts\", not \"perft\"");
  const std::string playouts =
      "game = \"g\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 5\n[perft]\ndivide = true\n";
  EXPECT_EQ(error_of(playouts), "exp.toml:5:1: [perft] applies to algorithm = \"perft\", not \"playouts\"");
  EXPECT_EQ(error_of(kPerft, {"algorithm=playouts"}).rfind("exp.toml:4:1: [perft] applies to", 0), 0u);
}

} // namespace
