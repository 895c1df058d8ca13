// perft.cpp - `gsdk perft GAME POSITION DEPTH`: count the leaves of a game's move tree, per root move
// with --divide, printed like Stockfish's `go perft` so the two can be diffed.
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/perft/perft_algorithm.hpp"
#include "algorithms/perft/perft_report.hpp"
#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "commands/whole_number_option.hpp"
#include "devices/device_selection.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "report/hardware.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"
#include "report/results_file.hpp"

namespace gsdk::host {

namespace {

constexpr uint32_t kMaxDepth = 64;

// Bad input: said once, exit status 2.
int usage_error(const std::string& message) {
  log_line(LogLevel::error, message);
  return kExitUsage;
}

} // namespace

int command_perft(const Arguments& args) {
  po::options_description options("gsdk perft");
  add_common_options(options);
  options.add_options()("game", po::value<std::string>()->required(), "the game (plugin) name")(
      "position", po::value<std::string>()->required(), "the game's text form of a state, or 'start'")(
      "depth", po::value<std::string>()->required(), "plies to count, 0..64")(
      "divide", "also count per root move")(
      "device", po::value<std::string>()->default_value("auto"), "cpu | cuda | all | auto")(
      "threads", whole_number<unsigned>(0), "CPU worker threads (0: every hardware thread)")(
      "streams", whole_number<unsigned>(1), "CUDA streams per GPU, 1..64")(
      "param", po::value<std::vector<std::string>>()->composing(), "a game parameter: name=value (repeatable)")(
      "generic", "count through the per-state rules only (the reference for the plugin's perft tables)")(
      "json", po::value<std::string>(), "also write the result as a JSON document")(
      "quiet,q", "no progress bar");
  po::positional_options_description positional;
  positional.add("game", 1).add("position", 1).add("depth", 1);
  po::variables_map vm;
  const std::string usage = "gsdk perft GAME POSITION DEPTH [--divide] [--device cpu|cuda|all|auto] [--threads N] "
                            "[--streams N] [--param name=value]... [--generic] [--json FILE]";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  const std::string depth_text = vm["depth"].as<std::string>();
  const std::optional<uint32_t> depth = parse_count(depth_text, 0, kMaxDepth);
  if (!depth) return usage_error(fmt::format("depth must be an integer from 0 to {}, got '{}'", kMaxDepth, depth_text));
  RunSettings settings;
  settings.device = vm["device"].as<std::string>();
  if (settings.device != "cpu" && settings.device != "cuda" && settings.device != "all" && settings.device != "auto")
    return usage_error("--device must be cpu, cuda, all or auto, got '" + settings.device + "'");
  settings.threads = whole_number_of<unsigned>(vm, "threads");
  if (settings.threads > 4096) return usage_error(fmt::format("--threads must be at most 4096, got {}", settings.threads));
  settings.streams = whole_number_of<unsigned>(vm, "streams");
  if (settings.streams < 1 || settings.streams > 64)
    return usage_error(fmt::format("--streams must be from 1 to 64, got {}", settings.streams));
  const bool divide = vm.count("divide") > 0, generic = vm.count("generic") > 0;
  try {
    if (vm.count("json")) check_output_path(vm["json"].as<std::string>());
  } catch (const OutputError& e) {
    return usage_error(e.what());
  }

  const PluginCatalog catalog = load_catalog(vm, true);
  const std::string game_name = vm["game"].as<std::string>();
  const std::string position = vm["position"].as<std::string>();
  const LoadedPlugin* plugin = nullptr;
  ResolvedParams params;
  try {
    plugin = &require_plugin(catalog, game_name, "");
    params = resolve_params(*plugin->tables.game,
                            params_from_assignments(vm.count("param") ? vm["param"].as<std::vector<std::string>>()
                                                                      : std::vector<std::string>{}));
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  core::GameInstance game(plugin->tables, params.values);
  core::StateBlob root;
  try {
    root = perft_root(game, position);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  const DeviceChoice devices = choose_devices(settings, plugin->tables, perft_device_needs(plugin->tables, generic));
  core::PerftJob job = perft_job(devices, generic, divide);
  job.root = std::move(root);
  job.depth = *depth;

  ProgressBar bar(fmt::format("perft {}", *depth), !vm.count("quiet"));
  const core::PerftOutcome outcome = core::run_perft(game, job, [&](uint64_t done, uint64_t total) { bar.update(done, total); });
  bar.finish();

  if (vm.count("json")) {
    nlohmann::json doc = versions_json(*plugin, params);
    doc.update({{"algorithm", "perft"},
                {"position", position},
                {"depth", *depth},
                {"devices", devices.summary},
                {"hardware", describe_hardware()},
                {"status", outcome.error.empty() ? "complete" : "incomplete"},
                {"result", perft_json(outcome, divide)}});
    if (!write_json_or_print(vm["json"].as<std::string>(), doc)) return kExitFailed;
  }
  if (!outcome.error.empty()) {
    log_line(LogLevel::error, fmt::format("perft did not finish: {}\n  partial count: {} leaves in the subtrees that finished",
                                          outcome.error, core::to_string(outcome.leaves)));
    return kExitFailed;
  }
  print_perft(outcome, divide, devices.summary);
  return kExitOk;
}

} // namespace gsdk::host
