// bench.cpp - `gsdk bench`: the standard suite. Every plugin with playouts, on every device here,
// with its default parameters: a warm-up, then `repeat` timed runs of as many playouts as take `--seconds`
// here (or `--playouts`); medians in a table, a row as each case ends, and a JSON report, also of the cases
// done when a signal stops the suite. Performance targets live here and in bench/, never in unit tests.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "algorithms/playouts/playouts_algorithm.hpp"
#include "algorithms/run_experiment.hpp"
#include "commands/bench_sizing.hpp"
#include "commands/command_line.hpp"
#include "commands/whole_number_option.hpp"
#include "devices/device_selection.hpp"
#include "gsdk/core/playouts/playouts.hpp"
#include "gsdk/core/runtime/game_instance.hpp"
#include "plugin_loading/game_params.hpp"
#include "report/hardware.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/progress_bar.hpp"
#include "report/results_file.hpp"
#include "signals/stop_signals.hpp"

namespace gsdk::host {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

constexpr double kDefaultSeconds = 2;
constexpr unsigned kDefaultRepeat = 3;
constexpr uint64_t kWarmUpPlayouts = 1000; // enough to create a CUDA context and load the plugin's kernels

} // namespace

int command_bench(const Arguments& args) {
  po::options_description options("gsdk bench");
  add_common_options(options);
  options.add_options()("device", po::value<std::string>()->default_value("all"),
                        "cpu | cuda | all (every device here)")("game", po::value<std::string>(), "only this game")(
      "playouts", whole_number<uint64_t>(), "playouts per timed run (default: as many as take --seconds here)")(
      "seconds", po::value<double>()->default_value(kDefaultSeconds, "2"),
      "time target of a timed run when --playouts is not given")("repeat", whole_number<unsigned>(kDefaultRepeat),
                                                                 "timed runs per case (the median is reported)")(
      "threads", whole_number<unsigned>(0), "CPU threads (0: all)")("seed", whole_number<uint64_t>(1), "seed")(
      "out", po::value<std::string>()->default_value("bench-results.json"), "JSON report");
  po::variables_map vm;
  if (auto exit = parse_arguments(
          args, "gsdk bench [--device cpu|cuda|all] [--game NAME] [--playouts N | --seconds S] [--repeat N]", options,
          {}, vm))
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
  const double seconds = vm["seconds"].as<double>();
  if (!(seconds > 0 && seconds <= 86400)) {
    log_line(LogLevel::error, fmt::format("--seconds must be above 0 and at most 86400, got {}", seconds));
    return kExitUsage;
  }
  try {
    check_output_path(vm["out"].as<std::string>());
  } catch (const OutputError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  try {
    if (device == "cuda") require_usable_cuda("--device cuda", kCpuForDeviceOption);
  } catch (const ConfigError& e) {
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

  nlohmann::json report = {
      {"gsdk", GSDK_VERSION}, {"hardware", describe_hardware()}, {"cases", nlohmann::json::array()}};
  std::printf("%-12s %-6s %-26s %14s %12s %12s %12s  %s\n", "game", "device", "engine", "playouts", "wall ms",
              "kernel ms", "playouts/s", "digest");
  std::fflush(stdout);
  const core::StopRequest& stop = install_stop_signals();
  bool failed = false;
  for (const auto& plugin : catalog.plugins()) {
    const auto& tables = plugin->tables;
    if (vm.count("game") && tables.name() != vm["game"].as<std::string>()) continue;
    const ResolvedParams params = resolve_params(*tables.game, toml::table{});
    core::GameInstance game(tables, params.values);
    const bool batch = tables.cpu_playouts != nullptr;
    std::vector<std::string> devices;
    if (device != "cuda") devices.push_back("cpu");
    if (device != "cpu" && tables.cuda_playouts) devices.push_back("cuda");
    for (const auto& case_device : devices) {
      if (stop.requested()) break;
      RunSettings settings;
      settings.device = *parse_device(case_device);
      settings.threads = whole_number_of<unsigned>(vm, "threads");
      settings.streams = 1;
      DeviceChoice choice;
      try {
        choice = choose_devices(settings, tables, playouts_device_needs(tables, false), kCpuForDeviceOption);
      } catch (const std::exception& e) {
        if (device == "cuda") {
          log_line(LogLevel::error, e.what());
          return kExitFailed;
        }
        std::printf("%-12s %-6s skipped: %s\n", tables.name().c_str(), case_device.c_str(), e.what());
        std::fflush(stdout);
        continue;
      }
      const std::string label = tables.name() + " " + case_device;
      core::PlayoutJob job;
      job.seed = whole_number_of<uint64_t>(vm, "seed");
      job.cpu_threads = choice.cpu_threads;
      for (const auto& g : choice.gpus) job.cuda_devices.push_back(g.ordinal);
      job.streams_per_device = 1;
      job.simd_level = choice.simd_level;
      job.stop = &stop;
      job.playouts = kWarmUpPlayouts;
      core::run_playouts(game, job); // warm-up: CUDA context, module load, caches
      const TimedPlayouts timed = [&](uint64_t count) -> std::optional<double> {
        job.playouts = count;
        const core::PlayoutOutcome o = core::run_playouts(game, job);
        if (o.stopped) return std::nullopt;
        return o.timings.wall_seconds;
      };
      const std::optional<uint64_t> sized =
          vm.count("playouts") ? whole_number_of<uint64_t>(vm, "playouts") : playouts_for_seconds(timed, seconds);
      if (!sized) break;
      job.playouts = *sized;
      std::vector<double> wall, kernel;
      std::string digest, error;
      ProgressBar bar(label, "playouts", ProgressSettings{});
      for (unsigned i = 0; i < repeat && error.empty(); ++i) {
        const uint64_t done_before = i * job.playouts, total = repeat * job.playouts;
        const core::PlayoutOutcome o =
            core::run_playouts(game, job, [&](uint64_t done, uint64_t) { bar.update(done_before + done, total); });
        if (o.stopped) break; // a cut run measures nothing: the report keeps the whole runs before it
        wall.push_back(o.timings.wall_seconds * 1e3);
        kernel.push_back(o.timings.device_milliseconds);
        error = o.error;
        if (!digest.empty() && digest != o.result.digest()) error = "digest changed between identical runs";
        digest = o.result.digest();
      }
      bar.finish();
      if (wall.empty()) break;
      const double wall_ms = median(wall), kernel_ms = median(kernel);
      const double rate = static_cast<double>(job.playouts) / (wall_ms / 1e3);
      const std::string engine = case_device == "cpu" ? (batch ? "batch " + choice.simd_name : "per-state")
                                                      : "batch " + choice.gpus.front().name;
      std::printf("%-12s %-6s %-26.26s %14llu %12.2f %12.3f %12.4g  %s%s\n", tables.name().c_str(), case_device.c_str(),
                  engine.c_str(), static_cast<unsigned long long>(job.playouts), wall_ms, kernel_ms, rate,
                  digest.c_str(), error.empty() ? "" : ("  FAILED: " + error).c_str());
      std::fflush(stdout);
      failed = failed || !error.empty();
      report["cases"].push_back({{"game", tables.name()},
                                 {"device", case_device},
                                 {"devices", choice.summary},
                                 {"engine", engine},
                                 {"playouts", job.playouts},
                                 {"playouts_from", vm.count("playouts") ? "--playouts" : "--seconds"},
                                 {"repeat", wall.size()},
                                 {"wall_ms_median", wall_ms},
                                 {"wall_ms", wall},
                                 {"kernel_ms_median", kernel_ms},
                                 {"kernel_ms", kernel},
                                 {"playouts_per_second", rate},
                                 {"digest", digest},
                                 {"error", error}});
    }
    if (stop.requested()) break;
  }
  if (stop.requested())
    report["interrupted"] = {{"signal", signal_name(stop_signal())}, {"cases_completed", report["cases"].size()}};
  if (!write_json_or_print(vm["out"].as<std::string>(), report)) return kExitFailed;
  std::printf("report: %s\n", vm["out"].as<std::string>().c_str());
  if (stop.requested()) {
    log_line(LogLevel::warning, fmt::format("interrupted by {}: the report holds the {} case(s) measured",
                                            signal_name(stop_signal()), report["cases"].size()));
    return interrupted_exit_status(stop_signal());
  }
  return failed ? kExitFailed : kExitOk;
}

} // namespace gsdk::host
