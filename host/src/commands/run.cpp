// run.cpp - `gsdk run CONFIG.toml`: run an experiment (playouts or perft), print a summary, write the
// results file.
#include <cstdio>

#include <fmt/format.h>

#include "../command_line.hpp"
#include "../experiment_runner.hpp"
#include "../histogram_plot.hpp"
#include "../improvement_plot.hpp"
#include "../log.hpp"
#include "../match_report.hpp"
#include "../perft_report.hpp"
#include "../results_file.hpp"

namespace gsdk::host {

namespace {

void print_summary(const ExperimentRun& run, const std::string& out_path) {
  const auto& r = run.results;
  const auto& res = r["result"];
  std::printf("%s: %s playouts of %s on %s (seed %s, %s engine)\n", r["experiment"]["name"].get<std::string>().c_str(),
              fmt::format("{}", res["playouts"].get<uint64_t>()).c_str(), r["game"]["name"].get<std::string>().c_str(),
              r["devices"].get<std::string>().c_str(), r["seed"].dump().c_str(), r["engine"].get<std::string>().c_str());
  if (res["playouts"].get<uint64_t>() > 0) {
    std::printf("  best score   %lld  (playout %llu; 'gsdk replay %s' shows it)\n",
                static_cast<long long>(res["best"]["score"].get<int64_t>()),
                static_cast<unsigned long long>(res["best"]["playout"].get<uint64_t>()), out_path.c_str());
    std::printf("  worst score  %lld  (playout %llu)\n", static_cast<long long>(res["worst"]["score"].get<int64_t>()),
                static_cast<unsigned long long>(res["worst"]["playout"].get<uint64_t>()));
    std::printf("  mean %.4f  variance %.4f\n", res["mean"].get<double>(), res["variance"].get<double>());
  }
  if (res.contains("chi_square"))
    std::printf("  chi-square %.2f with %d degrees of freedom against the exact distribution: p = %.4f\n",
                res["chi_square"]["statistic"].get<double>(), res["chi_square"]["degrees_of_freedom"].get<int>(),
                res["chi_square"]["p_value"].get<double>());
  const auto& t = r["timings"];
  std::printf("  time %.3f s wall", t["wall_seconds"].get<double>());
  if (t["device_milliseconds"].get<double>() > 0) std::printf(", %.3f ms in GPU kernels", t["device_milliseconds"].get<double>());
  std::printf(", %.4g playouts/s\n", t["playouts_per_second"].get<double>());
  std::printf("  digest %s\n  results %s\n", r["digest"].get<std::string>().c_str(), out_path.c_str());
}

void print_qlearning_entry(const nlohmann::json& e) {
  const auto& t = e["timings"];
  std::printf("  %u environments x %u agents, %zu episodes (%s engine on %s, %s updates, %s ties, %s table)\n",
              e["environments"].get<uint32_t>(), e["agents"].get<uint32_t>(), e["episodes"].get<size_t>(),
              e["engine"].get<std::string>().c_str(), e["device"].get<std::string>().c_str(),
              e["update"].get<std::string>().c_str(), e["tie_break"].get<std::string>().c_str(),
              e["q_table"].get<std::string>().c_str());
  std::printf("  flag rate: last training episode %.4f, greedy test %.4f over %u episodes\n",
              e["train"]["final_flag_rate"].get<double>(), e["test"]["flag_rate"].get<double>(),
              e["test"]["episodes"].get<uint32_t>());
  if (!e["greedy_reach"]["table0"].is_null()) {
    const auto& r = e["greedy_reach"]["table0"];
    std::printf("  greedy policy reaches the flag from %u of %u free cells that can reach it (%.2f%%)",
                r["reached"].get<uint32_t>(), r["reachable"].get<uint32_t>(), 100 * r["rate"].get<double>());
    if (e["greedy_reach"]["tables"].get<size_t>() > 1)
      std::printf("; over all %zu tables: mean %.2f%%, worst %.2f%%", e["greedy_reach"]["tables"].get<size_t>(),
                  100 * e["greedy_reach"]["mean_rate"].get<double>(), 100 * e["greedy_reach"]["min_rate"].get<double>());
    std::printf("\n");
  }
  std::printf("  time %.3f s wall", t["wall_seconds"].get<double>());
  if (t["device_milliseconds"].get<double>() > 0) std::printf(", %.3f ms in GPU kernels", t["device_milliseconds"].get<double>());
  std::printf(", %s agent-steps: %.4g per second", fmt::format("{}", t["agent_steps"].get<uint64_t>()).c_str(),
              t["agent_steps_per_second"].get<double>());
  if (t["agent_steps_per_kernel_second"].get<double>() > 0)
    std::printf(" (%.4g per kernel second)", t["agent_steps_per_kernel_second"].get<double>());
  std::printf("\n");
}

void print_qlearning_summary(const ExperimentRun& run, const std::string& out_path) {
  const auto& r = run.results;
  std::printf("%s: Q-learning of %s on %s (seed %s)\n", r["experiment"]["name"].get<std::string>().c_str(),
              r["game"]["name"].get<std::string>().c_str(), r["devices"].get<std::string>().c_str(),
              r["seed"].dump().c_str());
  if (r["result"].contains("sweep")) {
    std::printf("  %12s %12s %16s %18s %14s\n", "environments", "wall s", "agent-steps", "agent-steps/s", "kernel ms");
    for (const auto& e : r["result"]["sweep"])
      std::printf("  %12u %12.3f %16llu %18.4g %14.3f\n", e["environments"].get<uint32_t>(),
                  e["timings"]["wall_seconds"].get<double>(),
                  static_cast<unsigned long long>(e["timings"]["agent_steps"].get<uint64_t>()),
                  e["timings"]["agent_steps_per_second"].get<double>(), e["timings"]["device_milliseconds"].get<double>());
  } else {
    print_qlearning_entry(r["result"]);
  }
  if (r.contains("picture")) std::printf("  picture %s\n", r["picture"].get<std::string>().c_str());
  std::printf("  digest %s\n  results %s\n", r["digest"].get<std::string>().c_str(), out_path.c_str());
}

void print_nested_search_summary(const ExperimentRun& run, const std::string& out_path) {
  const auto& r = run.results;
  const auto& res = r["result"];
  const auto& t = r["timings"];
  std::printf("%s: %s of %s on %s (seed %s)\n", r["experiment"]["name"].get<std::string>().c_str(),
              r["algorithm"].get<std::string>() == "nmcs" ? "NMCS" : "NRPA", r["game"]["name"].get<std::string>().c_str(),
              r["devices"].get<std::string>().c_str(), r["seed"].dump().c_str());
  if (!res["best_score"].is_null())
    std::printf("  best score   %lld  (search %u, %zu moves) saved in %s\n",
                static_cast<long long>(res["best_score"].get<int64_t>()), res["best_search"].get<uint32_t>(),
                res["best_moves"].size(), res["best_file"].get<std::string>().c_str());
  std::printf("  searches     %u started, %u finished%s%s\n", res["searches_started"].get<uint32_t>(),
              res["searches_finished"].get<uint32_t>(),
              res["stopped_by_time"].get<bool>() ? " (stopped by the time limit)" : "",
              res.value("starts_skipped", 0u) > 0
                  ? fmt::format("; {} finished starts left out", res["starts_skipped"].get<uint32_t>()).c_str()
                  : "");
  std::printf("  time %.3f s wall, %s playouts: %.4g per second", t["wall_seconds"].get<double>(),
              fmt::format("{}", t["playouts"].get<uint64_t>()).c_str(), t["playouts_per_second"].get<double>());
  if (t["level1_steps"].get<uint64_t>() > 0)
    std::printf("; %s level-1 steps: %.4g per second", fmt::format("{}", t["level1_steps"].get<uint64_t>()).c_str(),
                t["level1_steps_per_second"].get<double>());
  std::printf("; %.3f s of it in the %s\n", t["evaluator_seconds"].get<double>(),
              r["engine"].get<std::string>() == "level-1 searches" ? "level-1 searcher" : "playout evaluator");
  std::printf("  improvements %s\n  digest %s\n  results %s\n", res["events_file"].get<std::string>().c_str(),
              r["digest"].get<std::string>().c_str(), out_path.c_str());
}

// Best score against time, from the improvements in the results.
int plot_nested_search(const ExperimentRun& run, const ExperimentConfig& config, const std::string& plot) {
  std::vector<std::pair<double, long long>> steps;
  for (const auto& i : run.results["result"]["improvements"])
    steps.emplace_back(i["seconds"].get<double>(), i["score"].get<long long>());
  try {
    plot_improvements(plot, fmt::format("{}: {} on {}, seed {}", config.name, config.algorithm, config.game, config.seed),
                      steps, run.results["timings"]["wall_seconds"].get<double>());
  } catch (const std::exception& e) {
    log_line(LogLevel::error, std::string("plot: ") + e.what());
    return kExitFailed;
  }
  std::printf("  plot %s\n", plot.c_str());
  return kExitOk;
}

// The exit status of a run whose results are saved in `out`, saying what went wrong.
int finish(const ExperimentRun& run, const std::string& out) {
  if (!run.complete) {
    log_line(LogLevel::error, "the run did not finish: " + run.error + " (partial results saved in " + out + ")");
    return kExitFailed;
  }
  if (!run.failure.empty()) {
    log_line(LogLevel::error, run.failure + " (results saved in " + out + ")");
    return kExitFailed;
  }
  return kExitOk;
}

} // namespace

int command_run(const Arguments& args) {
  po::options_description options("gsdk run");
  add_common_options(options);
  options.add_options()("config", po::value<std::string>()->required(), "experiment file (TOML)")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a config key: section.key=value (repeatable)")(
      "device", po::value<std::string>(), "cpu | cuda | all | auto (overrides run.device)")(
      "threads", po::value<unsigned>(), "CPU worker threads (overrides run.threads; 0: all)")(
      "seed", po::value<uint64_t>(), "random seed (overrides seed)")(
      "out", po::value<std::string>(), "results file (default: output.file, else results/<name>.json)")(
      "plot", po::value<std::string>(),
      "write a PNG: the score histogram against the exact distribution, the learned policy (qlearning), or the best "
      "score against time (nmcs, nrpa)")(
      "quiet,q", "no progress bar");
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  const std::string usage = "gsdk run CONFIG.toml [--set key=value]... [--device cpu|cuda|all|auto] [--threads N] "
                            "[--seed N] [--out FILE] [--plot FILE.png]";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;

  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("device")) overrides.push_back("run.device=\"" + vm["device"].as<std::string>() + "\"");
  if (vm.count("threads")) overrides.push_back("run.threads=" + std::to_string(vm["threads"].as<unsigned>()));
  if (vm.count("seed")) overrides.push_back("seed=" + std::to_string(vm["seed"].as<uint64_t>()));

  ExperimentConfig config;
  try {
    config = load_experiment(vm["config"].as<std::string>(), overrides);
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  }
  const PluginCatalog catalog = load_catalog(vm, true);
  const std::string plot = vm.count("plot") ? vm["plot"].as<std::string>() : config.plot_file;
  ExperimentRun run;
  try {
    run = run_experiment(config, catalog,
                         RunOptions{!vm.count("quiet"), config.algorithm == "qlearning" ? plot : std::string()});
  } catch (const ConfigError& e) {
    log_line(LogLevel::error, e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitFailed;
  }

  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                          : !config.output_file.empty() ? config.output_file
                                                        : "results/" + config.name + ".json";
  write_json(out, run.results);
  if (config.algorithm == "perft") {
    print_perft_table(run.results, out);
    return finish(run, out);
  }
  if (config.algorithm == "qlearning") {
    print_qlearning_summary(run, out);
    return finish(run, out);
  }
  if (config.algorithm == "nmcs" || config.algorithm == "nrpa") {
    print_nested_search_summary(run, out);
    if (!plot.empty() && run.complete && plot_nested_search(run, config, plot) != kExitOk) return kExitFailed;
    return finish(run, out);
  }
  if (config.algorithm == "match") {
    print_match_report(run.results, config.game);
    if (run.results.contains("record")) std::printf("  record %s\n", run.results["record"].get<std::string>().c_str());
    std::printf("  results %s\n", out.c_str());
    return finish(run, out);
  }
  print_summary(run, out);

  if (!plot.empty() && run.results["result"]["playouts"].get<uint64_t>() > 0) {
    std::vector<double> exact;
    if (run.results.contains("exact_distribution")) exact = run.results["exact_distribution"].get<std::vector<double>>();
    try {
      plot_histogram(plot, fmt::format("{}: {} playouts, seed {}", config.game, config.playouts, config.seed),
                     run.results["result"]["histogram"]["score_min"].get<int64_t>(),
                     run.results["result"]["histogram"]["counts"].get<std::vector<uint64_t>>(), exact);
      std::printf("  plot %s\n", plot.c_str());
    } catch (const std::exception& e) {
      log_line(LogLevel::error, std::string("plot: ") + e.what());
      return kExitFailed;
    }
  }
  return finish(run, out);
}

} // namespace gsdk::host
