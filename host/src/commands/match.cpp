// match.cpp - `gsdk match GAME --agent0 SPEC --agent1 SPEC --games N`: two agents play a match with
// colours alternating; a line per game, then the report (wins, draws, losses, score rate with its
// confidence interval, game length, time per move), optionally a game record and a JSON document.
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "commands/whole_number_option.hpp"
#include "devices/device_selection.hpp"
#include "play/agent_spec.hpp"
#include "play/match_report.hpp"
#include "play/match_runner.hpp"
#include "report/hardware.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"

namespace gsdk::host {

namespace {

int usage_error(const std::string& message) {
  log_line(LogLevel::error, message);
  return kExitUsage;
}

void print_game_line(const MatchOutcome& so_far, const PlayedGame& g, uint32_t games) {
  uint64_t wins = 0, draws = 0, losses = 0;
  for (const PlayedGame& p : so_far.games) {
    const int64_t a_score = p.a_player == 0 ? p.score : -p.score;
    (a_score > 0 ? wins : a_score == 0 ? draws : losses) += 1;
  }
  const int64_t a_score = g.a_player == 0 ? g.score : -g.score;
  std::printf("game %u/%u: A is player %d, %s (%s), %zu plies; A so far +%llu =%llu -%llu\n", g.round, games, g.a_player,
              result_text(g.score).c_str(), a_score > 0 ? "A wins" : a_score < 0 ? "B wins" : "draw", g.moves.size(),
              static_cast<unsigned long long>(wins), static_cast<unsigned long long>(draws),
              static_cast<unsigned long long>(losses));
  std::fflush(stdout);
}

} // namespace

int command_match(const Arguments& args) {
  po::options_description options("gsdk match");
  add_common_options(options);
  options.add_options()("game", po::value<std::string>()->required(), "the game (plugin) name")(
      "agent0", po::value<std::string>()->required(), "agent A: player 0 in even games (1st, 3rd, ...), player 1 in odd")(
      "agent1", po::value<std::string>()->required(), "agent B: the other side")(
      "games", po::value<std::string>()->required(), "games to play, 1..1000000")(
      "seed", whole_number<uint64_t>(1), "random seed of the match")(
      "opening-plies", po::value<std::string>(),
      "open each pair of games (A with either colour) with this many random plies, 0..1000 (0)")(
      "parallel", po::value<std::string>(), "games played at once, each by its own pair of agents, 1..256 (1)")(
      "param", po::value<std::vector<std::string>>()->composing(), "a game parameter: name=value (repeatable)")(
      "record", po::value<std::string>(), "write the games as a PGN-like record")(
      "json", po::value<std::string>(), "write the results as a JSON document")(
      "quiet,q", "no line per game");
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  const std::string usage = "gsdk match GAME --agent0 SPEC --agent1 SPEC --games N [--seed S] [--opening-plies N] "
                            "[--parallel N] [--param name=value]... [--record FILE] [--json FILE]\n"
                            "  SPEC: random | flatmc[:key=value,...] | uct[:key=value,...] | alphabeta[:key=value,...] "
                            "(see docs/user_guide.md)";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  MatchSettings settings;
  const std::string games_text = vm["games"].as<std::string>();
  const std::optional<uint32_t> games = parse_count(games_text, 1, kMaxMatchGames);
  if (!games) return usage_error(fmt::format("--games must be an integer from 1 to {}, got '{}'", kMaxMatchGames, games_text));
  settings.games = *games;
  settings.seed = whole_number_of<uint64_t>(vm, "seed");
  if (vm.count("opening-plies")) {
    const std::string text = vm["opening-plies"].as<std::string>();
    const std::optional<uint32_t> plies = parse_count(text, 0, kMaxOpeningPlies);
    if (!plies)
      return usage_error(fmt::format("--opening-plies must be an integer from 0 to {}, got '{}'", kMaxOpeningPlies, text));
    settings.opening_plies = *plies;
  }
  if (vm.count("parallel")) {
    const std::string text = vm["parallel"].as<std::string>();
    const std::optional<uint32_t> parallel = parse_count(text, 1, kMaxParallelGames);
    if (!parallel) return usage_error(fmt::format("--parallel must be an integer from 1 to {}, got '{}'", kMaxParallelGames, text));
    settings.parallel = *parallel;
  }
  settings.specs = {vm["agent0"].as<std::string>(), vm["agent1"].as<std::string>()};
  if (vm.count("record")) settings.record_file = vm["record"].as<std::string>();
  try {
    if (!settings.record_file.empty()) check_output_path(settings.record_file);
    if (vm.count("json")) check_output_path(vm["json"].as<std::string>());
  } catch (const OutputError& e) {
    return usage_error(e.what());
  }
  const PluginCatalog catalog = load_catalog(vm, true);
  const LoadedPlugin* plugin = nullptr;
  ResolvedParams params;
  try {
    for (int i = 0; i < 2; ++i) {
      settings.agents[i] = parse_agent_spec(settings.specs[i]);
      require_agent_device(settings.agents[i], settings.specs[i]);
    }
    plugin = &require_plugin(catalog, vm["game"].as<std::string>(), "");
    params = resolve_params(*plugin->tables.game, params_from_assignments(vm.count("param") ? vm["param"].as<std::vector<std::string>>()
                                                                                            : std::vector<std::string>{}));
  } catch (const AgentSpecError& e) {
    return usage_error(e.what());
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  std::unique_ptr<core::GameInstance> game;
  try {
    game = std::make_unique<core::GameInstance>(plugin->tables, params.values);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }

  const bool quiet = vm.count("quiet") > 0;
  MatchOutcome outcome;
  try {
    outcome = play_match(*game, settings, [&](const MatchOutcome& so_far, const PlayedGame& g) {
      if (!quiet) print_game_line(so_far, g, settings.games);
    });
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  const nlohmann::json match = match_json(outcome, settings);
  bool saved = true;
  if (!settings.record_file.empty()) {
    try {
      write_match_record(settings.record_file, match_record(outcome, settings, plugin->tables.name()));
    } catch (const OutputError& e) {
      log_line(LogLevel::error, e.what());
      saved = false;
    }
  }
  if (vm.count("json")) {
    nlohmann::json doc = versions_json(*plugin, params);
    doc.update(match);
    doc.update({{"algorithm", "match"}, {"hardware", describe_hardware()}, {"status", outcome.error.empty() ? "complete" : "incomplete"}});
    if (!outcome.error.empty()) doc["error"] = outcome.error;
    if (!write_json_or_print(vm["json"].as<std::string>(), doc)) return kExitFailed;
  }
  print_match_report(outcome, settings, plugin->tables.name());
  if (!outcome.error.empty()) {
    log_line(LogLevel::error, fmt::format("the match did not finish: {} (the report covers the {} games played)",
                                          outcome.error, outcome.games.size()));
    return kExitFailed;
  }
  return saved ? kExitOk : kExitFailed;
}

} // namespace gsdk::host
