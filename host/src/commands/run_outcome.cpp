// run_outcome.cpp - ending a run's command (run_outcome.hpp).
#include "commands/run_outcome.hpp"

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "distribute/ranked_run.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "signals/stop_signals.hpp"

namespace gsdk::host {

int run_exit_status(const ExperimentRun& run, const std::string& out) {
  if (run.interrupted) {
    const int signal = stop_signal();
    const std::string resume = run.results.contains("checkpoint")
                                   ? fmt::format("; run the same command again to resume from {}",
                                                 run.results["checkpoint"]["file"].get<std::string>())
                                   : "";
    log_line(LogLevel::error, fmt::format("interrupted by {}: partial results ({}) saved in {}{}", signal_name(signal),
                                          run.results["interrupted"]["completed"].dump(), output_name(out), resume));
    return interrupted_exit_status(signal);
  }
  if (!run.complete) {
    log_line(LogLevel::error,
             "the run did not finish: " + run.error + " (partial results saved in " + output_name(out) + ")");
    return kExitFailed;
  }
  if (!run.failure.empty()) {
    log_line(LogLevel::error, run.failure + " (results saved in " + output_name(out) + ")");
    return kExitFailed;
  }
  return kExitOk;
}

std::optional<ExperimentRun> run_as_rank_or_say(const ExperimentConfig& config, const PluginCatalog& catalog,
                                                const RunOptions& options, MpiWorld& world, int& exit_status) {
  const RankPlace& place = world.place();
  const std::string rank = fmt::format("rank {} of {} ({}): ", place.rank, place.ranks, place.host);
  exit_status = kExitOk;
  try {
    std::optional<ExperimentRun> run = run_as_rank(config, catalog, options, world);
    if (run && run->interrupted) run->results["interrupted"]["signal"] = signal_name(stop_signal());
    return run;
  } catch (const RankRefusal& e) {
    if (place.rank == 0) log_line(LogLevel::error, e.what());
    exit_status = kExitUsage;
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, rank + e.what());
    exit_status = kExitUsage;
  } catch (const std::exception& e) {
    log_line(LogLevel::error, rank + e.what());
    exit_status = kExitFailed;
  }
  return std::nullopt;
}

} // namespace gsdk::host
