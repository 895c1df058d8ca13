// nested_search_config_test.cpp - algorithm = "nmcs", "nrpa" and "beam" experiment files: a valid file's values and
// the located errors for mistakes in [nmcs], [nrpa], [beam] and their [output] key `best`; NMCS's start moves (the
// beam's are read by the same code).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "algorithms/nested/beam_algorithm.hpp"
#include "algorithms/nested/nmcs_algorithm.hpp"
#include "algorithms/nested/nrpa_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "config_error.hpp"

namespace {

const gsdk::host::NmcsConfig& nmcs_of(const gsdk::host::ExperimentConfig& c) {
  return c.settings_as<gsdk::host::NmcsConfig>();
}

const gsdk::host::NrpaConfig& nrpa_of(const gsdk::host::ExperimentConfig& c) {
  return c.settings_as<gsdk::host::NrpaConfig>();
}

const gsdk::host::BeamConfig& beam_of(const gsdk::host::ExperimentConfig& c) {
  return c.settings_as<gsdk::host::BeamConfig>();
}

using gsdk::host::parse_experiment;

const char* const kNmcs = R"(game = "snake"
algorithm = "nmcs"
seed = 3

[nmcs]
level = 2
time_seconds = 1.5
restarts = 4
searches_in_parallel = 8
engine = "generic"

[output]
best = "results/best.json"
)";

const char* const kNrpa = R"(game = "snake"
algorithm = "nrpa"

[nrpa]
level = 3
iterations = 50
alpha = 0.5
time_seconds = 60
)";

const char* const kBeam = R"(game = "snake"
algorithm = "beam"

[beam]
width = 2000
children_per_parent = 4
)";

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return gsdk::test::config_error_of(text, "ns.toml", overrides);
}

TEST(NestedSearchConfig, ValidFilesGiveTheirValues) {
  const auto n = parse_experiment(kNmcs, "ns.toml", {});
  EXPECT_EQ(n.algorithm, "nmcs");
  EXPECT_EQ(nmcs_of(n).nmcs.level, 2u);
  EXPECT_EQ(nmcs_of(n).nmcs.budget.time_seconds, 1.5);
  EXPECT_EQ(nmcs_of(n).nmcs.budget.restarts, 4u);
  EXPECT_EQ(nmcs_of(n).nmcs.budget.searches_in_parallel, 8u);
  EXPECT_EQ(nmcs_of(n).engine, gsdk::host::Engine::generic);
  EXPECT_EQ(nmcs_of(n).best_file, "results/best.json");

  EXPECT_FALSE(nmcs_of(n).nmcs.budget.stop_at_score.has_value());
  EXPECT_TRUE(nmcs_of(n).nmcs.pipeline);
  EXPECT_FALSE(nmcs_of(n).cpu_level1_searches);
  const auto p = parse_experiment(kNmcs, "ns.toml", {"nmcs.pipeline=false", "nmcs.cpu_level1_searches=true"});
  EXPECT_FALSE(nmcs_of(p).nmcs.pipeline);
  EXPECT_TRUE(nmcs_of(p).cpu_level1_searches);
  EXPECT_EQ(nmcs_of(p).device_level, 1u);
  EXPECT_EQ(nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.device_level=2"})).device_level, 2u);

  const auto r = parse_experiment(kNrpa, "ns.toml", {"nrpa.restarts=2", "nrpa.stop_at_score=98"});
  EXPECT_EQ(nrpa_of(r).nrpa.level, 3u);
  EXPECT_EQ(nrpa_of(r).nrpa.iterations, 50u);
  EXPECT_EQ(nrpa_of(r).nrpa.alpha, 0.5);
  EXPECT_EQ(nrpa_of(r).nrpa.budget.time_seconds, 60.0);
  EXPECT_EQ(nrpa_of(r).nrpa.budget.restarts, 2u);
  EXPECT_EQ(nrpa_of(r).nrpa.budget.searches_in_parallel, 1u);
  EXPECT_EQ(nrpa_of(r).nrpa.budget.stop_at_score, 98);
  EXPECT_EQ(nrpa_of(r).device_level, 2u);
  EXPECT_EQ(nrpa_of(parse_experiment(kNrpa, "ns.toml", {"nrpa.device_level=3"})).device_level, 3u);
}

TEST(NestedSearchConfig, UnknownKeysListTheValidOnes) {
  EXPECT_EQ(error_of(kNmcs, {"nmcs.iterations=5"}),
            "--set[1]:1:6: unknown key 'iterations' in [nmcs]; valid keys: level, time_seconds, restarts, "
            "searches_in_parallel, stop_at_score, engine, pipeline, cpu_level1_searches, device_level, start_moves, "
            "start_from, starts_from, skip_finished_starts");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.device_level=3"}),
            "--set[1]:1:19: 'device_level' in [nmcs] = 3 is out of range [1, 2]");
  EXPECT_EQ(error_of(std::string(kNrpa) + "depth = 2\n"),
            "ns.toml:9:1: unknown key 'depth' in [nrpa]; valid keys: level, iterations, alpha, warm_moves, warm_from, "
            "warm_adaptations, time_seconds, restarts, searches_in_parallel, stop_at_score, device_level");
  EXPECT_EQ(error_of(kNrpa, {"nrpa.device_level=0"}),
            "--set[1]:1:19: 'device_level' in [nrpa] = 0 is out of range [1, 16]");
  EXPECT_EQ(error_of("game = \"g\"\nalgorithm = \"playouts\"\n[playouts]\ncount = 1\n[output]\nbest = \"b.json\"\n"),
            "ns.toml:6:1: unknown key 'best' in [output]; valid keys: file, plot, events");
  EXPECT_EQ(error_of(kNrpa, {"output.searches=s.jsonl"}),
            "--set[1]:1:8: unknown key 'searches' in [output]; valid keys: file, plot, events, best");
}

