// option_table.hpp - a command's options as its own parse_arguments call declares them, for the shell completion
// and the man page: they read the very tables the commands parse with, so neither can drift from --help.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "commands/command_table.hpp"

namespace gsdk::host {

struct OptionRow {
  std::string long_name;  // "--out"
  std::string short_name; // "-q", or empty
  bool takes_value = false;
  std::string parameter; // as --help shows it: "arg", "arg (=60)"; empty for a flag
  std::string description;
};

struct OptionTable {
  std::string usage; // the text after "usage: " in --help
  std::vector<OptionRow> options;
};

// While one is alive on this thread, parse_arguments hands it the command's usage and options and returns 0
// without parsing (command_line.hpp): running a command with it alive reads the command's table and does nothing
// else, since every command declares its options before anything else.
class OptionTableRecorder {
public:
  OptionTableRecorder();
  ~OptionTableRecorder();
  OptionTableRecorder(const OptionTableRecorder&) = delete;
  OptionTableRecorder& operator=(const OptionTableRecorder&) = delete;

  // The recorder alive on this thread, or null.
  static OptionTableRecorder* active();
  void record(OptionTable table) { table_ = std::move(table); }
  const OptionTable& table() const { return table_; }

private:
  OptionTableRecorder* outer_;
  OptionTable table_;
};

// The option table of `command`.
OptionTable option_table_of(const CommandEntry& command);

} // namespace gsdk::host
