// replay.cpp - `gsdk replay RESULTS.json`: regenerate a stored playout from (seed, playout number)
// and show it move by move, checking the score against the results file; optionally save it as the game's
// document of a move sequence (--document: the game's own format, e.g. a snake file, or gsdk-moves); --json prints
// the same as one JSON document.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "commands/playout_results.hpp"
#include "commands/whole_number_option.hpp"
#include "config/quoted_value.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"
#include "report/sequence_document.hpp"

namespace gsdk::host {

namespace {

// The stored parameters as a config's [params]; a value no parameter can have is refused, not dropped.
toml::table params_from_json(const nlohmann::json& params, const std::string& path) {
  toml::table t;
  for (const auto& [key, value] : params.items()) {
    const bool too_big = value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX;
    if (value.is_boolean())
      t.insert(key, value.get<bool>());
    else if (value.is_number_integer() && !too_big)
      t.insert(key, value.get<int64_t>());
    else if (value.is_number_float())
      t.insert(key, value.get<double>());
    else if (value.is_string())
      t.insert(key, value.get<std::string>());
    else
      throw ResultsFileError(fmt::format("{}: /game/params/{} is {}; expected a boolean, a 64-bit integer, a number or "
                                         "a string",
                                         path, key, quote_value(value.dump(), '`')));
  }
  return t;
}

// For a game no plugin folder has: the folder of the plugin the run loaded, which the results file records, to pass
// with --plugin-dir (a run may load a plugin from any folder; replay searches the default ones and those it is given).
std::string plugin_folder_hint(const std::string& plugin_path) {
  if (plugin_path.empty()) return "";
  const std::filesystem::path file(plugin_path);
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error))
    return fmt::format("\n  the run loaded the plugin {}, which is no longer there: pass --plugin-dir <folder> with "
                       "the folder that holds the plugin now",
                       quote_value(plugin_path, '\''));
  return fmt::format("\n  the run loaded the plugin {}: pass --plugin-dir {} to replay it",
                     quote_value(plugin_path, '\''), quote_value(file.parent_path().string(), '\''));
}

} // namespace

