// main.cpp - the gsdk executable: dispatches to a subcommand, then checks that its report reached stdout.
#include <cerrno>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>

#include "commands/commands.hpp"
#include "report/log.hpp"

namespace {

void print_usage() {
  std::printf(
      "gsdk %s - massively parallel game simulation and search\n\n"
      "usage: gsdk <command> [options]\n\n"
      "commands:\n"
      "  list                      plugins, games, parameters, capabilities, CUDA devices\n"
      "  run CONFIG.toml           run an experiment (--set key=value, --device, --threads, --out, --plot, --shard "
      "K/N)\n"
      "  merge SHARD.json...       the results of a run's N shards (`run --shard K/N`), as one process gives them\n"
      "  bench                     the standard benchmark over every plugin and device\n"
      "  replay RESULTS.json       show a stored playout move by move (default: the best one)\n"
      "  perft GAME POSITION DEPTH count the leaves of the move tree (--divide: per root move)\n"
      "  match GAME                two agents play games, colours alternating (--agent0, --agent1, --games)\n"
      "  gtp GAME                  a Go Text Protocol engine on stdin/stdout (--agent)\n"
      "  check PLUGIN.so           run the conformance suite on a plugin file (--param, --device, --json, --only)\n"
      "  new-plugin NAME           a new plugin's source folder from a template (--template two-player|chance)\n"
      "  version                   print the version (also -V, --version; --json)\n\n"
      "Run 'gsdk <command> --help' or 'gsdk help <command>' for a command's options.\n",
      GSDK_VERSION);
}

// A report that did not reach stdout (a full disk, a closed file) is a failure, not a success that said nothing.
int with_stdout_checked(int status) {
  using namespace gsdk::host;
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return status;
  log_line(LogLevel::error, "cannot write the report to standard output" +
                                (error != 0 ? ": " + std::generic_category().message(error) : std::string()));
  return status == kExitOk ? kExitFailed : status;
}

// The subcommand named `command` run with `args`, or nothing when no subcommand has that name.
std::optional<int> run_named(const std::string& command, const gsdk::host::Arguments& args) {
  using namespace gsdk::host;
  if (command == "list") return command_list(args);
  if (command == "run") return command_run(args);
  if (command == "merge") return command_merge(args);
  if (command == "bench") return command_bench(args);
  if (command == "replay") return command_replay(args);
  if (command == "perft") return command_perft(args);
  if (command == "match") return command_match(args);
  if (command == "gtp") return command_gtp(args);
  if (command == "check") return command_check(args);
  if (command == "new-plugin") return command_new_plugin(args);
  if (command == "version" || command == "--version" || command == "-V") return command_version(args);
  return std::nullopt;
}

int run_command(int argc, char** argv) {
  using namespace gsdk::host;
  if (argc < 2) {
    print_usage();
    return kExitUsage;
  }
  std::string command = argv[1];
  Arguments args(argv + 2, argv + argc);
  if (command == "help" || command == "--help" || command == "-h") {
    if (args.empty()) {
      print_usage();
      return kExitOk;
    }
    // `gsdk help CMD` is `gsdk CMD --help`, as git and cargo read it.
    command = args.front();
    args = {"--help"};
  }
  try {
    if (const std::optional<int> status = run_named(command, args)) return *status;
    log_line(LogLevel::error,
             "unknown command '" + command +
                 "'; expected one of: list, run, merge, bench, replay, perft, match, gtp, check, new-plugin, version");
    return kExitUsage;
  } catch (const std::exception& e) {
    log_line(LogLevel::error, e.what());
    return kExitFailed;
  }
}

} // namespace

int main(int argc, char** argv) {
  return with_stdout_checked(run_command(argc, argv));
}
