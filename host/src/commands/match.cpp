// match.cpp - `gsdk match GAME --agent0 SPEC --agent1 SPEC --games N`: two agents play a match with
// colours alternating; a line per game, then the report (wins, draws, losses, score rate with its
// confidence interval, game length, time per move), optionally a game record and a JSON document. The command is a
// match experiment made from its options and run by the match driver as `gsdk run` runs one: the same checks, the
// same games, the same results document (--json).
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "algorithms/match/match_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "commands/whole_number_option.hpp"
#include "config/command_line_document.hpp"
#include "plugin_loading/game_params.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"
#include "signals/stop_signals.hpp"

namespace gsdk::host {

namespace {

constexpr const char* kSourceName = "gsdk match (command line)";

int usage_error(const std::string& message) {
  log_line(LogLevel::error, message);
  return kExitUsage;
}

// The experiment `gsdk match` plays: [match] and [params] from the options, each value located at the option that
// gave it, so the match driver's checks are the only ones ("--games 0 (command line): 'games' in [match] = 0 is out
// of range [1, 1000000]"); a line per game unless --quiet ([output] game_lines).
toml::table match_document(const po::variables_map& vm) {
  toml::table doc;
  const std::string game = vm["game"].as<std::string>();
  set_option_value(doc, "game", toml_string(game), command_line_origin("GAME", game));
  doc.insert("algorithm", "match");
  doc.insert("name", "match");
  const std::string seed = std::to_string(whole_number_of<uint64_t>(vm, "seed"));
  set_option_value(doc, "seed", seed, command_line_origin("--seed", seed));
  if (vm.count("param")) doc.insert("params", params_from_assignments(vm["param"].as<std::vector<std::string>>()));
  toml::table match;
  for (const auto& [option, key] :
       {std::pair{"games", "games"}, std::pair{"opening-plies", "opening_plies"}, std::pair{"parallel", "parallel"}}) {
    if (!vm.count(option)) continue;
    const std::string count = std::to_string(whole_number_of<uint64_t>(vm, option));
    set_option_value(match, key, count, command_line_origin(fmt::format("--{}", option), count));
  }
  toml::array agents;
  for (const char* option : {"agent0", "agent1"}) {
    const std::string spec = vm[option].as<std::string>();
    push_option_value(agents, toml_string(spec), command_line_origin(fmt::format("--{}", option), spec));
  }
  match.insert("agents", std::move(agents));
  if (vm.count("record")) {
    const std::string record = vm["record"].as<std::string>();
    set_option_value(match, "record", toml_string(record), command_line_origin("--record", record));
  }
  doc.insert("match", std::move(match));
  doc.insert("output", toml::table{{"game_lines", vm.count("quiet") == 0}});
  return doc;
}

} // namespace

int command_match(const Arguments& args) {
  po::options_description options("gsdk match");
  add_common_options(options);
  options.add_options()("game", po::value<std::string>()->required(),
                        "the game (plugin) name")("agent0", po::value<std::string>()->required(),
                                                  "agent A: player 0 in even games (1st, 3rd, ...), player 1 in odd")(
      "agent1", po::value<std::string>()->required(), "agent B: the other side")(
      "games", whole_number<uint64_t>()->required(), "games to play, 1..1000000")("seed", whole_number<uint64_t>(1),
                                                                                  "random seed of the match")(
      "opening-plies", whole_number<uint64_t>(),
      "open each pair of games (A with either colour) with this many random plies, 0..1000 (0)")(
      "parallel", whole_number<uint64_t>(), "games played at once, each by its own pair of agents, 1..256 (1)")(
      "param", po::value<std::vector<std::string>>()->composing(), "a game parameter: name=value (repeatable)")(
      "record", po::value<std::string>(), "write the games as a PGN-like record")(
      "json", po::value<std::string>(), "write the results as a JSON document")("quiet,q", "no line per game");
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  const std::string usage = "gsdk match GAME --agent0 SPEC --agent1 SPEC --games N [--seed S] [--opening-plies N] "
                            "[--parallel N] [--param name=value]... [--record FILE] [--json FILE]\n"
                            "  SPEC: random | flatmc[:key=value,...] | uct[:key=value,...] | alphabeta[:key=value,...] "
                            "(see docs/user_guide.md)";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  ExperimentConfig config;
  try {
    config = command_experiment(match_document(vm), kSourceName);
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  const std::string json = vm.count("json") ? vm["json"].as<std::string>() : "";
  try {
    const std::string& record = config.settings_as<MatchConfig>().match.record_file;
    refuse_shared_outputs({{"the record (--record)", record}, {"the JSON document (--json)", json}});
    if (!record.empty()) check_output_path(record);
    if (!json.empty()) check_output_path(json);
  } catch (const OutputError& e) {
    return usage_error(e.what());
  }
  const PluginCatalog catalog = load_catalog(vm, true);
  RunOptions run_options;
  run_options.progress.shown = false; // the game lines say it
  run_options.stop = &install_stop_signals();
  ExperimentRun run;
  try {
    run = run_experiment(config, catalog, run_options);
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitFailed;
  }
  if (run.interrupted) run.results["interrupted"]["signal"] = signal_name(stop_signal());
  if (!json.empty() && !write_json_or_print(json, run.results)) return kExitFailed;
  run.outcome->print(json);
  if (run.interrupted) {
    log_line(LogLevel::error,
             fmt::format("interrupted by {}: the report covers the {} games played", signal_name(stop_signal()),
                         run.results["result"]["games_played"].get<uint64_t>()));
    return interrupted_exit_status(stop_signal());
  }
  if (!run.complete) {
    log_line(LogLevel::error, fmt::format("the match did not finish: {} (the report covers the {} games played)",
                                          run.error, run.results["result"]["games_played"].get<uint64_t>()));
    return kExitFailed;
  }
  if (!run.failure.empty()) {
    log_line(LogLevel::error, run.failure);
    return kExitFailed;
  }
  return kExitOk;
}

} // namespace gsdk::host
