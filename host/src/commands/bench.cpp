// bench.cpp - `gsdk bench`: the standard suite. Every plugin with playouts, on every device here,
// with its default parameters: a warm-up, then `repeat` timed runs; medians in a table and a JSON
// report. Performance targets live here and in bench/, never in unit tests.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/playouts/playouts_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "commands/command_line.hpp"
#include "commands/whole_number_option.hpp"
#include "devices/device_selection.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugins/game_params.hpp"
#include "report/hardware.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"

namespace gsdk::host {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct BenchCase {
  std::string device; // "cpu" or "cuda"
  uint64_t playouts;
};

} // namespace

int command_bench(const Arguments& args) {
  po::options_description options("gsdk bench");
  add_common_options(options);
  options.add_options()("device", po::value<std::string>()->default_value("all"), "cpu | cuda | all (every device here)")(
      "game", po::value<std::string>(), "only this game")(
      "playouts", whole_number<uint64_t>(), "playouts per timed run (default 1e9 batch, 1e5 per-state)")(
      "repeat", whole_number<unsigned>(5), "timed runs per case (the median is reported)")(
      "threads", whole_number<unsigned>(0), "CPU threads (0: all)")(
      "seed", whole_number<uint64_t>(1), "seed")(
      "out", po::value<std::string>()->default_value("bench-results.json"), "JSON report");
  po::variables_map vm;
  if (auto exit = parse_arguments(args, "gsdk bench [--device cpu|cuda|all] [--game NAME] [--playouts N] [--repeat N]",
                                  options, {}, vm))
    return *exit;
  const std::string device = vm["device"].as<std::string>();
  if (device != "cpu" && device != "cuda" && device != "all") {
    log_line(LogLevel::error, "--device must be cpu, cuda or all, got '" + device + "'");
    return kExitUsage;
  }
  const unsigned repeat = whole_number_of<unsigned>(vm, "repeat");
  if (repeat == 0 || (vm.count("playouts") && whole_number_of<uint64_t>(vm, "playouts") == 0)) {
    log_line(LogLevel::error, fmt::format("--{} must be at least 1, got 0", repeat == 0 ? "repeat" : "playouts"));
    return kExitUsage;
  }
  try {
    check_output_path(vm["out"].as<std::string>());
  } catch (const OutputError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const PluginCatalog catalog = load_catalog(vm, true);
  if (vm.count("game")) {
    try {
      require_plugin(catalog, vm["game"].as<std::string>(), "--game: ");
    } catch (const ConfigError& e) {
      log_line(LogLevel::error, e.what());
      return kExitUsage;
    }
  }

  nlohmann::json report = {{"gsdk", GSDK_VERSION}, {"hardware", describe_hardware()}, {"cases", nlohmann::json::array()}};
  std::printf("%-12s %-6s %-26s %14s %12s %12s %12s  %s\n", "game", "device", "engine", "playouts", "wall ms", "kernel ms",
              "playouts/s", "digest");
  bool failed = false;
  for (const auto& plugin : catalog.plugins()) {
    const auto& tables = plugin->tables;
    if (vm.count("game") && tables.name() != vm["game"].as<std::string>()) continue;
    const ResolvedParams params = resolve_params(*tables.game, toml::table{});
    core::GameInstance game(tables, params.values);
    const bool batch = tables.cpu_playouts != nullptr;
    const uint64_t default_count = vm.count("playouts") ? whole_number_of<uint64_t>(vm, "playouts")
                                   : batch              ? 1'000'000'000ull
                                                        : 100'000ull;
    std::vector<BenchCase> cases;
    if (device != "cuda") cases.push_back({"cpu", default_count});
    if (device != "cpu" && tables.cuda_playouts) cases.push_back({"cuda", default_count});
    for (const auto& c : cases) {
      RunSettings settings;
      settings.device = c.device;
      settings.threads = whole_number_of<unsigned>(vm, "threads");
      settings.streams = 1;
      DeviceChoice choice;
      try {
        choice = choose_devices(settings, tables, playouts_device_needs(tables, false));
      } catch (const std::exception& e) {
        if (device == "cuda") {
          log_line(LogLevel::error, e.what());
          return kExitFailed;
        }
        std::printf("%-12s %-6s skipped: %s\n", tables.name().c_str(), c.device.c_str(), e.what());
        continue;
      }
      core::PlayoutJob job;
      job.seed = whole_number_of<uint64_t>(vm, "seed");
      job.cpu_threads = choice.cpu_threads;
      for (const auto& g : choice.gpus) job.cuda_devices.push_back(g.ordinal);
      job.streams_per_device = 1;
      job.simd_level = choice.simd_level;
      job.playouts = std::min<uint64_t>(c.playouts, 1'000'000);
      core::run_playouts(game, job); // warm-up: CUDA context, module load, caches
      job.playouts = c.playouts;
      std::vector<double> wall, kernel;
      std::string digest, error;
      for (unsigned i = 0; i < repeat && error.empty(); ++i) {
        const core::PlayoutOutcome o = core::run_playouts(game, job);
        wall.push_back(o.timings.wall_seconds * 1e3);
        kernel.push_back(o.timings.device_milliseconds);
        error = o.error;
        if (!digest.empty() && digest != o.result.digest()) error = "digest changed between identical runs";
        digest = o.result.digest();
      }
      const double wall_ms = median(wall), kernel_ms = median(kernel);
      const double rate = c.playouts / (wall_ms / 1e3);
      const std::string engine = c.device == "cpu" ? (batch ? "batch " + choice.simd_name : "per-state") : "batch " + choice.gpus.front().name;
      std::printf("%-12s %-6s %-26.26s %14llu %12.2f %12.3f %12.4g  %s%s\n", tables.name().c_str(), c.device.c_str(),
                  engine.c_str(), static_cast<unsigned long long>(c.playouts), wall_ms, kernel_ms, rate, digest.c_str(),
                  error.empty() ? "" : ("  FAILED: " + error).c_str());
      failed = failed || !error.empty();
      report["cases"].push_back({{"game", tables.name()},
                                 {"device", c.device},
                                 {"devices", choice.summary},
                                 {"engine", engine},
                                 {"playouts", c.playouts},
                                 {"repeat", repeat},
                                 {"wall_ms_median", wall_ms},
                                 {"wall_ms", wall},
                                 {"kernel_ms_median", kernel_ms},
                                 {"kernel_ms", kernel},
                                 {"playouts_per_second", rate},
                                 {"digest", digest},
                                 {"error", error}});
    }
  }
  if (!write_json_or_print(vm["out"].as<std::string>(), report)) return kExitFailed;
  std::printf("report: %s\n", vm["out"].as<std::string>().c_str());
  return failed ? kExitFailed : kExitOk;
}

} // namespace gsdk::host
