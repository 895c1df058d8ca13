// run.cpp - `gsdk run CONFIG.toml`: check the output paths, run an experiment through its algorithm's driver,
// write the results file (or, when it cannot be written, print the results on stdout), print the driver's report.
// With --shard K/N: run the K-th of N parts of it and write the shard's partial results (distribute/shard_file.hpp).
// Under mpirun: every rank runs parts of it, rank 0 writes the results (distribute/ranked_run.hpp).
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/run_experiment.hpp"
#include "algorithms/run_files.hpp"
#include "commands/command_line.hpp"
#include "commands/run_outcome.hpp"
#include "commands/whole_number_option.hpp"
#include "distribute/mpi_world.hpp"
#include "distribute/shard_file.hpp"
#include "distribute/work_blocks.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"
#include "report/results_file.hpp"
#include "signals/stop_signals.hpp"

namespace gsdk::host {

namespace {

// The run as one rank of an MPI job (distribute/ranked_run.hpp): rank 0 writes the results and reports; the
// others end quietly unless they fail themselves.
int run_ranked(MpiWorld& world, const ExperimentConfig& config, const PluginCatalog& catalog, const RunOptions& options,
               const std::string& out) {
  int status = kExitOk;
  std::optional<ExperimentRun> run = run_as_rank_or_say(config, catalog, options, world, status);
  if (!run) return status;
  if (!write_json_or_print(out, run->results)) return kExitFailed;
  run->outcome->print(out);
  log_line(LogLevel::info, fmt::format("{} ranks: {:.3f} s from start to merged results", world.place().ranks,
                                       run->results["ranks"]["wall_seconds"].get<double>()));
  return run_exit_status(*run, out);
}

} // namespace

int command_run(const Arguments& args) {
  po::options_description options("gsdk run");
  add_common_options(options);
  options.add_options()("config", po::value<std::string>()->required(), "experiment file (TOML)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a config key: section.key=value (repeatable)")("device", po::value<std::string>(),
                                                               "cpu | cuda | all | auto (overrides run.device)")(
      "threads", whole_number<unsigned>(), "CPU worker threads (overrides run.threads; 0: all)")(
      "seed", whole_number<uint64_t>(), "random seed (overrides seed)")(
      "out", po::value<std::string>(), "results file (default: output.file, else results/<name>.json)")(
      "plot", po::value<std::string>(),
      "write a PNG: the score histogram against the exact distribution, the learned policy (qlearning), or the best "
      "score against time (nmcs, nrpa)")(
      "checkpoint", po::value<std::string>(),
      "save completed work to FILE while running and when stopped; run again with the same FILE to resume "
      "(every algorithm)")("checkpoint-every", po::value<double>()->default_value(60),
                           "seconds between checkpoint saves")(
      "shard", po::value<std::string>(),
      "K/N: run only the K-th of N parts and write its partial results (default results/<name>.shard-K-of-N.json); "
      "`gsdk merge` makes the results of the N")(
      "progress-every", po::value<double>()->default_value(ProgressSettings::kLineSeconds),
      "seconds between progress lines when stderr is not a terminal (on a terminal: one redrawn bar)")(
      "quiet,q", "no progress (bar or lines)");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  const std::string usage = "gsdk run CONFIG.toml [--set key=value]... [--device cpu|cuda|all|auto] [--threads N] "
                            "[--seed N] [--out FILE] [--plot FILE.png] [--checkpoint FILE [--checkpoint-every S]] "
                            "[--shard K/N] [--quiet | --progress-every S]";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  const double checkpoint_seconds = vm["checkpoint-every"].as<double>();
  if (!(checkpoint_seconds > 0 && checkpoint_seconds <= 1e9)) {
    log_line(LogLevel::error,
             fmt::format("--checkpoint-every must be a number of seconds above 0, got {}", checkpoint_seconds));
    return kExitUsage;
  }
  const double progress_seconds = vm["progress-every"].as<double>();
  if (!(progress_seconds > 0 && progress_seconds <= 1e9)) {
    log_line(LogLevel::error,
             fmt::format("--progress-every must be a number of seconds above 0, got {}", progress_seconds));
    return kExitUsage;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  std::vector<OptionOverride> options_set;
  if (vm.count("device")) {
    const std::string device = vm["device"].as<std::string>();
    options_set.push_back({"run.device=\"" + device + "\"", command_line_origin("--device", device)});
  }
  if (vm.count("threads")) {
    const std::string threads = std::to_string(whole_number_of<unsigned>(vm, "threads"));
    options_set.push_back({"run.threads=" + threads, command_line_origin("--threads", threads)});
  }
  if (vm.count("seed")) {
    const std::string seed = std::to_string(whole_number_of<uint64_t>(vm, "seed"));
    options_set.push_back({"seed=" + seed, command_line_origin("--seed", seed)});
  }

  MpiWorld* world_found = nullptr;
  try {
    world_found = &MpiWorld::get();
  } catch (const MpiWorldError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  MpiWorld& world = *world_found;
  const bool ranked = world.distributed();
  const bool root = world.place().rank == 0;

  ExperimentConfig config;
  std::optional<ShardPlace> shard;
  try {
    if (vm.count("shard")) shard = parse_shard(vm["shard"].as<std::string>());
    config = load_experiment(vm["config"].as<std::string>(), overrides, options_set);
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  // As in [output]: an empty path asks for no picture and is never refused (experiment_config.cpp).
  if (const std::string& no_plot = driver_of(config).info().no_plot;
      vm.count("plot") && !vm["plot"].as<std::string>().empty() && !no_plot.empty()) {
    log_line(LogLevel::error,
             fmt::format("--plot does not apply to algorithm = \"{}\": {}", driver_of(config).info().name, no_plot));
    return kExitUsage;
  }
  const std::string plot = vm.count("plot") ? vm["plot"].as<std::string>() : config.plot_file;
  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                          : shard
                              ? fmt::format("results/{}.shard-{}-of-{}.json", config.name, shard->index, shard->count)
                          : !config.output_file.empty() ? config.output_file
                                                        : "results/" + config.name + ".json";
  const std::string checkpoint = vm.count("checkpoint") ? vm["checkpoint"].as<std::string>() : "";
  if (ranked && shard) {
    log_line(LogLevel::error, "--shard: a run under mpirun is spread over its ranks already; give --shard to runs "
                              "started one by one (a job array), not under mpirun");
    return kExitUsage;
  }
  try {
    // Rank 0 alone writes the results, the events, the picture and the checkpoint.
    if (root) check_run_files(config, out, plot, checkpoint);
  } catch (const OutputError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const PluginCatalog catalog = load_catalog(vm, root);
  RunOptions run_options;
  run_options.progress = {.shown = !vm.count("quiet"), .line_seconds = progress_seconds};
  run_options.plot = plot;
  run_options.stop = &install_stop_signals();
  run_options.checkpoint = checkpoint;
  run_options.checkpoint_seconds = checkpoint_seconds;
  core::WorkPart part;
  if (shard) {
    part = core::shard_part(kWorkBlocks, shard->index, shard->count);
    run_options.part = &part;
    run_options.identity_extra = {{"shard", {{"index", shard->index}, {"count", shard->count}}}};
  }
  if (ranked) return run_ranked(world, config, catalog, run_options, out);
  ExperimentRun run;
  try {
    run = run_experiment(config, catalog, run_options);
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitFailed;
  }

  if (run.interrupted) run.results["interrupted"]["signal"] = signal_name(stop_signal());
  if (shard) {
    if (!write_json_or_print(out, shard_document(*shard, config, run))) return kExitFailed;
    if (run.complete)
      log_line(LogLevel::info, fmt::format("{}: shard {} of {} complete, partial results in {}; `gsdk merge` the {} "
                                           "shard files for the results",
                                           config.name, shard->index, shard->count, out, shard->count));
    return run_exit_status(run, out);
  }
  if (!write_json_or_print(out, run.results)) return kExitFailed;
  run.outcome->print(out);
  return run_exit_status(run, out);
}

} // namespace gsdk::host