int command_replay(const Arguments& args) {
  po::options_description options("gsdk replay");
  add_common_options(options);
  options.add_options()("results", po::value<std::string>()->required(), "results file written by gsdk run")(
      "playout", whole_number<uint64_t>(), "playout number to show (default: the best one)")(
      "states", "print the state after every move")("document", po::value<std::string>(),
                                                    "also save the playout as the game's document of a move sequence "
                                                    "(the game's own format where it has one, else gsdk-moves)")(
      "json", "print the replay as one JSON document (moves, final state and score, the checks against the file)");
  po::positional_options_description positional;
  positional.add("results", 1);
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk replay RESULTS.json [--playout N] [--states] [--document FILE] [--json]",
                                  options, positional, vm))
    return *exit;

  const std::string path = vm["results"].as<std::string>();
  try {
    if (vm.count("document")) {
      refuse_input_as_output(vm["document"].as<std::string>(), path);
      check_output_path(vm["document"].as<std::string>());
    }
  } catch (const OutputError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  StoredPlayouts stored;
  try {
    stored = read_playout_results(read_json(path), path);
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const uint64_t seed = stored.seed;
  const uint64_t playout = vm.count("playout") ? whole_number_of<uint64_t>(vm, "playout") : stored.result.best_playout;
  const std::string& game_name = stored.game;
  const std::string& engine = stored.engine;
  const PluginCatalog catalog = load_catalog(vm, true);
  std::unique_ptr<core::GameInstance> instance;
  const LoadedPlugin* loaded = nullptr;
  std::vector<std::string> mismatches = self_contradictions(stored);
  try {
    loaded = &require_plugin(catalog, game_name, path + ": /game/name: ");
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what() + plugin_folder_hint(stored.plugin_path));
    return kExitUsage;
  }
  try {
    const ResolvedParams params = resolve_params(*loaded->tables.game, params_from_json(stored.params, path));
    if (params.as_json != stored.params)
      mismatches.push_back(fmt::format("the game's parameters resolve to {}, the file says {}", params.as_json.dump(),
                                       stored.params.dump()));
    instance = std::make_unique<core::GameInstance>(loaded->tables, params.values);
  } catch (const ResultsFileError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, fmt::format("{}: /game/params: {}", path, e.what()));
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    log_line(LogLevel::error, fmt::format("{}: /game/params: {}", path, e.what()));
    return kExitUsage;
  }
  const LoadedPlugin& plugin = *loaded;
  core::GameInstance& game = *instance;
  if (plugin.tables.version() != stored.plugin_version)
    mismatches.push_back(fmt::format("plugin '{}' is version {} here, the file was made with version {}", game_name,
                                     plugin.tables.version(), stored.plugin_version));
  // The playouts come from the plugin's rules and streams, so another gsdk can still replay them: a warning.
  if (stored.gsdk_version != GSDK_VERSION)
    log_line(LogLevel::warning,
             fmt::format("{} was made by gsdk {}, this is gsdk {}; the replay checks it all the same", path,
                         stored.gsdk_version, GSDK_VERSION));
  if (stored.status != "complete")
    log_line(LogLevel::warning,
             fmt::format("{}: the run did not finish (status \"{}\"): its counts are partial", path, stored.status));
  const auto bins = game.histogram_bins();
  if (stored.result.histogram.size() != bins)
    mismatches.push_back(
        fmt::format("the histogram has {} bins, the game's scores need {}", stored.result.histogram.size(), bins));
  core::StateBlob start = game.initial_state();
  const bool explicit_start = stored.start_state.has_value();
  try {
    if (explicit_start) start = game.state_from_string(*stored.start_state);
  } catch (const std::invalid_argument& e) {
    log_line(LogLevel::error, fmt::format("{}: /start_state: {}", path, e.what()));
    return kExitUsage;
  }

  // Playout `number`'s moves from (seed, number): the plugin's replay table for a batch run, the per-state
  // rules for a generic one. False, with `error` set, when the plugin cannot.
  const auto regenerate = [&](uint64_t number, std::vector<uint32_t>& out, std::string& error) {
    out.clear();
    if (engine == "generic") {
      core::generic_playout(game, seed, number, start, &out);
      return true;
    }
    if (!plugin.tables.replay) {
      error = fmt::format("plugin '{}' ran the batch engine but has no replay table", game_name);
      return false;
    }
    out.resize(1u << 20);
    char message[1024] = {};
    const uint32_t n =
        plugin.tables.replay->playout_moves(game.handle(), seed, number, explicit_start ? start.data() : nullptr,
                                            out.data(), static_cast<uint32_t>(out.size()), message, sizeof message);
    out.resize(n);
    if (n == 0 && message[0]) error = message;
    return error.empty();
  };
  const auto replay_score = [&](uint64_t number, std::string& error) -> int64_t {
    std::vector<uint32_t> played;
    if (!regenerate(number, played, error)) return 0;
    core::StateBlob end = start;
    for (uint32_t m : played) game.apply_move(end, m);
    return game.score(end);
  };

  std::vector<uint32_t> moves;
  if (std::string error; !regenerate(playout, moves, error)) {
    log_line(LogLevel::error, fmt::format("replay of playout {} failed: {}", playout, error));
    return kExitFailed;
  }

  const bool as_json = vm.count("json") > 0;
  const bool with_states = vm.count("states") > 0;
  nlohmann::json document = {{"results", path},
                             {"game", game_name},
                             {"playout", playout},
                             {"seed", seed},
                             {"engine", engine},
                             {"start_state", game.state_to_string(start)},
                             {"moves", nlohmann::json::array()}};
  if (with_states) document["states"] = nlohmann::json::array();
  if (!as_json)
    std::printf("%s playout %llu (seed %llu, %s engine), %zu moves from %s:\n", game_name.c_str(),
                static_cast<unsigned long long>(playout), static_cast<unsigned long long>(seed), engine.c_str(),
                moves.size(), game.state_to_string(start).c_str());
  core::StateBlob state = start;
  std::string line;
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::string m = game.move_to_string(state, moves[i]);
    game.apply_move(state, moves[i]);
    if (as_json) {
      document["moves"].push_back(m);
      if (with_states) document["states"].push_back(game.state_to_string(state));
      continue;
    }
    if (with_states) {
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
    document["document"] = document_path;
    if (!as_json) std::printf("playout of %zu moves saved in %s\n", moves.size(), document_path.c_str());
  }
  document["final_state"] = game.state_to_string(state);
  document["score"] = score;
  document["checks"] = nlohmann::json::array();
  if (!as_json)
    std::printf("final state: %s, score %lld\n", game.state_to_string(state).c_str(), static_cast<long long>(score));
  // Every playout whose score the file states is replayed and compared: the best and the worst.
  const core::PlayoutResult& r = stored.result;
  for (const auto& [name, number, stated] :
       {std::tuple{"best", r.best_playout, r.best_score}, std::tuple{"worst", r.worst_playout, r.worst_score}}) {
    if (r.playouts == 0) break;
    std::string error;
    const int64_t replayed = number == playout ? score : replay_score(number, error);
    if (!error.empty()) {
      log_line(LogLevel::error, fmt::format("replay of playout {} failed: {}", number, error));
      return kExitFailed;
    }
    document["checks"].push_back({{"name", name}, {"playout", number}, {"stated", stated}, {"replayed", replayed}});
    if (replayed != stated)
      mismatches.push_back(
          fmt::format("the {} playout {} scores {}, the file says {}", name, number, replayed, stated));
    else if (number == playout && !as_json)
      std::printf("playout %llu matches the results file's %s score\n", static_cast<unsigned long long>(number), name);
  }
  document["mismatches"] = mismatches;
  document["agrees"] = mismatches.empty();
  if (as_json) {
    std::cout << document.dump(2) << '\n';
  } else {
    for (const std::string& m : mismatches) std::printf("MISMATCH: %s\n", m.c_str());
    if (mismatches.empty()) std::printf("the results file agrees with its replay and with itself\n");
  }
  return mismatches.empty() ? kExitOk : kExitFailed;
}

} // namespace gsdk::host
