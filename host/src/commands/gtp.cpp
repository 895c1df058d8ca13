// gtp.cpp - `gsdk gtp GAME [--agent SPEC]`: a Go Text Protocol engine on stdin/stdout, so Othello (and
// other) GUIs and match tools can play gsdk's agents. `boardsize` accepts the game's own size (see
// gtp_board_size), any size of its board_size parameter's range (the game is made again with it), or --board-size
// for a game that states none. Messages for people go to stderr only.
#include <iostream>

#include <fmt/format.h>

#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "commands/whole_number_option.hpp"
#include "devices/device_selection.hpp"
#include "play/agent_game.hpp"
#include "play/agent_spec.hpp"
#include "play/default_agent.hpp"
#include "play/gtp_engine.hpp"
#include "plugin_loading/game_params.hpp"
#include "report/log.hpp"

namespace gsdk::host {

int command_gtp(const Arguments& args) {
  po::options_description options("gsdk gtp");
  add_common_options(options);
  options.add_options()("game", po::value<std::string>()->required(),
                        "the game (plugin) name")("agent", po::value<std::string>(),
                                                  "the engine's agent spec (see docs/user_guide.md); default: the "
                                                  "strongest this machine runs (see default_agent.hpp)")(
      "board-size", whole_number<uint32_t>(), "the size `boardsize` accepts, for a game that states none itself")(
      "seed", whole_number<uint64_t>(1), "random seed of the agent (reseeded by clear_board)")(
      "param", po::value<std::vector<std::string>>()->composing(), "a game parameter: name=value (repeatable)");
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  const std::string usage = "gsdk gtp GAME [--agent SPEC] [--board-size N] [--seed S] [--param name=value]...";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  const PluginCatalog catalog = load_catalog(vm, true);
  const std::vector<std::string> assignments =
      vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const LoadedPlugin* plugin = nullptr;
  std::string spec;
  core::AgentSettings settings;
  // The game with the command line's parameters (board_size replaced by `boardsize`'s, when given) and the agent on it.
  const auto make_game = [&](std::optional<uint32_t> board_size) {
    toml::table params = params_from_assignments(assignments);
    if (board_size) params.insert_or_assign("board_size", static_cast<int64_t>(*board_size));
    GtpGame made;
    made.params = resolve_params(*plugin->tables.game, params);
    made.game = std::make_unique<core::GameInstance>(plugin->tables, made.params.values);
    made.agent_game = std::make_unique<AgentGame>(*made.game, spec);
    made.agent = core::make_agent(made.agent_game->game(), settings);
    return made;
  };
  GtpGame played;
  try {
    plugin = &require_plugin(catalog, vm["game"].as<std::string>(), "");
    spec = vm.count("agent") ? vm["agent"].as<std::string>() : default_agent_spec(plugin->tables);
    settings = parse_agent_spec(spec);
    require_agent_device(settings, spec);
    played = make_game(std::nullopt);
  } catch (const AgentSpecError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const core::GameInstance& game = *played.game;

  GtpBoardSize board = gtp_board_size(game);
  if (vm.count("board-size")) {
    const uint32_t wanted = whole_number_of<uint32_t>(vm, "board-size");
    if (board.size && *board.size != wanted) {
      log_line(LogLevel::error, fmt::format("--board-size {}: game '{}' plays on a board of size {} ({})", wanted,
                                            game.game().name, *board.size, board.source));
      return kExitUsage;
    }
    board = {wanted, "--board-size", std::nullopt};
  }
  // Standard error, which GTP controllers keep apart from the protocol: which agent plays, so a user of the
  // default sees it.
  log_line(LogLevel::info, fmt::format("gtp: {} played by {}", game.game().name, played.agent->describe()));
  // A game with a board_size parameter is made again for another size that `boardsize` asks for.
  GtpGameMaker remake;
  if (board.parameter_range) remake = [make_game](uint32_t n) { return make_game(n); };
  GtpEngine engine(std::move(played), std::move(board), whole_number_of<uint64_t>(vm, "seed"), std::move(remake));
  for (std::string line; !engine.quit_requested() && std::getline(std::cin, line);) {
    const std::string response = engine.handle(line);
    std::cout << response << std::flush;
  }
  return kExitOk;
}

} // namespace gsdk::host