TEST(NestedSearchConfig, ValuesOutOfRangeOrOfTheWrongType) {
  EXPECT_EQ(error_of(kNmcs, {"nmcs.level=0"}), "--set[1]:1:12: 'level' in [nmcs] = 0 is out of range [1, 16]");
  EXPECT_EQ(error_of(kNrpa, {"nrpa.iterations=0"}),
            "--set[1]:1:17: 'iterations' in [nrpa] = 0 is out of range [1, 1000000]");
  EXPECT_EQ(error_of(kNrpa, {"nrpa.time_seconds=-1"}),
            "--set[1]:1:19: 'time_seconds' in [nrpa] = -1 is out of range [0, 10000000]");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.engine=cuda"}),
            "--set[1]:1:13: 'engine' in [nmcs] is \"cuda\"; expected one of: batch, generic");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.restarts=\"many\""}),
            "--set[1]:1:15: 'restarts' in [nmcs] must be an integer, got a string");
}

// [nmcs] start_moves, or start_from: the moves of a best-sequence file (a snake file or a gsdk-moves file).
TEST(NestedSearchConfig, StartMovesComeFromTheListOrFromABestSequenceFile) {
  using Starts = std::vector<std::vector<uint32_t>>;
  EXPECT_TRUE(nmcs_of(parse_experiment(kNmcs, "ns.toml", {})).nmcs.starts.empty());
  EXPECT_EQ(nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.start_moves=[0, 1, 2, 0]"})).nmcs.starts,
            (Starts{{0, 1, 2, 0}}));
  const auto dir = std::filesystem::temp_directory_path() / "gsdk_start_moves_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string snake = write("snake.json", R"({"format": "gsdk-snake", "dimension": 4, "moves": [0, 1, 2, 0]})");
  const std::string moves = write("moves.json", R"({"format": "gsdk-moves", "game": "g", "moves": [3, 1]})");
  EXPECT_EQ(nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.start_from=" + snake})).nmcs.starts,
            (Starts{{0, 1, 2, 0}}));
  EXPECT_EQ(nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.start_from=" + moves})).nmcs.starts, (Starts{{3, 1}}));

  const std::string other = write("other.json", R"({"seed": 1, "moves": [1]})");
  const std::string negative = write("negative.json", R"({"format": "gsdk-moves", "moves": [1, -2]})");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.start_from=" + other}),
            "--set[1]:1:17: 'start_from' in [nmcs]: " + other +
                ": needs \"format\", a string naming the document's kind (a search's best-sequence file)");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.start_from=" + negative}),
            "--set[1]:1:17: 'start_from' in [nmcs]: " + negative +
                ": 'moves' entry 1 (-2) is not a non-negative 32-bit integer");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.start_from=" + (dir / "missing.json").string()}),
            "--set[1]:1:17: 'start_from' in [nmcs]: " + (dir / "missing.json").string() +
                ": cannot open: No such file or directory");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.start_moves=[0, -1]"}),
            "--set[1]:1:22: 'start_moves' in [nmcs] entry -1 is out of range [0, 2147483647]");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.start_moves=[0]", "nmcs.start_from=" + snake}),
            "--set[2]:1:17: [nmcs] takes one of 'start_moves', 'start_from' and 'starts_from', not both 'start_moves' "
            "and 'start_from'");
  EXPECT_EQ(error_of(kNrpa, {"nrpa.start_moves=[0]"}),
            "--set[1]:1:6: unknown key 'start_moves' (did you mean 'warm_moves'?) in [nrpa]; valid keys: level, "
            "iterations, alpha, warm_moves, warm_from, warm_adaptations, time_seconds, restarts, searches_in_parallel, "
            "stop_at_score, device_level");
  std::filesystem::remove_all(dir);
}

