// check.cpp - `gsdk check PLUGIN.so`: the conformance suite as a command. Loads exactly that file, resolves
// --param against the plugin's declared parameters, then runs every check that applies (host/src/conformance/),
// each in a child process with a time limit, printing one line per check and a summary; --json writes the
// same as data. Exit status: 0 when nothing failed, 1 when a check failed, 2 for bad usage or a file that is
// not a usable plugin.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "commands/command_line.hpp"
#include "config/config_error.hpp"
#include "conformance/check_report.hpp"
#include "conformance/isolated_check.hpp"
#include "conformance/plugin_file.hpp"
#include "plugin_loading/game_params.hpp"
#include "report/log.hpp"
#include "report/output_file.hpp"
#include "report/results_file.hpp"

namespace gsdk::host {

namespace {

using namespace conformance;

int usage_error(const std::string& message) {
  log_line(LogLevel::error, message);
  return kExitUsage;
}

void print_checks() {
  size_t width = 0;
  for (const CheckSpec& c : all_checks()) width = std::max(width, std::string(c.name).size());
  for (const CheckSpec& c : all_checks())
    std::printf("%s\n", fmt::format("{:<{}}  {}", c.name, width, c.description).c_str());
}

std::string describe_devices(DeviceFilter filter, const SubjectProbe& probe) {
  if (filter == DeviceFilter::cpu) return "cpu (--device cpu: checks that need a GPU are skipped)";
  std::string gpus;
  for (const core::CudaDeviceInfo& g : probe.gpus)
    gpus += fmt::format("{}cuda device {} ({})", gpus.empty() ? "" : ", ", g.ordinal, g.name);
  if (filter == DeviceFilter::cuda) return gpus + " (--device cuda: only checks that use a GPU)";
  return gpus.empty() ? "cpu (checks that need a GPU are skipped: " + probe.no_gpu_reason + ")" : "cpu, " + gpus;
}

} // namespace

int command_check(const Arguments& args) {
  po::options_description options("gsdk check");
  options.add_options()("help,h", "show this help")("plugin", po::value<std::string>(), "the plugin file (.so)")(
      "param", po::value<std::vector<std::string>>()->composing(), "a game parameter: name=value (repeatable)")(
      "device", po::value<std::string>()->default_value("all"),
      "cpu (skip GPU checks) | cuda (only GPU checks; needs a GPU) | all (GPU checks where a GPU exists)")(
      "json", po::value<std::string>(), "also write the report as a JSON document")(
      "timeout", po::value<std::string>()->default_value("120"), "seconds one check may take before it is killed")(
      "only", po::value<std::string>(), "run only the checks matching these comma-separated patterns (e.g. 'rules.*')")(
      "list", "list every check with what it verifies, and exit");
  add_plugin_trust_option(options);
  po::positional_options_description positional;
  positional.add("plugin", 1);
  po::variables_map vm;
  const std::string usage = "gsdk check PLUGIN.so [--param name=value]... [--device cpu|cuda|all] [--json FILE] "
                            "[--timeout SECONDS] [--only PATTERN] [--allow-unsafe-plugin-dirs] | gsdk check --list";
  if (auto exit = parse_arguments(args, usage, options, positional, vm)) return *exit;
  if (vm.count("list")) {
    print_checks();
    return kExitOk;
  }
  if (!vm.count("plugin")) return usage_error("a plugin file is required\nusage: " + usage);

  const std::string device = vm["device"].as<std::string>();
  const DeviceFilter filter = device == "cpu"    ? DeviceFilter::cpu
                              : device == "cuda" ? DeviceFilter::cuda
                                                 : DeviceFilter::all;
  if (device != "cpu" && device != "cuda" && device != "all")
    return usage_error(fmt::format("--device must be cpu, cuda or all, got '{}'", device));
  const std::string timeout_text = vm["timeout"].as<std::string>();
  double timeout = 0;
  try {
    size_t used = 0;
    timeout = std::stod(timeout_text, &used);
    if (used != timeout_text.size()) timeout = 0;
  } catch (const std::exception&) {
  }
  if (!(timeout > 0) || !std::isfinite(timeout) || timeout > 86400)
    return usage_error(
        fmt::format("--timeout must be a number of seconds above 0 and at most 86400, got '{}'", timeout_text));
  const std::vector<const CheckSpec*> checks = select_checks(vm.count("only") ? vm["only"].as<std::string>() : "");
  if (checks.empty()) {
    std::string names;
    for (const CheckSpec& c : all_checks()) names += (names.empty() ? "" : ", ") + std::string(c.name);
    return usage_error(
        fmt::format("--only '{}' matches no check; the checks are: {}", vm["only"].as<std::string>(), names));
  }

  const std::filesystem::path file = vm["plugin"].as<std::string>();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return usage_error(fmt::format("{}: no such file", file.string()));
  if (std::filesystem::is_directory(file, ec))
    return usage_error(fmt::format("{} is a directory: gsdk check takes one plugin file (a .so)", file.string()));
  // Absolute: the dynamic loader would look for a bare file name in the library search path, not here.
  const std::filesystem::path absolute = std::filesystem::absolute(file);
  const PermissionCheck permissions = plugin_permission_check(vm);
  if (const auto why = loading_kills(absolute, timeout, permissions))
    return usage_error(fmt::format("{}: {}", file.string(), *why));
  PluginCatalog catalog(permissions);
  const LoadedPlugin* plugin = catalog.load_file(absolute);
  if (!plugin) return usage_error(fmt::format("{}: {}", file.string(), catalog.problems().front().message));

  const std::vector<std::string> assignments =
      vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{};
  ResolvedParams params;
  try {
    params = resolve_params(*plugin->tables.game, params_from_assignments(assignments));
  } catch (const ConfigError& e) {
    return usage_error(e.what());
  }
  const std::string json_path = vm.count("json") ? vm["json"].as<std::string>() : "";
  try {
    if (!json_path.empty()) check_output_path(json_path);
  } catch (const OutputError& e) {
    return usage_error(fmt::format("--json {}", e.what()));
  }

  CheckSubject subject;
  subject.plugin = plugin;
  subject.parameters = params.values;
  subject.devices = filter;
  const SubjectProbe probe = probe_subject(subject, filter != DeviceFilter::cpu, timeout);
  if (!probe.problem.empty()) {
    log_line(LogLevel::error, fmt::format("{}: {}", file.string(), probe.problem));
    return assignments.empty() ? kExitFailed : kExitUsage;
  }
  if (filter == DeviceFilter::cuda && probe.gpus.empty())
    return usage_error("--device cuda: no CUDA device: " + probe.no_gpu_reason);
  subject.gpus = probe.gpus;
  subject.no_gpu_reason = probe.no_gpu_reason;

  const auto start = std::chrono::steady_clock::now();
  CheckReport report(plugin->tables, params.as_json, device, describe_devices(filter, probe), timeout);
  report.print_header(stdout);
  size_t width = 0;
  for (const CheckSpec* c : checks) width = std::max(width, std::string(c->name).size());
  for (const CheckSpec* c : checks) report.add(*c, run_check_in_child(*c, subject, timeout), stdout, width);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.print_summary(stdout, seconds);
  if (!json_path.empty()) {
    try {
      write_json(json_path, report.to_json(seconds));
    } catch (const OutputError& e) {
      log_line(LogLevel::error, fmt::format("--json {}", e.what()));
      return kExitFailed;
    }
  }
  return report.any_failed() ? kExitFailed : kExitOk;
}

} // namespace gsdk::host
