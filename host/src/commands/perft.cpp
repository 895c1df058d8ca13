// perft.cpp - `gsdk perft GAME POSITION DEPTH`: count the leaves of a game's move tree, per root move
// with --divide, printed like Stockfish's `go perft` so the two can be diffed. Under mpirun the ranks share the count
// (distribute/ranked_run.hpp) and rank 0 prints it.
#include <cctype>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "algorithms/perft/perft_algorithm.hpp"
#include "algorithms/perft/perft_progress.hpp"
#include "algorithms/perft/perft_report.hpp"
#include "algorithms/run_experiment.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "commands/command_line.hpp"
#include "commands/run_outcome.hpp"
#include "commands/whole_number_option.hpp"
#include "devices/device_selection.hpp"
#include "distribute/mpi_world.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "report/hardware.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"
#include "report/results_file.hpp"
#include "signals/stop_signals.hpp"

namespace gsdk::host {

namespace {

constexpr uint32_t kMaxDepth = 64;

// What a checkpoint of this count must match: gsdk's version, the game, its parameters and plugin (name,
// version, the SHA-1 of its file), the position and the depth; not devices, threads, --divide or the hashing options,
// which never change a count (a checkpoint counted with tables resumes with other sizes; one counted with them is
// refused without them, and the reverse, by the distinct check of its progress: perft_resume_refusal).
nlohmann::json perft_identity(const LoadedPlugin& plugin, const ResolvedParams& params, const std::string& position,
                              uint32_t depth) {
  nlohmann::json identity =
      game_identity(plugin.tables.name(), plugin.tables.version(), plugin.tables.path, params.as_json);
  identity.update({{"command", "perft"}, {"position", position}, {"depth", depth}});
  return identity;
}

// Bad input: said once, exit status 2.
int usage_error(const std::string& message) {
  log_line(LogLevel::error, message);
  return kExitUsage;
}

// --no-hash, --hash-mb and --gpu-hash-mb as given (sizes in MiB, 0: the core's default).
struct HashOptions {
  bool enabled = true;
  uint64_t host_mib = 0, device_mib = 0;
};

// The hashing options, or what is wrong with them (a size beyond kMaxHashMib, a size with --no-hash).
std::variant<HashOptions, std::string> read_hash_options(const po::variables_map& vm) {
  HashOptions hash;
  hash.enabled = vm.count("no-hash") == 0;
  for (const auto& [name, mib] : {std::pair{"hash-mb", &hash.host_mib}, std::pair{"gpu-hash-mb", &hash.device_mib}}) {
    if (!vm.count(name)) continue;
    *mib = whole_number_of<uint64_t>(vm, name);
    if (*mib > kMaxHashMib) return fmt::format("--{} must be at most {} MiB (2^40), got {}", name, kMaxHashMib, *mib);
    if (!hash.enabled && *mib != 0)
      return fmt::format("--{} {} sizes a transposition table, but --no-hash counts without them: give one or the "
                         "other",
                         name, *mib);
  }
  return hash;
}

// The count as one rank of an MPI job: the same count as a perft experiment of one position (ranked_run.hpp), with
// rank 0 printing and writing (--json) what `gsdk perft` does, and the ranks' part in it.
int perft_as_rank(MpiWorld& world, const po::variables_map& vm, const PluginCatalog& catalog,
                  const RunSettings& settings, bool divide, bool generic, const HashOptions& hash, uint32_t depth,
                  double checkpoint_seconds) {
  std::optional<ExperimentConfig> config;
  try {
    toml::table doc{{"game", vm["game"].as<std::string>()}, {"algorithm", "perft"}};
    doc.insert("params", params_from_assignments(vm.count("param") ? vm["param"].as<std::vector<std::string>>()
                                                                   : std::vector<std::string>{}));
    toml::array positions;
    positions.push_back(toml::table{
        {"name", "position"}, {"position", vm["position"].as<std::string>()}, {"depth", static_cast<int64_t>(depth)}});
    doc.insert("perft", toml::table{{"divide", divide},
                                    {"engine", generic ? "generic" : "batch"},
                                    {"hash", hash.enabled},
                                    {"hash_mb", static_cast<int64_t>(hash.host_mib)},
                                    {"gpu_hash_mb", static_cast<int64_t>(hash.device_mib)},
                                    {"positions", positions}});
    doc.insert("run", toml::table{{"device", device_word(settings.device)},
                                  {"threads", static_cast<int64_t>(settings.threads)},
                                  {"streams", static_cast<int64_t>(settings.streams)}});
    std::ostringstream text;
    text << toml::toml_formatter(doc);
    config = parse_experiment(text.str(), "gsdk perft (command line)", {});
  } catch (const ConfigError& e) {
    // Every rank reads the same arguments: rank 0 says it for all.
    if (world.place().rank == 0) log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  RunOptions options;
  options.progress.shown = false;
  options.stop = &install_stop_signals();
  if (vm.count("checkpoint")) options.checkpoint = vm["checkpoint"].as<std::string>();
  options.checkpoint_seconds = checkpoint_seconds;
  int status = kExitOk;
  std::optional<ExperimentRun> run = run_as_rank_or_say(*config, catalog, options, world, status);
  if (!run) return status;
  const nlohmann::json& counted = run->results["result"]["positions"].at(0);
  if (vm.count("json")) {
    // The document one process writes, its result being the one position the ranks counted.
    nlohmann::json doc = {{"gsdk", run->results["gsdk"]}, {"game", run->results["game"]}};
    doc.update({{"algorithm", "perft"},
                {"position", vm["position"].as<std::string>()},
                {"depth", depth},
                {"devices", fmt::format("{} MPI ranks", world.place().ranks)},
                {"hardware", run->results["hardware"]},
                {"status", run->results["status"]},
                {"result", counted},
                {"ranks", run->results["ranks"]}});
    for (const char* key : {"interrupted", "error", "checkpoint"})
      if (run->results.contains(key)) doc[key] = run->results[key];
    if (!write_json_or_print(vm["json"].as<std::string>(), doc)) return kExitFailed;
  }
  if (!run->complete) {
    log_line(LogLevel::error,
             fmt::format("perft did not finish on {} ranks: {}; partial count {} leaves", world.place().ranks,
                         run->interrupted ? "interrupted" : run->error, counted["leaves"].get<std::string>()) +
                 (vm.count("checkpoint")
                      ? "; run the same command again to resume from " + vm["checkpoint"].as<std::string>()
                      : ""));
    return run->interrupted ? interrupted_exit_status(stop_signal()) : kExitFailed;
  }
  if (divide) {
    for (const nlohmann::json& m : counted["divide"])
      std::printf("%s: %s\n", m["move"].get<std::string>().c_str(), m["leaves"].get<std::string>().c_str());
    std::printf("\n");
  }
  const double seconds = run->results["ranks"]["wall_seconds"].get<double>();
  std::printf("Nodes searched: %s\n", counted["leaves"].get<std::string>().c_str());
  std::printf("Time: %.3f s (start-up included)\n", seconds);
  std::printf("Speed: %.0f nodes/s\n", std::stod(counted["leaves"].get<std::string>()) / std::max(seconds, 1e-9));
  std::printf("Engine: %d MPI ranks\n", world.place().ranks);
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

  const std::string depth_text = vm["depth"].as<std::string>();
  const std::optional<uint32_t> depth = parse_count(depth_text, 0, kMaxDepth);
  if (!depth) return usage_error(fmt::format("depth must be an integer from 0 to {}, got '{}'", kMaxDepth, depth_text));
  RunSettings settings;
  const std::optional<DeviceRequest> device = parse_device(vm["device"].as<std::string>());
  if (!device)
    return usage_error("--device must be cpu, cuda, all or auto, got '" + vm["device"].as<std::string>() + "'");
  settings.device = *device;
  settings.threads = whole_number_of<unsigned>(vm, "threads");
  if (settings.threads > 4096)
    return usage_error(fmt::format("--threads must be at most 4096, got {}", settings.threads));
  settings.streams = whole_number_of<unsigned>(vm, "streams");
  if (settings.streams < 1 || settings.streams > 64)
    return usage_error(fmt::format("--streams must be from 1 to 64, got {}", settings.streams));
  const bool divide = vm.count("divide") > 0, generic = vm.count("generic") > 0;
  const std::variant<HashOptions, std::string> hash_or_error = read_hash_options(vm);
  if (const std::string* wrong = std::get_if<std::string>(&hash_or_error)) return usage_error(*wrong);
  const HashOptions hash = std::get<HashOptions>(hash_or_error);
  const double checkpoint_seconds = vm["checkpoint-every"].as<double>();
  if (!(checkpoint_seconds > 0 && checkpoint_seconds <= 1e9))
    return usage_error(
        fmt::format("--checkpoint-every must be a number of seconds above 0, got {}", checkpoint_seconds));
  try {
    if (vm.count("json")) check_output_path(vm["json"].as<std::string>());
    if (vm.count("checkpoint")) check_output_path(vm["checkpoint"].as<std::string>());
  } catch (const OutputError& e) {
    return usage_error(e.what());
  }

  MpiWorld* world = nullptr;
  try {
    world = &MpiWorld::get();
  } catch (const MpiWorldError& e) {
    return usage_error(e.what());
  }
  const PluginCatalog catalog = load_catalog(vm, world->place().rank == 0);
  if (world->distributed())
    return perft_as_rank(*world, vm, catalog, settings, divide, generic, hash, *depth, checkpoint_seconds);
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
  DeviceChoice devices;
  try {
    devices =
        choose_devices(settings, plugin->tables, perft_device_needs(plugin->tables, generic), kCpuForDeviceOption);
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  core::PerftJob job = perft_job(devices, generic, divide, perft_hashing(hash.enabled, hash.host_mib, hash.device_mib));
  job.root = std::move(root);
  job.depth = *depth;
  job.stop = &install_stop_signals();

  std::unique_ptr<CheckpointFile> checkpoint;
  std::optional<core::PerftProgress> resumed;
  try {
    if (vm.count("checkpoint")) {
      checkpoint = std::make_unique<CheckpointFile>(vm["checkpoint"].as<std::string>(),
                                                    perft_identity(*plugin, params, position, *depth));
      if (!checkpoint->resumed().is_null())
        resumed = perft_progress_from_json(checkpoint->resumed(), checkpoint->path());
    }
  } catch (const CheckpointMismatch& e) {
    return usage_error(e.what());
  }
  if (resumed) job.resume = &*resumed;
  if (checkpoint) {
    job.on_snapshot = [&](const core::PerftProgress& p) { checkpoint->save(perft_progress_json(p), false); };
    job.snapshot_seconds = checkpoint_seconds;
  }

  ProgressBar bar(fmt::format("perft {}", *depth), ProgressSettings{.shown = !vm.count("quiet")});
  core::PerftOutcome outcome;
  try {
    outcome = core::run_perft(game, job, [&](uint64_t done, uint64_t total) { bar.update(done, total); });
  } catch (const std::invalid_argument& e) {
    if (!resumed) throw;
    return usage_error(fmt::format("{}: the checkpoint does not fit this count: {}", checkpoint->path(),
                                   perft_resume_refusal(*resumed, job.hashing, e.what())));
  }
  bar.finish();
  if (checkpoint) {
    try {
      checkpoint->save(perft_progress_json(outcome.progress), outcome.error.empty() && !outcome.stopped);
    } catch (const std::exception& e) {
      log_line(LogLevel::error, std::string("checkpoint: ") + e.what());
      if (outcome.error.empty() && !outcome.stopped) return kExitFailed;
    }
  }

  if (vm.count("json")) {
    nlohmann::json doc = versions_json(*plugin, params);
    doc.update({{"algorithm", "perft"},
                {"position", position},
                {"depth", *depth},
                {"devices", devices.summary},
                {"hardware", describe_hardware()},
                {"status", !outcome.error.empty() ? "incomplete"
                           : outcome.stopped      ? "interrupted"
                                                  : "complete"},
                {"result", perft_json(outcome, divide, job.hashing.enabled)}});
    if (outcome.error.empty() && outcome.stopped)
      doc["interrupted"] = {
          {"signal", signal_name(stop_signal())},
          {"partial", true},
          {"completed", {{"subtrees", outcome.progress.counted.size()}, {"of", outcome.progress.subtrees}}}};
    if (!write_json_or_print(vm["json"].as<std::string>(), doc)) return kExitFailed;
  }
  if (!outcome.error.empty()) {
    log_line(LogLevel::error,
             fmt::format("perft did not finish: {}\n  partial count: {} leaves in the subtrees that finished",
                         outcome.error, core::to_string(outcome.leaves)));
    return kExitFailed;
  }
  if (outcome.stopped) {
    log_line(LogLevel::error,
             fmt::format("interrupted by {}: partial count {} leaves in {} of {} subtrees{}",
                         signal_name(stop_signal()), core::to_string(outcome.leaves), outcome.progress.counted.size(),
                         outcome.progress.subtrees,
                         vm.count("json") ? " (saved in " + vm["json"].as<std::string>() + ")" : "") +
                 (checkpoint ? "; run the same command again to resume from " + checkpoint->path() : ""));
    return interrupted_exit_status(stop_signal());
  }
  print_perft(outcome, divide, job.hashing.enabled, devices.summary);
  return kExitOk;
}

} // namespace gsdk::host