// [nmcs] starts_from: one start a line of a JSON Lines file, such as an earlier run's [output] searches.
TEST(NestedSearchConfig, ManyStartsComeFromAJsonLinesFile) {
  using Starts = std::vector<std::vector<uint32_t>>;
  const auto dir = std::filesystem::temp_directory_path() / "gsdk_starts_from_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string lines = write("starts.jsonl", "{\"score\": 4, \"moves\": [0, 1, 2, 0]}\n\n{\"moves\": [0, 1]}\n");
  EXPECT_EQ(nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.starts_from=" + lines})).nmcs.starts,
            (Starts{{0, 1, 2, 0}, {0, 1}}));
  EXPECT_FALSE(nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.starts_from=" + lines})).nmcs.skip_finished_starts);
  EXPECT_TRUE(
      nmcs_of(parse_experiment(kNmcs, "ns.toml", {"nmcs.starts_from=" + lines, "nmcs.skip_finished_starts=true"}))
          .nmcs.skip_finished_starts);
  EXPECT_EQ(error_of(kNmcs, {"nmcs.skip_finished_starts=1"}),
            "--set[1]:1:27: 'skip_finished_starts' in [nmcs] must be true or false, got an integer");

  const std::string broken = write("broken.jsonl", "{\"moves\": [0]}\n{\"moves\": [0, \n");
  const std::string no_moves = write("no_moves.jsonl", "{\"moves\": [0]}\n{\"score\": 3}\n");
  const std::string empty = write("empty.jsonl", "\n");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.starts_from=" + no_moves}),
            "--set[1]:1:18: 'starts_from' in [nmcs]: " + no_moves +
                ":2: needs 'moves', a list of non-negative integers");
  EXPECT_NE(error_of(kNmcs, {"nmcs.starts_from=" + broken}).find(broken + ":2: [json.exception.parse_error"),
            std::string::npos);
  EXPECT_EQ(error_of(kNmcs, {"nmcs.starts_from=" + empty}), "--set[1]:1:18: 'starts_from' in [nmcs]: " + empty +
                                                                ": holds no sequence (one JSON object with \"moves\" a "
                                                                "line)");
  EXPECT_EQ(error_of(kNmcs, {"nmcs.start_from=" + lines, "nmcs.starts_from=" + lines}),
            "--set[2]:1:18: [nmcs] takes one of 'start_moves', 'start_from' and 'starts_from', not both 'start_from' "
            "and 'starts_from'");
  std::filesystem::remove_all(dir);
}

