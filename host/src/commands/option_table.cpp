// option_table.cpp - reads a command's option table by running it with a recorder that parse_arguments fills.
#include "commands/option_table.hpp"

#include <stdexcept>

namespace gsdk::host {

namespace {

thread_local OptionTableRecorder* active_recorder = nullptr;

} // namespace

OptionTableRecorder::OptionTableRecorder() : outer_(active_recorder) {
  active_recorder = this;
}

OptionTableRecorder::~OptionTableRecorder() {
  active_recorder = outer_;
}

OptionTableRecorder* OptionTableRecorder::active() {
  return active_recorder;
}

OptionTable option_table_of(const CommandEntry& command) {
  OptionTableRecorder recorder;
  command.run({});
  if (recorder.table().usage.empty())
    throw std::logic_error(std::string("command '") + command.name + "' declared no options through parse_arguments");
  return recorder.table();
}

} // namespace gsdk::host
