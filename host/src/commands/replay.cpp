// replay.cpp - `gsdk replay RESULTS.json`: regenerate a stored playout from (seed, playout number)
// and show it move by move, checking the score against the results file; optionally save it as the game's
// document of a move sequence (--document: the game's own format, e.g. a snake file, or gsdk-moves).
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugins/game_params.hpp"
#include "report/log.hpp"
#include "report/replay_request.hpp"
#include "report/results_file.hpp"
#include "report/sequence_document.hpp"

namespace gsdk::host {

int command_replay(const Arguments& args) {
  po::options_description options("gsdk replay");
  add_common_options(options);
  options.add_options()("results", po::value<std::string>()->required(), "results file written by gsdk run")(
      "playout", po::value<uint64_t>(), "playout number to show (default: the best one)")(
      "states", "print the state after every move")("document", po::value<std::string>(),
                                                    "also save the playout as the game's document of a move sequence "
                                                    "(the game's own format where it has one, else gsdk-moves)");
  po::positional_options_description positional;
  positional.add("results", 1);
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk replay RESULTS.json [--playout N] [--states] [--document FILE]", options,
                                  positional, vm))
    return *exit;

  const std::string path = vm["results"].as<std::string>();
  ReplayRequest stored;
  try {
    stored = read_replay_request(read_json(path));
  } catch (const nlohmann::json::exception& e) {
    log_line(LogLevel::error, fmt::format("{}: not a gsdk results file ({})", path, e.what()));
    return kExitUsage;
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const std::string& game_name = stored.game;
  const std::string& engine = stored.engine;
  const uint64_t seed = stored.seed;
  const uint64_t playout = vm.count("playout") ? vm["playout"].as<uint64_t>() : stored.best_playout;
  const PluginCatalog catalog = load_catalog(vm, true);
  const LoadedPlugin& plugin = require_plugin(catalog, game_name, path + ": ");
  const ResolvedParams params = resolve_params(*plugin.tables.game, stored.params);
  core::GameInstance game(plugin.tables, params.values);
  core::StateBlob start = game.initial_state();
  const bool explicit_start = stored.start_state.has_value();
  if (explicit_start) start = game.state_from_string(*stored.start_state);

  std::vector<uint32_t> moves;
  if (engine == "batch" && plugin.tables.replay) {
    moves.resize(1u << 20);
    char error[1024] = {};
    const uint32_t n = plugin.tables.replay->playout_moves(game.handle(), seed, playout, explicit_start ? start.data() : nullptr,
                                                           moves.data(), static_cast<uint32_t>(moves.size()), error,
                                                           sizeof error);
    if (n == 0 && error[0]) {
      log_line(LogLevel::error, fmt::format("replay of playout {} failed: {}", playout, error));
      return kExitFailed;
    }
    moves.resize(n);
  } else if (engine == "batch") {
    log_line(LogLevel::error, fmt::format("plugin '{}' ran the batch engine but has no replay table", game_name));
    return kExitFailed;
  } else {
    core::generic_playout(game, seed, playout, start, &moves);
  }

  std::printf("%s playout %llu (seed %llu, %s engine), %zu moves from %s:\n", game_name.c_str(),
              static_cast<unsigned long long>(playout), static_cast<unsigned long long>(seed), engine.c_str(),
              moves.size(), game.state_to_string(start).c_str());
  core::StateBlob state = start;
  std::string line;
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::string m = game.move_to_string(state, moves[i]);
    game.apply_move(state, moves[i]);
    if (vm.count("states")) {
      std::printf("%5zu  %-8s %s\n", i + 1, m.c_str(), game.state_to_string(state).c_str());
      continue;
    }
    line += (line.empty() ? "" : " ") + m;
    if (line.size() > 90 || i + 1 == moves.size()) {
      std::printf("  %s\n", line.c_str());
      line.clear();
    }
  }
  const int64_t score = game.score(state);
  if (vm.count("document")) {
    // A document starts at the initial state; from a stored start, the moves before it would be missing.
    if (explicit_start) {
      log_line(LogLevel::error, "--document: the playout starts from a stored state, not from the initial state");
      return kExitUsage;
    }
    const std::string document_path = vm["document"].as<std::string>();
    write_json(document_path, sequence_document(game, moves, score));
    std::printf("playout of %zu moves saved in %s\n", moves.size(), document_path.c_str());
  }
  std::printf("final state: %s, score %lld", game.state_to_string(state).c_str(), static_cast<long long>(score));
  if (playout == stored.best_playout) {
    std::printf(score == stored.best_score ? " (matches the results file's best score)\n"
                                           : " (MISMATCH: the results file says %lld)\n",
                static_cast<long long>(stored.best_score));
    return score == stored.best_score ? kExitOk : kExitFailed;
  }
  std::printf("\n");
  return kExitOk;
}

} // namespace gsdk::host