// [output] searches and searches_kept (NMCS and the beam, not NRPA): where the best distinct final sequences go,
// and how many.
TEST(NestedSearchConfig, TheSearchesFileAndHowManyItKeeps) {
  const auto plain = parse_experiment(kNmcs, "ns.toml", {});
  EXPECT_TRUE(nmcs_of(plain).searches.file.empty());
  EXPECT_EQ(nmcs_of(plain).searches.kept, 1000u);
  const auto c = parse_experiment(kNmcs, "ns.toml", {"output.searches=s.jsonl", "output.searches_kept=64"});
  EXPECT_EQ(nmcs_of(c).searches.file, "s.jsonl");
  EXPECT_EQ(nmcs_of(c).searches.kept, 64u);
  EXPECT_EQ(error_of(kNmcs, {"output.searches_kept=0"}),
            "--set[1]:1:22: 'searches_kept' in [output] = 0 is out of range [1, 16777216]");
  EXPECT_TRUE(beam_of(parse_experiment(kBeam, "ns.toml", {})).searches.file.empty());
  const auto b = parse_experiment(kBeam, "ns.toml", {"output.searches=b.jsonl", "output.searches_kept=5"});
  EXPECT_EQ(beam_of(b).searches.file, "b.jsonl");
  EXPECT_EQ(beam_of(b).searches.kept, 5u);
  EXPECT_EQ(error_of(kBeam, {"output.searches_kept=0"}),
            "--set[1]:1:22: 'searches_kept' in [output] = 0 is out of range [1, 16777216]");
}

TEST(NestedSearchConfig, TheAlgorithmsSectionIsRequiredAndOthersAreRefused) {
  EXPECT_EQ(error_of("game = \"snake\"\nalgorithm = \"nrpa\"\n"),
            "ns.toml:1:1: missing required table [nrpa] for algorithm \"nrpa\"");
  EXPECT_EQ(error_of(std::string(kNrpa) + "[nmcs]\nlevel = 1\n"),
            "ns.toml:9:1: [nmcs] applies to algorithm = \"nmcs\", not \"nrpa\"");
}

TEST(NestedSearchConfig, BeamFilesGiveTheirValues) {
  const auto b = parse_experiment(kBeam, "ns.toml", {"beam.restarts=3", "beam.start_moves=[0, 1]"});
  EXPECT_EQ(b.algorithm, "beam");
  EXPECT_EQ(beam_of(b).beam.width, 2000u);
  EXPECT_EQ(beam_of(b).beam.children_per_parent, 4u);
  EXPECT_TRUE(beam_of(b).beam.dedup);
  EXPECT_EQ(beam_of(b).beam.budget.restarts, 3u);
  EXPECT_EQ(beam_of(b).beam.starts, (std::vector<std::vector<uint32_t>>{{0, 1}}));
  ASSERT_TRUE(beam_of(b).starts_where.has_value());
  EXPECT_EQ(beam_of(b).starts_where->begin.line, 1u) << "the --set that gave them";
  const auto d = parse_experiment("game = \"snake\"\nalgorithm = \"beam\"\n[beam]\n", "ns.toml", {"beam.dedup=false"});
  EXPECT_EQ(beam_of(d).beam.width, 1000u);
  EXPECT_EQ(beam_of(d).beam.children_per_parent, 0u);
  EXPECT_FALSE(beam_of(d).beam.dedup);
  EXPECT_TRUE(beam_of(d).beam.starts.empty());

  EXPECT_EQ(error_of(kBeam, {"beam.width=0"}), "--set[1]:1:12: 'width' in [beam] = 0 is out of range [1, 67108864]");
  EXPECT_EQ(error_of(kBeam, {"beam.width=67108865"}),
            "--set[1]:1:12: 'width' in [beam] = 67108865 is out of range [1, 67108864]");
  EXPECT_EQ(error_of(kBeam, {"beam.level=2"}),
            "--set[1]:1:6: unknown key 'level' in [beam]; valid keys: width, children_per_parent, dedup, time_seconds, "
            "restarts, searches_in_parallel, stop_at_score, start_moves, start_from, starts_from");
  EXPECT_EQ(error_of(kBeam, {"beam.start_moves=[1]", "beam.starts_from=s.jsonl"}),
            "--set[2]:1:18: [beam] takes one of 'start_moves', 'start_from' and 'starts_from', not both 'start_moves' "
            "and 'starts_from'");
}

} // namespace
