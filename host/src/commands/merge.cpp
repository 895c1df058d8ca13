// merge.cpp - `gsdk merge SHARD.json... [--out FILE]`: the partial results files of the N shards of one run
// (`gsdk run CONFIG --shard K/N`) checked and merged into the results file, and the digest, one process gives.
#include <algorithm>

#include <fmt/format.h>

#include "algorithms/registry.hpp"
#include "checkpoint/checkpoint_file.hpp"
#include "commands/command_line.hpp"
#include "commands/run_outcome.hpp"
#include "distribute/parts_merge.hpp"
#include "distribute/shard_file.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"

namespace gsdk::host {

namespace {

// What each shard ran on and how long it took, for the merged results' "shards" field.
nlohmann::json shard_summaries(const std::vector<ShardFile>& shards) {
  nlohmann::json summaries = nlohmann::json::array();
  for (const ShardFile& shard : shards) {
    const nlohmann::json& results = shard.document["results"];
    nlohmann::json summary = {{"file", shard.path}, {"index", shard.place.index}};
    for (const char* key : {"hardware", "devices", "engine", "timings"})
      if (results.contains(key)) summary[key] = results[key];
    summaries.push_back(summary);
  }
  return summaries;
}

} // namespace

int command_merge(const Arguments& args) {
  po::options_description options("gsdk merge");
  add_common_options(options);
  options.add_options()("shards", po::value<std::vector<std::string>>()->required(),
                        "the partial results files of `gsdk run CONFIG --shard K/N`, all N of them")(
      "out", po::value<std::string>(),
      "results file (default: the config's output.file, else results/<name>.json)")("quiet,q", "no report");
  po::positional_options_description positional;
  positional.add("shards", -1);
  po::variables_map vm;
  const std::string usage = "gsdk merge SHARD.json... [--out FILE]";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  const std::vector<std::string> paths = vm["shards"].as<std::vector<std::string>>();
  std::vector<ShardFile> shards;
  ExperimentConfig config;
  try {
    shards = read_shard_set(paths);
    const nlohmann::json& experiment = shards.front().document["experiment"];
    config = parse_experiment(experiment["config"].get<std::string>(), experiment["file"].get<std::string>(), {});
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const std::string out = vm.count("out")               ? vm["out"].as<std::string>()
                          : !config.output_file.empty() ? config.output_file
                                                        : "results/" + config.name + ".json";
  try {
    for (const std::string& path : paths) refuse_input_as_output(out, path);
    check_output_path(out);
  } catch (const OutputError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }

  const PluginCatalog catalog = load_catalog(vm, true);
  ExperimentRun run;
  try {
    std::vector<nlohmann::json> progresses;
    for (const ShardFile& shard : shards) progresses.push_back(shard.document["progress"]);
    const nlohmann::json merged = merge_parts_progress(driver_of(config), progresses, paths);
    RunOptions run_options;
    run_options.progress.shown = false;
    std::vector<std::string> devices;
    for (const ShardFile& shard : shards) devices.push_back(shard.document["results"].value("devices", std::string()));
    run_options.parts_account.devices = parts_devices(shards.size(), "shards", devices);
    run_options.plot = config.plot_file;
    run = run_merged(config, catalog, merged, run_options);
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitFailed;
  }
  // The plugin here must be the one the shards ran: the identity holds its file's SHA-1.
  const nlohmann::json& identity = shards.front().document["identity"];
  if (run.identity != identity) {
    log_line(LogLevel::error, fmt::format("the shards ran another plugin or gsdk than this merge would use; what "
                                          "differs:{}",
                                          identity_differences(identity, run.identity, "shards", "here")));
    return kExitUsage;
  }
  run.results["shards"] = shard_summaries(shards);
  if (!write_json_or_print(out, run.results)) return kExitFailed;
  if (!vm.count("quiet")) {
    run.outcome->print(out);
    // The report's times are the merge's own: the shards' are these.
    double longest = 0, total = 0;
    for (const ShardFile& shard : shards) {
      const double wall = shard.document["results"].value(nlohmann::json::json_pointer("/timings/wall_seconds"), 0.0);
      longest = std::max(longest, wall);
      total += wall;
    }
    log_line(LogLevel::info,
             fmt::format("{} shards: the longest ran {:.3f} s, all together {:.3f} s", shards.size(), longest, total));
  }
  return run_exit_status(run, out);
}

} // namespace gsdk::host
