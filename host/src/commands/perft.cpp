// perft.cpp - `gsdk perft GAME POSITION DEPTH`: count the leaves of a game's move tree, per root move
// with --divide, printed like Stockfish's `go perft` so the two can be diffed. The command is a perft experiment of one
// position made from its options and run by the perft driver as `gsdk run` runs one (its checks, checkpoints and
// results); under mpirun the ranks share the count (distribute/ranked_run.hpp) and rank 0 prints it.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "algorithms/perft/perft_algorithm.hpp"
#include "algorithms/perft/perft_report.hpp"
#include "algorithms/run_experiment.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "commands/command_line.hpp"
#include "commands/run_outcome.hpp"
#include "commands/whole_number_option.hpp"
#include "config/command_line_document.hpp"
#include "distribute/mpi_world.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"
#include "signals/stop_signals.hpp"

namespace gsdk::host {

namespace {

constexpr const char* kSourceName = "gsdk perft (command line)";

// Bad input: said once, exit status 2.
int usage_error(const std::string& message) {
  log_line(LogLevel::error, message);
  return kExitUsage;
}

// The experiment `gsdk perft` runs: [perft] with the one position at DEPTH, [run] and [params] from the options, each
// value located at the option that gave it, so the perft driver's and [run]'s checks are the only ones (a depth above
// 64, a table size with --no-hash: "DEPTH 65 (command line): ..."). DEPTH must be digits: the rest of its range is
// the driver's.
toml::table perft_document(const po::variables_map& vm, const std::string& depth_text) {
  toml::table doc;
  const std::string game = vm["game"].as<std::string>();
  set_option_value(doc, "game", toml_string(game), command_line_origin("GAME", game));
  doc.insert("algorithm", "perft");
  doc.insert("name", "perft");
  if (vm.count("param")) doc.insert("params", params_from_assignments(vm["param"].as<std::vector<std::string>>()));
  toml::table position;
  const std::string text = vm["position"].as<std::string>();
  set_option_value(position, "position", toml_string(text), command_line_origin("POSITION", text));
  set_option_value(position, "depth", depth_text, command_line_origin("DEPTH", depth_text));
  toml::table perft{{"divide", vm.count("divide") > 0},
                    {"engine", vm.count("generic") ? "generic" : "batch"},
                    {"hash", vm.count("no-hash") == 0},
                    {"positions", toml::array{std::move(position)}}};
  for (const auto& [option, key] : {std::pair{"hash-mb", "hash_mb"}, std::pair{"gpu-hash-mb", "gpu_hash_mb"}}) {
    if (!vm.count(option)) continue;
    const std::string mib = std::to_string(whole_number_of<uint64_t>(vm, option));
    set_option_value(perft, key, mib, command_line_origin(fmt::format("--{}", option), mib));
  }
  doc.insert("perft", std::move(perft));
  toml::table run;
  const std::string device = vm["device"].as<std::string>();
  set_option_value(run, "device", toml_string(device), command_line_origin("--device", device));
  for (const char* option : {"threads", "streams"}) {
    const std::string count = std::to_string(whole_number_of<unsigned>(vm, option));
    set_option_value(run, option, count, command_line_origin(fmt::format("--{}", option), count));
  }
  doc.insert("run", std::move(run));
  return doc;
}

// What --json writes: the count of the one position (`result`, as [perft] results hold it) with what was counted
// and where, and under MPI the ranks' part in it.
nlohmann::json perft_json_document(const ExperimentRun& run, const po::variables_map& vm, uint64_t depth,
                                   const std::string& devices) {
  const nlohmann::json& results = run.results;
  const nlohmann::json& positions = results["result"]["positions"];
  nlohmann::json doc = {{"gsdk", results["gsdk"]},
                        {"game", results["game"]},
                        {"algorithm", "perft"},
                        {"position", vm["position"].as<std::string>()},
                        {"depth", depth},
                        {"devices", devices},
                        {"hardware", results["hardware"]},
                        {"status", results["status"]},
                        {"result", positions.empty() ? nlohmann::json(nullptr) : positions[0]}};
  for (const char* key : {"ranks", "interrupted", "error", "failure", "checkpoint"})
    if (results.contains(key)) doc[key] = results[key];
  return doc;
}

// The Stockfish-like report of a count by one process, or what stopped it (exit status 1, or 128 + the signal).
int report_count(const ExperimentRun& run, const po::variables_map& vm) {
  const core::PerftOutcome* counted = first_position_count(*run.outcome);
  const std::string checkpoint =
      run.results.contains("checkpoint") ? run.results["checkpoint"]["file"].get<std::string>() : "";
  if (!counted || !counted->error.empty()) {
    log_line(LogLevel::error,
             fmt::format("perft did not finish: {}\n  partial count: {} leaves in the subtrees that finished",
                         counted ? counted->error : run.error, counted ? core::to_string(counted->leaves) : "0"));
    return kExitFailed;
  }
  if (counted->stopped) {
    log_line(LogLevel::error,
             fmt::format("interrupted by {}: partial count {} leaves in {} of {} subtrees{}",
                         signal_name(stop_signal()), core::to_string(counted->leaves), counted->progress.counted.size(),
                         counted->progress.subtrees,
                         vm.count("json") ? " (saved in " + output_name(vm["json"].as<std::string>()) + ")" : "") +
                 (checkpoint.empty() ? "" : "; run the same command again to resume from " + checkpoint));
    return interrupted_exit_status(stop_signal());
  }
  if (!run.failure.empty()) {
    log_line(LogLevel::error, run.failure);
    return kExitFailed;
  }
  print_perft(*counted, vm.count("divide") > 0, vm.count("no-hash") == 0, run.results["devices"].get<std::string>());
  return kExitOk;
}

// The report of a count shared by MPI ranks (rank 0), its time the job's, start-up included.
int report_ranked_count(const ExperimentRun& run, const po::variables_map& vm, int ranks) {
  const nlohmann::json& counted = run.results["result"]["positions"].at(0);
  if (!run.complete) {
    log_line(LogLevel::error,
             fmt::format("perft did not finish on {} ranks: {}; partial count {} leaves", ranks,
                         run.interrupted ? "interrupted" : run.error, counted["leaves"].get<std::string>()) +
                 (vm.count("checkpoint")
                      ? "; run the same command again to resume from " + vm["checkpoint"].as<std::string>()
                      : ""));
    return run.interrupted ? interrupted_exit_status(stop_signal()) : kExitFailed;
  }
  if (!run.failure.empty()) {
    log_line(LogLevel::error, run.failure);
    return kExitFailed;
  }
  if (vm.count("divide")) {
    for (const nlohmann::json& m : counted["divide"])
      std::printf("%s: %s\n", m["move"].get<std::string>().c_str(), m["leaves"].get<std::string>().c_str());
    std::printf("\n");
  }
  const double seconds = run.results["ranks"]["wall_seconds"].get<double>();
  std::printf("Nodes searched: %s\n", counted["leaves"].get<std::string>().c_str());
  std::printf("Time: %.3f s (start-up included)\n", seconds);
  std::printf("Speed: %.0f nodes/s\n", std::stod(counted["leaves"].get<std::string>()) / std::max(seconds, 1e-9));
  std::printf("Engine: %d MPI ranks\n", ranks);
  if (counted.contains("hash"))
    std::printf("Hash: %s\n", perft_hash_line(perft_hash_from_json(counted["hash"])).c_str());
  return kExitOk;
}

constexpr const char* kOperandWords = "operand-words";

// GAME, POSITION and DEPTH may each be given by name (--position=P) or as a word on the line: the words fill, in
// order, the operands not named, so a named position and a positional depth go together. Returns what is wrong
// (a missing operand, a word too many), or "" with all three in `vm`.
std::string fill_operands(po::variables_map& vm) {
  std::vector<std::string> words;
  if (vm.count(kOperandWords)) words = vm[kOperandWords].as<std::vector<std::string>>();
  size_t next = 0;
  for (const std::string operand : {"game", "position", "depth"}) {
    if (vm.count(operand)) continue;
    if (next == words.size()) {
      std::string upper = operand;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return fmt::format("{} is missing: give it as a word or as --{}", upper, operand);
    }
    vm.insert_or_assign(operand, po::variable_value(boost::any(words[next++]), false));
  }
  if (next < words.size())
    return fmt::format("unexpected argument '{}': GAME, POSITION and DEPTH are given already", words[next]);
  return "";
}

} // namespace

int command_perft(const Arguments& args) {
  po::options_description options("gsdk perft");
  add_common_options(options);
  options.add_options()("game", po::value<std::string>(), "the game (plugin) name")(
      "position", po::value<std::string>(),
      "the game's text form of a state, or 'start'; one that starts with '-' goes after `--` or as --position=P")(
      "depth", po::value<std::string>(), "plies to count, 0..64")("divide", "also count per root move")(
      "device", po::value<std::string>()->default_value("auto"),
      "cpu | cuda | all | auto")("threads", whole_number<unsigned>(0), "CPU worker threads (0: every hardware thread)")(
      "streams", whole_number<unsigned>(1), "CUDA streams per GPU, 1..64")(
      "param", po::value<std::vector<std::string>>()->composing(), "a game parameter: name=value (repeatable)")(
      "generic", "count through the per-state rules only (the reference for the plugin's perft tables)")(
      "no-hash", "count every path: no transposition tables (the same counts; hashing is on by default)")(
      "hash-mb", whole_number<uint64_t>(), "MiB of the CPU workers' transposition table (0: the default)")(
      "gpu-hash-mb", whole_number<uint64_t>(), "MiB of each GPU's transposition table (0: the default)")(
      "json", po::value<std::string>(), "also write the result as a JSON document")(
      "checkpoint", po::value<std::string>(),
      "save the counted subtrees to FILE while counting and when stopped; run again with the same FILE to resume")(
      "checkpoint-every", po::value<double>()->default_value(60),
      "seconds between checkpoint saves")("quiet,q", "no progress bar");
  po::options_description operand_words;
  operand_words.add_options()(kOperandWords, po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add(kOperandWords, -1);
  po::variables_map vm;
  const std::string usage = "gsdk perft GAME POSITION DEPTH [--divide] [--device cpu|cuda|all|auto] [--threads N] "
                            "[--streams N] [--param name=value]... [--generic] [--no-hash | [--hash-mb MB] "
                            "[--gpu-hash-mb MB]] [--json FILE] [--checkpoint FILE [--checkpoint-every S]]\n  Words "
                            "after `--` are operands even when they start with '-' "
                            "(an Othello board): gsdk perft othello -- -XO... 5, or --position=-XO... 5";
  if (auto exit = parse_arguments(args, usage, options, positional, vm, &operand_words)) return *exit;
  if (const std::string wrong = fill_operands(vm); !wrong.empty()) return usage_error(wrong + "\nusage: " + usage);

  // Its digits only: the range is the driver's (perft_document).
  const std::string depth_text = vm["depth"].as<std::string>();
  if (depth_text.empty() || depth_text.size() > 18 || depth_text.find_first_not_of("0123456789") != std::string::npos)
    return usage_error(fmt::format("DEPTH must be a whole number of plies, got '{}'", depth_text));
  const double checkpoint_seconds = vm["checkpoint-every"].as<double>();
  if (!(checkpoint_seconds > 0 && checkpoint_seconds <= 1e9))
    return usage_error(
        fmt::format("--checkpoint-every must be a number of seconds above 0, got {}", checkpoint_seconds));
  try {
    const std::string json = vm.count("json") ? vm["json"].as<std::string>() : "";
    const std::string checkpoint = vm.count("checkpoint") ? vm["checkpoint"].as<std::string>() : "";
    refuse_shared_outputs({{"the JSON document (--json)", json}, {"the checkpoint (--checkpoint)", checkpoint}});
    if (!json.empty()) check_output_path(json);
    if (!checkpoint.empty()) check_checkpoint_path(checkpoint);
  } catch (const OutputError& e) {
    return usage_error(e.what());
  }

  MpiWorld* world = nullptr;
  try {
    world = &MpiWorld::get();
  } catch (const MpiWorldError& e) {
    return usage_error(e.what());
  }
  const bool root = world->place().rank == 0;
  ExperimentConfig config;
  try {
    config = command_experiment(perft_document(vm, depth_text), kSourceName);
  } catch (const ConfigError& e) {
    // Every rank reads the same arguments: rank 0 says it for all.
    if (root) log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const PluginCatalog catalog = load_catalog(vm, root);
  RunOptions run_options;
  run_options.progress.shown = !vm.count("quiet") && !world->distributed();
  run_options.stop = &install_stop_signals();
  if (vm.count("checkpoint")) run_options.checkpoint = vm["checkpoint"].as<std::string>();
  run_options.checkpoint_seconds = checkpoint_seconds;

  std::optional<ExperimentRun> run;
  if (world->distributed()) {
    int status = kExitOk;
    run = run_as_rank_or_say(config, catalog, run_options, *world, status);
    if (!run) return status;
  } else {
    try {
      run = run_experiment(config, catalog, run_options);
    } catch (const ConfigError& e) {
      return usage_error(e.what());
    } catch (const std::exception& e) {
      log_line(LogLevel::error, e.what());
      return kExitFailed;
    }
    if (run->interrupted) run->results["interrupted"]["signal"] = signal_name(stop_signal());
  }
  const uint64_t depth = std::stoull(depth_text);
  if (vm.count("json")) {
    const std::string devices = world->distributed() ? fmt::format("{} MPI ranks", world->place().ranks)
                                                     : run->results["devices"].get<std::string>();
    if (!write_json_or_print(vm["json"].as<std::string>(), perft_json_document(*run, vm, depth, devices)))
      return kExitFailed;
  }
  return world->distributed() ? report_ranked_count(*run, vm, world->place().ranks) : report_count(*run, vm);
}

} // namespace gsdk::host
