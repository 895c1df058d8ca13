// option_values.hpp - the values an option takes, as shell completion offers them, each read from what gsdk itself
// accepts: the templates in the templates' folder, the conformance suite's checks, the agents' kinds, the games of
// the plugins found now, and otherwise the choices the command's usage shows ("--device cpu|cuda|all").
#pragma once

#include <string>
#include <vector>

#include "commands/command_table.hpp"

namespace gsdk::host {

// The values of `option` ("--device") of `command`; none when it takes a file or a free value.
std::vector<std::string> option_values(const CommandEntry& command, const std::string& option);

} // namespace gsdk::host
