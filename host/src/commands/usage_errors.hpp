// usage_errors.hpp - Boost.Program_options' errors said in gsdk's words: a missing operand named as the usage names
// it, an extra word shown with what the command takes (and the key=value it was probably meant to join), an unknown
// option with the option it was probably meant to be.
#pragma once

#include <string>

#include <boost/program_options.hpp>

#include "commands/commands.hpp"

namespace gsdk::host {

// What the command line was parsed against, for the message.
struct UsageContext {
  const Arguments& args;
  const std::string& usage; // "gsdk run CONFIG.toml [--set key=value]... ": its operands name the positional options
  const boost::program_options::options_description& options;
  const boost::program_options::positional_options_description& positional;
};

// The message for `error`, without the usage line that follows it.
std::string usage_error_text(const boost::program_options::error& error, const UsageContext& context);

} // namespace gsdk::host
