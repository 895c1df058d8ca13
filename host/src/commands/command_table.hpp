// command_table.hpp - the gsdk subcommands as one table: name, operands, one-line summary and the function that
// runs it. The usage text, the dispatch, the shell completion and the man page are all read from it, so a command
// added here appears everywhere at once.
#pragma once

#include <span>
#include <string>

#include "commands/commands.hpp"

namespace gsdk::host {

struct CommandEntry {
  const char* name;
  const char* operands; // as the usage shows them: "CONFIG.toml", "GAME POSITION DEPTH", "" for none
  const char* summary;  // one line
  int (*run)(const Arguments& args);
  // Whether a signal (SIGINT, SIGTERM, SIGHUP) stops the command's work and keeps what it completed: main installs
  // the handlers before anything else for such a command, so that even a signal in its first milliseconds ends it
  // as `interrupted`. Other commands keep the signals' default action (gsdk gtp and gsdk list end at once).
  bool keeps_work_on_signal = false;
};

// Every command, in the order the usage lists them.
std::span<const CommandEntry> command_table();

// The command called `name` (or one of version's aliases -V, --version), or null.
const CommandEntry* find_command(const std::string& name);

// "list, run, ..., version": the names, for a message that lists what is expected.
std::string command_names();

} // namespace gsdk::host
