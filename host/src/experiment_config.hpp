// experiment_config.hpp - the TOML experiment file: strict schema, --set overrides, clear errors.
//
//   game = "graveler"              # plugin/game name (required)
//   algorithm = "playouts"         # what to run (required): "playouts" | "perft" | "qlearning" | "match"
//   seed = 42                      # default 1
//   name = "graveler-1e9"          # default: the file's stem
//   [params]                       # game parameters, validated against the plugin's declarations
//   [playouts] count, start_state, engine ("batch" | "generic")       (algorithm = "playouts")
//   [perft] divide, engine ("batch" | "generic"), [[perft.positions]] name, position, depth, expect
//                                                                     (algorithm = "perft")
//   [qlearning] environments (an integer, or a list for a throughput sweep), episodes, alpha, gamma,
//               epsilon_start, epsilon_end, epsilon_decay, tie_break ("random" | "first"),
//               update ("deterministic" | "atomic"), q_table ("per_environment" | "shared"),
//               test_episodes, engine ("batch" | "generic")                    (algorithm = "qlearning")
//   [match] games, agents (two agent specs: A, then B; see agent_spec.hpp), record  (algorithm = "match";
//           the seed is the top-level one, devices are part of each agent spec, so no [run])
//   [nmcs] level, time_seconds, restarts, searches_in_parallel, stop_at_score, engine ("batch" | "generic"),
//          pipeline, cpu_level1_searches, device_level, start_moves | start_from | starts_from,
//          skip_finished_starts
//                                                                     (algorithm = "nmcs")
//   [nrpa] level, iterations, alpha, time_seconds, restarts, searches_in_parallel, stop_at_score, device_level
//                                                                     (algorithm = "nrpa")
//   [run] device ("auto" | "cpu" | "cuda" | "all"), threads, gpus, streams, simd
//   [output] file, plot, events, best (nmcs and nrpa: where the best sequence is saved), searches and
//            searches_kept (nmcs: the best distinct sequences its searches ended with, and how many)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "config_error.hpp"
#include "gsdk/core/nested_search.hpp"
#include "gsdk/core/perft.hpp"
#include "gsdk/core/qlearning.hpp"
#include "match_settings.hpp"

namespace gsdk::host {

struct RunSettings {
  std::string device = "auto"; // auto | cpu | cuda | all
  unsigned threads = 0;        // 0: every hardware thread
  std::vector<int> gpus;       // empty: every GPU
  unsigned streams = 2;
  std::string simd = "auto";   // auto | avx512 | avx2 | scalar
};

struct PerftPosition {
  std::string name;                    // default: the position text
  std::string position;                // "start" or the game's text form of a state
  uint32_t depth = 0;                  // 0 .. 64
  std::optional<core::uint128> expect; // the known leaf count, when given
  toml::source_region where;           // of `position`, for the game's verdict on it later
};

struct PerftSettings {
  bool divide = false;
  std::string engine = "batch"; // "batch": the plugin's perft tables | "generic": per-state recursion
  std::vector<PerftPosition> positions;
};

struct QLearningConfig {
  std::vector<uint32_t> environments{1}; // more than one: a throughput sweep, one run per entry
  core::QLearningSettings settings;      // seed and environments are filled in per run
  bool generic = false;                  // engine = "generic"
};

// NMCS and NRPA: the settings of both; `algorithm` says which apply.
struct NestedSearchConfig {
  core::NmcsSettings nmcs;
  core::NrpaSettings nrpa; // seed and threads are filled in when the run starts
  bool generic = false;    // nmcs engine = "generic"
  bool cpu_level1_searches = false; // nmcs without a GPU: whole level-1 searches on CPU threads
  uint32_t nmcs_device_level = 1;   // nmcs on a GPU: the level of the searches it runs whole, 1 or 2 (at most `level`)
  uint32_t nrpa_device_level = 2;   // nrpa on a GPU: the level of the searches it runs whole (at most `level`)
};

struct ExperimentConfig {
  std::string file;
  std::string name;
  std::string game;
  std::string algorithm;
  uint64_t seed = 1;
  toml::table params;          // validated later against the game's declarations
  uint64_t playouts = 0;
  std::optional<std::string> start_state;
  std::string engine = "batch";
  PerftSettings perft;
  QLearningConfig qlearning;
  MatchSettings match;         // seed is filled in from `seed` when the match runs
  NestedSearchConfig nested;   // algorithm = "nmcs" | "nrpa"
  RunSettings run;
  std::string output_file;     // empty: results/<name>.json
  std::string plot_file;
  std::string events_file;
  std::string best_file;       // nmcs/nrpa; empty: results/<name>.best.json
  std::string searches_file;   // nmcs; empty: none written
  uint32_t searches_kept = 1000;
  toml::table raw;             // the whole document after overrides, for the results file
};

// Parses `path`, applies overrides ("section.key=value", value in TOML syntax; bare words are taken
// as strings) and validates everything but [params]. Throws ConfigError.
ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& overrides);

// Parses an experiment given as text (tests and `gsdk bench`).
ExperimentConfig parse_experiment(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides);

} // namespace gsdk::host
