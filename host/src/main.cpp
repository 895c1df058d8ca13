// main.cpp - the gsdk executable: dispatches to a subcommand, then checks that its report reached stdout.
#include <cerrno>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "commands/command_table.hpp"
#include "commands/commands.hpp"
#include "commands/man_page.hpp"
#include "report/input_file.hpp"
#include "report/log.hpp"
#include "report/near_miss.hpp"
#include "signals/stop_signals.hpp"

namespace {

void print_usage() {
  std::printf(
      "gsdk %s - massively parallel game simulation and search\n\nusage: gsdk <command> [options]\n\ncommands:\n",
      GSDK_VERSION);
  for (const gsdk::host::CommandEntry& c : gsdk::host::command_table()) {
    const std::string name = *c.operands ? std::string(c.name) + " " + c.operands : std::string(c.name);
    std::printf("  %-25s %s\n", name.c_str(), c.summary);
  }
  std::printf("\nRun 'gsdk <command> --help' or 'gsdk help <command>' for a command's options; 'gsdk help --man' "
              "writes the man page.\n");
}

// A report that did not reach stdout (a full disk, a closed file) is a failure, not a success that said nothing.
int with_stdout_checked(int status) {
  using namespace gsdk::host;
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return status;
  log_line(LogLevel::error,
           "cannot write the report to standard output" + (error != 0 ? ": " + system_reason(error) : std::string()));
  return status == kExitOk ? kExitFailed : status;
}

int run_command(int argc, char** argv) {
  using namespace gsdk::host;
  if (argc < 2) {
    print_usage();
    return kExitUsage;
  }
  std::string command = argv[1];
  Arguments args(argv + 2, argv + argc);
  const bool man_page_asked = command == "help" && args == Arguments{"--man"};
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
    if (man_page_asked) {
      std::fputs(man_page().c_str(), stdout);
      return kExitOk;
    }
    if (const CommandEntry* entry = find_command(command)) {
      if (entry->keeps_work_on_signal) install_stop_signals();
      return entry->run(args);
    }
    std::vector<std::string> names;
    for (const CommandEntry& c : command_table()) names.emplace_back(c.name);
    log_line(LogLevel::error, "unknown command '" + command + "'" + did_you_mean(command, names) +
                                  "; expected one of: " + command_names());
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
